// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"
#include "store/request_scan.h"

#include <array>
#include <cstdint>
#include <vector>

/// \file latency_rows.h
/// The LatencyRow of each request (request_scan.h: the few columns that the load profile, the findings,
/// the SLO budgets and the compare need together), gathered in the report's own scan (an
/// AnalysisOptions::alsoVisit) or by a scan of their own.

namespace lx {

class Store;

/// Collects the rows of a scan; one vector per half, since the halves run on two threads.
class LatencyRowCollector {
public:
    /// Makes room for a scan of `range` before it starts, so that the rows are written once, without the
    /// copies of a growing vector, into memory asked for in huge pages (see huge_page_allocator.h).
    void reserve(const RowIdRange &range);
    void operator()(int half, const RequestRow &row);
    /// The rows collected so far by one half of the scan (0 or 1).
    const std::vector<LatencyRow> &half(int which) const { return m_halves[which == 0 ? 0 : 1]; }
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
