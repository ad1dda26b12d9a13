// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_body.h"

#include <charconv>

namespace lx::source {

namespace {

constexpr std::string_view kExceptionMarker = "__exception__";

bool startsException(std::string_view line)
{
    return line.starts_with("Code: ") && line.find("DB::Exception") != std::string_view::npos;
}

/// With http_write_exception_in_output_format (JSON formats), ClickHouse writes the exception as a row of
/// its own, {"exception": "Code: ..."}. Its text, or empty when the line is no such row.
std::string jsonException(std::string_view line)
{
    constexpr std::string_view kPrefix = "{\"exception\":";
    if (!line.starts_with(kPrefix))
        return {};
    std::string_view rest = line.substr(kPrefix.size());
    while (rest.starts_with(' '))
        rest.remove_prefix(1);
    if (!rest.starts_with('"'))
        return {};
    std::string text;
    for (std::size_t i = 1; i < rest.size() && rest[i] != '"'; ++i) {
        if (rest[i] == '\\' && i + 1 < rest.size()) {
            const char escaped = rest[++i];
            text += escaped == 'n' ? '\n' : escaped == 't' ? '\t' : escaped;
        } else {
            text += rest[i];
        }
    }
    return startsException(text) ? text : std::string();
}

/// The number after `"key":` in a flat JSON object, quoted or not.
std::optional<std::uint64_t> jsonNumber(std::string_view json, std::string_view key)
{
    const std::string quoted = "\"" + std::string(key) + "\"";
    std::size_t at = json.find(quoted);
    if (at == std::string_view::npos)
        return std::nullopt;
    at = json.find(':', at + quoted.size());
    if (at == std::string_view::npos)
        return std::nullopt;
    ++at;
    while (at < json.size() && (json[at] == ' ' || json[at] == '"'))
        ++at;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(json.data() + at, json.data() + json.size(), value);
    if (ec != std::errc() || end == json.data() + at)
        return std::nullopt;
    return value;
}

} // namespace

std::optional<ClickHouseProgress> parseProgressHeader(std::string_view value)
{
    ClickHouseProgress progress;
    const auto rows = jsonNumber(value, "read_rows");
    const auto bytes = jsonNumber(value, "read_bytes");
    if (!rows || !bytes)
        return std::nullopt;
    progress.readRows = *rows;
    progress.readBytes = *bytes;
    progress.totalRowsToRead = jsonNumber(value, "total_rows_to_read").value_or(0);
    return progress;
}

int exceptionCode(std::string_view text)
{
    const std::size_t at = text.find("Code: ");
    if (at == std::string_view::npos)
        return 0;
    int code = 0;
    const char *begin = text.data() + at + 6;
    const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), code);
    return ec == std::errc() && end != begin ? code : 0;
}

bool ClickHouseLineSplitter::push(std::string_view bytes)
{
    while (!bytes.empty()) {
        const std::size_t newline = bytes.find('\n');
        if (newline == std::string_view::npos) {
            m_pending.append(bytes);
            return true;
        }
        bool keepGoing = true;
        if (m_pending.empty()) {
            keepGoing = line(bytes.substr(0, newline));
        } else {
            m_pending.append(bytes.substr(0, newline));
            keepGoing = line(m_pending);
            m_pending.clear();
        }
        if (!keepGoing)
            return false;
        bytes.remove_prefix(newline + 1);
    }
    return true;
}

bool ClickHouseLineSplitter::finish()
{
    if (m_pending.empty())
        return true;
    const std::string last = std::move(m_pending);
    m_pending.clear();
    return line(last);
}

bool ClickHouseLineSplitter::line(std::string_view text)
{
    if (text.ends_with('\r'))
        text.remove_suffix(1);
    if (m_inException) {
        // After the marker of newer versions come a tag line, the text, its length and the closing marker;
        // the text is the line that starts with "Code: ". Older versions write that line alone.
        if (text != kExceptionMarker && !text.empty() && !startsException(m_exception)) {
            if (startsException(text))
                m_exception.assign(text);
            else if (m_exception.size() < 4096)
                m_exception += (m_exception.empty() ? "" : "\n") + std::string(text);
        }
        return true;
    }
    if (text.starts_with(kExceptionMarker) || startsException(text)) {
        m_inException = true;
        if (!text.starts_with(kExceptionMarker))
            m_exception.assign(text);
        return true;
    }
    if (std::string json = jsonException(text); !json.empty()) {
        m_inException = true;
        m_exception = std::move(json);
        return true;
    }
    if (text.empty())
        return true;
    ++m_rows;
    return m_row(text);
}

} // namespace lx::source
