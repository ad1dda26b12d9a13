// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

/// \file dominant_breakdown.h
/// Which segment dominates how many requests: over all of them (the report's shares), per e2e latency
/// band (p0-50, p50-90, p90-99, p99+) and per time window. Each cell carries the filter expression
/// (docs/FILTER.md) that selects exactly its requests, with exact ns boundaries, so that a click on a bar
/// filters to the requests the bar counted.

namespace lx {

class Store;

/// One bar: requests counted by dominant segment, and how to select each part of it.
struct DominantBar {
    std::string label;                   ///< "all", "p50–90", or the window's start as text
    std::int64_t fromNs = kNotMeasured;  ///< lower bound (inclusive) of e2e or start; kNotMeasured: open
    std::int64_t toNs = kNotMeasured;    ///< upper bound (exclusive); kNotMeasured: open
    std::array<std::int64_t, kSegmentCount> counts{};
    std::int64_t total = 0;
    /// The filter expression selecting the requests of each cell (compileFilterExpression() takes it).
    std::array<std::string, kSegmentCount> expressions;
    /// For people: "queue-dominated requests with e2e in p50–90 (1.20 s to 2.35 s)".
    std::array<std::string, kSegmentCount> descriptions;

    /// The share of the bar's requests that `segment` dominates; 0 for an empty bar.
    double share(int segment) const
    {
        return total ? static_cast<double>(counts[static_cast<std::size_t>(segment)]) / static_cast<double>(total) : 0.0;
    }
};

/// The e2e latency bands, by the percentiles of e2e over the requests in the statistics.
inline constexpr int kLatencyBandCount = 4;

struct DominantBreakdown {
    DominantBar overall;                                ///< shares equal Report::dominantShare()
    std::array<DominantBar, kLatencyBandCount> bands;   ///< [p0, p50), [p50, p90), [p90, p99), [p99, max]
    std::array<double, 3> e2ePercentilesNs{};           ///< p50, p90, p99 of e2e (the report's)
    /// Requests with a dominant segment but no e2e (possible for error requests): in overall, in no band.
    std::int64_t withoutE2e = 0;

    std::vector<DominantBar> windows;     ///< consecutive windows of windowNs by start time, empty ones too
    std::int64_t windowNs = 0;            ///< a round width: 1-2-5 steps, 15 s, 30 s, minutes, hours, days
    std::int64_t withoutStart = 0;        ///< requests without a start time (vLLM bench files): in no window
    bool relativeTime = false;            ///< starts are offsets from an unknown origin, not dates
    bool includeErrors = false;
};

/// The breakdown of the requests matching `filter`, with analyze()'s selection: ok requests only unless
/// options.includeErrors, each with a dominant segment. Reads through the shared request scan on the
/// store's connections: call it on a worker thread with a Store of that thread's own.
DominantBreakdown computeDominantBreakdown(const Store &store, const RequestFilter &filter = {},
                                           const AnalysisOptions &options = {});

/// The round window width that cuts [firstNs, lastNs] into at most 60 windows aligned to multiples of it
/// (at least 20 when the span allows): the smallest of 1-2-5 steps of ns up to 1 s, then 2, 5, 10, 15,
/// 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, then whole days.
std::int64_t roundWindowWidth(std::int64_t firstNs, std::int64_t lastNs);

} // namespace lx
