// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

/// \file id_hash.h
/// The 64-bit key of a request id: what the store indexes (`request_details.id_hash`) and what the filter
/// language's `id = "..."` compares, so that a look-up by id never scans text.

namespace lx {

/// FNV-1a, 64 bits, over the id's bytes. Collisions are possible: a match is confirmed on the id itself.
constexpr std::uint64_t hashRequestId(std::string_view id)
{
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : id) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

} // namespace lx
