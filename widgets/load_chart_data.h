// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"
#include "store/latency_rows.h"

#include <cstdint>
#include <span>

namespace lx {
class Store;
struct RequestFilter;
} // namespace lx

/// \file load_chart_data.h
/// What the load view draws, all of it computed by core (load_analysis.h) and safe to compute off the UI thread:
/// the load profile with its buckets and knee, bucketed both by arrival rate and by requests in flight,
/// so that the view's toggle between the two needs no recomputation (the knee itself does not depend on
/// the bucketing), and whether the requests' times are offsets from an unknown origin.
struct LoadChartData {
    lx::LoadAnalysis byArrivalRate;
    lx::LoadAnalysis byInFlight;
    /// The load over time on to the last completion (LoadOptions::untilLastEnd), for the profile chart: a
    /// burst that arrives in a second and runs for ten shows as it drains. The analyses use start windows.
    lx::LoadProfile overTime;
    bool relativeTime = false; ///< every request with a start carries lx::kFlagRelativeTime

    const lx::LoadAnalysis &analysis(lx::LoadKey key) const
    {
        return key == lx::LoadKey::InFlight ? byInFlight : byArrivalRate;
    }
};

/// Both analyses over the rows: windows of `windowNs` (0: core's automatic width).
LoadChartData computeLoadChartData(std::span<const lx::LatencyRow> rows, std::int64_t windowNs = 0, bool includeErrors = false);

/// The same over the store's requests that match `filter`, by a scan of their own.
LoadChartData computeLoadChartData(const lx::Store &store, const lx::RequestFilter &filter, std::int64_t windowNs = 0,
                                   bool includeErrors = false);
