// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

/// \file text_table.h
/// A plain-text table for the reports whose columns grow to their widest cell, so that a long value
/// ("59 min 14 s", "1 h 2 min") never runs into its neighbour and the header stays over its column.

namespace lx {

/// Characters a reader sees in UTF-8 text: code points, not bytes, so that "µs" lines up.
std::size_t shownWidth(const std::string &text);

class TextTable {
public:
    enum class Align { Left, Right };
    struct Column {
        std::string header;
        Align align = Align::Right;
        std::size_t minWidth = 0; ///< the width when every cell is narrower: the usual look of the table
    };

    /// Every column after the first starts with at least this many spaces.
    static constexpr std::size_t kGap = 2;

    explicit TextTable(std::vector<Column> columns);

    /// A row of cells, one per column (missing cells are empty, extra ones are ignored).
    void addRow(std::vector<std::string> cells);
    /// An empty line between groups of rows; the groups share the column widths.
    void addBlankLine();

    /// The header and the rows, each line ending in '\n'. The last column is not padded (no trailing spaces).
    std::string render() const;

private:
    std::vector<Column> m_columns;
    std::vector<std::vector<std::string>> m_rows; ///< an empty row is a blank line
};

} // namespace lx
