// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/huge_page_allocator.h"
#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file waterfall_data.h
/// What the waterfall timeline draws: every request matching a filter that has a start time, in start
/// order, as columns (struct of arrays: 100 bytes a request, so a million fit in 100 MB), with the lane
/// each one takes when concurrent requests are packed. Read once on a worker thread; sorting, lanes and
/// the level of detail of a frame work on it in memory (waterfall_rows.h, waterfall_density.h).

namespace lx {

class Store;

template<class T>
using WaterfallColumn = std::vector<T, HugePageAllocator<T>>;

/// The requests of a waterfall in start order (ties by row id). Index i is the same request in every column.
struct WaterfallData {
    WaterfallColumn<std::int64_t> ids;    ///< requests.id, what a selection names
    WaterfallColumn<std::int64_t> starts; ///< ns: the earliest known time of the request
    /// ns: where its bar ends, start + the segments laid one after another (each measured segment that is
    /// not negative): start + e2e, unless the clock skew made network negative or e2e is not measured.
    WaterfallColumn<std::int64_t> ends;
    WaterfallColumn<std::int64_t> e2e; ///< ns or kNotMeasured
    std::array<WaterfallColumn<std::int64_t>, kSegmentCount> segments; ///< ns or kNotMeasured, by Segment
    WaterfallColumn<std::uint32_t> flags;                              ///< RequestFlag bits
    WaterfallColumn<std::uint32_t> lanes; ///< the lane of each request (assignLanes())
    std::uint32_t laneCount = 0;

    std::int64_t firstStart = 0; ///< the time axis' origin: the earliest start
    std::int64_t lastEnd = 0;    ///< the latest end
    /// Requests that match the filter but have no start time (client benchmark files carry durations
    /// only): they cannot be placed on a time axis and are not in the columns.
    std::int64_t withoutStart = 0;
    /// Placed requests with no measured time (a start only, as in arrival traces such as Mooncake's): bars
    /// of no length, which the density cannot show.
    std::int64_t withoutTime = 0;
    /// The times are offsets from an unknown origin (kFlagRelativeTime), not wall-clock times.
    bool relativeTime = false;
    RequestFilter filter; ///< what was read

    std::size_t size() const { return ids.size(); }
    bool empty() const { return ids.empty(); }
    std::int64_t segment(std::size_t i, Segment s) const { return segments[static_cast<std::size_t>(s)][i]; }
    /// The room a segment takes in the bar: its time, 0 when not measured (that time is in unattributed),
    /// so that the parts add up to e2e.
    std::int64_t part(std::size_t i, int segment) const
    {
        const std::int64_t v = segments[static_cast<std::size_t>(segment)][i];
        return isMeasured(v) ? v : 0;
    }
    /// The index of the request with that row id; nullopt when it is not here.
    std::optional<std::size_t> indexOf(std::int64_t rowId) const;
};

/// Reads the requests matching `filter` on a read connection of its own (the store's own connection stays
/// free for the UI thread), sorts them by start and packs the lanes. Null with the reason on an SQL error
/// or when `cancel` became true (checked every few thousand rows and between the stages).
std::shared_ptr<const WaterfallData> loadWaterfall(const Store &store, const RequestFilter &filter,
                                                   const std::atomic<bool> *cancel = nullptr, std::string *error = nullptr);

/// Packs intervals [starts[i], ends[i]) given in start order into the fewest lanes in which none overlap
/// (greedy interval partitioning: each takes the lowest lane free at its start, and a new lane opens only
/// when every lane is busy, so the count is the largest number of intervals open at one time). An interval
/// may start where the previous one in its lane ends. Writes each interval's lane; returns the count.
std::uint32_t assignLanes(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends,
                          std::span<std::uint32_t> lanes);

} // namespace lx
