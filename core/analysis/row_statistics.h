// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/percentiles.h"
#include "store/latency_rows.h"

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

/// \file row_statistics.h
/// The statistics of the metrics a LatencyRow holds (the seven segments, e2e and TPOT), read straight out
/// of the rows a report collected: two passes of a RankHistogram per metric, each pass on two threads, and
/// no column of values copied out. For 10M rows that is 160 MB less than a column per thread, and two
/// passes over the rows rather than one per metric.

namespace lx {

/// The metrics of a LatencyRow, in this order: the segments (segments.h), e2e, TPOT.
inline constexpr std::size_t kRowE2e = kSegmentCount;
inline constexpr std::size_t kRowTpot = kSegmentCount + 1;
inline constexpr std::size_t kRowMetrics = kSegmentCount + 2;

/// Calls visit(metric, value) for each value of the row that the latency statistics count: none of an
/// error request unless includeErrors, nothing not measured, no network time of a request with clock skew.
template<typename Visit>
void forEachRowValue(const LatencyRow &row, bool includeErrors, Visit &&visit)
{
    if (!row.ok && !includeErrors)
        return;
    for (std::size_t s = 0; s < kSegmentCount; ++s) {
        const std::int64_t v = row.segments[s];
        if (isMeasured(v) && !(s == static_cast<std::size_t>(Segment::Network) && (row.flags & kFlagClockSkew)))
            visit(s, v);
    }
    if (isMeasured(row.e2e))
        visit(kRowE2e, row.e2e);
    if (isMeasured(row.tpot))
        visit(kRowTpot, row.tpot);
}

/// Runs work(0) on this thread and work(1) on another, and returns when both are done: how the report
/// shares its statistics between two cores. An exception of either is thrown once both are done.
void onTwoThreads(const std::function<void(std::size_t)> &work);

/// count, mean, max and the percentiles of each row metric, as summarize() gives them.
std::array<Statistic, kRowMetrics> summarizeRows(std::span<const LatencyRow> rows, bool includeErrors,
                                                 const std::vector<double> &percentiles);

} // namespace lx
