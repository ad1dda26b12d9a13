// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/huge_page_allocator.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

/// \file id_set.h
/// The request ids seen in one file, to reject duplicates. An id is known by two independent 64-bit
/// hashes, its FNV-1a (the store's id_hash) and idCheckHash(), and its text is not kept: two different ids
/// are taken for one only if both agree (127 bits), for 10M ids about 3 chances in 10^25. The texts kept
/// in an arena beside the table were 480 MB of fresh memory at 10M ids of 41 bytes, first touched by the
/// parsing thread, the import's slower one: without them the import's peak went from 1461 MiB to 605 MiB,
/// and the parse alone took 0.92x the time of the same set with its arena in fixed blocks. Neither hash is
/// keyed: ids made on purpose to agree in both could be taken for one (the later refused as a repeat, with
/// its line), at a cost of some 2^64 tries.

namespace lx {

/// The second hash of an id, independent of FNV-1a (which reads a byte at a time): 8 bytes at a time, each
/// word and the length mixed by splitmix64's finalizer.
std::uint64_t idCheckHash(std::string_view id);

class IdSet {
public:
    IdSet();
    ~IdSet();
    IdSet(const IdSet &) = delete;
    IdSet &operator=(const IdSet &) = delete;

    /// Adds id with its precomputed hash; false when it was already there.
    bool insert(std::string_view id, std::uint64_t hash) { return insert(hash, idCheckHash(id)); }
    /// As above, given both hashes (hashRequestId() and idCheckHash()), without the id's text: the parallel
    /// parse takes them on the parser thread, which has the text in its cache (parallel_parse.cpp).
    bool insert(std::uint64_t hash, std::uint64_t idCheck);
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
    /// As reserve(), but the room for more than the first ids is made on a thread of its own, at a lower
    /// priority, and the set moves into it once it is ready (or once it must grow, waiting for it then).
    /// Fresh memory is dear on the virtual machines measured: the table for 10M ids (256 MiB) took 0.5 s
    /// to fault in, during which nothing else of an import could start.
    void reserveAhead(std::size_t count);
    void clear();

private:
    /// 16 bytes: the table of a million ids fits in 32 MiB, and a probe touches one cache line.
    struct Slot {
        std::uint64_t hash = 0;
        std::uint64_t check = 0; ///< idCheckHash() with its lowest bit set; 0 marks an empty slot
    };
    using Table = std::vector<Slot, HugePageAllocator<Slot>>;
    /// A table being made ready on a thread of its own (reserveAhead()).
    struct Ahead {
        Table table;
        std::atomic<bool> ready{false};
        std::atomic<bool> abandoned{false}; ///< the set is cleared or gone: the thread stops filling
        std::thread thread;
    };
    /// Stops the table being made ahead and waits for its thread; the set keeps what it has.
    void abandonAhead();
    static std::size_t slotsFor(std::size_t count);
    void rehash(std::size_t slots);
    /// Moves every id into `table`, which is empty and larger than the current one.
    void moveInto(Table &&table);
    /// Waits for the table made ahead and moves into it if it is larger.
    void takeAhead();

    Table m_slots; ///< huge pages: fewer TLB misses on random probes
    std::size_t m_size = 0;
    std::unique_ptr<Ahead> m_ahead;
};

} // namespace lx
