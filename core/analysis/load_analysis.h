// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/grouped_e2e.h"

#include "analysis/load_profile.h"

#include <optional>
#include <string>
#include <string_view>
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
    double rateRps = 0;    ///< the completion throughput the server levels off at: its capacity
    double inFlight = 0;   ///< requests in flight at the knee: capacity times the latency of a request that waits for nothing
    std::int64_t timeNs = 0; ///< when the offered load first reached the knee's rate (two windows in a row)
};

struct KneeOptions {
    LoadKey bucketBy = LoadKey::ArrivalRate; ///< the buckets of the stacked chart
    int buckets = 12;
    std::int64_t minWindowRequests = 3; ///< windows with fewer requests in the statistics are left out of the fit
    bool includeErrors = false;
    /// At most this many e2e values are held at once for the buckets' p95 (analysis/grouped_e2e.h).
    std::size_t e2eValuesAtOnce = kGroupedE2eValuesAtOnce;
    /// From this many rows on, the passes over them run on two threads (row_halves.h; tests lower it).
    std::size_t twoThreadsFrom = kRowsForTwoThreads;
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
    /// Past the knee by load band: its requests in flight from the knee's to twice the knee's, where the
    /// queue is still short and decode usually dominates, and beyond, where the queue holds more requests
    /// than the slots and dominates. Segment -1 for a band without requests (and when there is no knee).
    SegmentShare justPast, farPast;
    /// The mean time per output token of the requests below the knee (every request without one) and
    /// past it: it barely changes while the queue grows. Nullopt without a request whose TPOT is measured.
    std::optional<double> tpotBelowNs, tpotAboveNs;
    /// The queue's share of the e2e time of the requests below the knee (of every request without one).
    double queueShareBelow = 0;
    std::string noKneeReason; ///< why there is no knee, e.g. the trace never reaches it (noKneeText() adds the hint)
    /// There is no knee for too few windows of enough requests, and wider windows would hold more: the
    /// reason's text then names the control that widens them (the command line's and the GUI's differ).
    bool widerWindowsHelp = false;
    /// There are requests but none has a start: no window, no bucket, no knee (noKneeReason is kNoArrivalTimes).
    bool noArrivalTimes = false;
    /// noKneeReason, with "(wider windows hold more: <widthControl>)" when widerWindowsHelp.
    std::string noKneeText(std::string_view widthControl = "--window") const;
    /// "below the knee decode dominates (96% of e2e, queue 1%); just past it decode (74% of e2e), far past it
    /// queue (100% of e2e); time per output token 29 ms below, 31 ms above; knee near 4.6 req/s, 13 in
    /// flight"; without a knee, "no knee: " and noKneeText(widthControl).
    std::string sentence(std::string_view widthControl = "--window") const;
};

/// Buckets the profile's windows and looks for the knee (docs/LOAD.md).
LoadAnalysis analyzeLoad(const LoadProfile &profile, std::span<const LatencyRow> rows, const KneeOptions &options = {});

/// The same from a store: its own scan of the rows matching the filter.
LoadAnalysis analyzeLoad(const Store &store, const RequestFilter &filter, const LoadOptions &loadOptions = {},
                         const KneeOptions &kneeOptions = {});

} // namespace lx
