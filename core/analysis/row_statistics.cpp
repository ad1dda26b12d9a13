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
    const auto pick
        = [&](std::size_t, const LatencyRow &row, auto &&take) { forEachRowValue(row, includeErrors, take); };
    std::vector<std::optional<Statistic>> stats = histogramsOverHalves(rows, kRowMetrics, pick, percentiles);
    std::array<Statistic, kRowMetrics> out;
    for (std::size_t m = 0; m < kRowMetrics; ++m) {
        if (stats[m]) {
            out[m] = std::move(*stats[m]);
            continue;
        }
        // Values much alike but not equal (rare): the metric's values copied out and selected in place.
        std::vector<std::int64_t> values;
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
