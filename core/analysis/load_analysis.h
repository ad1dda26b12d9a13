// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_profile.h"

#include <optional>
#include <string>
#include <vector>

/// \file load_analysis.h
/// The decomposition under load and the throughput knee: the mean segment times stacked per load
/// bucket with the e2e p95 over them, and the load past which the p95 bends and the queue takes over.
/// The method and its limits are in docs/LOAD.md.

namespace lx {

/// Why the load view and `plot --chart load` show nothing for requests none of which has a start (a vLLM
/// bench result, an LLMPerf file): the load over time needs arrival times. Said the same by the CLI and the GUI.
inline constexpr const char *kNoArrivalTimes = "this file has no arrival times: the load view needs them";

/// What a load bucket groups windows by.
enum class LoadKey { ArrivalRate, InFlight };

/// "arrival_rate" or "in_flight".
const char *loadKeyName(LoadKey key);

/// The windows whose load falls in [loadLo, loadHi), pooled.
struct LoadBucket {
    double loadLo = 0, loadHi = 0;
    std::int64_t windows = 0;
    std::int64_t count = 0; ///< requests in the latency statistics
    std::array<double, kSegmentCount> segmentMeanNs{}; ///< stacked, they add up to e2eMeanNs
    std::optional<double> e2eMeanNs;
    std::optional<double> e2eP95Ns;
};

/// The segment that takes the most of the e2e time of a set of requests, and its share of that time.
struct SegmentShare {
    int segment = -1; ///< a Segment, -1 without requests
    double share = 0;
    std::int64_t count = 0;
};

struct Knee {
    double rateRps = 0;    ///< arrival rate at the knee
    double inFlight = 0;   ///< requests in flight at the knee
    std::int64_t timeNs = 0; ///< when the load first reached it
};

struct KneeOptions {
    LoadKey bucketBy = LoadKey::ArrivalRate; ///< the buckets of the stacked chart
    int buckets = 12;
    std::int64_t minWindowRequests = 3; ///< windows with fewer requests in the statistics are left out of the fit
    bool includeErrors = false;
};

struct LoadAnalysis {
    LoadProfile profile;
    LoadKey bucketBy = LoadKey::ArrivalRate;
    std::vector<LoadBucket> buckets;
    /// The buckets' widths grow by a constant factor rather than being equal: requests in flight over more
    /// than a tenfold range (an overloaded trace's queue grows to hundreds; its knee is in the tens).
    bool geometricBuckets = false;
    std::optional<Knee> knee;
    SegmentShare below; ///< under the knee; every request when there is no knee
    SegmentShare above; ///< past the knee; segment -1 when there is no knee
    std::string noKneeReason; ///< why there is no knee, e.g. the trace never reaches it
    /// There are requests but none has a start: no window, no bucket, no knee (noKneeReason is kNoArrivalTimes).
    bool noArrivalTimes = false;
    /// "below the knee decode dominates (72%), above it queue (61%); knee near 41 req/s, 37 in flight"
    std::string sentence() const;
};

/// Buckets the profile's windows and looks for the knee (docs/LOAD.md).
LoadAnalysis analyzeLoad(const LoadProfile &profile, std::span<const LatencyRow> rows, const KneeOptions &options = {});

/// The same from a store: its own scan of the rows matching the filter.
LoadAnalysis analyzeLoad(const Store &store, const RequestFilter &filter, const LoadOptions &loadOptions = {},
                         const KneeOptions &kneeOptions = {});

} // namespace lx
