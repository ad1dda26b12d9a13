// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/waterfall_rows.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

/// \file waterfall_density.h
/// The waterfall's level of detail. When the rows on screen outnumber the pixel rows, or the bars in view
/// are too many to draw one by one, a frame shows a density instead: the rows are grouped into bands (a
/// pixel row each) and the time into bins (a pixel column each), and each cell says how much of its
/// band's time its requests fill and which segment fills most of it. One pass over the requests in view,
/// whatever their number: 1M requests make a frame in tens of milliseconds.

namespace lx {

/// The part of the waterfall on screen and the pixel grid it is drawn on.
struct WaterfallViewport {
    std::int64_t fromNs = 0;   ///< the visible time range [fromNs, toNs)
    std::int64_t toNs = 0;
    std::size_t firstRow = 0;  ///< the visible display rows [firstRow, firstRow + rowCount)
    std::size_t rowCount = 0;
    int columns = 0; ///< time bins across [fromNs, toNs): pixel columns
    int bands = 0;   ///< groups of rows: pixel rows, or one a row when the rows are fewer

    /// The first display row of band b (b == bands gives the end of the last band).
    std::size_t bandBegin(int band) const
    {
        return firstRow + static_cast<std::size_t>(std::uint64_t(rowCount) * std::uint64_t(band) / std::uint64_t(bands));
    }
    bool operator==(const WaterfallViewport &) const = default;
};

/// What the requests of one band that are in the visible time range are made of.
struct WaterfallBand {
    std::size_t firstRow = 0, endRow = 0; ///< its display rows [firstRow, endRow)
    std::int64_t requests = 0;            ///< its requests in the time range
    /// The sum of each segment's part over those requests (the time, 0 where not measured), by Segment.
    std::array<std::int64_t, kSegmentCount> partSums{};
    /// How many of those requests have each segment measured: "not measured" stays apart from 0.
    std::array<std::int64_t, kSegmentCount> measured{};

    /// The mean of a segment over the band's requests that have it measured; nullopt when none has.
    std::optional<double> meanMeasured(Segment s) const;
    /// The mean part of a segment over all of the band's requests (not measured counting 0, so that the
    /// parts add up to the mean e2e): the composition of the band's mean bar.
    double meanPart(Segment s) const;
};

/// A grid of bands × columns over a viewport, band after band.
struct WaterfallDensity {
    int columns = 0;
    int bands = 0;
    /// The share of a cell's band time (its rows × the bin's length) that bars fill: 0..1.
    std::vector<float> fill;
    /// The segment that fills most of a cell (ties to the earlier in pipeline order); -1 when empty.
    std::vector<std::int8_t> dominant;
    std::vector<WaterfallBand> bandInfo; ///< one per band

    std::size_t cell(int band, int column) const
    {
        return static_cast<std::size_t>(band) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(column);
    }
};

/// Where a request's unattributed time is laid in its bar: before the first server segment in pipeline
/// order that is not measured, since that is where the missing time was spent (a benchmark client measures
/// decode only: its unattributed time is mostly the time to the first token, before decode); at the end
/// when every one is measured (then it is the gaps between them). Network is not asked: a server-side
/// record does not measure it, and its e2e does not hold it. Unattributed itself when last.
template<class Columns>
int unattributedPlace(const Columns &columns, std::size_t i)
{
    constexpr int kUnattributed = static_cast<int>(Segment::Unattributed);
    for (int s = static_cast<int>(Segment::Preprocess); s < kUnattributed; ++s) {
        if (!isMeasured(columns.segments[static_cast<std::size_t>(s)][i]))
            return s;
    }
    return kUnattributed;
}

/// Lays the segments of request i one after another from its start, in pipeline order with unattributed
/// at unattributedPlace(), and calls visit(segment, begin, end) for each one that takes time (measured and
/// positive). `columns` is the WaterfallData (i a request) or a WaterfallFrameColumns (i a display position).
template<class Columns, class Visit>
void forEachSegmentSpan(const Columns &columns, std::size_t i, Visit &&visit)
{
    constexpr int kUnattributed = static_cast<int>(Segment::Unattributed);
    const int place = unattributedPlace(columns, i);
    std::int64_t at = columns.starts[i];
    const auto lay = [&](int s) {
        const std::int64_t d = columns.part(i, s);
        if (d <= 0)
            return;
        visit(s, at, at + d);
        at += d;
    };
    for (int s = 0; s < kUnattributed; ++s) {
        if (s == place)
            lay(kUnattributed);
        lay(s);
    }
    if (place == kUnattributed)
        lay(kUnattributed);
}

/// The threads for a frame's work of `items`: one per `itemsPerThread`, at least one, at most the cores
/// and 8 (the density's requests here, the image's cells in widgets/waterfall_shading.cpp).
std::size_t frameThreads(std::size_t items, std::size_t itemsPerThread);

/// The density of the requests of `rows` in the viewport. Many requests in view are shared among
/// `threads` threads (0: one per 50,000 requests, up to the cores and 8); the result is the same on any number.
/// Once `cancel` is true the bands not begun are left empty: a result to drop (a view no longer wanted).
WaterfallDensity aggregateWaterfall(const WaterfallData &data, const WaterfallRows &rows, const WaterfallViewport &view,
                                    std::size_t threads = 0, const std::atomic<bool> *cancel = nullptr);

/// A request to draw as a bar and its display row.
struct WaterfallBar {
    std::uint32_t request;
    std::uint32_t row;
};

/// The requests in the viewport, for drawing one by one; nullopt when there are more than `limit`, the
/// point where a frame should show the density instead.
std::optional<std::vector<WaterfallBar>> visibleBars(const WaterfallData &data, const WaterfallRows &rows,
                                                     const WaterfallViewport &view, std::size_t limit);

} // namespace lx
