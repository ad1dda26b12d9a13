// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/knee_text.h"

#include <cmath>
#include <cstdio>

namespace lx {

std::string kneeRateText(double rps)
{
    if (!std::isfinite(rps))
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, std::abs(rps) >= 100 ? "%.0f" : "%.3g", rps); // %.3g would write 1e+03
    return text;
}

std::string kneeInFlightText(double inFlight)
{
    if (!std::isfinite(inFlight))
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, std::abs(inFlight) >= 1 ? "%.0f" : "%.2g", inFlight);
    return text;
}

std::string kneeText(const Knee &knee)
{
    return kneeRateText(knee.rateRps) + " req/s, " + kneeInFlightText(knee.inFlight) + " in flight";
}

} // namespace lx
