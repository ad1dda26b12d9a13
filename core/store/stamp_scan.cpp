// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/stamp_scan.h"

#include "store/packed_stamps.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

namespace lx {

std::optional<std::vector<StampRow>> scanStampRows(const Store &store, const RequestFilter &filter, std::string *error)
{
    // The joined request keeps its client record's details row; its stamps are the union the join wrote
    // into requests' segments, so the server record's raw stamps are taken from its own details row.
    static const std::string kColumns =
        "SELECT r.id, d.source_line, r.status, r.flags, r.input_tokens, r.output_tokens, d.stamps, s.stamps,"
        " m.text, r.run_id, r.ttft_ns, r.ttlt_ns, r.e2e_ns, "
        + segmentColumnList("r.")
        + " FROM requests r JOIN request_details d ON d.request_id = r.id"
          " LEFT JOIN request_joins j ON j.request_id = r.id LEFT JOIN request_details s ON s.request_id = j.server_request_id"
          " LEFT JOIN labels m ON m.id = r.model_id";
    const SqlCondition condition = toSqlCondition(filter);
    Statement q(store.db(), kColumns + " WHERE " + condition.sql + " ORDER BY r.id");
    if (!q.valid()) {
        if (error)
            *error = store.lastError();
        return std::nullopt;
    }
    condition.bind(q);
    std::vector<StampRow> rows;
    int rc = SQLITE_ROW;
    while ((rc = q.step()) == SQLITE_ROW) {
        StampRow row;
        sqlite3_stmt *s = q.get();
        row.rowId = sqlite3_column_int64(s, 0);
        row.sourceLine = sqlite3_column_int64(s, 1);
        row.status = sqlite3_column_int64(s, 2) == 0 ? Status::Ok : Status::Error;
        row.flags = static_cast<std::uint32_t>(sqlite3_column_int64(s, 3));
        const std::int64_t in = columnOr(s, 4), out = columnOr(s, 5);
        row.inputTokens = isMeasured(in) ? in : -1;
        row.outputTokens = isMeasured(out) ? out : -1;
        // The server's stamps missing from the client record's row come from the server record's.
        const Stamps own = columnStamps(s, 6), server = columnStamps(s, 7);
        for (int k = 0; k < kStampCount; ++k) {
            const auto at = static_cast<std::size_t>(k);
            const bool serverStamp = k >= static_cast<int>(Stamp::ServerRecv) && k <= static_cast<int>(Stamp::ServerSend);
            row.stamps[at] = own[at] == kNotMeasured && serverStamp ? server[at] : own[at];
        }
        if (const unsigned char *text = sqlite3_column_text(s, 8))
            row.model = reinterpret_cast<const char *>(text);
        row.runId = sqlite3_column_int64(s, 9);
        row.ttftNs = columnOr(s, 10);
        row.ttltNs = columnOr(s, 11);
        row.e2eNs = columnOr(s, 12);
        for (int k = 0; k < kSegmentCount; ++k)
            row.segments[static_cast<std::size_t>(k)] = columnOr(s, 13 + k);
        rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) {
        if (error)
            *error = store.lastError();
        return std::nullopt;
    }
    return rows;
}

std::optional<std::string> readMetaValue(const Store &store, const std::string &key)
{
    Statement q(store.db(), "SELECT value FROM meta WHERE key = ?1");
    if (!q.valid())
        return std::nullopt;
    q.bindText(1, key);
    if (q.step() != SQLITE_ROW)
        return std::nullopt;
    const unsigned char *text = sqlite3_column_text(q.get(), 0);
    return text ? std::string(reinterpret_cast<const char *>(text)) : std::string();
}

bool writeMetaValue(Store &store, const std::string &key, const std::string &value, std::string *error)
{
    Statement q(store.db(), "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
    if (q.valid()) {
        q.bindText(1, key);
        q.bindText(2, value);
        if (q.step() == SQLITE_DONE)
            return true;
    }
    if (error)
        *error = store.lastError();
    return false;
}

} // namespace lx
