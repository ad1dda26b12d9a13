// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_profile.h"

#include "analysis/grouped_e2e.h"
#include "analysis/row_halves.h"
#include "analysis/time_axis.h"
#include "analysis/time_grid.h"
#include "model/percentiles.h"
#include "model/time_range.h"

#include <algorithm>

namespace lx {

namespace {

constexpr std::int64_t kMsNs = 1'000'000;
constexpr std::int64_t kSecondNs = 1'000 * kMsNs;
constexpr std::int64_t kDayNs = 86400 * kSecondNs;

/// What the windows' pass counts and sums in a part of the rows, window by window; parts add up.
struct WindowTally {
    explicit WindowTally(std::size_t windows)
        : arrivals(windows)
        , completions(windows)
        , groups(windows)
        , sums(windows)
        , busyNs(windows, 0.0)
        , wholeWindows(windows + 1, 0)
    {
    }
    std::vector<std::int64_t> arrivals, completions;
    std::vector<GroupRows> groups; ///< each window's rows in the latency statistics
    std::vector<WindowSums> sums; ///< over the same rows
    /// Of those rows, the ones that start before the first window: the caller's times (LoadOptions::rowTimes)
    /// were not these rows', and the knee, which gives such a row no window, cannot take the windows' tallies.
    std::int64_t beforeFirst = 0;
    std::int64_t errors = 0, skewed = 0; ///< see WindowRowTallies
    WindowSums outside;
    /// Time in flight summed per window (ns of requests); a request in flight over whole windows adds
    /// +1 after its first and -1 at its last (see computeLoadProfile()).
    std::vector<double> busyNs;
    std::vector<std::int64_t> wholeWindows;

    void add(const WindowTally &o)
    {
        for (std::size_t i = 0; i < arrivals.size(); ++i) {
            arrivals[i] += o.arrivals[i];
            completions[i] += o.completions[i];
            busyNs[i] += o.busyNs[i];
            sums[i].add(o.sums[i]);
        }
        beforeFirst += o.beforeFirst;
        outside.add(o.outside);
        errors += o.errors;
        skewed += o.skewed;
        for (std::size_t i = 0; i < wholeWindows.size(); ++i)
            wholeWindows[i] += o.wholeWindows[i];
    }
};

} // namespace

std::int64_t chooseWindowWidth(std::uint64_t spanNs, std::uint64_t maxWindows)
{
    // Round widths people read on a clock: 1-2-5 below ten seconds, then clock divisions.
    static const std::int64_t kWidths[] = {
        1'000, 2'000, 5'000, 10'000, 20'000, 50'000, 100'000, 200'000, 500'000,
        1 * kMsNs, 2 * kMsNs, 5 * kMsNs, 10 * kMsNs, 20 * kMsNs, 50 * kMsNs, 100 * kMsNs, 200 * kMsNs, 500 * kMsNs,
        kSecondNs, 2 * kSecondNs, 5 * kSecondNs, 10 * kSecondNs, 15 * kSecondNs, 30 * kSecondNs, 60 * kSecondNs,
        120 * kSecondNs, 300 * kSecondNs, 600 * kSecondNs, 900 * kSecondNs, 1800 * kSecondNs, 3600 * kSecondNs,
        7200 * kSecondNs, 10800 * kSecondNs, 21600 * kSecondNs, 43200 * kSecondNs, kDayNs};
    // The automatic width starts at a millisecond, as it always has; a bound of more windows (a --window
    // being widened) may go down to a microsecond.
    const std::size_t from = maxWindows <= kAutomaticWindows ? 9 : 0;
    for (std::size_t i = from; i < std::size(kWidths); ++i) {
        const auto w = static_cast<std::uint64_t>(kWidths[i]);
        if (spanNs / w + 1 <= maxWindows) // the windows an aligned grid may need over the span
            return kWidths[i];
    }
    // Longer than maxWindows days: whole days (at most 2^64 ns / 199 days' worth, which fits int64).
    return static_cast<std::int64_t>((spanNs / (maxWindows - 1) / kDayNs + 1) * kDayNs);
}

LoadProfile computeLoadProfile(std::span<const LatencyRow> rows, const LoadOptions &options)
{
    LoadProfile profile;
    RowTimes times;
    if (options.rowTimes) {
        times = *options.rowTimes;
    } else {
        std::array<RowTimes, 2> halves;
        tallyHalves(
            rows, halves, [](RowTimes &t, std::size_t, const LatencyRow &r) { t.add(r.start, r.e2e, r.flags); },
            options.twoThreadsFrom);
        times = halves[0];
        times.add(halves[1]);
    }
    const std::int64_t first = times.first, last = times.last, lastEnd = times.lastEnd;
    const TimeAxisCount &axis = times.axis;
    if (first > last)
        return profile;
    profile.relativeTime = axis.relative();
    const std::int64_t until = options.untilLastEnd ? lastEnd : last;
    const std::uint64_t span = timeDistance(first, until);
    const std::int64_t automatic = chooseWindowWidth(span);
    std::int64_t width = options.untilLastEnd ? std::max(options.windowNs, automatic)
                                              : (options.windowNs > 0 ? options.windowNs : automatic);
    if (TimeGrid::windowsOver(first, until, width) > kMaxProfileWindows) {
        // A width asked for that would make more windows than memory and a chart can hold: the round width
        // that stays within the bound, and the caller says so (LoadProfile::requestedWindowNs).
        profile.requestedWindowNs = width;
        width = chooseWindowWidth(span, kMaxProfileWindows);
        while (TimeGrid::windowsOver(first, until, width) > kMaxProfileWindows) // alignment may add one
            width = chooseWindowWidth(span + static_cast<std::uint64_t>(width), kMaxProfileWindows);
    }
    profile.windowNs = width;
    const TimeGrid grid = TimeGrid::over(first, until, width);
    const auto count = static_cast<std::size_t>(grid.count);
    std::vector<LoadWindow> &windows = profile.windows;
    windows.resize(count);
    const std::int64_t untilEnd = saturatingAdd(until, 1);
    for (std::size_t i = 0; i < count; ++i) {
        LoadWindow &w = windows[i];
        w.startNs = grid.startOf(i);
        w.coveredNs = std::max<std::int64_t>(std::min(grid.endOf(i), untilEnd) - std::max(w.startNs, first), 0);
    }
    const std::int64_t end = grid.endOf(count - 1);
    const std::int64_t origin = grid.startOf(0);
    const WindowIndexer windowIndex(grid);
    // Clamped: the rows' times may be the caller's (LoadOptions::rowTimes), and a row outside them (a store
    // written to between two scans) must land in a window, not past the last.
    const auto windowOf
        = [&](std::int64_t t) { return static_cast<std::size_t>(std::min<std::uint64_t>(windowIndex(t), count - 1)); };

    // Time in flight summed per window (ns of requests), then e2e values grouped by window for the p95. A
    // request adds its partial first and last windows directly and the whole ones between as a difference
    // (+1 at the first, -1 after the last), so that an hour-long wait over one-second windows costs two
    // additions rather than 3,600.
    std::array<WindowTally, 2> tallies = { WindowTally(count), WindowTally(count) };
    tallyHalves(
        rows, tallies,
        [&](WindowTally &t, std::size_t row, const LatencyRow &r) {
            t.errors += r.ok ? 0 : 1;
            t.skewed += (r.flags & kFlagClockSkew) ? 1 : 0;
            if (!isMeasured(r.start) || !isMeasured(r.e2e) || r.e2e < 0) {
                if (inLatencyStats(r, options.includeErrors)) // in the statistics, in no window
                    t.outside.add(r);
                if (!isMeasured(r.start))
                    return;
            }
            const std::size_t i = windowOf(r.start);
            ++t.arrivals[i];
            if (!isMeasured(r.e2e) || r.e2e < 0)
                return;
            const std::int64_t stop = saturatingAdd(r.start, r.e2e);
            if (stop < end)
                ++t.completions[windowOf(stop)];
            if (stop > r.start) {
                const std::size_t last = std::min(windowOf(stop - 1), count - 1); // the last window it is in flight in
                if (last == i) {
                    t.busyNs[i] += static_cast<double>(std::min(stop, grid.endOf(i)) - r.start);
                } else {
                    t.busyNs[i] += static_cast<double>(grid.endOf(i) - r.start);
                    t.busyNs[last] += static_cast<double>(std::min(stop, grid.endOf(last)) - windows[last].startNs);
                    ++t.wholeWindows[i + 1];
                    --t.wholeWindows[last];
                }
            }
            if (inLatencyStats(r, options.includeErrors)) {
                t.groups[i].add(row);
                t.sums[i].add(r);
                t.beforeFirst += r.start < origin ? 1 : 0;
            }
        },
        options.twoThreadsFrom);
    // The windows' rows in each half, before the halves' tallies are added up: the e2e's grouping reads them.
    auto rowTallies = std::make_shared<WindowRowTallies>();
    rowTallies->data = rows.data();
    rowTallies->rows = rows.size();
    rowTallies->upperHalfStart = upperHalfStart(rows.size(), options.twoThreadsFrom);
    rowTallies->includeErrors = options.includeErrors;
    rowTallies->groups = { std::move(tallies[0].groups), std::move(tallies[1].groups) };
    const GroupRowsByHalf &groups = rowTallies->groups;
    tallies[0].add(tallies[1]);
    const WindowTally &t = tallies[0];
    std::vector<double> busyNs = t.busyNs;
    for (std::size_t i = 0; i < count; ++i) {
        LoadWindow &w = windows[i];
        w.arrivals = t.arrivals[i];
        w.completions = t.completions[i];
        w.count = static_cast<std::int64_t>(groups[0][i].count + groups[1][i].count);
        for (std::size_t s = 0; s < kSegmentCount; ++s)
            w.segmentMeanNs[s] = t.sums[i].parts[s].value();
    }
    std::int64_t whole = 0;
    for (std::size_t i = 0; i < count; ++i) {
        whole += t.wholeWindows[i];
        busyNs[i] += static_cast<double>(whole) * static_cast<double>(width);
    }
    const double seconds = static_cast<double>(width) / 1e9;
    static const std::vector<double> p95 = {95.0};
    for (std::size_t i = 0; i < count; ++i) {
        LoadWindow &w = windows[i];
        // Per second of the covered part, but of half the width at least: an edge window covered for a few
        // ns (a burst sent at one instant, a last arrival just past a window's start) gave billions a second.
        const std::int64_t over = std::max(w.coveredNs, width / 2);
        w.arrivalRps = over > 0 ? static_cast<double>(w.arrivals) / (static_cast<double>(over) / 1e9) : 0.0;
        w.throughputRps = static_cast<double>(w.completions) / seconds;
        w.meanInFlight = busyNs[i] / static_cast<double>(width);
        if (w.count == 0)
            continue;
        for (double &mean : w.segmentMeanNs)
            mean /= static_cast<double>(w.count);
    }
    const auto windowOfRow = [&](std::size_t i) -> std::int64_t {
        const LatencyRow &r = rows[i];
        return isMeasured(r.start) && r.e2e >= 0 && inLatencyStats(r, options.includeErrors)
                   ? static_cast<std::int64_t>(windowOf(r.start))
                   : -1;
    };
    summarizeE2eByGroup(
        rows, groups, windowOfRow, p95,
        [&](std::size_t i, const Statistic &stat) {
            windows[i].e2eMeanNs = stat.meanNs;
            windows[i].e2eP95Ns = stat.percentilesNs[0];
        },
        options.e2eValuesAtOnce, options.twoThreadsFrom);
    rowTallies->sums = std::move(tallies[0].sums);
    rowTallies->outside = tallies[0].outside;
    rowTallies->errors = tallies[0].errors;
    rowTallies->skewed = tallies[0].skewed;
    // A profile on to the last end (the GUI's load over time) is never the knee's.
    if (tallies[0].beforeFirst == 0 && !options.untilLastEnd)
        profile.rowTallies = std::move(rowTallies);
    return profile;
}

} // namespace lx
