// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/dominant_breakdown.h"

#include "model/decompose.h"
#include "analysis/time_axis.h"
#include "analysis/time_grid.h"
#include "filter/filter_text.h"
#include "model/duration_format.h"
#include "model/percentiles.h"
#include "store/request_scan.h"
#include "store/store.h"

#include <algorithm>
#include <cmath>

namespace lx {

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kDay = 86'400 * kSecond;
constexpr std::uint64_t kMaxWindows = 60;

/// What the breakdown needs of one request in the statistics.
struct DominantRow {
    std::int64_t e2e;
    std::int64_t start;
    int dominant;
};

/// One half of the scan; the halves run on two threads.
struct Gathered {
    std::vector<DominantRow> rows;
    std::int64_t errorsLeftOut = 0;
    TimeAxisCount axis; ///< whether the windows are dates or offsets

    void add(const RequestRow &row, bool includeErrors)
    {
        if (!row.ok && !includeErrors) {
            ++errorsLeftOut;
            return;
        }
        // As the report counts it: the dominant segment follows from the segments (the stored column is the same).
        const int dominant = dominantSegment(row.segments);
        if (dominant < 0)
            return;
        rows.push_back({row.e2e, row.start, dominant});
        axis.add(row.start, row.flags);
    }
};

std::uint64_t windowsOf(std::int64_t firstNs, std::int64_t lastNs, std::int64_t width)
{
    return TimeGrid::windowsOver(firstNs, lastNs, width);
}

/// The smallest e2e in ns at or above a percentile's value: e2e < it is the same as e2e < the percentile,
/// for integer e2e, and it is a boundary the filter language can write exactly.
std::int64_t ceilNs(double ns) { return static_cast<std::int64_t>(std::ceil(ns)); }

/// The decimals of the second that show a multiple of `width` exactly: window boundaries are such multiples.
int fractionDigits(std::int64_t width)
{
    return width % kSecond == 0 ? 0 : width % 1'000'000 == 0 ? 3 : width % 1000 == 0 ? 6 : 9;
}

/// A band's edge for the filter language, short: the edge rounded to ms or µs when no request's e2e lies
/// between the two (`e2e < 8.627s`, not `e2e < 8626975926ns`), so that the text selects what the band counts.
std::string edgeText(const std::vector<std::int64_t> &sortedE2e, std::int64_t edge)
{
    const BoundRange same = equivalentBounds(sortedE2e, edge);
    return filterDuration(roundedWithin(edge, same.lo, same.hi));
}

/// A window boundary for people.
std::string instantLabel(std::int64_t ns, std::int64_t width, bool relative)
{
    return formatInstant(ns, relative, fractionDigits(width));
}

/// Fills each cell's expression and description: "dominant = <segment>" and the bar's `condition`.
void describeCells(DominantBar &bar, const std::string &condition, const std::string &what, bool okOnly)
{
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::string name(segmentName(static_cast<Segment>(s)));
        std::string &expression = bar.expressions[static_cast<std::size_t>(s)];
        expression = "dominant = " + name;
        if (!condition.empty())
            expression += " and " + condition;
        if (okOnly) // the statistics leave error requests out: so does the selection
            expression += " and status = ok";
        bar.descriptions[static_cast<std::size_t>(s)] = name + "-dominated requests" + (what.empty() ? "" : ", " + what);
    }
}

void count(DominantBar &bar, const DominantRow &row)
{
    ++bar.counts[static_cast<std::size_t>(row.dominant)];
    ++bar.total;
}

void fillBands(DominantBreakdown &out, const std::vector<DominantRow> &rows, bool okOnly)
{
    std::vector<std::int64_t> e2e;
    e2e.reserve(rows.size());
    for (const DominantRow &row : rows) {
        if (isMeasured(row.e2e))
            e2e.push_back(row.e2e);
    }
    // The report's own function on the same values: the bands' edges are the report's percentiles.
    const Statistic stat = summarize(e2e, {50.0, 90.0, 99.0});
    std::sort(e2e.begin(), e2e.end()); // for equivalentBounds()
    for (std::size_t i = 0; i < out.e2ePercentilesNs.size(); ++i)
        out.e2ePercentilesNs[i] = stat.percentilesNs[i].value_or(0.0);

    static const std::array<const char *, kLatencyBandCount> labels = {"p0–50", "p50–90", "p90–99", "p99+"};
    std::array<std::int64_t, kLatencyBandCount + 1> edges = {kNotMeasured, ceilNs(out.e2ePercentilesNs[0]),
                                                             ceilNs(out.e2ePercentilesNs[1]),
                                                             ceilNs(out.e2ePercentilesNs[2]), kNotMeasured};
    for (int b = 0; b < kLatencyBandCount; ++b) {
        DominantBar &bar = out.bands[static_cast<std::size_t>(b)];
        bar.label = labels[static_cast<std::size_t>(b)];
        bar.fromNs = edges[static_cast<std::size_t>(b)];
        bar.toNs = edges[static_cast<std::size_t>(b) + 1];
        std::string condition, range;
        if (isMeasured(bar.fromNs)) {
            condition = "e2e >= " + edgeText(e2e, bar.fromNs);
            range = "from " + formatDuration(static_cast<double>(bar.fromNs));
        }
        if (isMeasured(bar.toNs)) {
            condition += std::string(condition.empty() ? "" : " and ") + "e2e < " + edgeText(e2e, bar.toNs);
            range += (range.empty() ? "" : " ") + std::string("below ") + formatDuration(static_cast<double>(bar.toNs));
        }
        describeCells(bar, condition, "e2e " + bar.label + " (" + range + ")", okOnly);
    }
    for (const DominantRow &row : rows) {
        if (!isMeasured(row.e2e)) {
            ++out.withoutE2e;
            continue;
        }
        int b = 0;
        while (b < kLatencyBandCount - 1 && row.e2e >= edges[static_cast<std::size_t>(b) + 1])
            ++b;
        count(out.bands[static_cast<std::size_t>(b)], row);
    }
}

void fillWindows(DominantBreakdown &out, const std::vector<DominantRow> &rows, bool okOnly)
{
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (const DominantRow &row : rows) {
        if (!isMeasured(row.start)) {
            ++out.withoutStart;
            continue;
        }
        first = std::min(first, row.start);
        last = std::max(last, row.start);
    }
    if (first > last)
        return;
    const std::int64_t width = roundWindowWidth(first, last);
    const TimeGrid grid = TimeGrid::over(first, last, width);
    out.windowNs = width;
    out.windows.resize(static_cast<std::size_t>(grid.count));
    for (std::size_t w = 0; w < out.windows.size(); ++w) {
        DominantBar &bar = out.windows[w];
        bar.fromNs = grid.startOf(w);
        bar.toNs = grid.endOf(w);
        bar.label = instantLabel(bar.fromNs, width, out.relativeTime);
        describeCells(bar,
                      "start >= " + filterInstant(bar.fromNs, out.relativeTime) + " and start < "
                          + filterInstant(bar.toNs, out.relativeTime),
                      "starting " + bar.label + " to " + instantLabel(bar.toNs, width, out.relativeTime), okOnly);
    }
    for (const DominantRow &row : rows) {
        if (isMeasured(row.start))
            count(out.windows[static_cast<std::size_t>(grid.indexOf(row.start))], row);
    }
}

} // namespace

std::int64_t roundWindowWidth(std::int64_t firstNs, std::int64_t lastNs)
{
    static const std::vector<std::int64_t> widths = [] {
        std::vector<std::int64_t> w;
        for (std::int64_t decade = 1; decade < kSecond; decade *= 10) {
            for (std::int64_t step : {1, 2, 5})
                w.push_back(step * decade);
        }
        for (std::int64_t seconds : {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200})
            w.push_back(seconds * kSecond);
        return w;
    }();
    for (std::int64_t width : widths) {
        if (windowsOf(firstNs, lastNs, width) <= kMaxWindows)
            return width;
    }
    // Unsigned: the two may lie more than INT64_MAX apart (time_grid.h).
    std::int64_t days = std::max<std::int64_t>(1, static_cast<std::int64_t>(timeDistance(firstNs, lastNs) / static_cast<std::uint64_t>(kDay) / kMaxWindows));
    while (windowsOf(firstNs, lastNs, days * kDay) > kMaxWindows)
        ++days;
    return days * kDay;
}

DominantBreakdown computeDominantBreakdown(const Store &store, const RequestFilter &filter, const AnalysisOptions &options)
{
    std::array<Gathered, 2> halves;
    scanRequestRows(store, toSqlCondition(filter), requestIdRange(store),
                    [&](int half, const RequestRow &row) { halves[half == 0 ? 0 : 1].add(row, options.includeErrors); });
    std::vector<DominantRow> rows = std::move(halves[0].rows);
    rows.insert(rows.end(), halves[1].rows.begin(), halves[1].rows.end());

    DominantBreakdown out;
    out.includeErrors = options.includeErrors;
    // Without errors in the data the selection needs no status term; with them it must leave them out.
    const bool okOnly = halves[0].errorsLeftOut + halves[1].errorsLeftOut > 0;
    out.overall.label = "all";
    describeCells(out.overall, {}, {}, okOnly);
    for (const DominantRow &row : rows)
        count(out.overall, row);
    fillBands(out, rows, okOnly);
    TimeAxisCount axis = halves[0].axis;
    axis.add(halves[1].axis);
    out.relativeTime = axis.relative();
    fillWindows(out, rows, okOnly);
    return out;
}

} // namespace lx
