// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/token_metric_chunks.h"

#include "analysis/row_statistics.h"
#include "model/rank_histogram.h"
#include "store/read_connection.h"
#include "store/request_columns.h"
#include "store/store.h"

namespace lx {

std::array<Statistic, 2> summarizeTokenMetricChunks(const Store &store, const RowIdRange &range,
                                                    std::array<RankHistogram *, 2> counted, bool includeErrors,
                                                    const std::vector<double> &percentiles)
{
    static constexpr std::array<std::size_t, 3> kColumns = { kTtftColumn, kTtltColumn, kStatesColumn };
    // Calls take(metric, value) for each value the statistics count of the chunks whose first id is in
    // [from, to] read on `db`, metric 0 TTFT and 1 TTLT.
    const auto forEachValue = [&](sqlite3 *db, std::int64_t from, std::int64_t to, auto &&take) {
        readChunkColumns(
            db, kColumns,
            [&](std::span<const std::int64_t *const> columns, std::size_t rows) {
                for (std::size_t i = 0; i < rows; ++i) {
                    if (!includeErrors && (columns[2][i] & kStateOk) == 0)
                        continue;
                    for (std::size_t m = 0; m < 2; ++m)
                        if (isMeasured(columns[m][i]))
                            take(m, columns[m][i]);
                }
            },
            from, to);
    };
    for (RankHistogram *h : counted)
        h->plan(percentiles);
    // The chunks of the upper half of the ids on a second connection and thread, keeping into a copy of
    // the plan that is added back: the read is SQLite's pages more than the values, and it is a tenth of a
    // report on 10M requests.
    const ReadConnection second = range.twoHalves ? store.openReader() : ReadConnection();
    if (second) {
        std::array<RankHistogram, 2> upper = { *counted[0], *counted[1] };
        onTwoThreads([&](std::size_t half) {
            if (half == 0)
                forEachValue(store.db(), range.lo, range.mid() - 1,
                             [&](std::size_t m, std::int64_t v) { counted[m]->keep(v); });
            else
                forEachValue(second.db(), range.mid(), range.hi,
                             [&](std::size_t m, std::int64_t v) { upper[m].keep(v); });
        });
        for (std::size_t m = 0; m < 2; ++m)
            counted[m]->addKept(upper[m]);
    } else {
        forEachValue(store.db(), range.lo, range.hi, [&](std::size_t m, std::int64_t v) { counted[m]->keep(v); });
    }
    std::array<Statistic, 2> out;
    for (std::size_t m = 0; m < 2; ++m) {
        if (std::optional<Statistic> stat = counted[m]->finish()) {
            out[m] = std::move(*stat);
            continue;
        }
        // Values much alike but not equal (rare): this metric's copied out and selected.
        std::vector<std::int64_t> values;
        values.reserve(static_cast<std::size_t>(counted[m]->count()));
        forEachValue(store.db(), range.lo, range.hi, [&](std::size_t metric, std::int64_t v) {
            if (metric == m)
                values.push_back(v);
        });
        out[m] = summarize(values, percentiles);
    }
    return out;
}

} // namespace lx
