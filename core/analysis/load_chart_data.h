// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"
#include "store/latency_rows.h"

#include <cstdint>
#include <span>

/// \file load_chart_data.h
/// What the load view draws, all of it computed here and safe to compute off the UI thread: the load
/// profile with its buckets and knee, bucketed both by arrival rate and by requests in flight, so that the
/// view's toggle between the two needs no recomputation (the knee itself does not depend on the
/// bucketing), and whether the requests' times are offsets from an unknown origin (time_axis.h).

namespace lx {

class Store;
struct RequestFilter;

struct LoadChartData {
    LoadAnalysis byArrivalRate;
    LoadAnalysis byInFlight;
    /// The load over time on to the last completion (LoadOptions::untilLastEnd), for the profile chart: a
    /// burst that arrives in a second and runs for ten shows as it drains. The analyses use start windows.
    LoadProfile overTime;
    bool relativeTime = false; ///< the time axis is relative (TimeAxisCount::relative())

    const LoadAnalysis &analysis(LoadKey key) const { return key == LoadKey::InFlight ? byInFlight : byArrivalRate; }
    /// Requests but none with a start: nothing to draw, say kNoArrivalTimes (LoadAnalysis::noArrivalTimes).
    bool noArrivalTimes() const { return byArrivalRate.noArrivalTimes; }
};

/// Both analyses over the rows: windows of `windowNs` (0: the automatic width).
LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::int64_t windowNs = 0, bool includeErrors = false);

/// The same over the store's requests that match `filter`, by a scan of their own.
LoadChartData computeLoadChartData(const Store &store, const RequestFilter &filter, std::int64_t windowNs = 0,
                                   bool includeErrors = false);

} // namespace lx
