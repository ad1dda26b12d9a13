// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

/// \file segments.h
/// The one table of the segments of end-to-end latency (docs/DOMAIN.md, "Segments"): each segment's name,
/// title, store column, the stamps that bound it and its colour, in pipeline order. Decomposition, the
/// filter language, the requests table, the token timeline, the trace writers and the help texts read it,
/// so that a segment is named and bounded in one place. The store's schema (store/schema.sql) keeps the
/// same columns and `segments` rows; a test holds the two together.

namespace lx {

/// One stretch of a request between two of its stamps.
struct StampInterval {
    Stamp from;
    Stamp to;
    /// Where the stretch starts when `from` was not measured: the queue starts at server receive when there
    /// is no preprocess-done stamp. nullopt when the stretch needs `from` itself.
    std::optional<Stamp> fromFallback = std::nullopt;
};

/// Everything about one segment that more than one part of the program needs.
struct SegmentDefinition {
    Segment segment;         ///< its place in pipeline order, which breaks ties of the dominant segment
    std::string_view name;   ///< what the filter language, the reports, the CLI and mapping files call it: "queue"
    std::string_view title;  ///< for people, e.g. a column header: "Queue"
    std::string_view column; ///< its column in the store's `requests` table: "queue_ns"
    /// The stamps that bound it: two stretches for network (in and back), one for each server segment, none
    /// for unattributed, which is what e2e leaves over. The segment is measured when all its stretches are.
    std::array<StampInterval, 2> intervals;
    int intervalCount;
    /// Its colour in the segment palette (widgets/segment_colors.cpp): an index into Okabe and Ito's
    /// colour-blind-safe palette in its published order, 8 for grey.
    int colorIndex;

    constexpr std::span<const StampInterval> bounds() const
    {
        return {intervals.data(), static_cast<std::size_t>(intervalCount)};
    }
};

/// The seven segments in pipeline order: kSegments[s] describes Segment s.
inline constexpr std::array<SegmentDefinition, kSegmentCount> kSegments = {{
    {Segment::Network, "network", "Network", "network_ns",
     {{{Stamp::ClientSend, Stamp::ServerRecv}, {Stamp::ServerSend, Stamp::ClientRecv}}}, 2, 2},
    {Segment::Preprocess, "preprocess", "Preprocess", "preprocess_ns", {{{Stamp::ServerRecv, Stamp::PreprocessDone}}}, 1, 1},
    {Segment::Queue, "queue", "Queue", "queue_ns", {{{Stamp::PreprocessDone, Stamp::Sched, Stamp::ServerRecv}}}, 1, 6},
    {Segment::Prefill, "prefill", "Prefill", "prefill_ns", {{{Stamp::Sched, Stamp::FirstToken}}}, 1, 7},
    {Segment::Decode, "decode", "Decode", "decode_ns", {{{Stamp::FirstToken, Stamp::LastToken}}}, 1, 3},
    {Segment::Postprocess, "postprocess", "Postprocess", "postprocess_ns", {{{Stamp::LastToken, Stamp::ServerSend}}}, 1, 5},
    {Segment::Unattributed, "unattributed", "Unattributed", "unattributed_ns", {}, 0, 8},
}};

/// The segment names alone, in pipeline order: for lists of choices.
inline constexpr std::array<std::string_view, kSegmentCount> kSegmentNames = [] {
    std::array<std::string_view, kSegmentCount> names{};
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = kSegments[i].name;
    return names;
}();

namespace detail {
constexpr bool segmentTableIsConsistent()
{
    for (std::size_t i = 0; i < kSegments.size(); ++i) {
        const SegmentDefinition &s = kSegments[i];
        if (static_cast<std::size_t>(s.segment) != i || s.column.size() != s.name.size() + 3
            || !s.column.starts_with(s.name) || !s.column.ends_with("_ns"))
            return false;
    }
    return true;
}
} // namespace detail
static_assert(detail::segmentTableIsConsistent(), "kSegments: in Segment order, each column <name>_ns");

/// The row of kSegments for a segment.
constexpr const SegmentDefinition &segmentDefinition(Segment s) { return kSegments[static_cast<std::size_t>(s)]; }

/// A request's stamps, by Stamp; kNotMeasured where absent.
using StampValues = std::span<const std::int64_t, kStampCount>;

/// Where `interval` starts among these stamps: `from`, or its fallback when `from` was not measured.
Stamp intervalStart(const StampInterval &interval, StampValues stamps);

/// The length of `interval` among these stamps; kNotMeasured when a bound is missing. Negative only across
/// the client's and the server's clocks, when they disagree.
std::int64_t intervalDuration(const StampInterval &interval, StampValues stamps);

/// A segment's time among these stamps: the sum of its stretches, kNotMeasured when any bound is missing,
/// and always for unattributed, which no two stamps bound.
std::int64_t segmentDuration(Segment segment, StampValues stamps);

/// The first `count` segment names (at most all seven) joined for a sentence: "network, preprocess, ... and
/// unattributed" with (", ", " and ").
std::string joinSegmentNames(std::string_view separator, std::string_view lastSeparator, int count = kSegmentCount);

} // namespace lx
