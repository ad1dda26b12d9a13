// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer-cli: the headless face of the analysis core, for scripts and incident reports.

#include "compare_command.h"
#include "console.h"
#include "generate_command.h"
#include "import_command.h"
#include "plot_command.h"
#include "report_command.h"
#include "whatif_command.h"

#include "model/segments.h"

#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

// The segments are listed from the segment table (model/segments.h).
const std::string kUsage =
    "Usage: latency-explorer-cli COMMAND [OPTIONS]\n"
    "\n"
    "Where the time of slow LLM requests went: decomposes each request's end-to-end latency into\n"
    + lx::joinSegmentNames(", ", " and ") + " time.\n"
    "\n"
    "Commands:\n"
    "  import --db OUT.lxdb FILE...     append trace files to an investigation store\n"
    "  import --db OUT.lxdb --from clickhouse://HOST:8123/DB --service NAME --time-range A..B\n"
    "                                   pull spans from a ClickHouse trace store (docs/CLICKHOUSE.md)\n"
    "  report [OPTIONS] FILE_OR_STORE...  the decomposition report (trace files and/or .lxdb stores)\n"
    "  compare [OPTIONS] BASELINE INCIDENT  which segment's change explains an incident (shift-share)\n"
    "  plot --chart NAME --out FILE FILE_OR_STORE...  draw a chart of the desktop app (png, svg, pdf)\n"
    "  generate [OPTIONS] -o FILE       write a simulated trace of a server under rising load\n"
    "  whatif [OPTIONS] STORE_OR_FILE...  replay the trace through a server model fitted from it, with changes\n"
    "\n"
    "Run 'latency-explorer-cli COMMAND --help' for a command's options.\n"
    "Exit status: 0 success (rejected records are reported, not a failure), 1 usage error,\n"
    "2 an input could not be read or was cut off, or no input gave a request, 130 cancelled with Ctrl-C.\n";

int runCommand(std::vector<std::string> args)
{
    if (args.empty()) {
        std::cerr << kUsage;
        return 1;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (command == "--version") {
        std::cout << "latency-explorer-cli " LX_VERSION "\n";
        return 0;
    }
    if (command == "import")
        return runImportCommand(args, std::cout, std::cerr);
    if (command == "report")
        return runReportCommand(args, std::cout, std::cerr);
    if (command == "compare")
        return runCompareCommand(args, std::cout, std::cerr);
    if (command == "plot")
        return runPlotCommand(args, std::cout, std::cerr);
    if (command == "generate")
        return runGenerateCommand(args, std::cout, std::cerr);
    if (command == "whatif")
        return runWhatIfCommand(args, std::cout, std::cerr);
    std::cerr << "latency-explorer-cli: unknown command '" << command << "'\n\n" << kUsage;
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    // An exception that escaped a command would abort without unwinding, leaving a report's temporary
    // store behind in the temporary folder: caught here, the stack unwinds and it is removed.
    try {
        prepareConsole();
        const int status = runCommand(utf8Arguments(argc, argv));
        // A report written to a full disk or a closed pipe is lost, not delivered: a script must not read
        // an exit of 0 (the streams are buffered, so most failures show only at this flush).
        if (!std::cout.flush()) {
            std::cerr << "latency-explorer-cli: cannot write to standard output\n";
            return 2;
        }
        return status;
    } catch (const std::bad_alloc &) {
        std::cerr << "latency-explorer-cli: out of memory\n";
    } catch (const std::exception &e) {
        std::cerr << "latency-explorer-cli: internal error: " << e.what() << '\n';
    }
    return 2;
}
