// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

/// \file column_chunk_codec.h
/// The layout of a column chunk's BLOB (request_columns.h): each column of int64 values stored in as few
/// bytes as its values need. A column is its base and a width of 0 to 8 bytes; each value is a code of
/// that many little-endian bytes, 0 for "not measured" (INT64_MIN) and base + code - 1 for the rest; width
/// 0 when every value is the base. A chunk of requests whose segments last milliseconds to seconds takes
/// about half the bytes of plain int64 arrays, so the import writes and the report reads half as much.
///
///     "LXCOLv3\0"                               8 bytes, the layout's mark
///     per column: width (1 byte), base (int64)  9 bytes each, kChunkColumns of them, in column order
///     per column: rows x width bytes of codes   TTFT, TTLT and the states first (kStoredFirst), then
///                                               the others in column order
///
/// The codes of TTFT, TTLT and the states come first so that a reader of those alone
/// (readChunkColumns(), request_columns.h) reads the head of the BLOB: SQLite reaches a place inside a
/// BLOB by following its overflow pages from the start, so the codes at its end cost the read of all of
/// it. A chunk of layout v2 (every column in column order) is read as well.

namespace lx {

/// The columns of a chunk: id, start, e2e, the seven segments, TTFT, TPOT, TTLT, flags, and the states
/// (ok and the two scopes in one small number).
inline constexpr std::size_t kChunkColumns = 15;
inline constexpr std::size_t kChunkHeaderBytes = 8 + kChunkColumns * 9;
inline constexpr std::size_t kIdColumn = 0, kStartColumn = 1, kE2eColumn = 2, kFirstSegmentColumn = 3;
inline constexpr std::size_t kTtftColumn = kFirstSegmentColumn + 7, kTpotColumn = kTtftColumn + 1,
                             kTtltColumn = kTtftColumn + 2, kFlagsColumn = kTtftColumn + 3,
                             kStatesColumn = kTtftColumn + 4;
static_assert(kStatesColumn + 1 == kChunkColumns);
/// The columns whose codes a chunk of layout v3 stores first, in this order.
inline constexpr std::array<std::size_t, 3> kStoredFirst = { kTtftColumn, kTtltColumn, kStatesColumn };

/// How one column is stored.
struct ColumnCoding {
    std::uint8_t width = 0; ///< bytes per value, 0 to 8
    std::int64_t base = 0;
    /// Where its codes start in the BLOB (readChunkHeader() works it out from the layout and the widths).
    std::uint64_t offset = 0;
};

/// The coding that stores `values` in the fewest bytes.
ColumnCoding chooseCoding(std::span<const std::int64_t> values);

/// Appends the BLOB of a chunk whose columns are `columns` (each of the same length) to `out`.
void encodeChunk(const std::array<std::span<const std::int64_t>, kChunkColumns> &columns, std::vector<unsigned char> &out);

/// The codings of a chunk's BLOB of `rows` rows, read from its first kChunkHeaderBytes bytes; nullopt when
/// they are not this layout's, or when the BLOB's `size` is not what they make of `rows` rows.
std::optional<std::array<ColumnCoding, kChunkColumns>> readChunkHeader(std::span<const unsigned char> head,
                                                                       std::size_t rows, std::uint64_t size);

/// Decodes column `column` of a chunk of `rows` rows whose header is `codings` into `out` (rows values).
void decodeColumn(std::span<const unsigned char> blob, const std::array<ColumnCoding, kChunkColumns> &codings,
                  std::size_t column, std::size_t rows, std::int64_t *out);
/// Decodes `rows` values stored with `coding` out of `codes`, the column's own bytes (read out of the BLOB
/// on their own, say): at least coding.width * rows of them.
void decodeCodes(std::span<const unsigned char> codes, ColumnCoding coding, std::size_t rows, std::int64_t *out);

} // namespace lx
