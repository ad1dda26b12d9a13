// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/huge_page_allocator.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// \file id_set.h
/// The request ids seen in one file, to reject duplicates. Exact (the ids themselves are compared), and
/// compact for millions of ids: one text arena plus an open-addressing table of offsets.

namespace lx {

class IdSet {
public:
    /// Adds id with its precomputed hash; false when it was already there.
    bool insert(std::string_view id, std::uint64_t hash);
    std::size_t size() const { return m_size; }
    /// Asks the processor to fetch the slot where `hash` is looked up: called a few ids ahead of insert(),
    /// so that the misses of a batch overlap instead of coming one after the other (at 10M ids the table
    /// is 256 MiB, and each insert's slot was a miss of the cache and of the TLB).
    void prefetch(std::uint64_t hash) const
    {
#if defined(__GNUC__) || defined(__clang__) // MSVC: a hint there is none of, the probes only come slower
        if (!m_slots.empty())
            __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
#else
        (void)hash;
#endif
    }
    /// Makes room for about `count` ids without rehashing.
    void reserve(std::size_t count);
    void clear();

private:
    /// 16 bytes: the table of a million ids fits in 32 MiB, and a probe touches one cache line.
    struct Slot {
        std::uint64_t hash = 0;
        std::uint32_t offset = 0;          ///< into m_arena, in units of kAlign bytes
        std::uint32_t length = UINT32_MAX; ///< UINT32_MAX marks an empty slot
    };
    static constexpr std::size_t kAlign = 8; ///< ids start 8-byte aligned, so 32-bit offsets reach 32 GiB
    void rehash(std::size_t slots);

    std::vector<Slot, HugePageAllocator<Slot>> m_slots; ///< huge pages: fewer TLB misses on random probes
    std::vector<char> m_arena;
    std::size_t m_size = 0;
};

} // namespace lx
