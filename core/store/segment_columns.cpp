// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/segment_columns.h"

#include "model/segments.h"

namespace lx {

namespace {

std::string withColumn(std::string_view pattern, std::string_view column)
{
    std::string out;
    for (std::size_t at = 0;;) {
        const std::size_t hole = pattern.find("{}", at);
        out += pattern.substr(at, hole - at);
        if (hole == std::string_view::npos)
            return out;
        out += column;
        at = hole + 2;
    }
}

} // namespace

std::string segmentColumnList(std::string_view tablePrefix)
{
    std::string out;
    for (const SegmentDefinition &s : kSegments) {
        if (s.segment != Segment::Network)
            out += ", ";
        out += tablePrefix;
        out += s.column;
    }
    return out;
}

std::string segmentColumnTerms(std::string_view pattern, std::string_view separator, std::span<const Segment> segments)
{
    std::string out;
    bool first = true;
    for (const Segment segment : segments) {
        if (!first)
            out += separator;
        first = false;
        out += withColumn(pattern, segmentDefinition(segment).column);
    }
    return out;
}

} // namespace lx
