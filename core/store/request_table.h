// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/huge_page_allocator.h"
#include "model/request.h"
#include "filter/request_filter.h"
#include "store/read_connection.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/// \file request_table.h
/// The requests as a table: its columns, the order of the rows matching a filter sorted by any column, the
/// display values of a few rows fetched by id, and CSV/TSV text of them. What the GUI's requests view
/// shows, without Qt: the SQL stays in core.

namespace lx {

/// The columns of the requests table, in display order.
enum class RequestColumn : int {
    SourceId,
    Start,
    Status,
    Model,
    Route,
    E2e,
    Network,
    Preprocess,
    Queue,
    Prefill,
    Decode,
    Postprocess,
    Unattributed,
    Ttft,
    Tpot,
    Ttlt,
    InputTokens,
    OutputTokens,
    Dominant,
    Scope,
};
inline constexpr int kRequestColumnCount = 20;

/// What a column's values are, which decides how they are sorted, shown and exported.
enum class ColumnKind {
    Duration,  ///< int64 ns; exported in ms with 6 decimals
    Timestamp, ///< int64 ns since the Unix epoch; exported as ISO-8601 UTC
    Integer,   ///< a count (tokens)
    Text,      ///< request id, model, route
    Enum,      ///< status, dominant segment, scope: small integers with names (see enumName)
};

/// How a column is named and what its values are.
struct ColumnInfo {
    std::string_view name;      ///< machine name: "e2e", "input_tokens"
    std::string_view header;    ///< for people: "E2E", "Input tokens"
    std::string_view csvHeader; ///< with its unit where it has one: "e2e_ms", "start_utc"
    ColumnKind kind;
};

/// Name, header and kind of a column.
const ColumnInfo &columnInfo(RequestColumn column);
/// Inverse of ColumnInfo::name; nullopt for an unknown name.
std::optional<RequestColumn> columnFromName(std::string_view name);
/// Every column in display order.
std::span<const RequestColumn> allRequestColumns();
/// Durations, timestamps and counts: right-aligned, sorted as numbers.
inline bool isNumeric(ColumnKind kind)
{
    return kind == ColumnKind::Duration || kind == ColumnKind::Timestamp || kind == ColumnKind::Integer;
}

/// The name of an Enum column's value: "ok"/"error", a segment name, "client"/"server"/"engine"; empty when
/// not measured or unknown.
std::string_view enumName(RequestColumn column, std::int64_t value);

/// Smallest first or largest first; not-measured values come last either way.
enum class SortDirection { Ascending, Descending };

/// The row ids of the requests matching a filter, in the order of one column.
///
/// Not-measured values come last in both directions ("no value" is not small or large); equal values keep
/// ascending row id in both directions, so an order is fully determined and repeatable. Text sorts in
/// natural order ("r2" before "r10"), byte-wise otherwise.
///
/// Built by one SQL scan of (id, value) and a sort in C++ (radix sort of 64-bit keys): SQL `ORDER BY`
/// over a million rows took 640 ms for the ids alone, against 100-160 ms for this whole build, and paging
/// with OFFSET re-reads every row before the page. The scan runs on whatever connection is passed in, so
/// the GUI builds it on a worker thread on a connection of its own (Store::openReader()).
class RequestOrder {
public:
    RequestOrder() = default; ///< an empty order, as shown before the first build lands

    /// Reads and sorts the requests matching `filter` by `column`. nullopt with the reason on an SQL error,
    /// or when `cancel` became true (checked every few thousand rows and between the stages).
    static std::optional<RequestOrder> build(const ReadConnection &connection, const RequestFilter &filter,
                                             RequestColumn column, SortDirection direction,
                                             const std::atomic<bool> *cancel = nullptr, std::string *error = nullptr);

    std::size_t size() const { return m_ids.size(); }
    bool empty() const { return m_ids.empty(); }
    /// Row ids (requests.id) in order.
    std::span<const std::int64_t> ids() const { return m_ids; }
    std::int64_t idAt(std::size_t row) const { return m_ids[row]; }
    /// How many rows, from the start, have the sort column measured; the rest have it not measured.
    std::size_t measuredCount() const { return m_measured; }

    const RequestFilter &filter() const { return m_filter; }
    RequestColumn column() const { return m_column; }
    SortDirection direction() const { return m_direction; }

    /// The row of each id in this order, or -1 when it is not in it: one pass over the order, for carrying
    /// a selection across a re-sort.
    std::vector<std::ptrdiff_t> rowsOf(std::span<const std::int64_t> ids) const;

private:
    std::vector<std::int64_t, HugePageAllocator<std::int64_t>> m_ids; ///< fresh memory faults in 2 MiB at a time
    std::size_t m_measured = 0;
    RequestFilter m_filter;
    RequestColumn m_column = RequestColumn::Start;
    SortDirection m_direction = SortDirection::Ascending;
};

/// Everything one table row shows.
struct TableRow {
    std::int64_t id = 0;   ///< requests.id
    std::string sourceId;  ///< the id in the source file
    std::string model;     ///< empty when absent
    std::string route;     ///< empty when absent
    /// Each column's number, kNotMeasured when not measured (NULL). Text columns carry a number too: the
    /// label id for model and route, the row id for the source id, so "measured" is one test everywhere.
    std::array<std::int64_t, kRequestColumnCount> values{};

    std::int64_t value(RequestColumn c) const { return values[static_cast<std::size_t>(c)]; }
    bool measured(RequestColumn c) const { return isMeasured(value(c)); }
    /// The text of a Text column.
    const std::string &text(RequestColumn c) const;
};

/// Fetches table rows by id on one connection, keeping its prepared statement between calls. The
/// connection must outlive the fetcher (a borrowed one: its Store must).
class RowFetcher {
public:
    explicit RowFetcher(const ReadConnection &connection);
    ~RowFetcher();
    RowFetcher(const RowFetcher &) = delete;
    RowFetcher &operator=(const RowFetcher &) = delete;

    /// One row per id, in the order given; an id not in the store gives a row with only its id and every
    /// value not measured. When SQLite fails (busy while an import commits, I/O), error() says why and the
    /// rows from the failure on are as empty as missing ones: not to be shown as "not measured".
    std::vector<TableRow> fetch(std::span<const std::int64_t> ids);
    /// Why the last fetch() failed; empty when it succeeded.
    const std::string &error() const { return m_error; }

private:
    struct Statements;
    std::unique_ptr<Statements> m_statements;
    std::string m_error;
};

/// The rows of those ids in the order given (RowFetcher::fetch with a statement prepared for this call).
std::vector<TableRow> fetchRows(const ReadConnection &connection, std::span<const std::int64_t> ids);

/// How formatRowsText() separates cells and lines.
enum class TextFormat {
    Csv, ///< RFC 4180: comma, quotes where needed, CRLF
    Tsv, ///< tab-separated, LF; tabs and line breaks in a cell become spaces (TSV cannot quote)
};

/// A cell as exported: durations in ms with 6 decimals, the start as ISO-8601 UTC with all 9 decimals
/// ("2025-01-01T12:00:01.404913922Z": exact and readable, where a 19-digit ns number loses its last digits
/// in a spreadsheet's doubles), names of enum values, text as is; empty when not measured (never 0).
std::string exportCell(const TableRow &row, RequestColumn column);

/// The rows as CSV or TSV text with a header row of ColumnInfo::csvHeader: what "copy" puts on the clipboard.
std::string formatRowsText(std::span<const TableRow> rows, std::span<const RequestColumn> columns, TextFormat format,
                           bool header = true);

/// Progress of an export in rows; returning false cancels (a Qt-free callback, as the importer's).
using RowProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

/// Writes every row of `order`, in its order, as CSV (header row first), fetching batches of rows on `connection`:
/// the "export the filtered rows" action. False with the reason on an SQL or stream error, or when the
/// progress callback (rows done, rows in all) returns false.
bool writeCsv(std::ostream &out, const ReadConnection &connection, const RequestOrder &order,
              std::span<const RequestColumn> columns, const RowProgress &progress = {}, std::string *error = nullptr);

} // namespace lx
