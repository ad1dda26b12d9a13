// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"
#include "store/request_scan.h"

#include <array>
#include <cstdint>
#include <vector>

/// \file latency_rows.h
/// The few columns of each request that the load profile, the findings, the SLO budgets and the compare
/// need together: when it started, its e2e and its segments. Gathered in the report's own scan (an
/// AnalysisOptions::alsoVisit) or by a scan of their own.

namespace lx {

class Store;

struct LatencyRow {
    std::int64_t start = kNotMeasured;
    std::int64_t e2e = kNotMeasured;
    std::array<std::int64_t, kSegmentCount> segments{}; ///< kNotMeasured where not measured
    std::uint32_t flags = 0;
    bool ok = true;

    /// The segment's part of e2e: its time, or 0 when not measured (that time is in unattributed), so
    /// that the parts of a request always add up to its e2e.
    std::int64_t part(int segment) const
    {
        const std::int64_t v = segments[static_cast<std::size_t>(segment)];
        return isMeasured(v) ? v : 0;
    }
};

/// Collects the rows of a scan; one vector per half, since the halves run on two threads.
class LatencyRowCollector {
public:
    /// Makes room for a scan of `range` before it starts, so that the rows are written once, without the
    /// copies of a growing vector, into memory asked for in huge pages (see huge_page_allocator.h).
    void reserve(const RowIdRange &range);
    void operator()(int half, const RequestRow &row);
    /// Every row collected, lower half first (id order when the scan had one connection).
    std::vector<LatencyRow> take();

private:
    std::array<std::vector<LatencyRow>, 2> m_halves;
};

/// The rows of the requests matching the filter, ok and error, by a scan of their own.
std::vector<LatencyRow> readLatencyRows(const Store &store, const RequestFilter &filter);

/// Whether a row counts in the latency statistics: ok, or any with includeErrors; and e2e measured.
inline bool inLatencyStats(const LatencyRow &row, bool includeErrors)
{
    return (row.ok || includeErrors) && isMeasured(row.e2e);
}

} // namespace lx
