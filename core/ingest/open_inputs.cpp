// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/open_inputs.h"

#include "ingest/already_imported.h"
#include "store/stamp_scan.h"
#include "store/store.h"
#include "store/store_merge.h"

#include <algorithm>

namespace lx {

OpenPlan planOpenInputs(const std::vector<std::string> &inputs, bool storeOpen, const StoreTest &isStore)
{
    OpenPlan plan;
    for (const std::string &input : inputs)
        ((isStore ? isStore(input) : isSqliteFile(input)) ? plan.merges : plan.imports).push_back(input);
    if (storeOpen) {
        plan.target = OpenPlan::Target::CurrentStore;
    } else if (plan.merges.size() == 1 && plan.imports.empty()) {
        // A single investigation is read as it is: copying it into a new store would only cost time.
        plan.target = OpenPlan::Target::ResumeStore;
        plan.resumePath = plan.merges.front();
        plan.merges.clear();
    }
    return plan;
}

std::unique_ptr<Store> openPlanTarget(const OpenPlan &plan, const OpenOptions &options, std::string *error)
{
    switch (plan.target) {
    case OpenPlan::Target::ResumeStore:
        return Store::open(plan.resumePath, error);
    case OpenPlan::Target::NewStore:
        return options.newStorePath.empty() ? Store::openTemporary(error) : Store::open(options.newStorePath, error);
    case OpenPlan::Target::CurrentStore:
        break;
    }
    *error = "the investigation already open receives these inputs";
    return nullptr;
}

bool FillOutcome::anyInputFailed() const
{
    return std::any_of(merges.begin(), merges.end(), [](const StoreMerge &m) { return !m.merged && !m.alreadyIn; })
        || std::any_of(imports.begin(), imports.end(), [](const FileImport &f) { return f.failed(); });
}

FillOutcome fillStore(Store &store, const OpenPlan &plan, const OpenOptions &options)
{
    FillOutcome outcome;
    for (const std::string &path : plan.merges) {
        StoreMerge merge;
        merge.path = path;
        merge.error = alreadyMerged(path, store.fileName(), outcome.merges);
        merge.alreadyIn = !merge.error.empty();
        merge.merged = !merge.alreadyIn && mergeStore(store, path, &merge.error, &merge.alreadyIn);
        if (options.onMerge)
            options.onMerge(merge);
        outcome.merges.push_back(std::move(merge));
    }
    if (!plan.imports.empty() && isSimulatedInvestigation(store)) {
        // A what-if replay is a prediction: observed requests are never mixed into it.
        for (const std::string &path : plan.imports) {
            FileImport refused;
            refused.path = path;
            refused.outcome = FileImport::Outcome::Unreadable;
            refused.message = "not imported: the investigation is simulated (a what-if replay), and observed requests"
                              " are never mixed into it";
            outcome.imports.push_back(std::move(refused));
        }
        return outcome;
    }
    ImportOptions import;
    import.spanMapping = options.spanMapping;
    import.progress = options.progress;
    import.detailRows = options.detailRows;
    import.holdRows = options.holdRows;
    import.rewriteColumnChunks = options.rewriteColumnChunks;
    import.readAgainSoon = options.readAgainSoon;
    outcome.imports = importFiles(store, plan.imports, import);
    // importFiles() marks the file it stopped in (and those after it) as cancelled.
    outcome.cancelled = std::any_of(outcome.imports.begin(), outcome.imports.end(),
                                    [](const FileImport &f) { return f.outcome == FileImport::Outcome::Cancelled; });
    return outcome;
}

OpenedInputs openInputs(const OpenPlan &plan, const OpenOptions &options)
{
    OpenedInputs opened;
    opened.store = openPlanTarget(plan, options, &opened.error);
    if (opened.store)
        opened.filled = fillStore(*opened.store, plan, options);
    return opened;
}

} // namespace lx
