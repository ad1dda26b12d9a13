// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

/// \file line_reader.h
/// Splits an InputFile into lines through one reused buffer. Every line it hands out is followed by at
/// least kLinePadding readable bytes, so simdjson can parse it in place without a copy. A line longer than
/// the cap is skipped as it is read, never held whole: the buffer grows to the cap at most, and the line is
/// handed to the oversized-line handler (the importer rejects it with its number) instead of the reader.

namespace lx {

class InputFile;

inline constexpr std::size_t kLinePadding = 64; // >= SIMDJSON_PADDING

/// The longest line read; a longer one is refused with its line number (README "Limits").
inline constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

/// A cap for messages: "64 MiB" from a whole MiB up, else "1000 bytes".
std::string byteSizeText(std::size_t bytes);
/// Why a line past `maxLineBytes` was refused: "line longer than 64 MiB: not read".
std::string oversizedLineReason(std::size_t maxLineBytes);

/// Told of each line longer than the cap, which next() skips: its number and its first bytes.
using OversizedLineHandler = std::function<void(std::int64_t lineNumber, std::string_view head)>;

class LineReader {
public:
    /// Reads `input` in chunks of chunkSize; a line longer than maxLineBytes (0: kMaxLineBytes) is skipped.
    explicit LineReader(InputFile &input, std::size_t chunkSize = 1 << 20, std::size_t maxLineBytes = 0);
    /// Lines of a block already in memory (line_blocks.h), numbered from linesBefore + 1. The block must be
    /// followed by kLinePadding readable bytes, and outlive the reader.
    LineReader(std::string_view paddedBlock, std::int64_t linesBefore);
    ~LineReader();

    /// The next line without its line end (LF or CRLF) and its 1-based number; false at the end.
    /// A UTF-8 byte-order mark at the start of the file is skipped. A line longer than the cap is not
    /// returned: it goes to the oversized-line handler, and the line after it is returned.
    bool next(std::string_view &line, std::int64_t &lineNumber);

    /// Who is told of the lines too long to read (none: they are skipped silently).
    void setOversizedLineHandler(OversizedLineHandler handler) { m_oversized = std::move(handler); }
    /// The longest line next() returns; the buffer grows to it at most.
    std::size_t maxLineBytes() const { return m_maxLineBytes; }
    void setMaxLineBytes(std::size_t bytes) { m_maxLineBytes = bytes; }

    /// The next bytes of the input as they are, without splitting lines: what is buffered, else the next
    /// read; empty at the end. Valid until the next call. For binary formats (OTLP/protobuf), which do not
    /// call next().
    std::string_view nextBytes();
    /// Like nextBytes(), but into `out`: up to `size` bytes, what is buffered first, then straight from the
    /// input without passing through the buffer; 0 at the end only (`size` must not be 0).
    std::size_t readBytes(char *out, std::size_t size);

    /// True when the last line returned had no line end (the file ended without a newline).
    bool lastLineUnterminated() const { return m_unterminated; }
    /// True when the line just returned is the last of a whole file that ends inside it, with no line end:
    /// a file copied or read while it was written, most often. Not where a zstd stream was cut or failed:
    /// that is said of the input, and this line is its victim.
    bool endsInsideLastLine() const;
    /// The first bytes of the input (up to 4 KiB), without consuming them: what format sniffing looks at.
    std::string_view head();
    /// Bytes of padded capacity after `line`'s start: what simdjson's iterate() needs to know.
    std::size_t capacityAfter(const char *lineStart) const;

    /// The file read; null for a block in memory.
    InputFile *input() { return m_input; }

private:
    bool fill();
    /// Drops the rest of a line too long to hold, through its line end; false when the input ended first.
    bool skipRestOfLine();
    void reportOversized(std::string_view head);

    InputFile *m_input = nullptr;
    std::unique_ptr<char[]> m_owned; ///< the reused buffer when reading a file
    char *m_buffer = nullptr;        ///< m_owned, or the block's bytes
    std::size_t m_capacity; ///< usable bytes, the padding comes after
    std::size_t m_maxLineBytes = kMaxLineBytes;
    OversizedLineHandler m_oversized;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    std::int64_t m_lineNumber = 0;
    bool m_eof = false;
    bool m_unterminated = false;
    bool m_started = false;
};

} // namespace lx
