// SPDX-License-Identifier: GPL-3.0-or-later
#include "open_investigation.h"

#include "import_summary.h"
#include "ingest/importer.h"
#include "store/store_merge.h"
#include "terminal_progress.h"

OpenedInvestigation openInvestigation(const std::vector<std::string> &inputs, const std::string &spanMapping,
                                      const char *command, std::ostream &err)
{
    OpenedInvestigation opened;
    std::vector<std::string> stores;
    std::vector<std::string> traces;
    for (const std::string &input : inputs)
        (lx::isSqliteFile(input) ? stores : traces).push_back(input);

    std::string why;
    if (stores.size() == 1 && traces.empty()) {
        opened.store = lx::Store::open(stores.front(), &why); // a single investigation is read as it is
        if (!opened.store) {
            err << stores.front() << ": " << why << '\n';
            opened.exitStatus = 2;
        }
        return opened;
    }
    opened.store = lx::Store::openTemporary(&why);
    if (!opened.store) {
        err << command << ": " << why << '\n';
        opened.exitStatus = 2;
        return opened;
    }
    for (const std::string &path : stores) {
        if (!lx::mergeStore(*opened.store, path, &why)) {
            err << path << ": " << why << '\n';
            opened.inputFailed = true;
        }
    }
    if (!traces.empty()) {
        catchInterrupt();
        lx::ImportOptions options;
        options.progress = terminalProgress(err);
        options.spanMapping = spanMapping;
        const std::vector<lx::FileImport> imports = lx::importFiles(*opened.store, traces, options);
        printImportSummary(imports, err, err);
        if (interrupted()) {
            err << command << ": cancelled\n";
            opened.store.reset();
            opened.exitStatus = 130;
            return opened;
        }
        opened.inputFailed = opened.inputFailed || anyInputFailed(imports);
    }
    return opened;
}
