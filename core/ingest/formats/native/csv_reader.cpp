// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/native/csv_reader.h"
#include "platform/float_from_chars.h"

#include "ingest/line_reader.h"
#include "ingest/formats/native/native_fields.h"

#include <algorithm>
#include <charconv>

namespace lx {

namespace {

/// Whether a quoted field is open at the end of `text`, given whether one was at its start: the record
/// then goes on at the next line. A quote opens a field only where the field starts, as splitCsvRecord()
/// reads it; inside an unquoted field it is a character like any other. (Counting every quote took one
/// stray quote in a row for an open field: each line after it joined the record, up to the next stray
/// quote or the end of the file, and was neither imported nor rejected.)
bool quoteOpenAfter(std::string_view text, bool open)
{
    bool fieldStart = !open;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (open) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                ++i; // a doubled quote: the field goes on
            else if (c == '"')
                open = false;
        } else if (c == ',') {
            fieldStart = true;
        } else {
            open = c == '"' && fieldStart;
            fieldStart = false;
        }
    }
    return open;
}

bool looksNumeric(std::string_view text)
{
    double value = 0;
    const auto [end, ec] = lx::fromChars(text.data(), text.data() + text.size(), value);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

/// "the header names t_sched_ns twice (columns 2 and 5): ..." for the first name the header repeats; empty
/// when none is. A record's two values for one name cannot both be its value, and neither can be chosen.
std::string repeatedColumn(const std::vector<std::string> &header)
{
    for (std::size_t later = 1; later < header.size(); ++later) {
        for (std::size_t first = 0; first < later; ++first) {
            if (!header[later].empty() && header[first] == header[later]) // empty: a spreadsheet's trailing columns
                return "the header names " + header[later] + " twice (columns " + std::to_string(first + 1) + " and "
                    + std::to_string(later + 1) + "): which of the two a record means cannot be told";
        }
    }
    return {};
}

class CsvReader final : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        if (!nextRecord(lines, line, lineNumber))
            return "no header row";
        std::string why;
        if (!splitCsvRecord(line, m_fields, m_scratch, &why))
            return "line 1: malformed header: " + why;
        m_header.assign(m_fields.begin(), m_fields.end());
        if (std::string twice = repeatedColumn(m_header); !twice.empty())
            return "line " + std::to_string(lineNumber) + ": " + twice;
        m_keys.clear();
        bool hasId = false;
        for (const std::string &name : m_header) {
            m_keys.push_back(classifyNativeKey(name));
            hasId = hasId || m_keys.back().field == NativeField::Id;
        }
        if (!hasId)
            m_missingIdReason = "missing id: the header (line " + std::to_string(lineNumber) + ") has no id column";

        std::int64_t recordLine = 0;
        while (nextRecord(lines, line, recordLine)) {
            if (m_overlong) {
                sink.reject(recordLine, "a quoted field is still open after " + byteSizeText(lines.maxLineBytes())
                                            + " (an unclosed quote?): not read; reading goes on at the next line",
                            line);
                continue;
            }
            if (line.empty())
                continue;
            if (!sink.keepGoing())
                break;
            RequestRecord &record = sink.slot();
            record.sourceLine = recordLine;
            why = parseRecord(line, record);
            if (why.empty())
                sink.accept(line);
            else
                sink.reject(recordLine, why, line);
        }
        return {};
    }

private:
    /// One CSV record, which may span several lines when a quoted field holds a line break. A record that
    /// grows past the line cap (a quote never closed) is cut there: m_overlong says so, and the next record
    /// starts at the following line.
    bool nextRecord(LineReader &lines, std::string_view &record, std::int64_t &firstLine)
    {
        m_overlong = false;
        if (!lines.next(record, firstLine))
            return false;
        bool open = quoteOpenAfter(record, false);
        if (!open)
            return true;
        m_joined.assign(record);
        std::string_view more;
        std::int64_t moreLine = 0;
        // Each new line alone, from where the last one left: reading the whole record again is quadratic.
        while (open && lines.next(more, moreLine)) {
            if (m_joined.size() + 1 + more.size() > lines.maxLineBytes()) {
                m_overlong = true;
                m_joined.resize(std::min<std::size_t>(m_joined.size(), 256)); // the excerpt is all that is kept
                break;
            }
            m_joined += '\n';
            m_joined.append(more);
            open = quoteOpenAfter(more, true);
        }
        record = m_joined;
        return true;
    }

    std::string parseRecord(std::string_view line, RequestRecord &record)
    {
        std::string why;
        if (!splitCsvRecord(line, m_fields, m_scratch, &why))
            return "malformed CSV: " + why;
        if (m_fields.size() != m_header.size()) {
            return "ragged row: " + std::to_string(m_fields.size()) + " fields where the header has "
                   + std::to_string(m_header.size());
        }
        if (!m_missingIdReason.empty())
            return m_missingIdReason;
        m_builder.reset(record);
        for (std::size_t i = 0; i < m_fields.size(); ++i) {
            const std::string_view cell = m_fields[i];
            if (cell.empty())
                continue; // an empty cell is absent, never zero
            if (m_keys[i].field == NativeField::Attribute) {
                appendJsonKey(record.attributesJson, m_header[i]);
                if (looksNumeric(cell))
                    record.attributesJson.append(cell);
                else
                    appendJsonString(record.attributesJson, cell);
                continue;
            }
            if (std::string fieldWhy = m_builder.setText(m_keys[i], m_header[i], cell); !fieldWhy.empty())
                return fieldWhy;
        }
        return m_builder.finish();
    }

    std::vector<std::string> m_header;
    std::vector<NativeKey> m_keys;
    std::vector<std::string_view> m_fields;
    std::string m_scratch;
    std::string m_joined;
    bool m_overlong = false; ///< the last record ran past the line cap and was cut
    std::string m_missingIdReason;
    NativeRecordBuilder m_builder;
};

} // namespace

bool splitCsvRecord(std::string_view record, std::vector<std::string_view> &fields, std::string &scratch,
                    std::string *why)
{
    fields.clear();
    scratch.clear();
    // Unquoted fields point into the record; quoted ones are unescaped into scratch. Reserve so that the
    // views into scratch survive its growth.
    scratch.reserve(record.size());
    std::size_t pos = 0;
    for (;;) {
        if (pos < record.size() && record[pos] == '"') {
            const std::size_t start = scratch.size();
            ++pos;
            for (;;) {
                if (pos >= record.size()) {
                    *why = "a quoted field is not closed";
                    return false;
                }
                if (record[pos] == '"') {
                    if (pos + 1 < record.size() && record[pos + 1] == '"') {
                        scratch += '"';
                        pos += 2;
                        continue;
                    }
                    ++pos;
                    break;
                }
                scratch += record[pos++];
            }
            fields.emplace_back(scratch.data() + start, scratch.size() - start);
            if (pos < record.size() && record[pos] != ',') {
                *why = "text after a closing quote at column " + std::to_string(pos + 1);
                return false;
            }
        } else {
            const std::size_t end = std::min(record.find(',', pos), record.size());
            fields.push_back(record.substr(pos, end - pos));
            pos = end;
        }
        if (pos >= record.size())
            return true;
        ++pos; // the comma
    }
}

bool csvCanRead(std::string_view head)
{
    // A header row of names: printable text with at least one comma before the first line end.
    const std::size_t end = std::min(head.find('\n'), head.size());
    const std::string_view first = head.substr(0, end);
    if (first.find(',') == std::string_view::npos || first.starts_with('{') || first.starts_with('['))
        return false; // JSON is not a header row, even with commas in it
    return std::all_of(first.begin(), first.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u >= 0x20 || c == '\t' || c == '\r';
    });
}

std::unique_ptr<TraceReader> createCsvReader(const ReaderOptions &) { return std::make_unique<CsvReader>(); }

} // namespace lx
