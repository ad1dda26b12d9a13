// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/row_statistics.h"
#include "model/rank_histogram.h"
#include "store/request_scan.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

/// \file row_halves.h
/// A pass over the collected rows split between two threads: the lower half on this one, the upper half on
/// a second, each into a tally of its own that the caller adds up, lower half first (the rows' order). After
/// the scan, a report's load profile, knee and findings are a dozen passes over 880 MB of rows at 10M
/// requests, each bound by the memory it reads rather than by what it computes; one core read them in
/// about 80 ms a pass, 0.9 s in all.

namespace lx {

/// From this many rows on, a pass is worth a second thread (its start costs some 50 us).
inline constexpr std::size_t kRowsForTwoThreads = std::size_t(1) << 16;

/// Where a pass over `rows` rows splits: the first row of the upper half, or `rows` when all of them are
/// read on this thread (fewer than `twoThreadsFrom`).
inline std::size_t upperHalfStart(std::size_t rows, std::size_t twoThreadsFrom = kRowsForTwoThreads)
{
    return rows >= twoThreadsFrom && rows >= 2 ? rows / 2 : rows;
}

/// Calls visit(tallies[half], i, rows[i]) for every row i: the rows before upperHalfStart() into
/// tallies[0] on this thread, the others into tallies[1] on a second thread.
template<typename Tally, typename Visit>
void tallyHalves(std::span<const LatencyRow> rows, std::array<Tally, 2> &tallies, Visit &&visit,
                 std::size_t twoThreadsFrom = kRowsForTwoThreads)
{
    const std::size_t upper = upperHalfStart(rows.size(), twoThreadsFrom);
    const auto run = [&](std::size_t half) {
        Tally &tally = tallies[half];
        const std::size_t to = half == 0 ? upper : rows.size();
        for (std::size_t i = half == 0 ? 0 : upper; i < to; ++i)
            visit(tally, i, rows[i]);
    };
    if (upper == rows.size())
        run(0);
    else
        onTwoThreads(run);
}

/// The statistics of `metrics` sets of values read in place: pick(i, row, take) calls take(m, value) for
/// each value of metric m (< metrics) in row i. Two passes of a RankHistogram per metric over the halves, as
/// summarize() gives them; nullopt for a metric whose kept values cannot tell its percentiles (values much
/// alike but not equal, rare), which the caller reads again another way. The one two-pass loop of the row
/// statistics, the findings' threshold and the load buckets.
template<typename Pick>
std::vector<std::optional<Statistic>> histogramsOverHalves(std::span<const LatencyRow> rows, std::size_t metrics,
                                                           Pick &&pick, const std::vector<double> &percentiles,
                                                           std::size_t twoThreadsFrom = kRowsForTwoThreads)
{
    std::array<std::vector<RankHistogram>, 2> histograms
        = { std::vector<RankHistogram>(metrics), std::vector<RankHistogram>(metrics) };
    tallyHalves(
        rows, histograms,
        [&](std::vector<RankHistogram> &mine, std::size_t i, const LatencyRow &row) {
            pick(i, row, [&](std::size_t m, std::int64_t v) { mine[m].count(v); });
        },
        twoThreadsFrom);
    const bool twoHalves = upperHalfStart(rows.size(), twoThreadsFrom) < rows.size();
    std::vector<RankHistogram> &merged = histograms[0];
    for (std::size_t m = 0; m < metrics; ++m) {
        merged[m].addCounts(histograms[1][m]);
        merged[m].plan(percentiles);
    }
    if (twoHalves)
        histograms[1] = merged; // the upper half keeps into a copy of the plan, added back afterwards
    tallyHalves(
        rows, histograms,
        [&](std::vector<RankHistogram> &mine, std::size_t i, const LatencyRow &row) {
            pick(i, row, [&](std::size_t m, std::int64_t v) { mine[m].keep(v); });
        },
        twoThreadsFrom);
    std::vector<std::optional<Statistic>> out(metrics);
    for (std::size_t m = 0; m < metrics; ++m) {
        if (twoHalves)
            merged[m].addKept(histograms[1][m]);
        out[m] = merged[m].finish();
    }
    return out;
}

/// The statistic of the values pick(i, row, take) gives (it calls take(value) for each value of row i), as
/// summarize() gives it, read in place: two passes of a RankHistogram over the halves.
template<typename Pick>
Statistic summarizeHalvesInPlace(std::span<const LatencyRow> rows, Pick &&pick, const std::vector<double> &percentiles,
                                 std::size_t twoThreadsFrom = kRowsForTwoThreads)
{
    const auto one
        = [&](std::size_t i, const LatencyRow &row, auto &&take) { pick(i, row, [&](std::int64_t v) { take(0, v); }); };
    if (std::optional<Statistic> stat = histogramsOverHalves(rows, 1, one, percentiles, twoThreadsFrom)[0])
        return std::move(*stat);
    // Values much alike but not equal (rare): copied out and selected.
    std::vector<std::int64_t> values;
    for (std::size_t i = 0; i < rows.size(); ++i)
        pick(i, rows[i], [&](std::int64_t v) { values.push_back(v); });
    return summarize(values, percentiles);
}

} // namespace lx
