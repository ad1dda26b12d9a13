// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/latency_rows.h"

#include "store/store.h"

#include "platform/huge_pages.h"

namespace lx {

void LatencyRowCollector::reserve(const RowIdRange &range)
{
    // The lower half gets room for every row, so that take() appends the upper half without moving it.
    m_halves[0].reserve(static_cast<std::size_t>(range.rows()));
    m_halves[1].reserve(static_cast<std::size_t>(range.hi - range.mid() + 1));
    // A million rows are 88 MB, and on these machines the first touch of each 4 KiB page cost more than the
    // row written into it: huge pages under the reserved memory make it a fault per 2 MiB.
    for (auto &half : m_halves)
        adviseHugePages(half.data(), half.capacity() * sizeof(LatencyRow));
}

void LatencyRowCollector::operator()(int half, const RequestRow &row)
{
    m_halves[half == 0 ? 0 : 1].push_back(row); // the LatencyRow part: the report's columns stay behind
}

std::vector<LatencyRow> LatencyRowCollector::take()
{
    std::vector<LatencyRow> out = std::move(m_halves[0]);
    out.insert(out.end(), m_halves[1].begin(), m_halves[1].end());
    m_halves[1].clear();
    return out;
}

std::vector<LatencyRow> readLatencyRows(const Store &store, const RequestFilter &filter)
{
    LatencyRowCollector collector;
    const RowIdRange range = requestIdRange(store);
    collector.reserve(range);
    scanRequestRows(store, toSqlCondition(filter), range, collector);
    return collector.take();
}

} // namespace lx
