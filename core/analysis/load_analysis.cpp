// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_analysis.h"

#include "model/percentiles.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lx {

namespace {

/// A window that takes part in the fit and the buckets: mostly inside the trace, with enough requests.
/// Queue times under this (1 ms) count as an empty queue on the logarithmic scale of the knee search.
constexpr double kQueueFloorNs = 1e6;

bool usable(const LoadWindow &w, std::int64_t width, std::int64_t minRequests)
{
    return 2 * w.coveredNs >= width && w.count >= minRequests && w.e2eP95Ns;
}

double keyOf(const LoadWindow &w, LoadKey key) { return key == LoadKey::ArrivalRate ? w.arrivalRps : w.meanInFlight; }

struct Point {
    double x, y, weight;
};

/// The weighted least-squares hinge y = a + c x + d max(0, x - b) for a given b; its squared error.
struct Hinge {
    double a = 0, c = 0, d = 0, b = 0, sse = INFINITY;
    double at(double x) const { return a + c * x + d * std::max(0.0, x - b); }
};

/// Solves the normal equations of a weighted linear fit on the given basis (2 or 3 functions).
template<std::size_t N, typename Basis>
std::optional<std::array<double, N>> leastSquares(const std::vector<Point> &points, Basis basis)
{
    std::array<std::array<double, N + 1>, N> m{};
    for (const Point &p : points) {
        const std::array<double, N> f = basis(p.x);
        for (std::size_t i = 0; i < N; ++i) {
            for (std::size_t j = 0; j < N; ++j)
                m[i][j] += p.weight * f[i] * f[j];
            m[i][N] += p.weight * f[i] * p.y;
        }
    }
    // Gaussian elimination with partial pivoting: N is 2 or 3.
    for (std::size_t col = 0; col < N; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < N; ++r)
            if (std::abs(m[r][col]) > std::abs(m[pivot][col]))
                pivot = r;
        if (std::abs(m[pivot][col]) < 1e-12)
            return std::nullopt;
        std::swap(m[col], m[pivot]);
        for (std::size_t r = 0; r < N; ++r) {
            if (r == col)
                continue;
            const double k = m[r][col] / m[col][col];
            for (std::size_t j = col; j <= N; ++j)
                m[r][j] -= k * m[col][j];
        }
    }
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = m[i][N] / m[i][i];
    return out;
}

template<typename Model>
double squaredError(const std::vector<Point> &points, Model model)
{
    double sse = 0;
    for (const Point &p : points)
        sse += p.weight * (p.y - model(p.x)) * (p.y - model(p.x));
    return sse;
}

/// The breakpoint search: every distinct load with at least three windows on each side.
Hinge bestHinge(std::vector<Point> points)
{
    std::sort(points.begin(), points.end(), [](const Point &l, const Point &r) { return l.x < r.x; });
    Hinge best;
    for (std::size_t k = 3; k + 3 < points.size(); ++k) {
        const double b = points[k].x;
        const auto fit = leastSquares<3>(points, [b](double x) { return std::array<double, 3>{1.0, x, std::max(0.0, x - b)}; });
        if (!fit)
            continue;
        Hinge h{(*fit)[0], (*fit)[1], (*fit)[2], b, 0};
        h.sse = squaredError(points, [&h](double x) { return h.at(x); });
        if (h.sse < best.sse)
            best = h;
    }
    return best;
}

/// The requests of one side of the knee: their summed segment parts and e2e, and their e2e values.
struct Side {
    std::array<double, kSegmentCount> parts{};
    double e2e = 0;
    std::int64_t count = 0;
    std::vector<std::int64_t> values;

    SegmentShare dominant() const
    {
        SegmentShare out;
        out.count = count;
        if (count == 0 || e2e <= 0)
            return out;
        out.segment = static_cast<int>(std::max_element(parts.begin(), parts.end()) - parts.begin());
        out.share = parts[static_cast<std::size_t>(out.segment)] / e2e;
        return out;
    }
    double queueShare() const { return e2e > 0 ? parts[static_cast<std::size_t>(Segment::Queue)] / e2e : 0.0; }
    std::optional<double> p95() { return summarize(values, {95.0}).percentilesNs[0]; }
};

/// One pass over the rows: side 1 holds the requests whose window is past the knee, side 0 the others.
template<typename Beyond>
std::array<Side, 2> splitRows(std::span<const LatencyRow> rows, const std::vector<int> &windowOfRow, bool includeErrors,
                              Beyond beyond, bool withValues)
{
    std::array<Side, 2> sides;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (windowOfRow[i] < 0 || !inLatencyStats(rows[i], includeErrors))
            continue;
        Side &side = sides[beyond(windowOfRow[i]) ? 1 : 0];
        ++side.count;
        side.e2e += static_cast<double>(rows[i].e2e);
        for (int s = 0; s < kSegmentCount; ++s)
            side.parts[static_cast<std::size_t>(s)] += static_cast<double>(rows[i].part(s));
        if (withValues)
            side.values.push_back(rows[i].e2e);
    }
    return sides;
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

void fillBuckets(LoadAnalysis &out, std::span<const LatencyRow> rows, const std::vector<int> &windowOfRow,
                 const std::vector<bool> &inFit, const KneeOptions &options)
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
    std::vector<std::vector<std::int64_t>> e2e(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (windowOfRow[i] < 0 || !inLatencyStats(rows[i], options.includeErrors))
            continue;
        const int b = bucketOfWindow[static_cast<std::size_t>(windowOfRow[i])];
        if (b < 0)
            continue;
        LoadBucket &bucket = out.buckets[static_cast<std::size_t>(b)];
        ++bucket.count;
        for (int s = 0; s < kSegmentCount; ++s)
            bucket.segmentMeanNs[static_cast<std::size_t>(s)] += static_cast<double>(rows[i].part(s));
        e2e[static_cast<std::size_t>(b)].push_back(rows[i].e2e);
    }
    static const std::vector<double> p95 = {95.0};
    for (std::size_t b = 0; b < out.buckets.size(); ++b) {
        LoadBucket &bucket = out.buckets[b];
        if (bucket.count == 0)
            continue;
        for (double &mean : bucket.segmentMeanNs)
            mean /= static_cast<double>(bucket.count);
        const Statistic stat = summarize(e2e[b], p95);
        bucket.e2eMeanNs = stat.meanNs;
        bucket.e2eP95Ns = stat.percentilesNs[0];
    }
}

} // namespace

const char *loadKeyName(LoadKey key) { return key == LoadKey::ArrivalRate ? "arrival_rate" : "in_flight"; }

std::string LoadAnalysis::sentence() const
{
    const auto name = [](int s) { return std::string(segmentName(static_cast<Segment>(s))); };
    if (noArrivalTimes)
        return kNoArrivalTimes; // the whole story: there is no load to find a knee in
    if (!knee) {
        std::string out = "no knee: " + noKneeReason;
        if (below.segment >= 0)
            out += "; " + name(below.segment) + " dominates (" + percent(below.share) + ") throughout";
        return out;
    }
    std::string out;
    if (below.segment >= 0)
        out += "below the knee " + name(below.segment) + " dominates (" + percent(below.share) + ")";
    if (above.segment >= 0)
        out += (out.empty() ? "above the knee " : ", above it ") + name(above.segment) + " (" + percent(above.share) + ")";
    return out + (out.empty() ? "" : "; ") + "knee near " + roughNumber(knee->rateRps) + " req/s, "
           + roughNumber(knee->inFlight) + " in flight";
}

LoadAnalysis analyzeLoad(const LoadProfile &profile, std::span<const LatencyRow> rows, const KneeOptions &options)
{
    LoadAnalysis out;
    out.profile = profile;
    out.bucketBy = options.bucketBy;
    const auto &windows = out.profile.windows;
    const std::int64_t width = out.profile.windowNs;

    std::vector<int> windowOfRow(rows.size(), -1);
    if (!windows.empty()) {
        const std::int64_t origin = windows.front().startNs;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (isMeasured(rows[i].start) && rows[i].start >= origin)
                windowOfRow[i] = static_cast<int>(std::min<std::int64_t>((rows[i].start - origin) / width,
                                                                         static_cast<std::int64_t>(windows.size()) - 1));
        }
    }
    std::vector<bool> inFit(windows.size());
    std::vector<Point> points;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        inFit[i] = usable(windows[i], width, options.minWindowRequests);
        if (inFit[i] && windows[i].meanInFlight > 0) // logarithms: see below
            points.push_back({std::log(windows[i].meanInFlight),
                              std::log(windows[i].segmentMeanNs[static_cast<std::size_t>(Segment::Queue)] + kQueueFloorNs),
                              static_cast<double>(windows[i].count)});
    }
    fillBuckets(out, rows, windowOfRow, inFit, options);
    const auto overall = [&] { return splitRows(rows, windowOfRow, options.includeErrors, [](int) { return false; }, false)[0].dominant(); };

    out.noArrivalTimes = !rows.empty() && std::none_of(rows.begin(), rows.end(), [](const LatencyRow &row) { return isMeasured(row.start); });
    if (out.noArrivalTimes) {
        out.below = overall();
        out.noKneeReason = kNoArrivalTimes;
        return out;
    }
    if (points.size() < 8) {
        out.below = overall();
        out.noKneeReason = "too few windows with requests (" + std::to_string(points.size()) + ", 8 needed) to look for one";
        return out;
    }
    // The breakpoint is searched on the mean queue time against the requests in flight: while the server
    // keeps up the queue stays near empty at any load; once every slot is busy each further request in
    // flight waits, so the queue grows in proportion (docs/LOAD.md). Unlike the p95, the queue time does
    // not grow with the requests' own length, which also raises the requests in flight of a window. Both on
    // logarithmic scales, so that the windows under the knee weigh as much as the many of a long overload.
    // Far past the knee the queue's growth wobbles with the throughput and would pull the breakpoint along:
    // refit on the loads up to twice the last breakpoint until it settles.
    Hinge hinge = bestHinge(points);
    for (int round = 0; round < 8 && std::isfinite(hinge.sse); ++round) {
        const double cap = hinge.b + std::log(2.0);
        std::vector<Point> near;
        for (const Point &p : points)
            if (p.x <= cap)
                near.push_back(p);
        if (near.size() < 8 || near.size() == points.size())
            break;
        const Hinge refit = bestHinge(near);
        if (!std::isfinite(refit.sse) || refit.b == hinge.b)
            break;
        hinge = refit;
    }
    const double kneeInFlight = std::exp(hinge.b);
    const auto beyond = [&](int w) { return windows[static_cast<std::size_t>(w)].meanInFlight >= kneeInFlight; };
    std::array<Side, 2> sides = splitRows(rows, windowOfRow, options.includeErrors, beyond, true);
    const double queueBelow = sides[0].queueShare();
    const double queueAbove = sides[1].queueShare();
    if (!std::isfinite(hinge.sse) || hinge.d <= 0 || queueAbove - queueBelow < 0.1) {
        double maxX = 0, maxRate = 0;
        for (std::size_t i = 0; i < windows.size(); ++i) {
            if (inFit[i]) {
                maxX = std::max(maxX, windows[i].meanInFlight);
                maxRate = std::max(maxRate, windows[i].arrivalRps);
            }
        }
        out.below = overall();
        out.noKneeReason = "the queue's share of e2e does not grow with the load: the trace never reaches its knee (up to "
                           + roughNumber(maxX) + " in flight, " + roughNumber(maxRate) + " req/s)";
        return out;
    }
    // Confirmed by the p95 bending: the e2e p95 past the breakpoint at least 1.25 times the one before.
    const std::optional<double> p95Below = sides[0].p95();
    const std::optional<double> p95Above = sides[1].p95();
    if (!p95Below || !p95Above || *p95Above < 1.25 * *p95Below) {
        out.below = overall();
        out.noKneeReason = "the queue grows past " + roughNumber(kneeInFlight) + " in flight but the e2e p95 does not bend";
        return out;
    }
    Knee knee;
    knee.inFlight = kneeInFlight;
    // The rate at the knee: what the server completes once past it (it cannot complete more), the median
    // completion throughput of the windows past the knee.
    std::vector<double> saturated;
    for (std::size_t i = 0; i < windows.size(); ++i)
        if (inFit[i] && beyond(static_cast<int>(i)))
            saturated.push_back(windows[i].throughputRps);
    std::nth_element(saturated.begin(), saturated.begin() + static_cast<std::ptrdiff_t>(saturated.size() / 2), saturated.end());
    knee.rateRps = saturated.empty() ? 0.0 : saturated[saturated.size() / 2];
    // When: the first window from which two in a row are past the knee.
    knee.timeNs = windows.front().startNs;
    for (std::size_t i = 0; i + 1 < windows.size(); ++i) {
        if (beyond(static_cast<int>(i)) && beyond(static_cast<int>(i + 1))) {
            knee.timeNs = windows[i].startNs;
            break;
        }
    }
    out.knee = knee;
    out.below = sides[0].dominant();
    out.above = sides[1].dominant();
    return out;
}

LoadAnalysis analyzeLoad(const Store &store, const RequestFilter &filter, const LoadOptions &loadOptions,
                         const KneeOptions &kneeOptions)
{
    const std::vector<LatencyRow> rows = readLatencyRows(store, filter);
    return analyzeLoad(computeLoadProfile(rows, loadOptions), rows, kneeOptions);
}

} // namespace lx
