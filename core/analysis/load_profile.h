// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/grouped_e2e.h"
#include "analysis/time_axis.h"

#include "store/latency_rows.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

/// \file load_profile.h
/// How the load moved over the trace: per time window the arrival rate, the completion throughput, the
/// mean number of requests in flight and the decomposition of the requests that started in it. The input
/// of the knee detection (load_analysis.h) and of the GUI's load view. docs/LOAD.md has the definitions.

namespace lx {

/// The windows of an automatic width: at most 200, a chart's worth.
inline constexpr std::uint64_t kAutomaticWindows = 200;
/// The most windows a profile has (README "Limits"). A width asked for (`--window`, the GUI's window
/// width) that would make more is widened to the round width that stays within it, and the profile says
/// so (LoadProfile::requestedWindowNs). 100,000 windows hold a day in one-second windows or 100 s in
/// one-millisecond ones; a profile of them takes about 16 MB (a window and its working columns are some
/// 160 bytes), its JSON some 40 MB, and no chart shows more bars than that. 1 ns over a 20 s trace would
/// be 2*10^10 windows: terabytes.
inline constexpr std::uint64_t kMaxProfileWindows = 100'000;

struct LoadOptions {
    std::int64_t windowNs = 0;  ///< window width; 0 chooses a round width giving at most 200 windows; widened
                                ///< when it would make more than kMaxProfileWindows
    bool includeErrors = false; ///< latency figures over error requests too (arrivals always count them)
    /// Windows on to the last completion rather than the last start: the load over time as it drained (a
    /// burst of requests that all arrive in a second and run for ten). The width is then at least the
    /// automatic one over that longer span, so that they stay at most 200. The knee reads the default.
    bool untilLastEnd = false;
    /// At most this many e2e values are held at once for the windows' p95 (analysis/grouped_e2e.h).
    std::size_t e2eValuesAtOnce = kGroupedE2eValuesAtOnce;
    /// From this many rows on, the passes over them run on two threads (row_halves.h; tests lower it).
    std::size_t twoThreadsFrom = kRowsForTwoThreads;
    /// The rows' times when the caller counted them already (a report's scan: Report::rowTimes), so that
    /// they are not read for them; counted from the rows otherwise.
    std::optional<RowTimes> rowTimes;
};

struct LoadWindow {
    std::int64_t startNs = 0;   ///< windows are aligned to multiples of the width since the epoch
    /// The part of the window inside the trace's span of start times (to the last end with untilLastEnd:
    /// the time after the last arrival was watched too, and saw none)
    std::int64_t coveredNs = 0;
    std::int64_t arrivals = 0;    ///< requests (ok and error) that started in the window
    std::int64_t completions = 0; ///< requests (with a known e2e) that ended in it
    double arrivalRps = 0; ///< arrivals per second of covered time, of half the width at least
    double throughputRps = 0;     ///< completions per second of the window's width
    double meanInFlight = 0;      ///< time-average of the requests in flight (start to start + e2e)
    std::int64_t count = 0;       ///< requests started in it that are in the latency statistics
    std::array<double, kSegmentCount> segmentMeanNs{}; ///< mean part of each segment (LatencyRow::part); 0 without requests
    std::optional<double> e2eMeanNs;
    std::optional<double> e2eP95Ns;
};

/// What the windows' pass summed per window over its rows in the latency statistics. Exact: a sum of 10M
/// requests' queue time passes 2^53 ns, where a double's sum depends on the order it was added up in, and
/// these are added up by window, by bucket, by band and by half of the rows.
struct WindowSums {
    std::array<ExactSum, kSegmentCount> parts {}; ///< LatencyRow::part of each segment
    ExactSum e2e;
    ExactSum tpot; ///< over the rows with a TPOT
    std::int64_t tpotCount = 0;

    void add(const LatencyRow &row)
    {
        for (int s = 0; s < kSegmentCount; ++s)
            parts[static_cast<std::size_t>(s)].add(row.part(s));
        e2e.add(row.e2e);
        if (isMeasured(row.tpot)) {
            tpot.add(row.tpot);
            ++tpotCount;
        }
    }
    void add(const WindowSums &other)
    {
        for (std::size_t s = 0; s < kSegmentCount; ++s)
            parts[s].add(other.parts[s]);
        e2e.add(other.e2e);
        tpot.add(other.tpot);
        tpotCount += other.tpotCount;
    }
};

/// The windows' rows and sums as the profile counted them, per half of the rows (row_halves.h). The knee's
/// load buckets and bands group whole windows, so their counts and sums are added up from these rather than
/// read from the rows again: two passes fewer over 880 MB of rows at 10M requests. They describe the rows
/// the profile was computed from: those (their address and number), split at that row, with or without
/// the errors.
struct WindowRowTallies {
    const LatencyRow *data = nullptr;
    std::size_t rows = 0;
    std::size_t upperHalfStart = 0;
    bool includeErrors = false;
    GroupRowsByHalf groups; ///< each window's rows in the latency statistics (LoadWindow::count), per half
    std::vector<WindowSums> sums; ///< per window, over the same rows
    /// The sums of the rows in the latency statistics that are in no window (no start, or a negative e2e):
    /// with the windows' they make every such row's (the findings' "over all requests").
    WindowSums outside;
    std::int64_t errors = 0, skewed = 0; ///< of all the rows: not ok; with kFlagClockSkew

    /// Whether these were counted over `of` (the same rows, not others of their size) with errors in the
    /// statistics or not as `withErrors` says: the one test of every reader of them.
    bool describe(std::span<const LatencyRow> of, bool withErrors) const
    {
        return data == of.data() && rows == of.size() && includeErrors == withErrors;
    }
};

struct LoadProfile {
    std::int64_t windowNs = 0;
    /// The width asked for (LoadOptions::windowNs) when it would have made more than kMaxProfileWindows
    /// windows and windowNs is a wider one; 0 when the width is the one asked for or automatic.
    std::int64_t requestedWindowNs = 0;
    std::vector<LoadWindow> windows; ///< in time order, covering the first to the last start (or end)
    /// The windows' times are offsets from an unknown origin, not dates (TimeAxisCount::relative()).
    bool relativeTime = false;
    /// What computeLoadProfile() counted per window, for analyzeLoad() on the same rows; none in a profile
    /// made otherwise, on to the last end, or of rows that start before its first window (the times it was
    /// given were not theirs), and none in a LoadAnalysis' copy.
    std::shared_ptr<const WindowRowTallies> rowTallies;
};

/// The round width (1, 2, 5 × 10^k ms up to seconds, then 10 s, 15 s, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3,
/// 6, 12 h, 1 day, ...) that gives at most `maxWindows` windows over `spanNs`, aiming at half to all of
/// them. Above 200 windows the widths start at 1 µs. The span is unsigned: two int64 times may lie more
/// than INT64_MAX apart.
std::int64_t chooseWindowWidth(std::uint64_t spanNs, std::uint64_t maxWindows = kAutomaticWindows);

/// The load profile of the rows (latency_rows.h). Rows without a start are left out; an empty input gives no windows.
LoadProfile computeLoadProfile(std::span<const LatencyRow> rows, const LoadOptions &options = {});

} // namespace lx
