// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/line_reader.h"

#include <cstdint>
#include <string_view>
#include <vector>

/// \file line_blocks.h
/// Cuts an input into blocks of whole lines, for parsers on several threads (parallel_parse.h). Each block
/// knows how many lines came before it, so that every record keeps its exact line; the file's UTF-8
/// byte-order mark is dropped; a line longer than kMaxLineBytes is skipped as it is read, never held whole,
/// and handed on as a block that names it.

namespace lx {

/// A block's size: a few thousand records, enough to keep a parser busy between hand-overs.
inline constexpr std::size_t kDefaultBlockBytes = std::size_t{4} << 20;

struct LineBlock {
    std::vector<char> bytes;       ///< `size` bytes of whole lines, then kLinePadding zero bytes
    std::size_t size = 0;
    std::int64_t linesBefore = 0;  ///< lines of the input before this block
    std::int64_t lines = 0;        ///< lines in this block, the last one counted if unterminated
    bool endsInput = false;        ///< the last block of the input
    bool lastLineUnterminated = false; ///< (with endsInput) the input's last line has no line end
    std::int64_t oversizedLine = 0; ///< > 0: the block holds nothing but stands for this line, too long to read

    /// The lines, with their padding readable after them (what LineReader's block constructor takes).
    std::string_view padded() const { return {bytes.data(), size}; }
};

/// About how many lines an input of `fileSize` bytes holds, from its first block and the bytes of the file
/// read by then (which may run ahead of the block): an eighth more than their proportion, to spare the
/// duplicate-id set sized from it a late rehash. The block's own count when it is the whole input; 0 when
/// nothing is known (no line yet, or a first block that stands for a line too long to read).
std::uint64_t linesExpected(const LineBlock &first, std::uint64_t fileBytesRead, std::uint64_t fileSize);

class LineBlockReader {
public:
    /// Reads what `lines` has not handed out yet (its buffered head first), in blocks of about blockBytes;
    /// a line longer than maxLineBytes is skipped.
    explicit LineBlockReader(LineReader &lines, std::size_t blockBytes = kDefaultBlockBytes,
                             std::size_t maxLineBytes = kMaxLineBytes);

    /// Fills `block` (its memory is reused) with the next lines; false once the input is exhausted.
    bool next(LineBlock &block);

private:
    /// Appends up to `room` more bytes of the input to `out`; 0 at its end.
    std::size_t readInto(std::vector<char> &out, std::size_t at, std::size_t room);
    /// Drops the input up to and including the next line end; what follows it becomes the carry.
    void skipPastLineEnd(std::vector<char> &scratch);

    LineReader &m_lines;
    std::size_t m_blockBytes;
    std::size_t m_maxLineBytes;
    std::vector<char> m_carry;   ///< the start of a line the previous block did not end
    std::int64_t m_linesSoFar = 0;
    bool m_eof = false;
    bool m_started = false;
    bool m_done = false;
};

} // namespace lx
