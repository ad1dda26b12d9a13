// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/segments.h"

#include <algorithm>

namespace lx {

std::string_view segmentName(Segment s) { return segmentDefinition(s).name; }

std::optional<Segment> segmentFromName(std::string_view name)
{
    for (const SegmentDefinition &s : kSegments) {
        if (s.name == name)
            return s.segment;
    }
    return std::nullopt;
}

Stamp intervalStart(const StampInterval &interval, StampValues stamps)
{
    if (interval.fromFallback && !isMeasured(stamps[static_cast<std::size_t>(interval.from)]))
        return *interval.fromFallback;
    return interval.from;
}

std::int64_t intervalDuration(const StampInterval &interval, StampValues stamps)
{
    const std::int64_t from = stamps[static_cast<std::size_t>(intervalStart(interval, stamps))];
    const std::int64_t to = stamps[static_cast<std::size_t>(interval.to)];
    return isMeasured(from) && isMeasured(to) ? to - from : kNotMeasured;
}

std::int64_t segmentDuration(Segment segment, StampValues stamps)
{
    const auto bounds = segmentDefinition(segment).bounds();
    if (bounds.empty())
        return kNotMeasured;
    std::int64_t sum = 0;
    for (const StampInterval &interval : bounds) {
        const std::int64_t d = intervalDuration(interval, stamps);
        if (!isMeasured(d))
            return kNotMeasured;
        sum += d;
    }
    return sum;
}

std::string joinSegmentNames(std::string_view separator, std::string_view lastSeparator, int count)
{
    count = std::clamp(count, 0, kSegmentCount);
    std::string out;
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            out += i + 1 == count ? lastSeparator : separator;
        out += kSegments[static_cast<std::size_t>(i)].name;
    }
    return out;
}

} // namespace lx
