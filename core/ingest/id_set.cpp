// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/id_set.h"

#include <algorithm>
#include <cstring>

namespace lx {

void IdSet::clear()
{
    m_slots.clear();
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
}

void IdSet::rehash(std::size_t slots)
{
    std::vector<Slot, HugePageAllocator<Slot>> old = std::move(m_slots);
    m_slots.assign(slots, Slot{});
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot &slot : old) {
        if (slot.check == 0)
            continue;
        std::size_t i = slot.hash & mask;
        while (m_slots[i].check != 0)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

bool IdSet::insert(std::string_view id, std::uint64_t hash)
{
    if ((m_size + 1) * 4 > m_slots.size() * 3)
        rehash(m_slots.empty() ? 1024 : m_slots.size() * 2);
    const std::uint64_t check = idCheckHash(id) | 1;
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hash & mask;
    while (m_slots[i].check != 0) {
        if (m_slots[i].hash == hash && m_slots[i].check == check)
            return false;
        i = (i + 1) & mask;
    }
    m_slots[i] = Slot{hash, check};
    ++m_size;
    return true;
}

namespace {

constexpr std::uint64_t mix(std::uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

} // namespace

std::uint64_t idCheckHash(std::string_view id)
{
    std::uint64_t h = mix(0x9e3779b97f4a7c15ull ^ id.size());
    std::size_t i = 0;
    for (; i + 8 <= id.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, id.data() + i, 8);
        h = mix(h ^ word) + 0x9e3779b97f4a7c15ull;
    }
    std::uint64_t tail = 0;
    if (i < id.size()) // an empty view may have no data at all
        std::memcpy(&tail, id.data() + i, id.size() - i);
    return mix(h ^ tail ^ (std::uint64_t{id.size() - i} << 56));
}

} // namespace lx
