// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

/// \file radix_sort.h
/// The sort behind every order of a million rows (the requests table, the waterfall): comparison sorts
/// took several times as long on 64-bit keys.

namespace lx {

/// LSD radix sort of `n` items by a 64-bit key, stable, one byte per pass; returns where the sorted items
/// are (`items` or `scratch`). Bytes every key shares (the high bytes of timestamps and durations, all but
/// the low byte of an enum) are found in the one histogram pass and skipped: 2-5 passes in practice.
template<class Item, class KeyOf>
Item *radixSort(Item *items, Item *scratch, std::size_t n, KeyOf keyOf)
{
    if (n < 2)
        return items;
    std::array<std::array<std::size_t, 256>, 8> counts{};
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = keyOf(items[i]);
        for (int b = 0; b < 8; ++b)
            ++counts[b][(key >> (8 * b)) & 0xff];
    }
    const std::uint64_t firstKey = keyOf(items[0]);
    for (int b = 0; b < 8; ++b) {
        if (counts[b][(firstKey >> (8 * b)) & 0xff] == n)
            continue;
        std::size_t offset = 0;
        for (std::size_t &count : counts[b])
            offset += std::exchange(count, offset);
        for (std::size_t i = 0; i < n; ++i)
            scratch[counts[b][(keyOf(items[i]) >> (8 * b)) & 0xff]++] = items[i];
        std::swap(items, scratch);
    }
    return items;
}

/// An int64 as a key whose unsigned order is the signed order (the sign bit flipped).
inline std::uint64_t orderedKey(std::int64_t v) { return static_cast<std::uint64_t>(v) ^ (std::uint64_t(1) << 63); }

} // namespace lx
