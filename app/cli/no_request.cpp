// SPDX-License-Identifier: GPL-3.0-or-later
#include "no_request.h"

namespace {

/// What became of one trace file that gave no request.
std::string fileOutcome(const lx::FileImport &in)
{
    if (in.rejected > 0) {
        std::string text = std::to_string(in.rejected) + (in.rejected == 1 ? " record, rejected" : " records, all rejected");
        if (!in.firstRejections.empty())
            text += " (first: " + in.locationUnit + " " + std::to_string(in.firstRejections.front().line) + ": "
                + in.firstRejections.front().reason + ")";
        return text;
    }
    if (in.outcome == lx::FileImport::Outcome::Unreadable)
        return "not imported";
    if (in.outcome == lx::FileImport::Outcome::StoreError) // read, but rolled back: why, not "no record"
        return in.message;
    if (in.failed())
        return "no record before the read stopped";
    return "no records";
}

} // namespace

bool anyRequestImported(const std::vector<lx::FileImport> &imports)
{
    for (const lx::FileImport &in : imports) {
        if (in.accepted > 0 || in.outcome == lx::FileImport::Outcome::AlreadyImported)
            return true;
    }
    return false;
}

std::string noRequestReason(const std::string &resumedStore, const std::vector<lx::StoreMerge> &merges,
                            const std::vector<lx::FileImport> &imports)
{
    std::vector<std::string> parts;
    if (!resumedStore.empty())
        parts.push_back(resumedStore + ": holds no requests");
    for (const lx::StoreMerge &merge : merges)
        parts.push_back(merge.path + (merge.merged ? ": holds no requests" : ": not merged"));
    for (const lx::FileImport &in : imports)
        parts.push_back(in.path + ": " + fileOutcome(in));
    std::string text = "no request could be read from the inputs";
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i ? "; " : ": ") + parts[i];
    return text;
}
