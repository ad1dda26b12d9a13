// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/line_reader.h"

#include "ingest/input_file.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace lx {

namespace {

/// The bytes of a refused line kept for its rejection's excerpt (the store keeps 200).
constexpr std::size_t kOversizedHeadBytes = 256;

} // namespace

std::string byteSizeText(std::size_t bytes)
{
    return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

std::string oversizedLineReason(std::size_t maxLineBytes) { return "line longer than " + byteSizeText(maxLineBytes) + ": not read"; }

LineReader::LineReader(InputFile &input, std::size_t chunkSize, std::size_t maxLineBytes)
    : m_input(&input)
    , m_owned(new char[chunkSize + kLinePadding])
    , m_buffer(m_owned.get())
    , m_capacity(chunkSize)
    , m_maxLineBytes(maxLineBytes ? maxLineBytes : kMaxLineBytes)
{
    std::memset(m_buffer + m_capacity, 0, kLinePadding);
}

LineReader::LineReader(std::string_view paddedBlock, std::int64_t linesBefore)
    : m_buffer(const_cast<char *>(paddedBlock.data())) // only read: fill() never runs on a block
    , m_capacity(paddedBlock.size())
    , m_maxLineBytes(std::numeric_limits<std::size_t>::max()) // the block reader refused the long lines already
    , m_end(paddedBlock.size())
    , m_lineNumber(linesBefore)
    , m_eof(true)
    , m_started(true) // a block has no byte-order mark: the file's was dropped before it
{
}

LineReader::~LineReader() = default;

bool LineReader::fill()
{
    if (m_eof)
        return false;
    // Keep the unread part, move it to the front; grow only for a line longer than the whole buffer.
    const std::size_t pending = m_end - m_begin;
    if (m_begin > 0) {
        std::memmove(m_buffer, m_buffer + m_begin, pending);
        m_begin = 0;
        m_end = pending;
    }
    if (m_end == m_capacity) {
        // Never past what the longest line allowed needs: a longer one is skipped, not held (next()).
        // (and the 4 KiB head() gives the sniffers)
        const std::size_t limit = std::max<std::size_t>(
            m_maxLineBytes < std::numeric_limits<std::size_t>::max() ? m_maxLineBytes + 1 : m_maxLineBytes, 4096);
        const std::size_t grown = std::max(m_capacity + 1, std::min(m_capacity * 2, limit));
        std::unique_ptr<char[]> bigger(new char[grown + kLinePadding]);
        std::memcpy(bigger.get(), m_buffer, m_end);
        std::memset(bigger.get() + grown, 0, kLinePadding);
        m_owned = std::move(bigger);
        m_buffer = m_owned.get();
        m_capacity = grown;
    }
    const std::size_t n = m_input->read(m_buffer + m_end, m_capacity - m_end);
    if (n == 0) {
        m_eof = true;
        return false;
    }
    m_end += n;
    return true;
}

bool LineReader::skipRestOfLine()
{
    m_begin = m_end = 0;
    for (;;) {
        const std::size_t n = m_input ? m_input->read(m_buffer, m_capacity) : 0;
        if (n == 0) {
            m_eof = true;
            m_unterminated = true;
            return false;
        }
        if (const void *nl = std::memchr(m_buffer, '\n', n)) {
            m_begin = static_cast<std::size_t>(static_cast<const char *>(nl) - m_buffer) + 1;
            m_end = n;
            m_unterminated = false;
            return true;
        }
    }
}

void LineReader::reportOversized(std::string_view head)
{
    if (m_oversized)
        m_oversized(m_lineNumber, head);
}

bool LineReader::endsInsideLastLine() const
{
    return m_unterminated && m_input && !m_input->truncated() && m_input->error().empty();
}

std::string_view LineReader::head()
{
    while (m_end - m_begin < 4096 && fill()) {
    }
    return {m_buffer + m_begin, std::min<std::size_t>(m_end - m_begin, 4096)};
}

std::size_t LineReader::capacityAfter(const char *lineStart) const
{
    return static_cast<std::size_t>(m_buffer + m_capacity + kLinePadding - lineStart);
}

std::string_view LineReader::nextBytes()
{
    if (m_begin == m_end && !fill())
        return {};
    const std::string_view chunk(m_buffer + m_begin, m_end - m_begin);
    m_begin = m_end;
    return chunk;
}

std::size_t LineReader::readBytes(char *out, std::size_t size)
{
    if (m_begin < m_end) {
        const std::size_t n = std::min(size, m_end - m_begin);
        std::memcpy(out, m_buffer + m_begin, n);
        m_begin += n;
        return n;
    }
    if (m_eof || !m_input || size == 0)
        return 0;
    const std::size_t n = m_input->read(out, size);
    m_eof = n == 0;
    return n;
}

bool LineReader::next(std::string_view &line, std::int64_t &lineNumber)
{
    if (!m_started) {
        m_started = true;
        head();
        if (m_end - m_begin >= 3 && std::memcmp(m_buffer + m_begin, "\xEF\xBB\xBF", 3) == 0)
            m_begin += 3;
    }
    std::size_t scanned = 0; // bytes of the pending part known to hold no newline
    for (;;) {
        const char *start = m_buffer + m_begin;
        const std::size_t pending = m_end - m_begin;
        const void *nl = std::memchr(start + scanned, '\n', pending - scanned);
        if (nl || (m_eof && pending > 0)) {
            std::size_t length = nl ? static_cast<std::size_t>(static_cast<const char *>(nl) - start) : pending;
            m_unterminated = nl == nullptr;
            m_begin += nl ? length + 1 : length;
            if (length > 0 && start[length - 1] == '\r')
                --length;
            ++m_lineNumber;
            if (length > m_maxLineBytes) { // held whole after all (a buffer larger than the cap), refused alike
                reportOversized({start, std::min(length, kOversizedHeadBytes)});
                scanned = 0;
                continue;
            }
            line = {start, length};
            lineNumber = m_lineNumber;
            return true;
        }
        if (pending == 0 && m_eof)
            return false;
        if (pending > m_maxLineBytes) {
            // Too long to be a record: keep its first bytes for the message, drop the rest unread.
            const std::string head(start, std::min(pending, kOversizedHeadBytes));
            skipRestOfLine();
            ++m_lineNumber;
            reportOversized(head);
            scanned = 0;
            continue;
        }
        scanned = pending;
        if (!fill() && m_end - m_begin == 0)
            return false;
    }
}

} // namespace lx
