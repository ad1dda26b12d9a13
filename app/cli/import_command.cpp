// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_command.h"

#include "cli_args.h"
#include "clickhouse_import.h"
#include "import_summary.h"
#include "ingest/open_inputs.h"
#include "interrupt_signal.h"
#include "no_request.h"
#include "store/holds_requests.h"
#include "store/request_join.h"
#include "store/store.h"
#include "terminal_progress.h"

#include <algorithm>

namespace {

constexpr const char *kImportUsage
    = "Appends trace files (native JSONL or CSV, OTLP/JSON or OTLP/protobuf spans, benchmark outputs;\n"
      "optionally zstd-compressed) to an investigation store, creating it if needed, and merges the\n"
      "investigations (.lxdb) given. Prints per file the accepted and rejected records, the first reasons\n"
      "and the time taken. A trace file the store holds already is not imported twice.\n";

} // namespace

int runImportCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    const std::string usage = std::string("Usage: latency-explorer-cli import --db OUT.lxdb [--mapping NAME|FILE] FILE...\n")
                              + kClickHouseImportSynopsis + kImportUsage + kClickHouseImportUsage + kSpanMappingUsage;
    CliArgs args(arguments);
    std::string db;
    std::string mapping;
    std::vector<std::string> files;
    ClickHouseImportArgs pull; // --from and its options: a pull from a ClickHouse trace store
    while (!args.atEnd()) {
        std::string value;
        if (args.flag("--help") || args.flag("-h")) {
            out << usage;
            return 0;
        }
        if (args.single("--db", value)) {
            db = value;
        } else if (args.single("--mapping", value)) {
            mapping = value;
        } else if (std::string why; parseClickHouseOption(args, pull, true, why)) {
            if (!why.empty()) {
                err << "import: " << why << "\n" << usage;
                return 1;
            }
        } else if (args.positional(value)) {
            files.push_back(value);
        } else {
            err << "import: " << (args.error().empty() ? "unknown option '" + args.current() + "'" : args.error()) << "\n" << usage;
            return 1;
        }
    }
    const bool pullOptions = pull.anyWindowOption();
    if (!pull.from.empty() && !files.empty()) {
        err << "import: --from pulls from a trace store: give no files with it\n" << usage;
        return 1;
    }
    if (pull.from.empty() && pullOptions) {
        err << "import: --service, --time-range, --user, --timeout and --max-spans go with --from\n" << usage;
        return 1;
    }
    if (!db.empty() && !pull.from.empty()) {
        pull.db = db;
        pull.mapping = mapping;
        return runClickHouseImport(pull, out, err);
    }
    if (db.empty() || files.empty()) {
        err << "import: " << (db.empty() ? "--db OUT.lxdb is required" : "no input file") << "\n" << usage;
        return 1;
    }
    if (const std::string why = checkSpanMapping(mapping); !why.empty()) {
        err << "import: " << why << '\n';
        return 2;
    }
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openWritable(db, &why);
    if (!store) {
        err << db << ": " << why << '\n';
        return 2;
    }
    catchInterrupt();
    // Investigations among the files are merged into the store, as the desktop adds them to an open one.
    const lx::OpenPlan plan = lx::planOpenInputs(files, true);
    lx::OpenOptions options;
    options.progress = terminalProgress(err);
    options.spanMapping = mapping;
    options.onMerge = [&out, &err](const lx::StoreMerge &merge) {
        if (merge.merged)
            out << merge.path << ": merged (an investigation)\n";
        else
            (merge.alreadyIn ? out : err) << merge.path << ": " << merge.error << '\n';
    };
    const lx::FillOutcome filled = lx::fillStore(*store, plan, options);
    const std::vector<lx::FileImport> &imports = filled.imports;
    printImportSummary(imports, out, err);
    if (const lx::JoinSummary join = lx::readJoinSummary(*store); join.active)
        out << "joined client and server records: " << join.matched << " matched, " << join.clientOnly << " client only, "
            << join.serverOnly << " server only, " << join.ambiguous << " ambiguous (docs/JOIN.md)\n";
    if (interrupted()) {
        err << "import: cancelled; the files completed before it are kept in " << db << '\n';
        return 130;
    }
    // What the store held before is no input of this import: the files must give a request, or a store
    // merged (or in it already) its own, and the investigation must hold some.
    const bool anyStore = std::any_of(filled.merges.begin(), filled.merges.end(),
                                      [](const lx::StoreMerge &m) { return m.merged || m.alreadyIn; });
    if ((!anyRequestImported(imports) && !anyStore) || !lx::holdsRequests(*store)) {
        err << "import: " << noRequestReason({}, filled.merges, imports) << '\n';
        return 2;
    }
    return filled.anyInputFailed() ? 2 : 0;
}
