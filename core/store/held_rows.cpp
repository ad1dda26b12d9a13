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
    m_requests.push_back(HeldRequest::of(record, modelId, routeId));
    m_times.insert(m_times.end(), record.tokenTimes.begin(), record.tokenTimes.end());
    m_timesEnd.push_back(m_times.size());
}

void HeldRows::reserve(std::size_t requests)
{
    requests = std::min(requests, m_maxRequests);
    m_requests.reserve(requests);
    m_timesEnd.reserve(requests);
    adviseHugePages(m_requests.data(), m_requests.capacity() * sizeof(HeldRequest));
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
    std::vector<HeldRequest>().swap(m_requests);
    std::vector<std::int64_t>().swap(m_times);
    std::vector<std::size_t>().swap(m_timesEnd);
}

} // namespace lx
