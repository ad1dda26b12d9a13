// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

/// \file request_scan.h
/// The fast read of the narrow `requests` table that every statistic starts from: one prepared SELECT in
/// the table's column order, split by row id into two halves on a store of many rows (the upper half on a
/// second read-only connection and thread). The report, the load profile and the SLOs share it, so a
/// change of column or of threading happens in one place.

struct sqlite3;

namespace lx {

class Store;
struct HeldRequest;
class HeldRows;

/// The columns of a request that the load profile, the findings, the SLO budgets and the compare keep
/// for each request (latency_rows.h): when it started, its e2e and its segments. The first part of every
/// RequestRow, so that the two never drift apart.
struct LatencyRow {
    std::int64_t start = kNotMeasured;
    std::int64_t e2e = kNotMeasured;
    std::array<std::int64_t, kSegmentCount> segments{}; ///< kNotMeasured where not measured
    std::uint32_t flags = 0;
    bool ok = true;
    /// Time per output token (the load's story: it barely changes past the knee while the queue grows).
    std::int64_t tpot = kNotMeasured;

    /// The segment's part of e2e: its time, or 0 when not measured (that time is in unattributed), so
    /// that the parts of a request always add up to its e2e.
    std::int64_t part(int segment) const
    {
        const std::int64_t v = segments[static_cast<std::size_t>(segment)];
        return isMeasured(v) ? v : 0;
    }
};

/// One row of `requests` as the statistics read it: the LatencyRow, and what the report needs besides
/// (scopes, token metrics); times in ns or kNotMeasured.
struct RequestRow : LatencyRow {
    E2eScope e2eScope = E2eScope::None;
    std::int64_t ttft = kNotMeasured, ttlt = kNotMeasured; // tpot is in the LatencyRow
    E2eScope tokenScope = E2eScope::Server;
};

/// The row ids a scan covers, and where it splits them.
struct RowIdRange {
    std::int64_t lo = 0;
    std::int64_t hi = -1;
    bool twoHalves = false; ///< the upper half [mid(), hi] is read on a second connection and thread
    /// The rows counted, when the ids are too sparse for their span to bound them (a foreign store's, say
    /// 1 and 10^12); -1 for dense ids, where the span is the bound.
    std::int64_t counted = -1;

    /// At most this many rows match: ids are unique.
    std::int64_t rows() const { return counted >= 0 ? counted : hi >= lo ? hi - lo + 1 : 0; }
    std::int64_t mid() const { return twoHalves ? lo + rows() / 2 : hi + 1; }
};

/// A scope as stored, or None for a value no scope has (a foreign store's): scopes index arrays.
E2eScope storedScope(std::int64_t value);

/// The id range of the `requests` table; twoHalves from 200,000 rows on, for dense ids. Ids this program
/// writes are dense; sparse ones are counted, so that no scan sizes its columns by an id span of 10^12.
RowIdRange requestIdRange(const Store &store);
/// The same on any connection to the store (a reader of a worker thread's own).
RowIdRange requestIdRange(sqlite3 *db);
/// At most this many rows match any filter (ids are unique): what a scan's columns reserve, so that they
/// never grow.
std::size_t rowCapacity(sqlite3 *db);

/// Whether rows held in memory (held_rows.h) can decide `where`: no condition, or one their statistics
/// decide (SqlCondition::rows); a model, a route, the tokens or an attribute are in the tables alone.
bool heldRowsDecide(const SqlCondition &where);
/// Whether the scans below can decide `where` on `store`: always on its tables, on held rows
/// heldRowsDecide(). Scanning held rows with a condition they cannot decide throws std::logic_error.
bool scansDecide(const Store &store, const SqlCondition &where);

/// The row a scan reads of a request held in memory (held_rows.h), value for value its stored row's.
RequestRow rowOf(const HeldRequest &held);

/// Every held row (ids 1..n) matching `where`, a condition they can decide (heldRowsDecide()), with its
/// id, in id order, until visit returns false.
void forEachHeldRow(const HeldRows &held, const SqlCondition &where,
                    const std::function<bool(std::int64_t id, const RequestRow &row)> &visit);

/// Every row of `requests` with its id, in id order, from the rows themselves (what the column chunks are
/// rebuilt from), until visit returns false; false then, or on an SQLite error.
bool forEachStoredRow(sqlite3 *db, const std::function<bool(std::int64_t id, const RequestRow &row)> &visit);

/// The visitor's type-erased form; use the template below.
using RequestRowVisit = void (*)(void *context, int half, const RequestRow &row);

void scanRequestRows(const Store &store, const SqlCondition &where, const RowIdRange &range, RequestRowVisit visit,
                     void *context);

/// Calls visit(half, row) for every row matching `where`, in id order within each half. With
/// range.twoHalves, half 1 runs on another thread at the same time as half 0: keep a state per half.
template<typename Visit>
void scanRequestRows(const Store &store, const SqlCondition &where, const RowIdRange &range, Visit &&visit)
{
    scanRequestRows(
        store, where, range,
        [](void *context, int half, const RequestRow &row) { (*static_cast<std::remove_reference_t<Visit> *>(context))(half, row); },
        const_cast<void *>(static_cast<const void *>(&visit)));
}

/// The type-erased form of scanTokenGaps().
using TokenGapVisit = void (*)(void *context, std::int64_t gap, E2eScope scope);

void scanTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors, TokenGapVisit visit, void *context);

/// Calls visit(gap, scope) for every gap between consecutive output-token times of the matching requests
/// (ok ones only unless includeErrors): the samples of ITL.
template<typename Visit>
void scanTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors, Visit &&visit)
{
    scanTokenGaps(
        store, where, includeErrors,
        [](void *context, std::int64_t gap, E2eScope scope) { (*static_cast<std::remove_reference_t<Visit> *>(context))(gap, scope); },
        const_cast<void *>(static_cast<const void *>(&visit)));
}

} // namespace lx
