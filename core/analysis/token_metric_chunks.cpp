// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/token_metric_chunks.h"

#include "model/rank_histogram.h"
#include "store/request_columns.h"

namespace lx {

std::array<Statistic, 2> summarizeTokenMetricChunks(sqlite3 *db, std::array<RankHistogram *, 2> counted,
                                                    bool includeErrors, const std::vector<double> &percentiles)
{
    static constexpr std::array<std::size_t, 3> kColumns = { kTtftColumn, kTtltColumn, kStatesColumn };
    // Calls take(metric, value) for each value the statistics count, metric 0 TTFT and 1 TTLT.
    const auto forEachValue = [&](auto &&take) {
        readChunkColumns(db, kColumns, [&](std::span<const std::int64_t *const> columns, std::size_t rows) {
            for (std::size_t i = 0; i < rows; ++i) {
                if (!includeErrors && (columns[2][i] & kStateOk) == 0)
                    continue;
                for (std::size_t m = 0; m < 2; ++m)
                    if (isMeasured(columns[m][i]))
                        take(m, columns[m][i]);
            }
        });
    };
    for (RankHistogram *h : counted)
        h->plan(percentiles);
    forEachValue([&](std::size_t m, std::int64_t v) { counted[m]->keep(v); });
    std::array<Statistic, 2> out;
    for (std::size_t m = 0; m < 2; ++m) {
        if (std::optional<Statistic> stat = counted[m]->finish()) {
            out[m] = std::move(*stat);
            continue;
        }
        // Values much alike but not equal (rare): this metric's copied out and selected.
        std::vector<std::int64_t> values;
        values.reserve(static_cast<std::size_t>(counted[m]->count()));
        forEachValue([&](std::size_t metric, std::int64_t v) {
            if (metric == m)
                values.push_back(v);
        });
        out[m] = summarize(values, percentiles);
    }
    return out;
}

} // namespace lx
