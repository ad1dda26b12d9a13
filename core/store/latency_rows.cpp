// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/latency_rows.h"

#include "store/store.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace lx {

namespace {

/// Asks for transparent huge pages under the vector's reserved memory: a million rows are 88 MB, and on
/// these machines the first touch of each 4 KiB page costs more than the row written into it.
void adviseHugePages([[maybe_unused]] std::vector<LatencyRow> &rows)
{
#if defined(__linux__)
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(rows.data());
    const std::uintptr_t end = begin + rows.capacity() * sizeof(LatencyRow);
    const std::uintptr_t first = (begin + kHuge - 1) / kHuge * kHuge;
    const std::uintptr_t last = end / kHuge * kHuge;
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE);
#endif
}

} // namespace

void LatencyRowCollector::reserve(const RowIdRange &range)
{
    // The lower half gets room for every row, so that take() appends the upper half without moving it.
    m_halves[0].reserve(static_cast<std::size_t>(range.rows()));
    m_halves[1].reserve(static_cast<std::size_t>(range.hi - range.mid() + 1));
    for (auto &half : m_halves)
        adviseHugePages(half);
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
