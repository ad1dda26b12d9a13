// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/id_set.h"

#include <algorithm>
#include <cstring>

namespace lx {

void IdSet::clear()
{
    m_slots.clear();
    m_arena.clear();
    m_size = 0;
}

void IdSet::reserve(std::size_t count)
{
    // The count is an estimate from a file's size: bounded, so that a huge (or sparse) file does not ask
    // for memory up front; past it the set grows as ids come.
    count = std::min<std::size_t>(count, std::size_t{1} << 24);
    std::size_t slots = 1024;
    while (slots * 3 < count * 4) // at most 3/4 full
        slots *= 2;
    if (slots > m_slots.size())
        rehash(slots);
    m_arena.reserve(count * 16);
}

void IdSet::rehash(std::size_t slots)
{
    std::vector<Slot, HugePageAllocator<Slot>> old = std::move(m_slots);
    m_slots.assign(slots, Slot{});
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot &slot : old) {
        if (slot.length == UINT32_MAX)
            continue;
        std::size_t i = slot.hash & mask;
        while (m_slots[i].length != UINT32_MAX)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

bool IdSet::insert(std::string_view id, std::uint64_t hash)
{
    if ((m_size + 1) * 4 > m_slots.size() * 3)
        rehash(m_slots.empty() ? 1024 : m_slots.size() * 2);
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hash & mask;
    while (m_slots[i].length != UINT32_MAX) {
        const Slot &slot = m_slots[i];
        if (slot.hash == hash && slot.length == id.size() && std::memcmp(m_arena.data() + std::size_t{slot.offset} * kAlign, id.data(), id.size()) == 0)
            return false;
        i = (i + 1) & mask;
    }
    const std::size_t offset = m_arena.size() / kAlign;
    m_arena.insert(m_arena.end(), id.begin(), id.end());
    m_arena.resize((m_arena.size() + kAlign - 1) / kAlign * kAlign);
    m_slots[i] = Slot{hash, static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(id.size())};
    ++m_size;
    return true;
}

} // namespace lx
