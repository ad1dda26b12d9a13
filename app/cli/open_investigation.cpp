// SPDX-License-Identifier: GPL-3.0-or-later
#include "open_investigation.h"

#include "import_summary.h"
#include "ingest/open_inputs.h"
#include "no_request.h"
#include "store/holds_requests.h"
#include "interrupt_signal.h"
#include "terminal_progress.h"

bool OpenedInvestigation::sound(std::ostream &err) const
{
    if (!integrity)
        return true;
    const std::string problem = integrity->wait();
    if (!problem.empty())
        err << storePath << ": " << problem << '\n';
    return problem.empty();
}

OpenedInvestigation openInvestigation(const std::vector<std::string> &inputs, const std::string &spanMapping,
                                      const char *command, std::ostream &err, bool deferIntegrityCheck,
                                      const ThrowAwayStore &throwAway)
{
    OpenedInvestigation opened;
    const lx::OpenPlan plan = lx::planOpenInputs(inputs);
    const bool importing = !plan.imports.empty();
    lx::OpenOptions options;
    options.spanMapping = spanMapping;
    options.detailRows = throwAway.detailRows;
    options.holdRows = throwAway.holdRows;
    options.rewriteColumnChunks = throwAway.rewriteColumnChunks;
    options.onMerge = [&err](const lx::StoreMerge &merge) {
        if (!merge.merged)
            err << merge.path << ": " << merge.error << '\n';
    };
    if (importing) {
        catchInterrupt();
        options.progress = terminalProgress(err);
    }
    lx::OpenedInputs result;
    if (plan.target == lx::OpenPlan::Target::ResumeStore) {
        // A store given alone is only read: it is opened read-only, so that nothing a command does (or a
        // store crafted to make it) can change the file (docs/ARCHITECTURE.md, "Opening a store").
        const auto check = deferIntegrityCheck ? lx::IntegrityCheck::Deferred : lx::IntegrityCheck::Now;
        result.store = lx::Store::openReadOnly(plan.resumePath, &result.error, check);
        if (result.store && deferIntegrityCheck) {
            opened.integrity = std::make_unique<lx::BackgroundIntegrityCheck>(result.store->fileName());
            opened.storePath = plan.resumePath;
        }
    } else {
        result = lx::openInputs(plan, options);
    }
    if (!result.store) {
        // A resumed store is named, a new one is the command's own.
        err << (plan.target == lx::OpenPlan::Target::ResumeStore ? plan.resumePath : std::string(command)) << ": "
            << result.error << '\n';
        opened.exitStatus = 2;
        return opened;
    }
    if (importing) {
        printImportSummary(result.filled.imports, err, err,
                           result.store->isTemporary() ? RejectionsKept::NotKept : RejectionsKept::InTheStore);
        if (interrupted()) {
            err << command << ": cancelled\n";
            opened.exitStatus = 130;
            return opened;
        }
    }
    opened.inputFailed = result.filled.anyInputFailed();
    for (const lx::StoreMerge &merge : result.filled.merges) {
        if (!merge.merged && !merge.alreadyIn)
            opened.unmerged.push_back({ merge.path, "lxdb", 0, 0, "unreadable", merge.error });
    }
    // A store that holds requests is an input that gave some, as is a file with one accepted record.
    if (!anyRequestImported(result.filled.imports) && !lx::holdsRequests(*result.store)) {
        // A damaged store may read as one without requests: its check, running beside, says which.
        if (!opened.sound(err)) {
            opened.exitStatus = 2;
            return opened;
        }
        err << command << ": "
            << noRequestReason(plan.target == lx::OpenPlan::Target::ResumeStore ? plan.resumePath : std::string(),
                               result.filled.merges, result.filled.imports)
            << '\n';
        // Nothing to say of no request: no table of zeros, no file at --out that reads like a report.
        opened.exitStatus = 2;
        return opened;
    }
    opened.store = std::move(result.store);
    return opened;
}
