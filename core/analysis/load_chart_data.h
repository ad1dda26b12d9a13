// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"
#include "model/percentiles.h"
#include "store/latency_rows.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

/// \file load_chart_data.h
/// What the load view draws, all of it computed here and safe to compute off the UI thread: the load
/// profile with its buckets and knee, bucketed both by arrival rate and by requests in flight, so that the
/// view's toggle between the two needs no recomputation (the knee itself does not depend on the
/// bucketing), each bucket's segment shares and token metrics (TTFT, TPOT), and whether the requests'
/// times are offsets from an unknown origin (time_axis.h).

namespace lx {

class Store;
struct RequestFilter;

/// The token metrics of a request, kept beside its LatencyRow (the same index): the per-bucket TTFT and
/// TPOT read them. Times in ns or kNotMeasured.
struct TokenMetricsRow {
    std::int64_t ttft = kNotMeasured;
    std::int64_t tpot = kNotMeasured;
};

/// The rows of the requests matching a filter with their token metrics, in the same order, from one scan.
struct LoadRows {
    LatencyRows rows;
    std::vector<TokenMetricsRow> tokens;
};

LoadRows readLoadRows(const Store &store, const RequestFilter &filter);

/// The percentiles each bucket's TTFT and TPOT carry, in this order.
inline const std::vector<double> kBucketTokenPercentiles = {50.0, 95.0};

/// What the stacked chart needs of a bucket besides core's LoadBucket, one per bucket in the same order.
struct LoadBucketDetail {
    /// Each segment's part of the bucket's mean e2e (they add up to 1; all 0 without requests): the
    /// 100%-stacked bars, which keep the buckets below the knee legible beside hour-long queues past it.
    std::array<double, kSegmentCount> segmentShare{};
    /// TTFT and TPOT over the bucket's requests in the latency statistics that have them: count, mean and
    /// the kBucketTokenPercentiles. The story of a knee: TTFT takes the queue on, TPOT barely changes.
    Statistic ttft;
    Statistic tpot;
    /// The requests in the latency statistics found in the bucket here: LoadBucket::count, unless the
    /// bucketing here and in load_analysis.cpp drifted apart (tst_load_chart_data compares them).
    std::int64_t requests = 0;
};

/// Whether a load analysis's buckets span so wide a range of mean e2e that absolute stacks would flatten
/// the small ones: the largest bucket's mean e2e more than 10 times the smallest non-empty one's. The load
/// view then shows shares first.
bool bucketsSpanTenfold(const LoadAnalysis &load);

struct LoadChartData {
    LoadAnalysis byArrivalRate;
    LoadAnalysis byInFlight;
    std::vector<LoadBucketDetail> arrivalRateDetails; ///< parallel to byArrivalRate.buckets
    std::vector<LoadBucketDetail> inFlightDetails;    ///< parallel to byInFlight.buckets
    /// The load over time on to the last completion (LoadOptions::untilLastEnd), for the profile chart: a
    /// burst that arrives in a second and runs for ten shows as it drains. The analyses use start windows.
    LoadProfile overTime;
    bool relativeTime = false; ///< the time axis is relative (TimeAxisCount::relative())

    const LoadAnalysis &analysis(LoadKey key) const { return key == LoadKey::InFlight ? byInFlight : byArrivalRate; }
    const std::vector<LoadBucketDetail> &details(LoadKey key) const
    {
        return key == LoadKey::InFlight ? inFlightDetails : arrivalRateDetails;
    }
    /// Requests but none with a start: nothing to draw, say kNoArrivalTimes (LoadAnalysis::noArrivalTimes).
    bool noArrivalTimes() const { return byArrivalRate.noArrivalTimes; }
};

/// Both analyses over the rows: windows of `windowNs` (0: the automatic width). `tokens` is parallel to
/// `rows`, or empty (no TTFT or TPOT per bucket then).
LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::span<const TokenMetricsRow> tokens,
                                   std::int64_t windowNs = 0, bool includeErrors = false);

/// The same without token metrics.
LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::int64_t windowNs = 0, bool includeErrors = false);

/// The same over the store's requests that match `filter`, by a scan of their own.
LoadChartData computeLoadChartData(const Store &store, const RequestFilter &filter, std::int64_t windowNs = 0,
                                   bool includeErrors = false);

} // namespace lx
