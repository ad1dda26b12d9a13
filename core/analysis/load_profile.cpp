// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_profile.h"

#include "model/percentiles.h"

#include <algorithm>

namespace lx {

namespace {

constexpr std::int64_t kMsNs = 1'000'000;
constexpr std::int64_t kSecondNs = 1'000 * kMsNs;
constexpr std::int64_t kMaxWindows = 200;

/// Floor division, so that windows before the epoch align too.
std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    const std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

} // namespace

std::int64_t chooseWindowWidth(std::int64_t spanNs)
{
    // Round widths people read on a clock: 1-2-5 below ten seconds, then clock divisions.
    static const std::int64_t kWidths[] = {
        1 * kMsNs, 2 * kMsNs, 5 * kMsNs, 10 * kMsNs, 20 * kMsNs, 50 * kMsNs, 100 * kMsNs, 200 * kMsNs, 500 * kMsNs,
        kSecondNs, 2 * kSecondNs, 5 * kSecondNs, 10 * kSecondNs, 15 * kSecondNs, 30 * kSecondNs, 60 * kSecondNs,
        120 * kSecondNs, 300 * kSecondNs, 600 * kSecondNs, 900 * kSecondNs, 1800 * kSecondNs, 3600 * kSecondNs,
        7200 * kSecondNs, 10800 * kSecondNs, 21600 * kSecondNs, 43200 * kSecondNs, 86400 * kSecondNs};
    for (std::int64_t w : kWidths) {
        if (spanNs / w + 1 <= kMaxWindows) // the windows an aligned grid may need over the span
            return w;
    }
    // Longer than 200 days: whole days.
    return (spanNs / (kMaxWindows - 1) / (86400 * kSecondNs) + 1) * 86400 * kSecondNs;
}

LoadProfile computeLoadProfile(std::span<const LatencyRow> rows, const LoadOptions &options)
{
    LoadProfile profile;
    std::int64_t first = INT64_MAX, last = INT64_MIN, lastEnd = INT64_MIN;
    for (const LatencyRow &r : rows) {
        if (isMeasured(r.start)) {
            first = std::min(first, r.start);
            last = std::max(last, r.start);
            lastEnd = std::max(lastEnd, isMeasured(r.e2e) && r.e2e > 0 ? r.start + r.e2e : r.start);
        }
    }
    if (first > last)
        return profile;
    const std::int64_t until = options.untilLastEnd ? lastEnd : last;
    const std::int64_t automatic = chooseWindowWidth(until - first);
    const std::int64_t width = options.untilLastEnd ? std::max(options.windowNs, automatic)
                                                    : (options.windowNs > 0 ? options.windowNs : automatic);
    profile.windowNs = width;
    const std::int64_t origin = floorDiv(first, width) * width;
    const auto count = static_cast<std::size_t>(floorDiv(until - origin, width) + 1);
    std::vector<LoadWindow> &windows = profile.windows;
    windows.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        LoadWindow &w = windows[i];
        w.startNs = origin + static_cast<std::int64_t>(i) * width;
        w.coveredNs = std::max<std::int64_t>(std::min(w.startNs + width, until + 1) - std::max(w.startNs, first), 0);
    }
    const std::int64_t end = origin + static_cast<std::int64_t>(count) * width;
    const auto windowOf = [&](std::int64_t t) { return static_cast<std::size_t>(floorDiv(t - origin, width)); };

    // Time in flight summed per window (ns of requests), then e2e values grouped by window for the p95. A
    // request adds its partial first and last windows directly and the whole ones between as a difference
    // (+1 at the first, -1 after the last), so that an hour-long wait over one-second windows costs two
    // additions rather than 3,600.
    std::vector<double> busyNs(count, 0.0);
    std::vector<std::int64_t> wholeWindows(count + 1, 0);
    std::vector<std::size_t> offsets(count + 1, 0);
    for (const LatencyRow &r : rows) {
        if (!isMeasured(r.start))
            continue;
        const std::size_t i = windowOf(r.start);
        ++windows[i].arrivals;
        if (!isMeasured(r.e2e) || r.e2e < 0)
            continue;
        const std::int64_t stop = r.start + r.e2e;
        if (stop < end)
            ++windows[windowOf(stop)].completions;
        if (stop > r.start) {
            const std::size_t last = std::min(windowOf(stop - 1), count - 1); // the last window it is in flight in
            if (last == i) {
                busyNs[i] += static_cast<double>(std::min(stop, windows[i].startNs + width) - r.start);
            } else {
                busyNs[i] += static_cast<double>(windows[i].startNs + width - r.start);
                busyNs[last] += static_cast<double>(std::min(stop, windows[last].startNs + width) - windows[last].startNs);
                ++wholeWindows[i + 1];
                --wholeWindows[last];
            }
        }
        if (inLatencyStats(r, options.includeErrors)) {
            LoadWindow &w = windows[i];
            ++w.count;
            ++offsets[i + 1];
            for (int s = 0; s < kSegmentCount; ++s)
                w.segmentMeanNs[static_cast<std::size_t>(s)] += static_cast<double>(r.part(s));
        }
    }
    for (std::size_t i = 0; i < count; ++i)
        offsets[i + 1] += offsets[i];
    std::vector<std::int64_t> e2e(offsets[count]);
    std::vector<std::size_t> fill(offsets.begin(), offsets.end() - 1);
    for (const LatencyRow &r : rows) {
        if (isMeasured(r.start) && r.e2e >= 0 && inLatencyStats(r, options.includeErrors))
            e2e[fill[windowOf(r.start)]++] = r.e2e;
    }
    std::int64_t whole = 0;
    for (std::size_t i = 0; i < count; ++i) {
        whole += wholeWindows[i];
        busyNs[i] += static_cast<double>(whole) * static_cast<double>(width);
    }
    const double seconds = static_cast<double>(width) / 1e9;
    static const std::vector<double> p95 = {95.0};
    for (std::size_t i = 0; i < count; ++i) {
        LoadWindow &w = windows[i];
        w.arrivalRps = w.coveredNs > 0 ? static_cast<double>(w.arrivals) / (static_cast<double>(w.coveredNs) / 1e9) : 0.0;
        w.throughputRps = static_cast<double>(w.completions) / seconds;
        w.meanInFlight = busyNs[i] / static_cast<double>(width);
        if (w.count == 0)
            continue;
        for (double &mean : w.segmentMeanNs)
            mean /= static_cast<double>(w.count);
        const Statistic stat = summarize({e2e.data() + offsets[i], offsets[i + 1] - offsets[i]}, p95);
        w.e2eMeanNs = stat.meanNs;
        w.e2eP95Ns = stat.percentilesNs[0];
    }
    return profile;
}

} // namespace lx
