// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/id_set.h"

#include "platform/thread_priority.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>

namespace lx {

namespace {

/// The ids the table of an IdSet made ahead starts with, before the larger one is ready: 2^20 slots, 16 MiB.
constexpr std::size_t kIdsBeforeTheTableAhead = 786'432;

} // namespace

IdSet::IdSet() = default;

IdSet::~IdSet() { abandonAhead(); }

void IdSet::clear()
{
    abandonAhead();
    m_slots.clear();
    m_size = 0;
}

void IdSet::abandonAhead()
{
    if (!m_ahead)
        return;
    m_ahead->abandoned.store(true, std::memory_order_relaxed);
    m_ahead->thread.join();
    m_ahead.reset();
}

std::size_t IdSet::slotsFor(std::size_t count)
{
    // The count is an estimate from a file's size: bounded, so that a huge (or sparse) file does not ask
    // for memory up front; past it the set grows as ids come.
    count = std::min<std::size_t>(count, std::size_t{1} << 24);
    std::size_t slots = 1024;
    while (slots * 3 < count * 4) // at most 3/4 full
        slots *= 2;
    return slots;
}

void IdSet::reserve(std::size_t count)
{
    if (const std::size_t slots = slotsFor(count); slots > m_slots.size())
        rehash(slots);
}

void IdSet::reserveAhead(std::size_t count)
{
    const std::size_t slots = slotsFor(count);
    if (slots <= slotsFor(kIdsBeforeTheTableAhead) || m_ahead) {
        reserve(count);
        return;
    }
    reserve(kIdsBeforeTheTableAhead);
    auto made = std::make_unique<Ahead>();
    Ahead &ahead = *made;
    try {
        ahead.thread = std::thread([&ahead, slots] {
            lowerThisThreadsPriority(); // the work every other thread of an import does comes first
            try {
                // Filled a piece at a time, so that an import cancelled meanwhile does not wait for all of it.
                constexpr std::size_t kPiece = std::size_t{1} << 16; // 1 MiB of slots
                ahead.table.reserve(slots);
                while (ahead.table.size() < slots && !ahead.abandoned.load(std::memory_order_relaxed))
                    ahead.table.resize(std::min(slots, ahead.table.size() + kPiece));
                if (ahead.table.size() < slots)
                    ahead.table = Table();
            } catch (const std::bad_alloc &) {
                ahead.table = Table(); // the set grows as ids come instead
            }
            ahead.ready.store(true, std::memory_order_release);
        });
    } catch (const std::system_error &) { // no thread to be had: the room is made here
        reserve(count);
        return;
    }
    m_ahead = std::move(made);
}

void IdSet::takeAhead()
{
    std::unique_ptr<Ahead> ahead = std::move(m_ahead);
    ahead->thread.join();
    if (ahead->table.size() > m_slots.size())
        moveInto(std::move(ahead->table));
}

void IdSet::rehash(std::size_t slots)
{
    Table table;
    table.assign(slots, Slot{});
    moveInto(std::move(table));
}

void IdSet::moveInto(Table &&table)
{
    Table old = std::move(m_slots);
    m_slots = std::move(table);
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

bool IdSet::insert(std::uint64_t hash, std::uint64_t idCheck)
{
    const bool full = (m_size + 1) * 4 > m_slots.size() * 3;
    if (m_ahead && (full || m_ahead->ready.load(std::memory_order_acquire)))
        takeAhead();
    if ((m_size + 1) * 4 > m_slots.size() * 3)
        rehash(m_slots.empty() ? 1024 : m_slots.size() * 2);
    const std::uint64_t check = idCheck | 1;
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
