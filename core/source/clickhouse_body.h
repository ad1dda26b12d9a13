// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

/// \file clickhouse_body.h
/// What ClickHouse's HTTP interface says besides the rows: the rows of a line format split as they arrive,
/// an exception written into the body after the rows began (the status, 200, was sent before the error
/// happened), and the X-ClickHouse-Progress header. No network here, so each part is tested alone.

namespace lx::source {

/// ClickHouse's progress as its X-ClickHouse-Progress header says it (send_progress_in_http_headers=1).
struct ClickHouseProgress {
    std::uint64_t readRows = 0;
    std::uint64_t readBytes = 0;
    std::uint64_t totalRowsToRead = 0; ///< 0 when ClickHouse does not know it yet
};

/// Reads the header's JSON value, `{"read_rows":"10","read_bytes":"80","total_rows_to_read":"100",...}`
/// (numbers quoted, as ClickHouse writes them; bare numbers are read too). Nothing when it is not that.
std::optional<ClickHouseProgress> parseProgressHeader(std::string_view value);

/// The exception code of a ClickHouse error text, "Code: 60. DB::Exception: ..." → 60; 0 when none.
int exceptionCode(std::string_view text);

/// Splits a body of one record per line (JSONEachRow, TSV) into its lines as the bytes arrive, and tells an
/// exception that ClickHouse appended mid-body from a row: a line that starts with "Code: NNN. DB::Exception"
/// or the "__exception__" marker of newer versions, which wraps the same text, or (JSON formats with
/// http_write_exception_in_output_format) a row {"exception": "Code: ..."}. After an exception nothing more
/// is a row.
class ClickHouseLineSplitter {
public:
    /// Takes each complete line (without its newline); returning false stops (push() returns false).
    using Row = std::function<bool(std::string_view line)>;

    explicit ClickHouseLineSplitter(Row row) : m_row(std::move(row)) {}

    /// The next bytes of the body. False when the row callback asked to stop.
    bool push(std::string_view bytes);
    /// At the end of the body: a last line without newline is a row (or the exception).
    bool finish();

    /// The exception's text when the body carried one, else empty.
    const std::string &exception() const { return m_exception; }
    std::uint64_t rows() const { return m_rows; }

private:
    bool line(std::string_view text);

    Row m_row;
    std::string m_pending; ///< the part of a line that has not ended yet
    std::string m_exception;
    std::uint64_t m_rows = 0;
    bool m_inException = false;
};

} // namespace lx::source
