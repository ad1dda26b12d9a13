// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/latency_rows.h"

#include "store/store.h"

#include "model/huge_page_allocator.h"

#include <cstring>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace lx {

// Rows are written into raw memory and moved with memmove: that needs a type without constructors that
// matter.
static_assert(std::is_trivially_copyable_v<LatencyRow>);

LatencyRows::LatencyRows(std::size_t capacity)
    : m_rows(capacity ? HugePageAllocator<LatencyRow>().allocate(capacity) : nullptr), m_capacity(capacity)
{
}

LatencyRows::LatencyRows(std::span<const LatencyRow> lent)
    : m_rows(const_cast<LatencyRow *>(lent.data())), m_size(lent.size()) // never written through: only lent out as const
{
}

LatencyRows::LatencyRows(LatencyRows &&other) noexcept
    : m_rows(std::exchange(other.m_rows, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_capacity(std::exchange(other.m_capacity, 0))
{
}

LatencyRows &LatencyRows::operator=(LatencyRows &&other) noexcept
{
    if (this != &other) {
        LatencyRows gone(std::move(*this));
        m_rows = std::exchange(other.m_rows, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
    }
    return *this;
}

LatencyRows::~LatencyRows()
{
    if (m_rows && m_capacity > 0)
        HugePageAllocator<LatencyRow>().deallocate(m_rows, m_capacity);
}

void LatencyRowCollector::reserve(const RowIdRange &range)
{
    // Half 0 reads ids [lo, mid) and half 1 [mid, hi]: ids are unique, so each has at most that many rows.
    m_rows = LatencyRows(static_cast<std::size_t>(range.rows()));
    m_upperAt = range.twoHalves ? static_cast<std::size_t>(range.mid() - range.lo) : m_rows.m_capacity;
    m_counts = {};
    m_compacted = false;
    m_lent = false;
}

void LatencyRowCollector::lend(std::span<const LatencyRow> rows)
{
    m_rows = LatencyRows(rows);
    m_upperAt = 0;
    m_counts = {};
    m_compacted = true;
    m_lent = true;
}

void LatencyRowCollector::operator()(int half, const RequestRow &row)
{
    const std::size_t at = half == 0 ? m_counts[0] : m_upperAt + m_counts[1];
    if (at >= (half == 0 ? m_upperAt : m_rows.m_capacity))
        throw std::logic_error("a scan gave more rows than its id range holds");
    new (m_rows.m_rows + at) LatencyRow(row); // the LatencyRow part: the report's columns stay behind
    ++m_counts[half == 0 ? 0 : 1];
}

std::span<const LatencyRow> LatencyRowCollector::collected()
{
    if (!m_compacted) { // lent rows are compacted already
        if (m_counts[1] > 0 && m_upperAt != m_counts[0])
            std::memmove(static_cast<void *>(m_rows.m_rows + m_counts[0]), m_rows.m_rows + m_upperAt,
                         m_counts[1] * sizeof(LatencyRow));
        m_rows.m_size = m_counts[0] + m_counts[1];
        m_compacted = true;
    }
    return m_rows.span();
}

LatencyRows LatencyRowCollector::take()
{
    collected();
    LatencyRows out = std::move(m_rows);
    m_counts = {};
    m_compacted = false;
    m_lent = false;
    m_upperAt = 0;
    return out;
}

LatencyRows readLatencyRows(const Store &store, const RequestFilter &filter)
{
    LatencyRowCollector collector;
    const RowIdRange range = requestIdRange(store);
    collector.reserve(range);
    scanRequestRows(store, toSqlCondition(filter), range, collector);
    return collector.take();
}

} // namespace lx
