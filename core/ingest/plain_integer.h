// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

/// \file plain_integer.h
/// A JSON integer written as plain decimal digits, read eight digits at a time. The JSON lines of a trace
/// are mostly nanosecond timestamps of 19 digits, and the parser's integer loop (one digit an iteration,
/// each waiting for the one before) was a third of the parsing threads' own time at 10M requests. Anything
/// that is not such an integer is left to the JSON parser, so that its value, and its error, stay the
/// parser's own: tst_plain_integer compares the value of every token taken here with the parser's, and
/// checks that the others are left.

namespace lx {

namespace plain_integer_detail {

/// Whether each of the 8 bytes (little-endian) is an ASCII digit: no byte's high nibble but 3, and none
/// that adding 6 carries out of 9 (the test simdjson and fast_float use).
inline bool eightDigits(std::uint64_t bytes)
{
    return ((bytes & 0xF0F0F0F0F0F0F0F0) | (((bytes + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4))
        == 0x3333333333333333;
}

/// The value of 8 ASCII digits, the first in the lowest byte: pairs, then fours, then the eight, each step
/// one multiply for every lane at once.
inline std::uint64_t valueOfEightDigits(std::uint64_t bytes)
{
    bytes -= 0x3030303030303030;
    bytes = (bytes * 10) + (bytes >> 8); // each even byte: two digits
    constexpr std::uint64_t kMask = 0x000000FF000000FF;
    constexpr std::uint64_t kHundredAndMillion = 100 + (1000000ULL << 32);
    constexpr std::uint64_t kOneAndTenThousand = 1 + (10000ULL << 32);
    return (((bytes & kMask) * kHundredAndMillion) + (((bytes >> 16) & kMask) * kOneAndTenThousand)) >> 32;
}

} // namespace plain_integer_detail

/// The integer of a JSON number token (as simdjson's raw_json_token() gives it: the number, then any
/// whitespace up to the next structural character): true with `out` set for an optional minus and 1 to
/// 19 digits without a leading zero, in the range of int64. False for anything else, `out` untouched: a
/// fraction, an exponent, a leading zero, more digits, a value out of range, a stranger character.
inline bool readPlainInteger(std::string_view token, std::int64_t &out)
{
    using namespace plain_integer_detail;
    const char *p = token.data();
    const char *const end = p + token.size();
    const bool negative = p != end && *p == '-';
    p += negative ? 1 : 0;
    const char *const first = p;
    constexpr std::ptrdiff_t kMostDigits = 19; // 10^19 - 1 still fits an unsigned 64-bit value
    std::uint64_t value = 0;
    while (std::endian::native == std::endian::little && end - p >= 8 && (p - first) + 8 <= kMostDigits) {
        std::uint64_t bytes = 0;
        std::memcpy(&bytes, p, 8); // little-endian: the first digit in the lowest byte
        if (!eightDigits(bytes))
            break;
        value = value * 100000000 + valueOfEightDigits(bytes);
        p += 8;
    }
    while (p != end && static_cast<unsigned char>(*p - '0') <= 9 && p - first < kMostDigits) {
        value = value * 10 + static_cast<unsigned char>(*p - '0');
        ++p;
    }
    const std::ptrdiff_t digits = p - first;
    if (digits == 0 || (digits > 1 && *first == '0'))
        return false;
    for (; p != end; ++p) {
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            return false; // a 20th digit, a point, an exponent, or a stranger: the parser's to read
    }
    constexpr std::uint64_t kMostPositive = static_cast<std::uint64_t>(INT64_MAX);
    if (value > kMostPositive + (negative ? 1 : 0))
        return false;
    out = negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
    return true;
}

} // namespace lx
