// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_lookup.h"

#include "store/packed_stamps.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <cstring>

namespace lx {

namespace {

std::string textOf(sqlite3_stmt *stmt, int column) { return std::string(columnText(stmt, column)); }

} // namespace

bool loadRequestDetail(const Store &store, std::int64_t rowId, RequestDetail &out)
{
    static const std::string select =
        "SELECT d.source_id, i.path, d.source_line, r.status, m.text, rt.text, r.input_tokens, r.output_tokens,"
        " d.stamps, "
        + segmentColumnList("r.")
        + ", r.e2e_ns, r.e2e_scope, r.ttft_ns, r.tpot_ns, r.ttlt_ns, r.token_scope, r.dominant, r.flags, r.start_ns,"
          " aj.attributes, t.times"
          " FROM requests r JOIN request_details d ON d.request_id = r.id JOIN import_runs i ON i.id = r.run_id"
          " JOIN request_attributes_json aj ON aj.request_id = r.id"
          " LEFT JOIN labels m ON m.id = r.model_id LEFT JOIN labels rt ON rt.id = r.route_id"
          " LEFT JOIN token_times t ON t.request_id = r.id WHERE r.id = ?";
    Statement stmt(store.db(), select);
    stmt.bindInt(1, rowId);
    if (stmt.step() != SQLITE_ROW)
        return false;
    sqlite3_stmt *q = stmt.get();
    out = RequestDetail{};
    out.rowId = rowId;
    out.sourceId = textOf(q, 0);
    out.sourcePath = textOf(q, 1);
    out.sourceLine = sqlite3_column_int64(q, 2);
    out.status = sqlite3_column_int(q, 3) == 0 ? Status::Ok : Status::Error;
    out.model = textOf(q, 4);
    out.route = textOf(q, 5);
    out.inputTokens = columnOr(q, 6);
    out.outputTokens = columnOr(q, 7);
    out.stamps = columnStamps(q, 8);
    RequestMetrics &m = out.metrics;
    for (int s = 0; s < kSegmentCount; ++s)
        m.segments[s] = columnOr(q, 9 + s);
    constexpr int after = 9 + kSegmentCount; // the first column after the segments
    m.e2e = columnOr(q, after);
    m.e2eScope = static_cast<E2eScope>(sqlite3_column_int(q, after + 1));
    m.ttft = columnOr(q, after + 2);
    m.tpot = columnOr(q, after + 3);
    m.ttlt = columnOr(q, after + 4);
    m.tokenScope = static_cast<E2eScope>(sqlite3_column_int(q, after + 5));
    m.dominant = sqlite3_column_type(q, after + 6) == SQLITE_NULL ? -1 : sqlite3_column_int(q, after + 6);
    m.flags = static_cast<std::uint32_t>(sqlite3_column_int64(q, after + 7));
    m.start = columnOr(q, after + 8);
    out.attributesJson = textOf(q, after + 9);
    if (const void *blob = sqlite3_column_blob(q, after + 10)) {
        out.tokenTimes.resize(static_cast<std::size_t>(sqlite3_column_bytes(q, after + 10)) / sizeof(std::int64_t));
        std::memcpy(out.tokenTimes.data(), blob, out.tokenTimes.size() * sizeof(std::int64_t));
    }
    return true;
}

std::vector<RejectedRecord> loadRejected(const Store &store, std::size_t limit, std::int64_t *total)
{
    if (total) {
        Statement count(store.db(), "SELECT count(*) FROM rejected");
        *total = count.step() == SQLITE_ROW ? sqlite3_column_int64(count.get(), 0) : 0;
    }
    Statement stmt(store.db(), "SELECT i.path, x.line, x.reason, x.excerpt FROM rejected x JOIN import_runs i ON i.id = x.run_id"
                               " ORDER BY x.run_id, x.line LIMIT ?");
    stmt.bindInt(1, static_cast<std::int64_t>(limit));
    std::vector<RejectedRecord> out;
    while (stmt.step() == SQLITE_ROW)
        out.push_back({textOf(stmt.get(), 0), sqlite3_column_int64(stmt.get(), 1), textOf(stmt.get(), 2), textOf(stmt.get(), 3)});
    return out;
}

std::vector<std::pair<std::string, std::string>> attributePairs(const Store &store, std::int64_t rowId)
{
    Statement stmt(store.db(), "SELECT a.key, CASE WHEN a.type IN ('object','array') THEN json(a.value) "
                               "WHEN a.type = 'text' THEN json_quote(a.value) WHEN a.type IN ('true','false','null') THEN a.type "
                               "ELSE a.value END FROM request_attributes_json d, json_each(d.attributes) a "
                               "WHERE d.request_id = ? AND d.attributes IS NOT NULL ORDER BY a.key");
    stmt.bindInt(1, rowId);
    std::vector<std::pair<std::string, std::string>> out;
    while (stmt.step() == SQLITE_ROW)
        out.emplace_back(textOf(stmt.get(), 0), textOf(stmt.get(), 1));
    return out;
}

} // namespace lx
