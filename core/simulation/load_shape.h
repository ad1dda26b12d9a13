// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

/// \file load_shape.h
/// How the simulation's offered load moves over time: a ramp, a step or a daily cycle, each made of linear
/// pieces of the arrival rate, so that an arrival time is the inverse of a piecewise quadratic cumulative
/// intensity, found with exact IEEE operations and one square root (no libm transcendental, whose last bits
/// differ between standard libraries: server_simulation.h).

namespace lx::sim {

/// The shape of the offered load between SimConfig::startRateRps and SimConfig::endRateRps.
enum class LoadShape {
    Ramp,    ///< linear from the start rate to the end rate over the trace
    Step,    ///< the start rate for the first half of the trace, then the end rate
    Diurnal, ///< kDiurnalCycles daily cycles: from the start rate (night) up to the end rate (midday) and back
};

/// How many daily cycles a diurnal trace holds, whatever its length.
inline constexpr int kDiurnalCycles = 3;

/// "ramp", "step", "diurnal".
std::string_view loadShapeName(LoadShape shape);
std::optional<LoadShape> loadShapeFromName(std::string_view name);

/// One piece of the offered load: the rate moves linearly from rateAt0 to rateAt1 over [t0, t0 + duration).
struct RatePiece {
    double t0 = 0, duration = 0, rateAt0 = 0, rateAt1 = 0;
    double arrivalsBefore = 0; ///< the cumulative intensity at t0: the expected arrivals before the piece
    double slope() const { return (rateAt1 - rateAt0) / duration; }
    double arrivals() const { return 0.5 * (rateAt0 + rateAt1) * duration; }
};

/// The offered load over time, in seconds from the first arrival.
class OfferedLoad {
public:
    /// Every shape has the mean rate (start + end) / 2, so the trace lasts 2 requests / (start + end) seconds.
    OfferedLoad(LoadShape shape, double startRateRps, double endRateRps, double requests);

    /// The time at which the cumulative intensity reaches \a arrivals (the inverse of the intensity). Past
    /// the last piece the last piece's line goes on (a few arrivals more than expected, by chance).
    double timeOf(double arrivals);
    /// The offered rate at time \a t.
    double rateAt(double t) const;
    /// The first time the offered rate reaches \a rate, or nullopt when it never does.
    std::optional<double> firstTimeAt(double rate) const;
    /// The expected arrivals before time \a t.
    double arrivalsBefore(double t) const;
    double duration() const { return m_duration; }

private:
    std::vector<RatePiece> m_pieces;
    std::size_t m_current = 0; ///< timeOf() is asked in increasing order: the piece of the last answer
    double m_duration = 0;
};

} // namespace lx::sim
