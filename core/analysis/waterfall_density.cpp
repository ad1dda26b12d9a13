// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/waterfall_density.h"

#include "analysis/time_grid.h"

#include <algorithm>
#include <functional>
#include <thread>

namespace lx {

std::optional<double> WaterfallBand::meanMeasured(Segment s) const
{
    const auto k = static_cast<std::size_t>(s);
    if (measured[k] == 0)
        return std::nullopt;
    return static_cast<double>(partSums[k]) / static_cast<double>(measured[k]);
}

double WaterfallBand::meanPart(Segment s) const
{
    return requests ? static_cast<double>(partSums[static_cast<std::size_t>(s)]) / static_cast<double>(requests) : 0.0;
}

namespace {

/// t - from in ns as a double: the same value as the int64 difference, which a view from 1677 to 2262
/// would overflow (the distance is taken unsigned, time_grid.h).
double offsetNs(std::int64_t t, std::int64_t from)
{
    return t >= from ? static_cast<double>(timeDistance(from, t)) : -static_cast<double>(timeDistance(t, from));
}

/// Adds the time of a segment span to the columns it covers, in bins: `at` holds kSegmentCount values a
/// column, the partial bins at the ends; a run of whole bins between them goes into `runs` as +1 where it
/// begins and -1 where it ends (summed when the band is done), so that a request spanning hours of a
/// zoomed-out view costs as much as a short one. Widens [lo, hi], the columns touched.
void addSpan(std::vector<double> &at, std::vector<double> &runs, int segment, double x0, double x1, int columns, int &lo,
             int &hi)
{
    x0 = std::max(x0, 0.0);
    x1 = std::min(x1, static_cast<double>(columns));
    if (!(x1 > x0))
        return;
    const int c0 = std::min(static_cast<int>(x0), columns - 1);
    const int c1 = std::min(static_cast<int>(x1), columns - 1);
    lo = std::min(lo, c0);
    hi = std::max(hi, c1);
    const auto index = [&](int c) { return static_cast<std::size_t>(c) * kSegmentCount + static_cast<std::size_t>(segment); };
    if (c0 == c1) {
        at[index(c0)] += x1 - x0;
        return;
    }
    at[index(c0)] += c0 + 1 - x0;
    if (c1 > c0 + 1) {
        runs[index(c0 + 1)] += 1.0;
        runs[index(c1)] -= 1.0;
    }
    at[index(c1)] += x1 - c1;
}

/// What one frame's bands share: the data in display order and the grid, in bins.
struct BandGrid {
    const WaterfallData &data;
    const WaterfallRows &rows;
    const WaterfallViewport &grid;
    WaterfallFrameColumns columns;
    double binsPerNs;
};

/// Fills band b of `out` (sized already): its requests in one pass, then its cells. `at` and `runs` are
/// addSpan()'s, all zero on entry and on return, so that a thread reuses them band after band.
void aggregateBand(const BandGrid &g, int b, std::vector<double> &at, std::vector<double> &runs, WaterfallDensity &out)
{
    const WaterfallFrameColumns &columns = g.columns;
    WaterfallBand &band = out.bandInfo[static_cast<std::size_t>(b)];
    band.firstRow = g.grid.bandBegin(b);
    band.endRow = g.grid.bandBegin(b + 1);
    int lo = out.columns, hi = -1;
    g.rows.forEachIn(g.data, band.firstRow, band.endRow, g.grid.fromNs, g.grid.toNs, [&](std::size_t p, std::size_t) {
        ++band.requests;
        for (std::size_t s = 0; s < kSegmentCount; ++s) {
            const std::int64_t d = columns.segments[s][p];
            if (!isMeasured(d))
                continue;
            ++band.measured[s];
            band.partSums[s] += d;
        }
        // The spans are contiguous: each boundary's column is worked out once, by a product (a
        // division cost a fifth of a frame of a million requests).
        double x0 = offsetNs(columns.starts[p], g.grid.fromNs) * g.binsPerNs;
        forEachSegmentSpan(columns, p, [&](int s, std::int64_t, std::int64_t end) {
            const double x1 = offsetNs(end, g.grid.fromNs) * g.binsPerNs;
            addSpan(at, runs, s, x0, x1, out.columns, lo, hi);
            x0 = x1;
        });
    });
    const double bandRows = static_cast<double>(std::max<std::size_t>(band.endRow - band.firstRow, 1));
    std::array<double, kSegmentCount> running{};
    for (int c = lo; c <= hi; ++c) {
        double *segments = &at[static_cast<std::size_t>(c) * kSegmentCount];
        double *starts = &runs[static_cast<std::size_t>(c) * kSegmentCount];
        double total = 0, most = 0;
        int dominant = -1;
        for (int s = 0; s < kSegmentCount; ++s) {
            running[static_cast<std::size_t>(s)] += starts[s];
            starts[s] = 0;
            segments[s] += running[static_cast<std::size_t>(s)];
            total += segments[s];
            if (segments[s] > most) {
                most = segments[s];
                dominant = s;
            }
            segments[s] = 0;
        }
        out.fill[out.cell(b, c)] = static_cast<float>(std::min(total / bandRows, 1.0));
        out.dominant[out.cell(b, c)] = static_cast<std::int8_t>(dominant);
    }
}

/// Bands a thread takes at a time: few enough that the threads end together wherever the requests in view
/// are (panning a quarter of the time in rows by start, they are in a quarter of the bands: shared by the
/// requests of the rows, one thread had them all), many enough that taking them costs nothing.
constexpr int kBandsATake = 8;

/// Fills bands of `out`, kBandsATake at a time from `next`, until none is left or `cancel` is set. Bands
/// are independent: whichever thread fills one, it is the same.
void aggregateBands(const BandGrid &g, std::atomic<int> &next, const std::atomic<bool> *cancel, WaterfallDensity &out)
{
    std::vector<double> at(static_cast<std::size_t>(out.columns) * kSegmentCount, 0.0), runs(at.size(), 0.0);
    for (int first = next.fetch_add(kBandsATake); first < out.bands; first = next.fetch_add(kBandsATake)) {
        for (int b = first; b < std::min(first + kBandsATake, out.bands); ++b) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
            aggregateBand(g, b, at, runs, out);
        }
    }
}

/// Below this many requests in the rows of a frame, one thread does it all (starting threads costs more).
constexpr std::size_t kRequestsPerThread = 50'000;

} // namespace

std::size_t frameThreads(std::size_t items, std::size_t itemsPerThread)
{
    const std::size_t cores = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), 8);
    return std::clamp<std::size_t>(items / itemsPerThread, 1, cores);
}

WaterfallDensity aggregateWaterfall(const WaterfallData &data, const WaterfallRows &rows, const WaterfallViewport &view,
                                    std::size_t threads, const std::atomic<bool> *cancel)
{
    WaterfallDensity out;
    if (view.columns <= 0 || view.bands <= 0 || view.toNs <= view.fromNs || view.rowCount == 0)
        return out;
    out.columns = view.columns;
    out.bands = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(view.bands), view.rowCount));
    WaterfallViewport grid = view;
    grid.bands = out.bands;
    const std::size_t cells = static_cast<std::size_t>(out.bands) * static_cast<std::size_t>(out.columns);
    out.fill.assign(cells, 0.0f);
    out.dominant.assign(cells, -1);
    out.bandInfo.resize(static_cast<std::size_t>(out.bands));

    // A frame of a million requests takes 20-30 ms on one core: the bands are shared among threads, the
    // UI thread one of them, each taking the next few bands as it is free.
    if (threads == 0)
        threads = frameThreads(rows.requestsOf(view.firstRow, view.firstRow + view.rowCount).size(), kRequestsPerThread);
    const BandGrid g{data, rows, grid, rows.columns(data), grid.columns / offsetNs(grid.toNs, grid.fromNs)};
    std::atomic<int> next{0};
    std::vector<std::thread> workers;
    for (std::size_t t = 0; t + 1 < threads; ++t)
        workers.emplace_back(aggregateBands, std::cref(g), std::ref(next), cancel, std::ref(out));
    aggregateBands(g, next, cancel, out);
    for (std::thread &worker : workers)
        worker.join();
    return out;
}

std::optional<std::vector<WaterfallBar>> visibleBars(const WaterfallData &data, const WaterfallRows &rows,
                                                     const WaterfallViewport &view, std::size_t limit)
{
    std::vector<WaterfallBar> bars;
    bool tooMany = false;
    rows.forEachIn(data, view.firstRow, view.firstRow + view.rowCount, view.fromNs, view.toNs,
                   [&](std::size_t p, std::size_t row) {
                       if (bars.size() == limit) {
                           tooMany = true;
                           return false;
                       }
                       bars.push_back({rows.requests()[p], static_cast<std::uint32_t>(row)});
                       return true;
                   });
    if (tooMany)
        return std::nullopt;
    return bars;
}

} // namespace lx
