// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/capacity_fit.h"

#include <algorithm>
#include <cmath>

namespace lx {

namespace {

/// Weighted sums over a run of points: of the weight, of v and of v squared, for v = log X (past the
/// knee) or v = log X - log N (below it, where log X = log N - log L0).
struct Sums {
    double w = 0, v = 0, vv = 0;
    void add(double weight, double value)
    {
        w += weight;
        v += weight * value;
        vv += weight * value * value;
    }
};

double slopeOf(const std::vector<LoadPoint> &points, std::size_t from)
{
    double w = 0, mx = 0, my = 0;
    for (std::size_t i = from; i < points.size(); ++i) {
        w += points[i].weight;
        mx += points[i].weight * points[i].logInFlight;
        my += points[i].weight * points[i].logThroughput;
    }
    if (w <= 0)
        return 0;
    mx /= w;
    my /= w;
    double sxx = 0, sxy = 0;
    for (std::size_t i = from; i < points.size(); ++i) {
        sxx += points[i].weight * (points[i].logInFlight - mx) * (points[i].logInFlight - mx);
        sxy += points[i].weight * (points[i].logInFlight - mx) * (points[i].logThroughput - my);
    }
    return sxx > 0 ? sxy / sxx : 0.0;
}

} // namespace

CapacityFit fitCapacity(std::vector<LoadPoint> points, std::size_t minPerSide)
{
    CapacityFit best;
    minPerSide = std::max<std::size_t>(minPerSide, 1);
    if (points.size() < 2 * minPerSide)
        return best;
    std::sort(points.begin(), points.end(), [](const LoadPoint &l, const LoadPoint &r) { return l.logInFlight < r.logInFlight; });
    const std::size_t n = points.size();
    // Prefix sums below each split (of log X - log N), suffix sums past it (of log X): every split's fit
    // and squared error in constant time, so that a profile of many narrow windows stays linear.
    std::vector<Sums> below(n + 1), past(n + 1);
    for (std::size_t i = 0; i < n; ++i) {
        below[i + 1] = below[i];
        below[i + 1].add(points[i].weight, points[i].logThroughput - points[i].logInFlight);
    }
    for (std::size_t i = n; i-- > 0;) {
        past[i] = past[i + 1];
        past[i].add(points[i].weight, points[i].logThroughput);
    }
    best.sse = INFINITY;
    std::size_t bestSplit = 0;
    // Split k: points [0, k) below the knee (on the line log X = log N - log L0), [k, n) on the flat part.
    // With the split fixed each side's level is a weighted mean, and the knee is where the two lines meet.
    for (std::size_t k = minPerSide; k + minPerSide <= n; ++k) {
        const Sums &lo = below[k], &hi = past[k];
        if (lo.w <= 0 || hi.w <= 0)
            continue;
        double c = hi.v / hi.w;
        double b = c - lo.v / lo.w;
        double sse = (lo.vv - lo.v * lo.v / lo.w) + (hi.vv - hi.v * hi.v / hi.w);
        const double left = points[k - 1].logInFlight, right = points[k].logInFlight;
        if (b < left || b > right) {
            // The lines meet outside the split: this split's best knee is at its edge. With b fixed every
            // point's residual is z - c, z = log X + max(0, b - log N), so c is the mean of z.
            b = std::clamp(b, left, right);
            const double w = lo.w + hi.w;
            const double z = lo.v + b * lo.w + hi.v;
            const double zz = lo.vv + 2 * b * lo.v + b * b * lo.w + hi.vv;
            c = z / w;
            sse = zz - z * z / w;
        }
        sse = std::max(sse, 0.0); // rounding of a perfect fit
        if (sse < best.sse) {
            best.sse = sse;
            best.logKneeInFlight = b;
            best.logCapacity = c;
            bestSplit = k;
        }
    }
    if (!std::isfinite(best.sse))
        return CapacityFit{};
    best.found = true;
    best.pointsBelow = bestSplit;
    best.pointsPast = n - bestSplit;
    best.slopePast = slopeOf(points, bestSplit);
    return best;
}

std::optional<std::size_t> overloadStart(std::span<const double> arrivals, std::span<const double> seconds, double capacityRps)
{
    constexpr double kAllowance = 1.1, kSigmas = 6;
    const std::size_t n = std::min(arrivals.size(), seconds.size());
    std::vector<double> expected;
    for (std::size_t i = 0; i < n; ++i)
        if (seconds[i] > 0)
            expected.push_back(capacityRps * seconds[i]);
    if (expected.empty() || !(capacityRps > 0))
        return std::nullopt;
    std::nth_element(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(expected.size() / 2), expected.end());
    const double threshold = kSigmas * std::sqrt(std::max(expected[expected.size() / 2], 1.0));
    double sum = 0;
    for (std::size_t k = 0; k < n; ++k) {
        sum = std::max(0.0, sum + arrivals[k] - kAllowance * capacityRps * seconds[k]);
        if (sum < threshold)
            continue;
        // The change point: the start of the run up to the alarm with the largest excess over the capacity.
        std::size_t start = k;
        double excess = 0, best = -INFINITY;
        for (std::size_t i = k + 1; i-- > 0;) {
            excess += arrivals[i] - capacityRps * seconds[i];
            if (excess > best) {
                best = excess;
                start = i;
            }
        }
        return start;
    }
    return std::nullopt;
}

} // namespace lx
