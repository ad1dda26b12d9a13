// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/dominant_order.h"

#include <algorithm>
#include <cstdio>

namespace lx {

std::vector<Segment> dominantSegmentsByShare(const Report &report)
{
    std::vector<Segment> segments;
    for (int s = 0; s < kSegmentCount; ++s)
        if (report.dominantCounts[static_cast<std::size_t>(s)] > 0)
            segments.push_back(static_cast<Segment>(s));
    // Counts over one total order the same as shares, exactly; stable keeps ties in pipeline order.
    std::stable_sort(segments.begin(), segments.end(), [&](Segment a, Segment b) {
        return report.dominantCounts[static_cast<std::size_t>(a)] > report.dominantCounts[static_cast<std::size_t>(b)];
    });
    return segments;
}

std::string shareText(double share)
{
    const double percent = 100.0 * share;
    if (percent > 0.0 && percent < 0.05)
        return "<0.1%";
    if (percent >= 99.95 && percent < 100.0)
        return ">99.9%";
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", percent);
    return text;
}

} // namespace lx
