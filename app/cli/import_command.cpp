// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_command.h"

#include "cli_args.h"
#include "import_summary.h"
#include "store.h"
#include "terminal_progress.h"

namespace {

constexpr const char *kImportUsage =
    "Usage: latency-explorer-cli import --db OUT.lxdb FILE...\n"
    "Appends trace files (native JSONL or CSV, optionally zstd-compressed) to an investigation store,\n"
    "creating it if needed. Prints per file the accepted and rejected records, the first reasons and the\n"
    "time taken.\n";

} // namespace

int runImportCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CliArgs args(arguments);
    std::string db;
    std::vector<std::string> files;
    while (!args.atEnd()) {
        std::string value;
        if (args.flag("--help") || args.flag("-h")) {
            out << kImportUsage;
            return 0;
        }
        if (args.option("--db", value)) {
            db = value;
        } else if (args.positional(value)) {
            files.push_back(value);
        } else {
            err << "import: " << (args.error().empty() ? "unknown option '" + args.current() + "'" : args.error()) << "\n" << kImportUsage;
            return 1;
        }
    }
    if (db.empty() || files.empty()) {
        err << "import: " << (db.empty() ? "--db OUT.lxdb is required" : "no input file") << "\n" << kImportUsage;
        return 1;
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
    const std::vector<lx::FileImport> imports = lx::importFiles(*store, files, options);
    printImportSummary(imports, out, err);
    if (interrupted()) {
        err << "import: cancelled; the files completed before it are kept in " << db << '\n';
        return 130;
    }
    return anyInputFailed(imports) ? 2 : 0;
}
