// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_scan.h"

#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <cstring>
#include <string>
#include <thread>

namespace lx {

namespace {

/// Reads the rows with lo <= id <= hi that match the condition.
void scanRange(sqlite3 *db, const SqlCondition &where, std::int64_t lo, std::int64_t hi, int half, RequestRowVisit visit,
               void *context)
{
    // Column order matches the table's, so SQLite decodes each record front to back once.
    static const std::string select = "SELECT status, e2e_ns, e2e_scope, " + segmentColumnList()
                                      + ", ttft_ns, tpot_ns, ttlt_ns, token_scope, flags, start_ns"
                                        " FROM requests r WHERE r.id BETWEEN ? AND ? AND ";
    Statement stmt(db, select + where.sql);
    stmt.bindInt(1, lo);
    stmt.bindInt(2, hi);
    where.bind(stmt, 3);
    sqlite3_stmt *q = stmt.get();
    RequestRow row;
    while (stmt.step() == SQLITE_ROW) {
        row.ok = sqlite3_column_int(q, 0) == 0;
        row.e2e = columnOr(q, 1);
        row.e2eScope = static_cast<E2eScope>(sqlite3_column_int(q, 2));
        for (int s = 0; s < kSegmentCount; ++s)
            row.segments[static_cast<std::size_t>(s)] = columnOr(q, 3 + s);
        constexpr int after = 3 + kSegmentCount; // the first column after the segments
        row.ttft = columnOr(q, after);
        row.tpot = columnOr(q, after + 1);
        row.ttlt = columnOr(q, after + 2);
        row.tokenScope = static_cast<E2eScope>(sqlite3_column_int(q, after + 3));
        row.flags = static_cast<std::uint32_t>(sqlite3_column_int64(q, after + 4));
        row.start = columnOr(q, after + 5);
        visit(context, half, row);
    }
}

} // namespace

RowIdRange requestIdRange(const Store &store) { return requestIdRange(store.db()); }

RowIdRange requestIdRange(sqlite3 *db)
{
    // Two sub-selects: each is one step down the rowid b-tree. min() and max() in one SELECT scan the table.
    Statement range(db, "SELECT coalesce((SELECT min(id) FROM requests), 0), coalesce((SELECT max(id) FROM requests), -1)");
    range.step();
    RowIdRange r;
    r.lo = sqlite3_column_int64(range.get(), 0);
    r.hi = sqlite3_column_int64(range.get(), 1);
    r.twoHalves = r.rows() >= 200000;
    return r;
}

std::size_t rowCapacity(sqlite3 *db) { return static_cast<std::size_t>(requestIdRange(db).rows()); }

void scanRequestRows(const Store &store, const SqlCondition &where, const RowIdRange &range, RequestRowVisit visit,
                     void *context)
{
    const ReadConnection second = range.twoHalves ? store.openReader() : ReadConnection();
    if (!second) {
        scanRange(store.db(), where, range.lo, range.hi, 0, visit, context);
        return;
    }
    std::thread worker([&] { scanRange(second.db(), where, range.mid(), range.hi, 1, visit, context); });
    scanRange(store.db(), where, range.lo, range.mid() - 1, 0, visit, context);
    worker.join();
}

void scanTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors, TokenGapVisit visit, void *context)
{
    // CROSS JOIN keeps token_times the outer loop: most stores have few or none, and the other order
    // probed it once per request (50 ms for a million).
    std::string sql = "SELECT t.times, r.token_scope FROM token_times t CROSS JOIN requests r ON r.id = t.request_id WHERE "
                      + where.sql;
    if (!includeErrors)
        sql += " AND r.status = 0";
    Statement stmt(store.db(), sql);
    where.bind(stmt);
    while (stmt.step() == SQLITE_ROW) {
        const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(stmt.get(), 0));
        const std::size_t n = static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), 0)) / sizeof(std::int64_t);
        const auto scope = static_cast<E2eScope>(sqlite3_column_int(stmt.get(), 1));
        std::int64_t previous = 0;
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t t = 0;
            std::memcpy(&t, bytes + i * sizeof t, sizeof t); // BLOBs carry no alignment guarantee
            if (i > 0)
                visit(context, t - previous, scope);
            previous = t;
        }
    }
}

} // namespace lx
