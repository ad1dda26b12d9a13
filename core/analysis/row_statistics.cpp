// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/row_statistics.h"

#include "analysis/row_halves.h"
#include "model/rank_histogram.h"

#include <exception>
#include <functional>
#include <thread>

namespace lx {

void onTwoThreads(const std::function<void(std::size_t)> &work)
{
    // An exception of either half is thrown here once both are done: one escaping the worker, or this
    // thread leaving a joinable worker behind, would end the process (a damaged chunk is an error to report).
    std::exception_ptr workerFailed;
    std::thread worker([&] {
        try {
            work(1);
        } catch (...) {
            workerFailed = std::current_exception();
        }
    });
    try {
        work(0);
    } catch (...) {
        worker.join();
        throw;
    }
    worker.join();
    if (workerFailed)
        std::rethrow_exception(workerFailed);
}

std::array<Statistic, kRowMetrics> summarizeRows(std::span<const LatencyRow> rows, bool includeErrors,
                                                 const std::vector<double> &percentiles)
{
    // Pass 1: each thread counts its half; the upper half's counts are then added to the lower's.
    std::array<std::vector<RankHistogram>, 2> histograms = {std::vector<RankHistogram>(kRowMetrics),
                                                            std::vector<RankHistogram>(kRowMetrics)};
    tallyHalves(rows, histograms, [&](std::vector<RankHistogram> &mine, std::size_t, const LatencyRow &row) {
        forEachRowValue(row, includeErrors, [&](std::size_t m, std::int64_t v) { mine[m].count(v); });
    });
    const bool twoHalves = upperHalfStart(rows.size()) < rows.size();
    std::vector<RankHistogram> &merged = histograms[0];
    for (std::size_t m = 0; m < kRowMetrics; ++m) {
        merged[m].addCounts(histograms[1][m]);
        merged[m].plan(percentiles);
    }
    // Pass 2: the upper half keeps into a copy of the planned histograms, added back afterwards.
    if (twoHalves)
        histograms[1] = merged;
    tallyHalves(rows, histograms, [&](std::vector<RankHistogram> &mine, std::size_t, const LatencyRow &row) {
        forEachRowValue(row, includeErrors, [&](std::size_t m, std::int64_t v) { mine[m].keep(v); });
    });
    std::array<Statistic, kRowMetrics> out;
    for (std::size_t m = 0; m < kRowMetrics; ++m) {
        if (twoHalves)
            merged[m].addKept(histograms[1][m]);
        if (std::optional<Statistic> stat = merged[m].finish()) {
            out[m] = std::move(*stat);
            continue;
        }
        // Values much alike but not equal (rare): the metric's values copied out and selected in place.
        std::vector<std::int64_t> values;
        values.reserve(static_cast<std::size_t>(merged[m].count()));
        for (const LatencyRow &row : rows)
            forEachRowValue(row, includeErrors, [&](std::size_t metric, std::int64_t v) {
                if (metric == m)
                    values.push_back(v);
            });
        out[m] = summarize(values, percentiles);
    }
    return out;
}

} // namespace lx
