// SPDX-License-Identifier: GPL-3.0-or-later
#include "latency_rows.h"

#include "store.h"

namespace lx {

void LatencyRowCollector::operator()(int half, const RequestRow &row)
{
    LatencyRow &r = m_halves[half == 0 ? 0 : 1].emplace_back();
    r.start = row.start;
    r.e2e = row.e2e;
    r.segments = row.segments;
    r.flags = row.flags;
    r.ok = row.ok;
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
    scanRequestRows(store, toSqlCondition(filter), requestIdRange(store), collector);
    return collector.take();
}

} // namespace lx
