// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_shape.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace lx::sim {

namespace {

constexpr std::array<std::string_view, 3> kShapeNames = {"ramp", "step", "diurnal"};

} // namespace

std::string_view loadShapeName(LoadShape shape) { return kShapeNames[static_cast<std::size_t>(shape)]; }

std::optional<LoadShape> loadShapeFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kShapeNames.size(); ++i)
        if (kShapeNames[i] == name)
            return static_cast<LoadShape>(i);
    return std::nullopt;
}

OfferedLoad::OfferedLoad(LoadShape shape, double startRateRps, double endRateRps, double requests)
    : m_duration(2.0 * requests / (startRateRps + endRateRps))
{
    const auto add = [this](double duration, double from, double to) {
        RatePiece piece{0, duration, from, to, 0};
        if (!m_pieces.empty()) {
            const RatePiece &last = m_pieces.back();
            piece.t0 = last.t0 + last.duration;
            piece.arrivalsBefore = last.arrivalsBefore + last.arrivals();
        }
        m_pieces.push_back(piece);
    };
    switch (shape) {
    case LoadShape::Ramp:
        add(m_duration, startRateRps, endRateRps);
        break;
    case LoadShape::Step:
        add(0.5 * m_duration, startRateRps, startRateRps);
        add(0.5 * m_duration, endRateRps, endRateRps);
        break;
    case LoadShape::Diurnal:
        // Up from the night's rate to the day's peak and back, kDiurnalCycles times: a daily cycle drawn
        // with straight lines, as the arrival times need the inverse of its integral.
        for (int cycle = 0; cycle < kDiurnalCycles; ++cycle) {
            add(m_duration / (2 * kDiurnalCycles), startRateRps, endRateRps);
            add(m_duration / (2 * kDiurnalCycles), endRateRps, startRateRps);
        }
        break;
    }
}

double OfferedLoad::timeOf(double arrivals)
{
    while (m_current + 1 < m_pieces.size() && arrivals >= m_pieces[m_current + 1].arrivalsBefore)
        ++m_current;
    const RatePiece &p = m_pieces[m_current];
    // Inverse of the piece's cumulative intensity r0 t + slope t^2 / 2 (written to stay stable for slope ~ 0).
    const double u = arrivals - p.arrivalsBefore;
    const double r0 = p.rateAt0;
    const double disc = std::max(0.0, r0 * r0 + 2.0 * p.slope() * u);
    return p.t0 + 2.0 * u / (r0 + std::sqrt(disc));
}

double OfferedLoad::rateAt(double t) const
{
    const auto after = std::upper_bound(m_pieces.begin(), m_pieces.end(), t, [](double v, const RatePiece &p) { return v < p.t0; });
    const RatePiece &p = after == m_pieces.begin() ? m_pieces.front() : *(after - 1);
    return std::max(0.0, p.rateAt0 + p.slope() * (t - p.t0));
}

std::optional<double> OfferedLoad::firstTimeAt(double rate) const
{
    for (const RatePiece &p : m_pieces) {
        if (p.rateAt0 >= rate)
            return p.t0;
        if (p.rateAt1 >= rate)
            return p.t0 + (rate - p.rateAt0) / p.slope();
    }
    return std::nullopt;
}

double OfferedLoad::arrivalsBefore(double t) const
{
    const auto after = std::upper_bound(m_pieces.begin(), m_pieces.end(), t, [](double v, const RatePiece &p) { return v < p.t0; });
    const RatePiece &p = after == m_pieces.begin() ? m_pieces.front() : *(after - 1);
    const double dt = t - p.t0;
    return p.arrivalsBefore + p.rateAt0 * dt + 0.5 * p.slope() * dt * dt;
}

} // namespace lx::sim
