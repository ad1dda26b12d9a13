// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/line_reader.h"

#include "ingest/input_file.h"

#include <cstring>

namespace lx {

LineReader::LineReader(InputFile &input, std::size_t chunkSize)
    : m_input(&input)
    , m_owned(new char[chunkSize + kLinePadding])
    , m_buffer(m_owned.get())
    , m_capacity(chunkSize)
{
    std::memset(m_buffer + m_capacity, 0, kLinePadding);
}

LineReader::LineReader(std::string_view paddedBlock, std::int64_t linesBefore)
    : m_buffer(const_cast<char *>(paddedBlock.data())) // only read: fill() never runs on a block
    , m_capacity(paddedBlock.size())
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
        const std::size_t grown = m_capacity * 2;
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
            line = {start, length};
            lineNumber = ++m_lineNumber;
            return true;
        }
        if (pending == 0 && m_eof)
            return false;
        scanned = pending;
        if (!fill() && m_end - m_begin == 0)
            return false;
    }
}

} // namespace lx
