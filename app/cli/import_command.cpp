// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_command.h"

#include "cli_args.h"
#include "clickhouse_import.h"
#include "import_summary.h"
#include "no_request.h"
#include "store/request_join.h"
#include "store/store.h"
#include "interrupt_signal.h"
#include "terminal_progress.h"

namespace {

constexpr const char *kImportUsage =
    "Appends trace files (native JSONL or CSV, OTLP/JSON or OTLP/protobuf spans, benchmark outputs;\n"
    "optionally zstd-compressed) to an investigation store, creating it if needed. Prints per file the\n"
    "accepted and rejected records, the first reasons and the time taken.\n";

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
        if (args.option("--db", value)) {
            db = value;
        } else if (args.option("--mapping", value)) {
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
    std::unique_ptr<lx::Store> store = lx::Store::open(db, &why);
    if (!store) {
        err << db << ": " << why << '\n';
        return 2;
    }
    catchInterrupt();
    lx::ImportOptions options;
    options.progress = terminalProgress(err);
    options.spanMapping = mapping;
    const std::vector<lx::FileImport> imports = lx::importFiles(*store, files, options);
    printImportSummary(imports, out, err);
    if (const lx::JoinSummary join = lx::readJoinSummary(*store); join.active)
        out << "joined client and server records: " << join.matched << " matched, " << join.clientOnly << " client only, "
            << join.serverOnly << " server only, " << join.ambiguous << " ambiguous (docs/JOIN.md)\n";
    if (interrupted()) {
        err << "import: cancelled; the files completed before it are kept in " << db << '\n';
        return 130;
    }
    // What the store held before is no input of this import: the files must give a request.
    if (!anyRequestImported(imports)) {
        err << "import: " << noRequestReason({}, {}, imports) << '\n';
        return 2;
    }
    return anyInputFailed(imports) ? 2 : 0;
}
