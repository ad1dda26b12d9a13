// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/text_table.h"

#include <algorithm>
#include <utility>

namespace lx {

std::size_t shownWidth(const std::string &text)
{
    std::size_t shown = 0;
    for (unsigned char c : text)
        shown += (c & 0xC0) != 0x80; // continuation bytes do not start a character
    return shown;
}

TextTable::TextTable(std::vector<Column> columns)
    : m_columns(std::move(columns))
{
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_columns.size());
    m_rows.push_back(std::move(cells));
}

void TextTable::addBlankLine() { m_rows.emplace_back(); }

std::string TextTable::render() const
{
    // A column's content width: its widest cell, header included, but never below its usual width.
    const std::size_t count = m_columns.size();
    std::vector<std::size_t> widths(count);
    for (std::size_t c = 0; c < count; ++c) {
        std::size_t widest = shownWidth(m_columns[c].header);
        for (const auto &row : m_rows)
            if (!row.empty())
                widest = std::max(widest, shownWidth(row[c]));
        // A right-aligned column's gap is part of its width; the minimum may already include it.
        const std::size_t gap = c > 0 && m_columns[c].align == Align::Right ? kGap : 0;
        widths[c] = std::max(m_columns[c].minWidth, widest + gap);
    }

    const auto line = [&](const auto &cellOf) {
        std::string out;
        for (std::size_t c = 0; c < count; ++c) {
            const std::string &text = cellOf(c);
            const std::size_t pad = widths[c] - std::min(widths[c], shownWidth(text));
            if (m_columns[c].align == Align::Right) {
                out.append(pad, ' ');
                out += text;
                continue;
            }
            if (c > 0)
                out.append(kGap, ' ');
            out += text;
            if (c + 1 < count)
                out.append(pad, ' ');
        }
        return out + '\n';
    };

    std::string out = line([&](std::size_t c) -> const std::string & { return m_columns[c].header; });
    for (const auto &row : m_rows)
        out += row.empty() ? std::string("\n") : line([&](std::size_t c) -> const std::string & { return row[c]; });
    return out;
}

} // namespace lx
