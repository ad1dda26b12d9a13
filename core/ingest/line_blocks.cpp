// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/line_blocks.h"

#include "ingest/line_reader.h"

#include <algorithm>
#include <cstring>

namespace lx {

namespace {

/// memchr from one line end to the next: the C library's is vectorized on every platform, where std::count
/// was compiled to widen each byte to a 64-bit sum (4% of a 10M-request import's samples, on the thread
/// that reads the input).
std::int64_t countLineEnds(const char *data, std::size_t size)
{
    std::int64_t ends = 0;
    const char *end = data + size;
    for (const char *p = data; (p = static_cast<const char *>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))); ++p)
        ++ends;
    return ends;
}

/// The position just past the block's last line end, or 0 when it holds none.
std::size_t pastLastLineEnd(const char *data, std::size_t size)
{
    for (std::size_t i = size; i > 0; --i) {
        if (data[i - 1] == '\n')
            return i;
    }
    return 0;
}

} // namespace

std::uint64_t linesExpected(const LineBlock &first, std::uint64_t fileBytesRead, std::uint64_t fileSize)
{
    const auto lines = static_cast<std::uint64_t>(std::max<std::int64_t>(first.lines, 0));
    if (first.endsInput)
        return lines;
    if (fileBytesRead == 0 || lines == 0 || first.oversizedLine > 0) // a skipped line says nothing of the rest
        return 0;
    const double estimate = static_cast<double>(lines) * static_cast<double>(fileSize) / static_cast<double>(fileBytesRead);
    return static_cast<std::uint64_t>(std::min(estimate * 1.125, 1e18));
}

LineBlockReader::LineBlockReader(LineReader &lines, std::size_t blockBytes, std::size_t maxLineBytes)
    : m_lines(lines), m_blockBytes(std::max<std::size_t>(blockBytes, 16)), m_maxLineBytes(std::max<std::size_t>(maxLineBytes, 16))
{
}

std::size_t LineBlockReader::readInto(std::vector<char> &out, std::size_t at, std::size_t room)
{
    // Straight into the block: through the line reader's buffer, the input was copied twice.
    if (m_eof || room == 0)
        return 0;
    const std::size_t n = m_lines.readBytes(out.data() + at, room);
    m_eof = n == 0;
    return n;
}

void LineBlockReader::skipPastLineEnd(std::vector<char> &scratch)
{
    for (;;) {
        const std::size_t n = readInto(scratch, 0, scratch.size() - kLinePadding);
        if (n == 0)
            return;
        const void *end = std::memchr(scratch.data(), '\n', n);
        if (end) {
            const std::size_t after = static_cast<std::size_t>(static_cast<const char *>(end) - scratch.data()) + 1;
            m_carry.assign(scratch.data() + after, scratch.data() + n);
            return;
        }
    }
}

bool LineBlockReader::next(LineBlock &block)
{
    if (m_done)
        return false;
    block.oversizedLine = 0;
    block.endsInput = false;
    block.lastLineUnterminated = false;
    block.linesBefore = m_linesSoFar;
    std::size_t capacity = std::max(m_blockBytes, m_carry.size() * 2);
    block.bytes.resize(capacity + kLinePadding);
    if (!m_carry.empty()) // an empty vector's data() may be null, which memcpy must not be given (ubsan)
        std::memcpy(block.bytes.data(), m_carry.data(), m_carry.size());
    std::size_t size = m_carry.size();
    m_carry.clear();
    std::size_t scannedForLineEnd = 0; // bytes known to hold no line end
    for (;;) {
        if (size < capacity) {
            const std::size_t n = readInto(block.bytes, size, capacity - size);
            if (!m_started && size + n >= 3) {
                m_started = true;
                if (std::memcmp(block.bytes.data(), "\xEF\xBB\xBF", 3) == 0) {
                    std::memmove(block.bytes.data(), block.bytes.data() + 3, size + n - 3);
                    size -= 3;
                }
            }
            size += n;
            if (n > 0)
                continue;
        }
        m_started = true;
        const std::size_t cut = pastLastLineEnd(block.bytes.data() + scannedForLineEnd, size - scannedForLineEnd);
        if (cut > 0) {
            const std::size_t end = scannedForLineEnd + cut;
            m_carry.assign(block.bytes.data() + end, block.bytes.data() + size);
            size = end;
            break;
        }
        if (m_eof)
            break; // the input's last line, without a line end
        scannedForLineEnd = size;
        if (size >= m_maxLineBytes) {
            // Too long to be a record: skip the rest of it without holding it, and say which line it was.
            skipPastLineEnd(block.bytes);
            block.size = 0;
            block.lines = 1;
            block.oversizedLine = ++m_linesSoFar;
            m_done = m_eof && m_carry.empty();
            block.endsInput = m_done;
            return true;
        }
        capacity = std::max(std::min(capacity * 2, m_maxLineBytes), size + 1);
        block.bytes.resize(capacity + kLinePadding);
    }
    block.size = size;
    std::memset(block.bytes.data() + size, 0, kLinePadding);
    const std::int64_t ends = countLineEnds(block.bytes.data(), size);
    block.lastLineUnterminated = size > 0 && block.bytes[size - 1] != '\n';
    block.lines = ends + (block.lastLineUnterminated ? 1 : 0);
    m_linesSoFar += block.lines;
    m_done = m_eof && m_carry.empty();
    block.endsInput = m_done;
    return size > 0 || block.endsInput;
}

} // namespace lx
