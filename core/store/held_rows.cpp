// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/held_rows.h"

#include "platform/huge_pages.h"
#include "platform/physical_memory.h"

#include <algorithm>

namespace lx {

std::size_t maxHeldRequests()
{
    const std::uint64_t memory = physicalMemoryBytes();
    return memory == 0 ? std::size_t{4'000'000} : static_cast<std::size_t>(memory / 8 / kHeldBytesPerRequest);
}

void HeldRows::add(const RequestRecord &record, std::int64_t modelId, std::int64_t routeId)
{
    const RequestMetrics &m = record.metrics;
    LatencyRow row;
    row.start = m.start;
    row.e2e = m.e2e;
    row.segments = m.segments;
    row.flags = m.flags;
    row.ok = record.status == Status::Ok;
    row.tpot = m.tpot;
    m_rows.push_back(row);
    m_rest.push_back({m.ttft, m.ttlt, modelId, routeId, record.inputTokens, record.outputTokens, m.dominant, m.e2eScope,
                      m.tokenScope});
    m_times.insert(m_times.end(), record.tokenTimes.begin(), record.tokenTimes.end());
    m_timesEnd.push_back(m_times.size());
}

HeldRequest HeldRows::request(std::size_t index) const
{
    const LatencyRow &row = m_rows[index];
    const Rest &rest = m_rest[index];
    HeldRequest out;
    RequestMetrics &m = out.metrics;
    m.segments = row.segments;
    m.e2e = row.e2e;
    m.e2eScope = rest.e2eScope;
    m.ttft = rest.ttft;
    m.tpot = row.tpot;
    m.ttlt = rest.ttlt;
    m.tokenScope = rest.tokenScope;
    m.start = row.start;
    m.dominant = rest.dominant;
    m.flags = row.flags;
    out.status = row.ok ? Status::Ok : Status::Error;
    out.modelId = rest.modelId;
    out.routeId = rest.routeId;
    out.inputTokens = rest.inputTokens;
    out.outputTokens = rest.outputTokens;
    return out;
}

void HeldRows::reserve(std::size_t requests)
{
    requests = std::min(requests, m_maxRequests);
    m_rows.reserve(requests);
    m_rest.reserve(requests);
    m_timesEnd.reserve(requests);
    adviseHugePages(m_rows.data(), m_rows.capacity() * sizeof(LatencyRow));
    adviseHugePages(m_rest.data(), m_rest.capacity() * sizeof(Rest));
    adviseHugePages(m_timesEnd.data(), m_timesEnd.capacity() * sizeof(std::size_t));
}

std::span<const std::int64_t> HeldRows::tokenTimes(std::size_t index) const
{
    const std::size_t begin = index == 0 ? 0 : m_timesEnd[index - 1];
    return {m_times.data() + begin, m_timesEnd[index] - begin};
}

void HeldRows::clear()
{
    // Swapped out, not cleared: the memory goes back now, not when the store closes.
    std::vector<LatencyRow>().swap(m_rows);
    std::vector<Rest>().swap(m_rest);
    std::vector<std::int64_t>().swap(m_times);
    std::vector<std::size_t>().swap(m_timesEnd);
}

} // namespace lx
