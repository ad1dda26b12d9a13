// SPDX-License-Identifier: GPL-3.0-or-later
// The requests as text: a cell, rows for the clipboard (CSV or TSV), and the CSV export of a whole order.
#include "store/request_table.h"

#include "model/duration_format.h"

#include <charconv>
#include <ostream>

namespace lx {

namespace {

using K = ColumnKind;

bool fail(std::string *error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

} // namespace

std::string exportCell(const TableRow &row, RequestColumn column)
{
    if (!row.measured(column))
        return {};
    const std::int64_t v = row.value(column);
    switch (columnInfo(column).kind) {
    case K::Duration: {
        // Integer arithmetic: ns / 1e6 in double would print 0.000001 steps wrongly for large values; and
        // to_chars, since snprintf took 40% of an export of a million rows.
        const std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
        char buf[32];
        char *p = buf;
        if (v < 0)
            *p++ = '-';
        p = std::to_chars(p, buf + sizeof buf, magnitude / 1'000'000).ptr;
        *p++ = '.';
        for (std::uint64_t fraction = magnitude % 1'000'000, i = 6; i-- > 0; fraction /= 10)
            p[i] = static_cast<char>('0' + fraction % 10);
        return std::string(buf, p + 6);
    }
    case K::Timestamp:
        return formatTimestamp(v, 9);
    case K::Integer:
        return std::to_string(v);
    case K::Text:
        return row.text(column);
    case K::Enum:
        return std::string(enumName(column, v));
    }
    return {};
}

namespace {

void appendCell(std::string &out, std::string_view cell, TextFormat format)
{
    if (format == TextFormat::Tsv) {
        for (char c : cell)
            out += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
        return;
    }
    if (cell.find_first_of(",\"\r\n") == std::string_view::npos) {
        out.append(cell);
        return;
    }
    out += '"';
    for (char c : cell) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

void appendLine(std::string &out, std::span<const RequestColumn> columns, TextFormat format, const TableRow *row)
{
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i)
            out += format == TextFormat::Csv ? ',' : '\t';
        appendCell(out, row ? exportCell(*row, columns[i]) : std::string(columnInfo(columns[i]).csvHeader), format);
    }
    out += format == TextFormat::Csv ? "\r\n" : "\n";
}

} // namespace

std::string formatRowsText(std::span<const TableRow> rows, std::span<const RequestColumn> columns, TextFormat format,
                           bool header)
{
    std::string out;
    if (header)
        appendLine(out, columns, format, nullptr);
    for (const TableRow &row : rows)
        appendLine(out, columns, format, &row);
    return out;
}

bool writeCsv(std::ostream &out, const ReadConnection &connection, const RequestOrder &order,
              std::span<const RequestColumn> columns, const RowProgress &progress, std::string *error)
{
    constexpr std::size_t kBatch = 2048;
    RowFetcher fetcher(connection);
    std::string text;
    appendLine(text, columns, TextFormat::Csv, nullptr);
    const auto ids = order.ids();
    for (std::size_t first = 0;; first += kBatch) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!out)
            return fail(error, "cannot write the CSV file");
        if (first >= ids.size())
            break;
        if (progress && !progress(first, ids.size()))
            return fail(error, "cancelled");
        const auto rows = fetcher.fetch(ids.subspan(first, std::min(kBatch, ids.size() - first)));
        if (!fetcher.error().empty()) // blank cells would read as "not measured"
            return fail(error, fetcher.error());
        text.clear();
        for (const TableRow &row : rows)
            appendLine(text, columns, TextFormat::Csv, &row);
    }
    if (progress)
        progress(ids.size(), ids.size());
    return true;
}

} // namespace lx
