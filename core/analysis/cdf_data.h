// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

/// \file cdf_data.h
/// What the per-segment CDF view draws: for each segment, e2e and TTFT, the empirical distribution of
/// the requests matching a filter, reduced to a few thousand points that keep its exact shape where it
/// matters (every 0.1 % up to p99, every 0.001 % up to p99.9, the last thousand samples one by one), and
/// the p50/p90/p99 guides, computed by the same percentile function as the report, so the chart's p50 is
/// the table's p50.

namespace lx {

class Store;

/// The curves of a CdfData: the seven segments in pipeline order (the ids of Segment), then these.
inline constexpr int kCdfE2e = kSegmentCount;
inline constexpr int kCdfTtft = kSegmentCount + 1;
inline constexpr int kCdfMetricCount = kSegmentCount + 2;

/// "network" ... "unattributed", "e2e", "ttft": the names the filter language and the report use.
std::string_view cdfMetricName(int metric);

/// The percentiles each curve carries a guide at.
inline constexpr std::array<double, 3> kCdfGuidePercentiles = {50.0, 90.0, 99.0};

/// One point of a distribution: `fraction` of the samples are at most `valueNs`.
struct CdfPoint {
    std::int64_t valueNs = 0;
    double fraction = 0;

    bool operator==(const CdfPoint &) const = default;
};

/// One metric's empirical distribution function, reduced for drawing.
struct CdfCurve {
    std::int64_t count = 0;    ///< samples; 0 when the metric was not measured in this data set
    std::int64_t excluded = 0; ///< values left out of the statistics (network: clock skew), as in the report
    /// Starts at (min, 0), so that the curve rises from zero, then points with strictly increasing value
    /// and fraction, the ECDF's value at each; ends at (max, 1). Empty when count is 0.
    std::vector<CdfPoint> points;
    /// Type-7 percentiles at kCdfGuidePercentiles (percentileOfSorted(), as analyze() computes them).
    std::array<double, kCdfGuidePercentiles.size()> guidesNs{};

    std::int64_t minNs() const { return points.empty() ? 0 : points.front().valueNs; }
    std::int64_t maxNs() const { return points.empty() ? 0 : points.back().valueNs; }
    /// The fraction of samples at most `valueNs`, read off the reduced curve (linear between its points):
    /// the hover readout's percentile. 0 below the minimum, 1 from the maximum on.
    double fractionAt(double valueNs) const;
};

struct CdfData {
    std::array<CdfCurve, kCdfMetricCount> curves;
    std::int64_t requests = 0; ///< requests in the statistics (ok ones unless errors are included)
    bool includeErrors = false;
};

/// The CDFs of the requests matching `filter`, with analyze()'s selection: ok requests only unless
/// options.includeErrors, each metric over the requests where it was measured, network without clock skew.
/// Reads through the shared request scan on the store's connections (the caller's thread and, on a large
/// store, one more): call it on a worker thread with a Store of that thread's own.
CdfData computeCdfData(const Store &store, const RequestFilter &filter = {}, const AnalysisOptions &options = {});

/// Reduces sorted samples to a curve (points and guides; count is their number). The reduction alone, so
/// that it can be checked against small hand-made inputs.
CdfCurve cdfCurveOfSorted(std::span<const std::int64_t> sorted);

} // namespace lx
