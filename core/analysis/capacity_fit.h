// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

/// \file capacity_fit.h
/// The throughput knee as the asymptotic bounds of operational analysis: with N requests in flight a
/// server completes at most N / L0 requests a second (L0: a request's latency when it waits for nothing)
/// and at most C (its capacity), so its throughput follows X(N) = min(N / L0, C), which bends at
/// N* = C L0: the knee. Fitted on the windows of a load profile in logarithms, where it is a line of
/// slope 1 that turns flat. docs/LOAD.md has the method and its checks.

namespace lx {

/// One window of the load profile: log of its mean requests in flight, log of its completions per second.
struct LoadPoint {
    double logInFlight = 0;
    double logThroughput = 0;
    double weight = 1; ///< its requests
};

struct CapacityFit {
    bool found = false;          ///< false with fewer than 2 * minPerSide points
    double logKneeInFlight = 0;  ///< log N*, where the two bounds meet
    double logCapacity = 0;      ///< log C, the flat part
    double sse = 0;              ///< weighted squared error of the fit
    /// The weighted least-squares slope of log throughput on log in flight over the points at or past the
    /// knee: about 0 when the server is saturated there, about 1 (a little less, as a fuller batch runs a
    /// little slower) when it still keeps up with the load.
    double slopePast = 0;
    std::size_t pointsBelow = 0, pointsPast = 0;
};

/// The least-squares fit of log X = log C - max(0, log N* - log N) to \a points, with at least
/// \a minPerSide points on each side of the knee. Exact: for each split of the points sorted by load the
/// two parameters have a closed form, and a knee outside its split's interval is clamped to it.
CapacityFit fitCapacity(std::vector<LoadPoint> points, std::size_t minPerSide = 3);

/// Where the offered load first passes \a capacityRps for good: Page's CUSUM of the windows' arrivals
/// against what the capacity completes in the same time. Each window adds its arrivals minus 1.1 times the
/// capacity's completions (the allowance keeps a load at the capacity, whose windows pass it by chance half
/// the time, from adding up); an overload is found when the sum reaches 6 standard deviations of a window's
/// Poisson count. Its start is the maximum-likelihood change point: the window from which the arrivals up to
/// the alarm exceed the capacity's completions the most. Nullopt when the load never passes it.
/// \a arrivals and \a seconds (each window's time inside the trace) are per window, in time order.
std::optional<std::size_t> overloadStart(std::span<const double> arrivals, std::span<const double> seconds, double capacityRps);

} // namespace lx
