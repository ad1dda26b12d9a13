// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_scan.h"

#include "store/held_rows.h"
#include "store/request_columns.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace lx {

namespace {

/// More rows than a file of this size can hold (a row of `requests` takes well over 8 bytes): a bound
/// on the rows that costs two look-ups, not a scan.
std::uint64_t maxRowsIn(sqlite3 *db)
{
    Statement pages(db, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()");
    pages.step();
    return static_cast<std::uint64_t>(std::max<std::int64_t>(sqlite3_column_int64(pages.get(), 0), 0)) / 8;
}

/// Calls visit(id, row) for the rows with lo <= id <= hi that match the condition, in id order, until it
/// returns false; false then, or on an SQLite error.
template<typename Visit>
bool readRows(sqlite3 *db, const SqlCondition &where, std::int64_t lo, std::int64_t hi, Visit &&visit)
{
    // Column order matches the table's, so SQLite decodes each record front to back once.
    static const std::string select = "SELECT r.id, status, e2e_ns, e2e_scope, " + segmentColumnList()
                                      + ", ttft_ns, tpot_ns, ttlt_ns, token_scope, flags, start_ns"
                                        " FROM requests r WHERE r.id BETWEEN ? AND ? AND ";
    Statement stmt(db, select + where.sql);
    stmt.bindInt(1, lo);
    stmt.bindInt(2, hi);
    where.bind(stmt, 3);
    sqlite3_stmt *q = stmt.get();
    RequestRow row;
    int rc;
    while ((rc = stmt.step()) == SQLITE_ROW) {
        row.ok = sqlite3_column_int(q, 1) == 0;
        row.e2e = columnOr(q, 2);
        row.e2eScope = storedScope(sqlite3_column_int(q, 3));
        for (int s = 0; s < kSegmentCount; ++s)
            row.segments[static_cast<std::size_t>(s)] = columnOr(q, 4 + s);
        constexpr int after = 4 + kSegmentCount; // the first column after the segments
        row.ttft = columnOr(q, after);
        row.tpot = columnOr(q, after + 1);
        row.ttlt = columnOr(q, after + 2);
        row.tokenScope = storedScope(sqlite3_column_int(q, after + 3));
        row.flags = static_cast<std::uint32_t>(sqlite3_column_int64(q, after + 4));
        row.start = columnOr(q, after + 5);
        if (!visit(sqlite3_column_int64(q, 0), row))
            return false;
    }
    return rc == SQLITE_DONE;
}

/// Reads the rows with lo <= id <= hi that match the condition.
void scanRange(sqlite3 *db, const SqlCondition &where, std::int64_t lo, std::int64_t hi, int half, RequestRowVisit visit,
               void *context)
{
    readRows(db, where, lo, hi, [&](std::int64_t, const RequestRow &row) {
        visit(context, half, row);
        return true;
    });
}

/// The ids of the rows with lo <= id <= hi that match the condition, ascending: SQLite decodes only the
/// columns the condition reads.
std::vector<std::int64_t> matchingIds(sqlite3 *db, const SqlCondition &where, std::int64_t lo, std::int64_t hi)
{
    Statement stmt(db, "SELECT r.id FROM requests r WHERE r.id BETWEEN ? AND ? AND " + where.sql);
    stmt.bindInt(1, lo);
    stmt.bindInt(2, hi);
    where.bind(stmt, 3);
    std::vector<std::int64_t> ids;
    while (stmt.step() == SQLITE_ROW)
        ids.push_back(sqlite3_column_int64(stmt.get(), 0));
    return ids;
}

} // namespace

E2eScope storedScope(std::int64_t value)
{
    return value >= 0 && value <= static_cast<int>(E2eScope::Engine) ? static_cast<E2eScope>(value) : E2eScope::None;
}

RequestRow rowOf(const HeldRequest &held)
{
    const RequestMetrics &m = held.metrics;
    RequestRow row;
    row.ok = held.status == Status::Ok;
    row.e2e = m.e2e;
    row.e2eScope = storedScope(static_cast<int>(m.e2eScope));
    row.segments = m.segments;
    row.ttft = m.ttft;
    row.tpot = m.tpot;
    row.ttlt = m.ttlt;
    row.tokenScope = storedScope(static_cast<int>(m.tokenScope));
    row.flags = m.flags;
    row.start = m.start;
    return row;
}

bool forEachStoredRow(sqlite3 *db, const std::function<bool(std::int64_t id, const RequestRow &row)> &visit)
{
    return readRows(db, SqlCondition{}, INT64_MIN, INT64_MAX, visit);
}

namespace {

/// Whether a held row meets `where`: every one without a condition, by its statistics (the condition's
/// RowCondition) otherwise. A condition they cannot decide (a model, the tokens) is a mistake of ours:
/// the callers ask heldRowsDecide() first, and a report holds rows only when they can (holds_requests.h).
class HeldCondition {
public:
    explicit HeldCondition(const SqlCondition &where)
        : m_rows(where.rows.get())
    {
        if (!heldRowsDecide(where))
            throw std::logic_error("a condition held rows cannot decide (store/held_rows.h): " + where.sql);
    }
    bool selects(const RequestRow &row) const { return !m_rows || m_rows->test(row) == Truth::True; }

private:
    const RowCondition *m_rows;
};

/// visit(id, row) for the held rows with lo <= id <= hi that meet `condition`, in id order, until it returns
/// false: ids lo..hi are indices lo-1..hi-1.
template<typename Visit>
void heldRowsIn(const HeldRows &held, const HeldCondition &condition, std::int64_t lo, std::int64_t hi, Visit &&visit)
{
    const std::int64_t last = std::min<std::int64_t>(hi, static_cast<std::int64_t>(held.size()));
    for (std::int64_t id = std::max<std::int64_t>(lo, 1); id <= last; ++id) {
        const RequestRow row = rowOf(held.request(static_cast<std::size_t>(id - 1)));
        if (condition.selects(row) && !visit(id, row))
            return;
    }
}

/// scanRange() over held rows.
void scanHeld(const HeldRows &held, const SqlCondition &where, std::int64_t lo, std::int64_t hi, int half,
              RequestRowVisit visit, void *context)
{
    heldRowsIn(held, HeldCondition(where), lo, hi, [&](std::int64_t, const RequestRow &row) {
        visit(context, half, row);
        return true;
    });
}

} // namespace

void forEachHeldRow(const HeldRows &held, const SqlCondition &where,
                    const std::function<bool(std::int64_t id, const RequestRow &row)> &visit)
{
    heldRowsIn(held, HeldCondition(where), 1, static_cast<std::int64_t>(held.size()), visit);
}

namespace {

/// The gaps between consecutive token times, as inter-token latencies.
template<typename Visit>
void visitGaps(const unsigned char *bytes, std::size_t n, E2eScope scope, Visit &&visit)
{
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::int64_t t = 0;
        std::memcpy(&t, bytes + i * sizeof t, sizeof t); // BLOBs carry no alignment guarantee
        // The importer keeps token times in order (decompose()), so a gap is never negative; a foreign
        // store's disorder, or a gap past int64 (times 2^63 apart), is no inter-token latency.
        const std::uint64_t gap = static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(previous);
        if (i > 0 && t >= previous && gap <= static_cast<std::uint64_t>(INT64_MAX))
            visit(gap, scope);
        previous = t;
    }
}

} // namespace

bool heldRowsDecide(const SqlCondition &where) { return where.sql == "1" || where.rows != nullptr; }

bool scansDecide(const Store &store, const SqlCondition &where) { return !store.heldRows() || heldRowsDecide(where); }

RowIdRange requestIdRange(const Store &store)
{
    if (const HeldRows *held = store.heldRows()) {
        RowIdRange r;
        r.lo = 1;
        r.hi = static_cast<std::int64_t>(held->size());
        r.twoHalves = r.rows() >= 200000;
        return r;
    }
    return requestIdRange(store.db());
}

RowIdRange requestIdRange(sqlite3 *db)
{
    // Two sub-selects: each is one step down the rowid b-tree. min() and max() in one SELECT scan the table.
    Statement range(db, "SELECT coalesce((SELECT min(id) FROM requests), 0), coalesce((SELECT max(id) FROM requests), -1)");
    range.step();
    RowIdRange r;
    r.lo = sqlite3_column_int64(range.get(), 0);
    r.hi = sqlite3_column_int64(range.get(), 1);
    if (r.hi >= r.lo) {
        // hi - lo in unsigned arithmetic cannot overflow, as the int64 difference of 2^63-1 and -2^63 would.
        const std::uint64_t span = static_cast<std::uint64_t>(r.hi) - static_cast<std::uint64_t>(r.lo);
        if (span >= maxRowsIn(db)) {
            Statement count(db, "SELECT count(*) FROM requests");
            count.step();
            r.counted = sqlite3_column_int64(count.get(), 0);
        }
    }
    r.twoHalves = r.counted < 0 && r.rows() >= 200000;
    return r;
}

std::size_t rowCapacity(sqlite3 *db) { return static_cast<std::size_t>(requestIdRange(db).rows()); }

void scanRequestRows(const Store &store, const SqlCondition &where, const RowIdRange &range, RequestRowVisit visit,
                     void *context)
{
    // The lower half on this thread, the upper one (with range.twoHalves) on another at the same time.
    const auto inHalves = [&](const auto &scanPart) {
        if (!range.twoHalves) {
            scanPart(0, range.lo, range.hi);
            return;
        }
        std::thread worker([&] { scanPart(1, range.mid(), range.hi); });
        scanPart(0, range.lo, range.mid() - 1);
        worker.join();
    };
    if (const HeldRows *held = store.heldRows()) {
        inHalves([&](int half, std::int64_t lo, std::int64_t hi) { scanHeld(*held, where, lo, hi, half, visit, context); });
        return;
    }
    // The values from the column chunks when they describe the table (request_columns.h); the condition,
    // if any, from the chunks' values when it can be decided from them (filter/row_condition.h), else from
    // the rows, as the ids that meet it.
    const bool chunked = readableRequestColumns(store.db(), range);
    const auto scanPart = [&](sqlite3 *db, int half, std::int64_t lo, std::int64_t hi) {
        if (!chunked) {
            scanRange(db, where, lo, hi, half, visit, context);
        } else if (where.sql == "1") {
            scanRequestColumns(db, lo, hi, nullptr, half, visit, context);
        } else if (where.rows) {
            // Decided from the chunks' own values: SQLite would decode every row again for the ids.
            scanRequestColumns(db, lo, hi, *where.rows, half, visit, context);
        } else {
            const std::vector<std::int64_t> ids = matchingIds(db, where, lo, hi);
            scanRequestColumns(db, lo, hi, &ids, half, visit, context);
        }
    };
    const ReadConnection second = range.twoHalves ? store.openReader() : ReadConnection();
    if (range.twoHalves && !second) {
        scanPart(store.db(), 0, range.lo, range.hi);
        return;
    }
    inHalves([&](int half, std::int64_t lo, std::int64_t hi) { scanPart(half == 0 ? store.db() : second.db(), half, lo, hi); });
}

void scanTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors, TokenGapVisit visit, void *context)
{
    const auto gap = [&](std::uint64_t g, E2eScope scope) { visit(context, static_cast<std::int64_t>(g), scope); };
    if (const HeldRows *held = store.heldRows()) {
        const HeldCondition condition(where);
        for (std::size_t i = 0; i < held->size(); ++i) {
            const HeldRequest &r = held->request(i);
            const std::span<const std::int64_t> times = held->tokenTimes(i);
            if (!times.empty() && (includeErrors || r.status == Status::Ok) && condition.selects(rowOf(r)))
                visitGaps(reinterpret_cast<const unsigned char *>(times.data()), times.size(),
                          storedScope(static_cast<int>(r.metrics.tokenScope)), gap);
        }
        return;
    }
    // CROSS JOIN keeps token_times the outer loop: most stores have few or none, and the other order
    // probed it once per request (50 ms for a million).
    std::string sql = "SELECT t.times, r.token_scope, r.flags FROM token_times t CROSS JOIN requests r ON r.id = "
                      "t.request_id WHERE "
        + where.sql;
    if (!includeErrors)
        sql += " AND r.status = 0";
    Statement stmt(store.db(), sql);
    where.bind(stmt);
    while (stmt.step() == SQLITE_ROW) {
        const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(stmt.get(), 0));
        const std::size_t n = static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), 0)) / sizeof(std::int64_t);
        const auto flags = static_cast<std::uint32_t>(sqlite3_column_int64(stmt.get(), 2));
        visitGaps(bytes, n,
                  tokenMetricScope(storedScope(sqlite3_column_int(stmt.get(), 1)), flags, kFlagServerTokenTimes), gap);
    }
}

} // namespace lx
