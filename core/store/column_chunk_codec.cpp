// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/column_chunk_codec.h"

#include "model/request.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace lx {

namespace {

static_assert(std::endian::native == std::endian::little, "column chunks are little-endian");

constexpr unsigned char kMark[8] = { 'L', 'X', 'C', 'O', 'L', 'v', '3', '\0' };
/// Layout v2's mark: the same header, every column's codes in column order.
constexpr unsigned char kMarkV2[8] = { 'L', 'X', 'C', 'O', 'L', 'v', '2', '\0' };

/// The columns in the order their codes are stored in a chunk of layout v3 (kStoredFirst, then the rest).
constexpr std::array<std::size_t, kChunkColumns> storedOrder()
{
    std::array<std::size_t, kChunkColumns> order {};
    std::size_t at = 0;
    for (const std::size_t c : kStoredFirst)
        order[at++] = c;
    for (std::size_t c = 0; c < kChunkColumns; ++c)
        if (std::find(kStoredFirst.begin(), kStoredFirst.end(), c) == kStoredFirst.end())
            order[at++] = c;
    return order;
}
constexpr std::array<std::size_t, kChunkColumns> kStoredOrder = storedOrder();
/// Layout v2's order: the columns' own.
constexpr std::array<std::size_t, kChunkColumns> kColumnOrder = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };

/// Bytes that hold `code`: 1 for codes up to 255, 8 for the largest.
std::uint8_t bytesFor(std::uint64_t code)
{
    return static_cast<std::uint8_t>(std::max<std::uint64_t>(1, (std::bit_width(code) + 7) / 8));
}

/// Sets each coding's offset: the codes of the columns one after the other in `order`, after the header.
void placeCodes(std::array<ColumnCoding, kChunkColumns> &codings, const std::array<std::size_t, kChunkColumns> &order,
                std::size_t rows)
{
    std::uint64_t offset = kChunkHeaderBytes;
    for (const std::size_t c : order) {
        codings[c].offset = offset;
        offset += static_cast<std::uint64_t>(codings[c].width) * rows;
    }
}

} // namespace

ColumnCoding chooseCoding(std::span<const std::int64_t> values)
{
    ColumnCoding coding;
    if (values.empty())
        return coding;
    if (std::all_of(values.begin(), values.end(), [&](std::int64_t v) { return v == values.front(); })) {
        coding.base = values.front(); // width 0: every value is the base, kNotMeasured included
        return coding;
    }
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const std::int64_t v : values) {
        if (!isMeasured(v))
            continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi) { // not all equal, yet none measured: impossible, but keep the coding total
        coding.width = 1;
        return coding;
    }
    coding.base = lo;
    // Measured values are above INT64_MIN, so hi - lo + 1 is at most 2^64 - 1: it fits, as unsigned.
    coding.width = bytesFor(static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1);
    return coding;
}

void encodeChunk(const std::array<std::span<const std::int64_t>, kChunkColumns> &columns, std::vector<unsigned char> &out)
{
    const std::size_t rows = columns[0].size();
    std::array<ColumnCoding, kChunkColumns> codings;
    std::size_t size = kChunkHeaderBytes;
    for (std::size_t c = 0; c < kChunkColumns; ++c) {
        codings[c] = chooseCoding(columns[c]);
        size += codings[c].width * rows;
    }
    const std::size_t start = out.size();
    out.resize(start + size);
    unsigned char *p = out.data() + start;
    std::memcpy(p, kMark, sizeof kMark);
    p += sizeof kMark;
    for (const ColumnCoding &coding : codings) {
        *p++ = coding.width;
        std::memcpy(p, &coding.base, sizeof coding.base);
        p += sizeof coding.base;
    }
    for (const std::size_t c : kStoredOrder) {
        const ColumnCoding coding = codings[c];
        if (coding.width == 0)
            continue;
        for (const std::int64_t v : columns[c]) {
            const std::uint64_t code =
                isMeasured(v) ? static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(coding.base) + 1 : 0;
            std::memcpy(p, &code, coding.width); // the low bytes: little-endian
            p += coding.width;
        }
    }
}

std::optional<std::array<ColumnCoding, kChunkColumns>> readChunkHeader(std::span<const unsigned char> head,
                                                                       std::size_t rows, std::uint64_t size)
{
    if (head.size() < kChunkHeaderBytes || rows > UINT32_MAX)
        return std::nullopt;
    const bool v3 = std::memcmp(head.data(), kMark, sizeof kMark) == 0;
    if (!v3 && std::memcmp(head.data(), kMarkV2, sizeof kMarkV2) != 0)
        return std::nullopt;
    std::array<ColumnCoding, kChunkColumns> codings;
    std::uint64_t expected = kChunkHeaderBytes;
    const unsigned char *p = head.data() + sizeof kMark;
    for (ColumnCoding &coding : codings) {
        coding.width = *p++;
        std::memcpy(&coding.base, p, sizeof coding.base);
        p += sizeof coding.base;
        if (coding.width > 8)
            return std::nullopt;
        expected += static_cast<std::uint64_t>(coding.width) * rows;
    }
    if (expected != size)
        return std::nullopt;
    placeCodes(codings, v3 ? kStoredOrder : kColumnOrder, rows);
    return codings;
}

void decodeColumn(std::span<const unsigned char> blob, const std::array<ColumnCoding, kChunkColumns> &codings,
                  std::size_t column, std::size_t rows, std::int64_t *out)
{
    const ColumnCoding coding = codings[column];
    decodeCodes(coding.width == 0 ? blob : blob.subspan(coding.offset), coding, rows, out);
}

void decodeCodes(std::span<const unsigned char> codes, ColumnCoding coding, std::size_t rows, std::int64_t *out)
{
    if (coding.width == 0) {
        std::fill(out, out + rows, coding.base);
        return;
    }
    const unsigned char *p = codes.data();
    const unsigned char *end = codes.data() + codes.size();
    const std::size_t width = coding.width;
    const std::uint64_t mask = width == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1;
    const auto value = [&](std::uint64_t code) {
        return code == 0 ? kNotMeasured : static_cast<std::int64_t>(static_cast<std::uint64_t>(coding.base) + code - 1);
    };
    std::size_t i = 0;
    // Whole 8-byte loads, masked to the width, while they stay inside the bytes given; the last few byte by byte.
    for (; i < rows && p + 8 <= end; ++i, p += width) {
        std::uint64_t code;
        std::memcpy(&code, p, sizeof code);
        out[i] = value(code & mask);
    }
    for (; i < rows; ++i, p += width) {
        std::uint64_t code = 0;
        std::memcpy(&code, p, width);
        out[i] = value(code);
    }
}

} // namespace lx
