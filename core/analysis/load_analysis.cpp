// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_analysis.h"

#include "analysis/capacity_fit.h"
#include "analysis/grouped_e2e.h"
#include "analysis/knee_text.h"
#include "analysis/row_halves.h"
#include "analysis/time_grid.h"
#include "model/duration_format.h"
#include "model/percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lx {

namespace {

/// A window that takes part in the fit and the buckets: mostly inside the trace, with enough requests.
bool usable(const LoadWindow &w, std::int64_t width, std::int64_t minRequests)
{
    return 2 * w.coveredNs >= width && w.count >= minRequests && w.e2eP95Ns;
}

double keyOf(const LoadWindow &w, LoadKey key) { return key == LoadKey::ArrivalRate ? w.arrivalRps : w.meanInFlight; }

/// The requests of one load band: their summed segment parts and e2e, and their TPOT (exact sums, as the
/// windows' of load_profile.h: a band's are added up from them).
struct Side {
    WindowSums sums;
    std::int64_t count = 0;

    void add(const Side &other)
    {
        sums.add(other.sums);
        count += other.count;
    }
    SegmentShare dominant() const
    {
        SegmentShare out;
        out.count = count;
        const double e2e = sums.e2e.value();
        if (count == 0 || e2e <= 0)
            return out;
        std::array<double, kSegmentCount> parts;
        for (std::size_t s = 0; s < kSegmentCount; ++s)
            parts[s] = sums.parts[s].value();
        out.segment = static_cast<int>(std::max_element(parts.begin(), parts.end()) - parts.begin());
        out.share = parts[static_cast<std::size_t>(out.segment)] / e2e;
        return out;
    }
    double queueShare() const
    {
        const double e2e = sums.e2e.value();
        return e2e > 0 ? sums.parts[static_cast<std::size_t>(Segment::Queue)].value() / e2e : 0.0;
    }
    std::optional<double> meanTpot() const
    {
        return sums.tpotCount > 0 ? std::optional<double>(sums.tpot.value() / static_cast<double>(sums.tpotCount))
                                  : std::nullopt;
    }
};

/// The window each row started in, or -1 (no start, or before the first window): worked out as it is asked
/// for rather than kept per row, which cost 4 bytes a request at the load analysis' peak (40 MB at 10M).
class WindowOfRow {
public:
    WindowOfRow(std::span<const LatencyRow> rows, const std::vector<LoadWindow> &windows, std::int64_t width)
        : m_rows(rows)
        , m_origin(windows.empty() ? 0 : windows.front().startNs)
        , m_windows(windows.size())
        , m_index(TimeGrid { m_origin, width, windows.size() })
    {
    }

    int operator[](std::size_t i) const
    {
        const LatencyRow &r = m_rows[i];
        if (m_windows == 0 || !isMeasured(r.start) || r.start < m_origin)
            return -1;
        // Unsigned: the trace's times may lie more than INT64_MAX apart (time_grid.h).
        return static_cast<int>(std::min<std::uint64_t>(m_index(r.start), m_windows - 1));
    }

private:
    std::span<const LatencyRow> m_rows;
    std::int64_t m_origin;
    std::size_t m_windows;
    WindowIndexer m_index;
};

/// Whether a row counts in its window's statistics, as the load profile counts it (a negative e2e, which
/// only a store edited by hand holds, in none).
bool inWindowStats(const LatencyRow &row, bool includeErrors)
{
    return inLatencyStats(row, includeErrors) && row.e2e >= 0;
}

/// The profile's tallies of its windows (WindowRowTallies) when they are of these rows, split as the knee's
/// passes would split them; else none, and the knee reads the rows.
const WindowRowTallies *windowTallies(const LoadProfile &profile, std::span<const LatencyRow> rows,
                                      const KneeOptions &options)
{
    const WindowRowTallies *t = profile.rowTallies.get();
    const bool same = t && t->describe(rows, options.includeErrors)
        && t->upperHalfStart == upperHalfStart(rows.size(), options.twoThreadsFrom)
        && t->sums.size() == profile.windows.size() && t->groups[0].size() == profile.windows.size()
        && t->groups[1].size() == profile.windows.size();
    return same ? t : nullptr;
}

/// The load bands of the knee: below it, just past it (up to twice its requests in flight), far past it.
enum Band { kBelow, kJustPast, kFarPast, kBands };

/// Each request in the band of the window it started in: added up from the windows' tallies when there
/// are some, else one pass over the rows.
template<typename BandOf>
std::array<Side, kBands> splitRows(std::span<const LatencyRow> rows, const WindowOfRow &windowOfRow,
                                   const WindowRowTallies *tallies, bool includeErrors, BandOf bandOf,
                                   std::size_t twoThreadsFrom)
{
    if (tallies) {
        std::array<Side, kBands> sides {};
        for (std::size_t w = 0; w < tallies->sums.size(); ++w) {
            const std::size_t count = tallies->groups[0][w].count + tallies->groups[1][w].count;
            if (count == 0)
                continue;
            Side &side = sides[static_cast<std::size_t>(bandOf(static_cast<int>(w)))];
            side.count += static_cast<std::int64_t>(count);
            side.sums.add(tallies->sums[w]);
        }
        return sides;
    }
    std::array<std::array<Side, kBands>, 2> halves {};
    tallyHalves(
        rows, halves,
        [&](std::array<Side, kBands> &sides, std::size_t i, const LatencyRow &row) {
            if (windowOfRow[i] < 0 || !inWindowStats(row, includeErrors))
                return;
            Side &side = sides[static_cast<std::size_t>(bandOf(windowOfRow[i]))];
            ++side.count;
            side.sums.add(row);
        },
        twoThreadsFrom);
    for (std::size_t b = 0; b < kBands; ++b)
        halves[0][b].add(halves[1][b]);
    return halves[0];
}

std::string percent(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
    return text;
}

/// Two significant digits below 10, whole numbers above: "9.1", "41".
std::string roughNumber(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, v < 10 ? "%.2g" : "%.0f", v);
    return text;
}

void fillBuckets(LoadAnalysis &out, std::span<const LatencyRow> rows, const WindowOfRow &windowOfRow,
                 const WindowRowTallies *tallies, const std::vector<bool> &inFit, const KneeOptions &options)
{
    const auto &windows = out.profile.windows;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        if (inFit[i]) {
            lo = std::min(lo, keyOf(windows[i], options.bucketBy));
            hi = std::max(hi, keyOf(windows[i], options.bucketBy));
        }
    }
    if (!(lo <= hi) || options.buckets < 1)
        return;
    const int n = hi > lo ? options.buckets : 1;
    // In flight, an overloaded trace spans hundreds while its knee is in the tens: equal widths put
    // everything up to past the knee in the first bucket. Over a tenfold range the widths grow by a
    // constant factor instead (the knee search works on the logarithm of the load too).
    out.geometricBuckets = options.bucketBy == LoadKey::InFlight && lo > 0 && hi >= 10 * lo && n > 1;
    const auto edge = [&](int b) {
        if (b >= n)
            return hi;
        return out.geometricBuckets ? lo * std::pow(hi / lo, static_cast<double>(b) / n) : lo + b * (hi - lo) / n;
    };
    const auto bucketOf = [&](double x) {
        if (n == 1)
            return 0;
        const double at = out.geometricBuckets ? std::log(x / lo) / std::log(hi / lo) : (x - lo) / (hi - lo);
        return std::clamp(static_cast<int>(at * n), 0, n - 1);
    };
    out.buckets.resize(static_cast<std::size_t>(n));
    for (int b = 0; b < n; ++b) {
        out.buckets[static_cast<std::size_t>(b)].loadLo = edge(b);
        out.buckets[static_cast<std::size_t>(b)].loadHi = edge(b + 1);
    }
    std::vector<int> bucketOfWindow(windows.size(), -1);
    for (std::size_t i = 0; i < windows.size(); ++i) {
        if (!inFit[i])
            continue;
        const int b = bucketOf(keyOf(windows[i], options.bucketBy));
        bucketOfWindow[i] = b;
        ++out.buckets[static_cast<std::size_t>(b)].windows;
    }
    const auto bucketOfRow = [&](std::size_t i) -> std::int64_t {
        const int w = windowOfRow[i];
        return w < 0 || !inWindowStats(rows[i], options.includeErrors) ? -1
                                                                       : bucketOfWindow[static_cast<std::size_t>(w)];
    };
    // Each bucket's requests and summed segments in each half of the rows: the halves' rows are what
    // the e2e's grouping needs.
    struct BucketTally {
        std::vector<GroupRows> groups;
        std::vector<std::array<ExactSum, kSegmentCount>> segmentSums;
    };
    const std::size_t buckets = out.buckets.size();
    std::array<BucketTally, 2> halves;
    for (BucketTally &half : halves) {
        half.groups.assign(buckets, {});
        half.segmentSums.assign(buckets, {});
    }
    if (tallies) {
        // A bucket's rows are its windows': their spans and counts, half by half, and their sums.
        for (std::size_t w = 0; w < bucketOfWindow.size(); ++w) {
            if (bucketOfWindow[w] < 0)
                continue;
            const auto b = static_cast<std::size_t>(bucketOfWindow[w]);
            for (std::size_t half = 0; half < 2; ++half) {
                const GroupRows &window = tallies->groups[half][w];
                if (window.count == 0)
                    continue;
                GroupRows &bucket = halves[half].groups[b];
                bucket.count += window.count;
                bucket.first = std::min(bucket.first, window.first);
                bucket.end = std::max(bucket.end, window.end);
            }
            for (std::size_t s = 0; s < kSegmentCount; ++s)
                halves[0].segmentSums[b][s].add(tallies->sums[w].parts[s]);
        }
    } else {
        tallyHalves(
            rows, halves,
            [&](BucketTally &t, std::size_t i, const LatencyRow &row) {
                const std::int64_t b = bucketOfRow(i);
                if (b < 0)
                    return;
                t.groups[static_cast<std::size_t>(b)].add(i);
                for (int s = 0; s < kSegmentCount; ++s)
                    t.segmentSums[static_cast<std::size_t>(b)][static_cast<std::size_t>(s)].add(row.part(s));
            },
            options.twoThreadsFrom);
    }
    const GroupRowsByHalf groups = { halves[0].groups, halves[1].groups };
    for (std::size_t b = 0; b < buckets; ++b) {
        LoadBucket &bucket = out.buckets[b];
        bucket.count = static_cast<std::int64_t>(groups[0][b].count + groups[1][b].count);
        for (std::size_t s = 0; s < kSegmentCount; ++s) {
            ExactSum sum = halves[0].segmentSums[b][s];
            sum.add(halves[1].segmentSums[b][s]);
            bucket.segmentMeanNs[s] = sum.value() / (bucket.count > 0 ? static_cast<double>(bucket.count) : 1.0);
        }
    }
    static const std::vector<double> p95 = {95.0};
    summarizeE2eByGroup(
        rows, groups, bucketOfRow, p95,
        [&](std::size_t b, const Statistic &stat) {
            out.buckets[b].e2eMeanNs = stat.meanNs;
            out.buckets[b].e2eP95Ns = stat.percentilesNs[0];
        },
        options.e2eValuesAtOnce, options.twoThreadsFrom);
}

} // namespace

const char *loadKeyName(LoadKey key) { return key == LoadKey::ArrivalRate ? "arrival_rate" : "in_flight"; }

std::string LoadAnalysis::noKneeText(std::string_view widthControl) const
{
    return widerWindowsHelp ? noKneeReason + " (wider windows hold more: " + std::string(widthControl) + ")"
                            : noKneeReason;
}

std::string LoadAnalysis::sentence(std::string_view widthControl) const
{
    const auto name = [](int s) { return std::string(segmentName(static_cast<Segment>(s))); };
    // A share of the e2e time, said so: the report's "dominant segment" shares are of requests.
    const auto ofE2e = [](double share) { return percent(share) + " of e2e"; };
    const auto dominates
        = [&](const SegmentShare &share) { return name(share.segment) + " (" + ofE2e(share.share) + ")"; };
    if (noArrivalTimes)
        return kNoArrivalTimes; // the whole story: there is no load to find a knee in
    if (!knee) {
        std::string out = "no knee: " + noKneeText(widthControl);
        if (below.segment >= 0)
            out += "; " + name(below.segment) + " dominates (" + ofE2e(below.share) + ") throughout";
        return out;
    }
    // The story in three parts: below the knee the queue is near empty, past it the queue takes over (just
    // past it usually not yet: by band), and the time per output token barely changes.
    std::vector<std::string> parts;
    if (below.segment >= 0) {
        std::string part = "below the knee " + name(below.segment) + " dominates (" + ofE2e(below.share);
        if (below.segment != static_cast<int>(Segment::Queue))
            part += ", queue " + percent(queueShareBelow);
        parts.push_back(part + ")");
    }
    const std::string it = parts.empty() ? "the knee" : "it";
    if (justPast.segment >= 0 && farPast.segment >= 0)
        parts.push_back("just past " + it + " " + dominates(justPast) + ", far past " + it + " " + dominates(farPast));
    else if (above.segment >= 0)
        parts.push_back("above " + it + " " + dominates(above));
    if (tpotBelowNs && tpotAboveNs)
        parts.push_back("time per output token " + formatDuration(*tpotBelowNs) + " below, " + formatDuration(*tpotAboveNs) + " above");
    parts.push_back("knee near " + kneeText(*knee)); // the charts' and findings' rounding (knee_text.h)
    std::string out;
    for (const std::string &part : parts)
        out += (out.empty() ? "" : "; ") + part;
    return out;
}

LoadAnalysis analyzeLoad(const LoadProfile &profile, std::span<const LatencyRow> rows, const KneeOptions &options)
{
    LoadAnalysis out;
    out.profile = profile;
    out.profile.rowTallies.reset(); // read from `profile` below; a copy kept would hold them for nothing
    out.bucketBy = options.bucketBy;
    const auto &windows = out.profile.windows;
    const std::int64_t width = out.profile.windowNs;

    const WindowOfRow windowOfRow(rows, windows, width);
    std::vector<bool> inFit(windows.size());
    std::vector<LoadPoint> points;
    std::size_t withRequests = 0, usableWindows = 0;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        inFit[i] = usable(windows[i], width, options.minWindowRequests);
        withRequests += windows[i].count > 0 ? 1 : 0;
        usableWindows += inFit[i] ? 1 : 0;
        if (inFit[i] && windows[i].meanInFlight > 0 && windows[i].throughputRps > 0) // logarithms: see below
            points.push_back({std::log(windows[i].meanInFlight), std::log(windows[i].throughputRps), static_cast<double>(windows[i].count)});
    }
    const WindowRowTallies *tallies = windowTallies(profile, rows, options);
    fillBuckets(out, rows, windowOfRow, tallies, inFit, options);
    const auto throughout = [&] {
        const Side all = splitRows(
            rows, windowOfRow, tallies, options.includeErrors, [](int) { return kBelow; },
            options.twoThreadsFrom)[kBelow];
        out.below = all.dominant();
        out.queueShareBelow = all.queueShare();
        out.tpotBelowNs = all.meanTpot();
    };

    if (rows.empty()) { // a filter that matches none, say: no window is short, there is nothing to look at
        throughout();
        out.noKneeReason = "no request to look at";
        return out;
    }
    out.noArrivalTimes
        = std::none_of(rows.begin(), rows.end(), [](const LatencyRow &row) { return isMeasured(row.start); });
    if (out.noArrivalTimes) {
        throughout();
        out.noKneeReason = kNoArrivalTimes;
        return out;
    }
    if (points.size() < 8) {
        throughout();
        // Say what is short: windows with a few requests each are not "windows without requests".
        out.noKneeReason = "too few windows to look for one: ";
        if (withRequests == 0) {
            out.noKneeReason += "none holds a request with a measured e2e";
        } else if (usableWindows < 8) {
            out.noKneeReason += std::to_string(usableWindows) + " of the " + std::to_string(withRequests)
                + " windows that hold requests hold at least " + std::to_string(options.minWindowRequests)
                + ", 8 such windows needed";
            out.widerWindowsHelp = withRequests >= 8;
        } else { // enough requests, but the fit also needs requests completing in the window (its throughput)
            out.noKneeReason += std::to_string(points.size()) + " of the " + std::to_string(usableWindows)
                + " windows that hold at least " + std::to_string(options.minWindowRequests)
                + " requests see a request complete, 8 such windows needed";
            out.widerWindowsHelp = true;
        }
        return out;
    }
    // The knee is where the throughput stops following the load: with N requests in flight a server
    // completes at most N / L0 a second (L0: the latency of a request that waits for nothing) and at most
    // its capacity C, so the windows' completions against their requests in flight follow min(N / L0, C),
    // a line of slope 1 in logarithms that turns flat at N* = C L0 (capacity_fit.h, docs/LOAD.md). Unlike
    // the queue time, which grows smoothly well before the capacity (a 16-slot server at 80% of it queues
    // requests for a while), this bend stays at the capacity whatever the trace's length or shape: a ramp,
    // a step, a daily cycle whose peaks pass it. The logarithms give the few windows under the knee as
    // much say as the many of a long overload.
    const CapacityFit fit = fitCapacity(points);
    const double kneeInFlight = std::exp(fit.logKneeInFlight);
    const auto bandOf = [&](int w) {
        const double load = windows[static_cast<std::size_t>(w)].meanInFlight;
        return load < kneeInFlight ? kBelow : load < 2 * kneeInFlight ? kJustPast : kFarPast;
    };
    std::array<Side, kBands> sides
        = splitRows(rows, windowOfRow, tallies, options.includeErrors, bandOf, options.twoThreadsFrom);
    Side past = sides[kJustPast];
    past.add(sides[kFarPast]);
    const auto noKnee = [&](const std::string &why) {
        double maxX = 0, maxRate = 0;
        for (std::size_t i = 0; i < windows.size(); ++i) {
            if (inFit[i]) {
                maxX = std::max(maxX, windows[i].meanInFlight);
                maxRate = std::max(maxRate, windows[i].arrivalRps);
            }
        }
        throughout();
        out.noKneeReason = why + ": the trace never reaches its knee (up to " + roughNumber(maxX) + " in flight, "
                           + roughNumber(maxRate) + " req/s)";
    };
    // The rate at the knee: what the server completes once past it (it cannot complete more): the
    // completions of the windows far past it over their time, where the queue holds as many requests as
    // the slots and every slot is busy (just past it the throughput still rounds off into the plateau, and
    // a slow ramp spends many windows there); of every window past it when fewer than three are that far.
    // Pooled: a median of windows of a few requests each would step by whole requests.
    std::array<double, kBands> completed{}, time{};
    std::array<int, kBands> counted{};
    for (std::size_t i = 0; i < windows.size(); ++i) {
        if (!inFit[i])
            continue;
        const auto band = static_cast<std::size_t>(bandOf(static_cast<int>(i)));
        completed[band] += static_cast<double>(windows[i].completions);
        time[band] += static_cast<double>(width) / 1e9;
        ++counted[band];
    }
    const double rate = counted[kFarPast] >= 3 ? completed[kFarPast] / time[kFarPast]
                        : time[kJustPast] + time[kFarPast] > 0 ? (completed[kJustPast] + completed[kFarPast]) / (time[kJustPast] + time[kFarPast])
                                                               : 0.0;
    // The throughput levels off: is it the server's ceiling or only the offered load's level? An open
    // load (arrivals that do not wait for answers) passes the ceiling: its arrivals exceed what the server
    // completes for long enough to rule out chance. A closed load (a benchmark holding N requests in
    // flight) never does; its ceiling shows instead as a throughput that stays flat while the requests in
    // flight grow to where the queue dominates (beyond twice the knee's).
    std::vector<double> arrivals, seconds;
    for (const LoadWindow &w : windows) {
        arrivals.push_back(static_cast<double>(w.arrivals));
        seconds.push_back(static_cast<double>(w.coveredNs) / 1e9);
    }
    const std::optional<std::size_t> overload = overloadStart(arrivals, seconds, rate);
    const bool closedLoadCeiling = fit.slopePast < 0.5 && sides[kFarPast].queueShare() > 0.5;
    if (!fit.found || (!overload && !closedLoadCeiling)) {
        noKnee("the offered load never passes the throughput it levels off at");
        return out;
    }
    // Confirmed by what the user sees: the queue's share of e2e grows past the knee.
    if (past.queueShare() - sides[kBelow].queueShare() < 0.1) {
        noKnee("the queue's share of e2e does not grow with the load");
        return out;
    }
    Knee knee;
    knee.inFlight = kneeInFlight;
    knee.rateRps = rate;
    // When: where the offered load passed that rate, so that the knee's time and its rate mark one point of
    // the arrival curve. Without an overload beyond the allowance (a closed load, or an open one that ends
    // a few percent over the capacity), the first window from which two in a row are past the knee and
    // receive at least its rate: past the knee alone, a slow ramp is there hours before its arrivals reach
    // the capacity (the requests in flight grow as the server nears it).
    knee.timeNs = windows.front().startNs;
    const auto reached = [&](std::size_t i) { return bandOf(static_cast<int>(i)) != kBelow && windows[i].arrivalRps >= rate; };
    if (overload) {
        knee.timeNs = windows[*overload].startNs;
    } else {
        for (std::size_t i = 0; i + 1 < windows.size(); ++i) {
            if (reached(i) && reached(i + 1)) {
                knee.timeNs = windows[i].startNs;
                break;
            }
        }
    }
    out.knee = knee;
    out.below = sides[kBelow].dominant();
    out.above = past.dominant();
    out.justPast = sides[kJustPast].dominant();
    out.farPast = sides[kFarPast].dominant();
    out.queueShareBelow = sides[kBelow].queueShare();
    out.tpotBelowNs = sides[kBelow].meanTpot();
    out.tpotAboveNs = past.meanTpot();
    return out;
}

LoadAnalysis analyzeLoad(const Store &store, const RequestFilter &filter, const LoadOptions &loadOptions,
                         const KneeOptions &kneeOptions)
{
    const LatencyRows rows = readLatencyRows(store, filter);
    return analyzeLoad(computeLoadProfile(rows, loadOptions), rows, kneeOptions);
}

} // namespace lx
