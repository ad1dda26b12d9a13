// SPDX-License-Identifier: GPL-3.0-or-later
#include "no_request.h"

#include "model/duration_format.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <sqlite3.h>

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

namespace {

/// Up to `limit` names of the labels a column of `requests` refers to, "a, b, c, ..." when there are more.
std::string labelNames(const lx::Store &store, const char *column, int limit)
{
    lx::Statement names(store.db(),
                        std::string("SELECT l.text FROM labels l WHERE l.id IN (SELECT ") + column
                            + " FROM requests) ORDER BY l.text LIMIT " + std::to_string(limit + 1));
    std::string out;
    for (int n = 0; names.step() == SQLITE_ROW; ++n) {
        if (n == limit)
            return out + ", ...";
        out += (out.empty() ? "" : ", ")
            + std::string(reinterpret_cast<const char *>(sqlite3_column_text(names.get(), 0)));
    }
    return out;
}

} // namespace

std::string noMatchHint(const lx::Store &store)
{
    lx::Statement span(store.db(),
                       "SELECT count(*), min(start_ns), max(start_ns), max(flags & "
                           + std::to_string(lx::kFlagRelativeTime) + ") FROM requests");
    if (span.step() != SQLITE_ROW || sqlite3_column_int64(span.get(), 0) == 0)
        return {};
    std::string out
        = "the filter keeps none of the " + std::to_string(sqlite3_column_int64(span.get(), 0)) + " requests";
    if (const std::string models = labelNames(store, "model_id", 8); !models.empty())
        out += "; their models: " + models;
    if (const std::string routes = labelNames(store, "route_id", 8); !routes.empty())
        out += "; their routes: " + routes;
    if (sqlite3_column_type(span.get(), 1) != SQLITE_NULL) {
        const bool offsets = sqlite3_column_int64(span.get(), 3) != 0;
        out += "; their starts from " + lx::formatInstant(sqlite3_column_int64(span.get(), 1), offsets, 3) + " to "
            + lx::formatInstant(sqlite3_column_int64(span.get(), 2), offsets, 3);
    }
    return out;
}
