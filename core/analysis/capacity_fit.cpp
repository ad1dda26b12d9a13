// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/capacity_fit.h"

#include <algorithm>
#include <cmath>

namespace lx {

namespace {

double predicted(const LoadPoint &p, double b, double c) { return c - std::max(0.0, b - p.logInFlight); }

double squaredError(const std::vector<LoadPoint> &points, double b, double c)
{
    double sse = 0;
    for (const LoadPoint &p : points)
        sse += p.weight * (p.logThroughput - predicted(p, b, c)) * (p.logThroughput - predicted(p, b, c));
    return sse;
}

/// The best capacity for a given knee: the weighted mean of log X + max(0, b - log N).
double capacityFor(const std::vector<LoadPoint> &points, double b)
{
    double sum = 0, weight = 0;
    for (const LoadPoint &p : points) {
        sum += p.weight * (p.logThroughput + std::max(0.0, b - p.logInFlight));
        weight += p.weight;
    }
    return sum / weight;
}

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
    best.sse = INFINITY;
    std::size_t bestSplit = 0;
    // Split k: points [0, k) below the knee (on the line log X = log N - log L0), [k, n) on the flat part.
    // With the split fixed each side's level is a weighted mean; the knee is where the two lines meet.
    for (std::size_t k = minPerSide; k + minPerSide <= points.size(); ++k) {
        double below = 0, belowWeight = 0, past = 0, pastWeight = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (i < k) {
                below += points[i].weight * (points[i].logThroughput - points[i].logInFlight);
                belowWeight += points[i].weight;
            } else {
                past += points[i].weight * points[i].logThroughput;
                pastWeight += points[i].weight;
            }
        }
        if (belowWeight <= 0 || pastWeight <= 0)
            continue;
        double c = past / pastWeight;
        double b = c - below / belowWeight;
        const double lo = points[k - 1].logInFlight, hi = points[k].logInFlight;
        if (b < lo || b > hi) { // the lines meet outside the split: the best knee of this split is at its edge
            b = std::clamp(b, lo, hi);
            c = capacityFor(points, b);
        }
        const double sse = squaredError(points, b, c);
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
    best.pointsPast = points.size() - bestSplit;
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
