// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"
#include "store/request_scan.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

/// \file latency_rows.h
/// The LatencyRow of each request (request_scan.h: the few columns that the load profile, the findings,
/// the SLO budgets and the compare need together), gathered in the report's own scan (an
/// AnalysisOptions::alsoVisit) or by a scan of their own.

namespace lx {

class Store;

/// Rows held in memory asked for once (huge pages where the system has them), never grown or copied: a
/// report on 10M requests holds 880 MB of them, and on the machines measured the first touch of fresh
/// memory cost more than the rows written into it. A contiguous range, so it passes as a
/// std::span<const LatencyRow>.
class LatencyRows {
public:
    LatencyRows() = default;
    /// Room for `capacity` rows, none of them there yet (no page touched).
    explicit LatencyRows(std::size_t capacity);
    /// Rows that live elsewhere (a store's held rows, held_rows.h), lent for as long as that holds them.
    explicit LatencyRows(std::span<const LatencyRow> lent);
    LatencyRows(LatencyRows &&other) noexcept;
    LatencyRows &operator=(LatencyRows &&other) noexcept;
    LatencyRows(const LatencyRows &) = delete;
    LatencyRows &operator=(const LatencyRows &) = delete;
    ~LatencyRows();

    const LatencyRow *data() const { return m_rows; }
    const LatencyRow *begin() const { return m_rows; }
    const LatencyRow *end() const { return m_rows + m_size; }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const LatencyRow &operator[](std::size_t i) const { return m_rows[i]; }
    std::span<const LatencyRow> span() const { return {m_rows, m_size}; }

private:
    friend class LatencyRowCollector;
    LatencyRow *m_rows = nullptr;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0; ///< 0 for lent rows: nothing to free
};

/// Collects the rows of a scan. The two halves run on two threads: each writes into its own part of one
/// LatencyRows (the upper half from the first id of its range on), and the gap between them is closed once
/// the scan is over, so that the rows are never copied into a second array.
class LatencyRowCollector {
public:
    /// Makes room for a scan of `range` before it starts; required before the first row.
    void reserve(const RowIdRange &range);
    /// Throws std::logic_error for a row the reserved range has no room for (a half past its ids).
    void operator()(int half, const RequestRow &row);
    /// Every row collected, lower half first (id order when the scan had one connection); closes the gap
    /// between the halves the first time, so call it after the scan.
    std::span<const LatencyRow> collected();
    /// The rows collected, handed over; the collector is then empty.
    LatencyRows take();
    /// Takes `rows` as what the scan would collect, and collects nothing itself: a scan of a store's held
    /// rows without a condition reads exactly those (held_rows.h), so they need not be copied.
    void lend(std::span<const LatencyRow> rows);
    /// Whether lend() gave the rows, so that the scan need not hand them over.
    bool lent() const { return m_lent; }

private:
    LatencyRows m_rows;
    std::size_t m_upperAt = 0; ///< where half 1 writes its first row
    std::array<std::size_t, 2> m_counts{};
    bool m_compacted = false;
    bool m_lent = false;
};

/// The rows of the requests matching the filter, ok and error, by a scan of their own.
LatencyRows readLatencyRows(const Store &store, const RequestFilter &filter);

/// Whether a row counts in the latency statistics: ok, or any with includeErrors; and e2e measured.
inline bool inLatencyStats(const LatencyRow &row, bool includeErrors)
{
    return (row.ok || includeErrors) && isMeasured(row.e2e);
}

} // namespace lx
