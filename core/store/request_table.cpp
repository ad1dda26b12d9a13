// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_table.h"

#include "model/huge_page_allocator.h"
#include "model/radix_sort.h"
#include "model/segments.h"
#include "store/request_scan.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <unordered_map>
#include <utility>

namespace lx {

namespace {

using C = RequestColumn;
using K = ColumnKind;

struct ColumnDef {
    ColumnInfo info;
    const char *sql; ///< the value over `requests r`; nullptr for the source id, which lives in request_details
};

/// The text of a segment's column that its table row does not hold: built once, kept for the program's life.
struct SegmentColumnText {
    std::string csvHeader; ///< "<name>_ms"
    std::string sql;       ///< "r.<column>"
};
const std::array<SegmentColumnText, kSegmentCount> kSegmentColumnTexts = [] {
    std::array<SegmentColumnText, kSegmentCount> texts;
    for (const SegmentDefinition &s : kSegments)
        texts[static_cast<std::size_t>(s.segment)] = {std::string(s.name) + "_ms", "r." + std::string(s.column)};
    return texts;
}();

/// A segment's column, named as the segment table (model/segments.h) names the segment.
static_assert(static_cast<int>(C::Unattributed) - static_cast<int>(C::Network) == kSegmentCount - 1,
              "RequestColumn holds the segments together, in pipeline order");
ColumnDef segmentColumn(Segment segment)
{
    const SegmentDefinition &s = segmentDefinition(segment);
    const SegmentColumnText &text = kSegmentColumnTexts[static_cast<std::size_t>(segment)];
    return {{s.name, s.title, text.csvHeader, K::Duration}, text.sql.c_str()};
}

// The e2e scope is NOT NULL with 0 for "none": NULLIF makes that "not measured" like everything else.
const std::array<ColumnDef, kRequestColumnCount> kColumns = {{
    {{"source_id", "Request", "source_id", K::Text}, nullptr},
    {{"start", "Start (UTC)", "start_utc", K::Timestamp}, "r.start_ns"},
    {{"status", "Status", "status", K::Enum}, "r.status"},
    {{"model", "Model", "model", K::Text}, "r.model_id"},
    {{"route", "Route", "route", K::Text}, "r.route_id"},
    {{"e2e", "E2E", "e2e_ms", K::Duration}, "r.e2e_ns"},
    segmentColumn(Segment::Network),
    segmentColumn(Segment::Preprocess),
    segmentColumn(Segment::Queue),
    segmentColumn(Segment::Prefill),
    segmentColumn(Segment::Decode),
    segmentColumn(Segment::Postprocess),
    segmentColumn(Segment::Unattributed),
    {{"ttft", "TTFT", "ttft_ms", K::Duration}, "r.ttft_ns"},
    {{"tpot", "TPOT", "tpot_ms", K::Duration}, "r.tpot_ns"},
    {{"ttlt", "TTLT", "ttlt_ms", K::Duration}, "r.ttlt_ns"},
    {{"input_tokens", "Input tokens", "input_tokens", K::Integer}, "r.input_tokens"},
    {{"output_tokens", "Output tokens", "output_tokens", K::Integer}, "r.output_tokens"},
    {{"dominant", "Dominant", "dominant", K::Enum}, "r.dominant"},
    {{"scope", "Scope", "scope", K::Enum}, "nullif(r.e2e_scope, 0)"},
}};

const std::array<RequestColumn, kRequestColumnCount> kAllColumns = [] {
    std::array<RequestColumn, kRequestColumnCount> all{};
    for (int c = 0; c < kRequestColumnCount; ++c)
        all[static_cast<std::size_t>(c)] = static_cast<RequestColumn>(c);
    return all;
}();


bool cancelled(const std::atomic<bool> *cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

/// Appends a key whose byte order is the natural order of `text`: each run of digits becomes '0', its
/// length without leading zeros and those digits, so that "r2" < "r10" under memcmp. The '0' keeps a
/// number's place among other characters. Runs over 255 digits compare by their first 255 (absurd ids).
void appendNaturalKey(std::string &out, std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] < '0' || text[i] > '9') {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9')
            ++end;
        while (i + 1 < end && text[i] == '0') // leading zeros carry no value; "0" itself stays
            ++i;
        const std::size_t digits = std::min<std::size_t>(end - i, 255);
        out += '0';
        out += static_cast<char>(digits);
        out.append(text.substr(i, digits));
        i = end;
    }
}

template<class T>
using Buffer = std::vector<T, HugePageAllocator<T>>;

/// Uninitialised memory for `n` trivially copyable items: a fresh 16 MB that is only ever written first.
template<class T>
auto rawArray(std::size_t n)
{
    n = std::max<std::size_t>(n, 1);
    const auto release = [n](T *p) { HugePageAllocator<T>().deallocate(p, n); };
    return std::unique_ptr<T[], decltype(release)>(HugePageAllocator<T>().allocate(n), release);
}

struct Entry {
    std::uint64_t key;
    std::int64_t id;
};

/// What the scan gathered, in scan order.
struct Scan {
    Buffer<Entry> measured;        ///< numbers: (value, row id) of the rows with the column measured
    Buffer<std::int64_t> missing;  ///< numbers: the rows with it not measured
    std::string keys;              ///< text: natural keys of the source ids, one after another
    Buffer<std::size_t> keyEnds;   ///< text: where each key ends in `keys`
    Buffer<std::int64_t> ids;      ///< text: the row id of each key
    bool idsAscending = true;      ///< false when SQLite walked an index: ties then need sorting by id
};

bool fail(std::string *error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

bool scanColumn(sqlite3 *db, const RequestFilter &filter, RequestColumn column, const std::atomic<bool> *cancel,
                Scan &scan, std::string *error)
{
    const SqlCondition where = toSqlCondition(filter);
    const char *expression = kColumns[static_cast<std::size_t>(column)].sql;
    const bool text = expression == nullptr;
    // The source id is in request_details: a primary-key probe per row (110 ms for a million). A merge with
    // a full scan of that wide table (60 ms) would win only while no filter leaves rows out.
    const std::string sql = (text ? std::string("SELECT r.id, d.source_id FROM requests r"
                                                " LEFT JOIN request_details d ON d.request_id = r.id")
                                  : std::string("SELECT r.id, ") + expression + " FROM requests r")
                            + " WHERE " + where.sql;
    Statement stmt(db, sql);
    if (!stmt.valid())
        return fail(error, std::string("cannot read the requests: ") + sqlite3_errmsg(db));
    where.bind(stmt);
    const std::size_t capacity = rowCapacity(db); // ids are unique: at most this many rows match
    (text ? scan.ids : scan.missing).reserve(capacity);
    if (text) {
        scan.keyEnds.reserve(capacity);
        scan.keys.reserve(capacity * 16);
    } else {
        scan.measured.reserve(capacity);
    }
    sqlite3_stmt *q = stmt.get();
    std::int64_t previous = INT64_MIN;
    int rc;
    for (std::size_t n = 1; (rc = stmt.step()) == SQLITE_ROW; ++n) {
        const std::int64_t id = sqlite3_column_int64(q, 0);
        scan.idsAscending = scan.idsAscending && id > previous;
        previous = id;
        if (text) {
            appendNaturalKey(scan.keys, columnText(q, 1));
            scan.keyEnds.push_back(scan.keys.size());
            scan.ids.push_back(id);
        } else if (const std::int64_t v = columnOr(q, 1); isMeasured(v)) {
            scan.measured.push_back({static_cast<std::uint64_t>(v), id});
        } else {
            scan.missing.push_back(id);
        }
        if ((n & 0x3fff) == 0 && cancelled(cancel))
            return fail(error, "cancelled");
    }
    if (rc != SQLITE_DONE)
        return fail(error, std::string("cannot read the requests: ") + sqlite3_errmsg(db));
    return true;
}

/// Turns the model or route label ids in the entries' keys into ranks of their names in natural order.
bool rankLabels(sqlite3 *db, Scan &scan, std::string *error)
{
    Statement labels(db, "SELECT id, text FROM labels");
    if (!labels.valid())
        return fail(error, std::string("cannot read the labels: ") + sqlite3_errmsg(db));
    std::vector<std::pair<std::string, std::int64_t>> byKey;
    while (labels.step() == SQLITE_ROW) {
        byKey.emplace_back(std::string(), sqlite3_column_int64(labels.get(), 0));
        appendNaturalKey(byKey.back().first, columnText(labels.get(), 1));
    }
    std::sort(byKey.begin(), byKey.end());
    std::unordered_map<std::int64_t, std::uint64_t> rank;
    for (std::size_t i = 0; i < byKey.size(); ++i)
        rank.emplace(byKey[i].second, i);
    for (Entry &e : scan.measured) { // a label id without a name (never written so) sorts after the named ones
        const auto it = rank.find(static_cast<std::int64_t>(e.key));
        e.key = it != rank.end() ? it->second : byKey.size();
    }
    return true;
}

/// The row ids of the scanned texts in natural order of their keys; equal keys by row id.
void sortTexts(const Scan &scan, SortDirection direction, Buffer<std::int64_t> &out)
{
    const std::size_t n = scan.ids.size();
    const auto key = [&](std::size_t i) {
        const std::size_t begin = i ? scan.keyEnds[i - 1] : 0;
        return std::string_view(scan.keys).substr(begin, scan.keyEnds[i] - begin);
    };
    // Every key shares a prefix in a typical trace ("req-0" and the digit count of "req-0001234"): the
    // 8 bytes after the prefix all keys share decide most comparisons, so those are radix-sorted as a
    // number and only the runs still equal compare whole keys.
    std::size_t common = n ? key(0).size() : 0;
    for (std::size_t i = 1; i < n && common; ++i) {
        const std::string_view k = key(i);
        std::size_t c = 0;
        while (c < common && c < k.size() && k[c] == key(0)[c])
            ++c;
        common = c;
    }
    const auto items = rawArray<Entry>(n), scratch = rawArray<Entry>(n); // (the 8 bytes, index of the key)
    for (std::size_t i = 0; i < n; ++i) {
        const std::string_view k = key(i);
        std::uint64_t prefix = 0;
        for (std::size_t b = 0; b < 8; ++b) // big-endian and zero-padded: a shorter key sorts first
            prefix = (prefix << 8) | (common + b < k.size() ? static_cast<unsigned char>(k[common + b]) : 0u);
        items[i] = {direction == SortDirection::Ascending ? prefix : ~prefix, static_cast<std::int64_t>(i)};
    }
    Entry *sorted = radixSort(items.get(), scratch.get(), n, [](const Entry &e) { return e.key; });
    const auto tail = [&](const Entry &e) {
        const std::string_view k = key(static_cast<std::size_t>(e.id));
        return k.substr(std::min(k.size(), common + 8));
    };
    const auto before = [&](const Entry &a, const Entry &b) {
        const int c = tail(a).compare(tail(b));
        if (c != 0)
            return direction == SortDirection::Ascending ? c < 0 : c > 0;
        return scan.ids[static_cast<std::size_t>(a.id)] < scan.ids[static_cast<std::size_t>(b.id)];
    };
    for (std::size_t first = 0; first < n;) {
        std::size_t last = first + 1;
        while (last < n && sorted[last].key == sorted[first].key)
            ++last;
        if (last - first > 1)
            std::sort(sorted + first, sorted + last, before);
        first = last;
    }
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(scan.ids[static_cast<std::size_t>(sorted[i].id)]);
}

} // namespace

const ColumnInfo &columnInfo(RequestColumn column) { return kColumns[static_cast<std::size_t>(column)].info; }

std::optional<RequestColumn> columnFromName(std::string_view name)
{
    for (RequestColumn c : kAllColumns) {
        if (columnInfo(c).name == name)
            return c;
    }
    return std::nullopt;
}

std::span<const RequestColumn> allRequestColumns() { return kAllColumns; }

std::string_view enumName(RequestColumn column, std::int64_t value)
{
    switch (column) {
    case C::Status:
        return value == 0 ? "ok" : value == 1 ? "error" : "";
    case C::Dominant:
        return value >= 0 && value < kSegmentCount ? segmentName(static_cast<Segment>(value)) : "";
    case C::Scope:
        return value >= 1 && value <= 3 ? scopeName(static_cast<E2eScope>(value)) : "";
    default:
        return "";
    }
}

std::optional<RequestOrder> RequestOrder::build(const ReadConnection &connection, const RequestFilter &filter,
                                                RequestColumn column, SortDirection direction,
                                                const std::atomic<bool> *cancel, std::string *error)
{
    sqlite3 *db = connection.db();
    Scan scan;
    if (!scanColumn(db, filter, column, cancel, scan, error))
        return std::nullopt;
    if ((column == C::Model || column == C::Route) && !rankLabels(db, scan, error))
        return std::nullopt;
    if (cancelled(cancel)) {
        fail(error, "cancelled");
        return std::nullopt;
    }
    RequestOrder order;
    order.m_filter = filter;
    order.m_column = column;
    order.m_direction = direction;
    order.m_ids.reserve(scan.measured.size() + scan.missing.size() + scan.ids.size());
    if (column == C::SourceId) {
        sortTexts(scan, direction, order.m_ids);
        order.m_measured = order.m_ids.size();
        return order;
    }
    const std::size_t n = scan.measured.size();
    const auto scratch = rawArray<Entry>(n);
    Entry *sorted = scan.measured.data();
    // Ties keep the scan order, so that order must be by id: it is, unless SQLite walked an index (a time
    // range over requests_by_start). Sorting by id first keeps the key sort stable on ids then.
    if (!scan.idsAscending) {
        sorted = radixSort(sorted, sorted == scan.measured.data() ? scratch.get() : scan.measured.data(), n,
                           [](const Entry &e) { return static_cast<std::uint64_t>(e.id); });
        std::sort(scan.missing.begin(), scan.missing.end());
    }
    // int64 order as unsigned order (flip the sign bit), reversed for descending.
    constexpr std::uint64_t kSignBit = std::uint64_t(1) << 63;
    const std::uint64_t flip = direction == SortDirection::Ascending ? kSignBit : ~kSignBit;
    for (std::size_t i = 0; i < n; ++i)
        sorted[i].key ^= flip;
    sorted = radixSort(sorted, sorted == scan.measured.data() ? scratch.get() : scan.measured.data(), n,
                       [](const Entry &e) { return e.key; });
    for (std::size_t i = 0; i < n; ++i)
        order.m_ids.push_back(sorted[i].id);
    order.m_ids.insert(order.m_ids.end(), scan.missing.begin(), scan.missing.end());
    order.m_measured = n;
    return order;
}

std::vector<std::ptrdiff_t> RequestOrder::rowsOf(std::span<const std::int64_t> ids) const
{
    std::unordered_map<std::int64_t, std::ptrdiff_t> rowOf;
    for (std::int64_t id : ids)
        rowOf.emplace(id, -1);
    for (std::size_t row = 0; row < m_ids.size(); ++row) {
        if (const auto it = rowOf.find(m_ids[row]); it != rowOf.end())
            it->second = static_cast<std::ptrdiff_t>(row);
    }
    std::vector<std::ptrdiff_t> rows;
    for (std::int64_t id : ids)
        rows.push_back(rowOf[id]);
    return rows;
}

const std::string &TableRow::text(RequestColumn c) const
{
    static const std::string none;
    return c == C::SourceId ? sourceId : c == C::Model ? model : c == C::Route ? route : none;
}

// ---- Fetching rows ----------------------------------------------------------------------------------

namespace {

/// Every column of a row by id, in column order (the source id first), then the model's and route's names.
std::string rowSql()
{
    std::string sql = "SELECT d.source_id";
    for (std::size_t c = 1; c < kColumns.size(); ++c)
        sql.append(", ").append(kColumns[c].sql);
    return sql + ", m.text, rt.text FROM requests r LEFT JOIN request_details d ON d.request_id = r.id"
                 " LEFT JOIN labels m ON m.id = r.model_id LEFT JOIN labels rt ON rt.id = r.route_id WHERE r.id = ?";
}

} // namespace

struct RowFetcher::Statements {
    explicit Statements(sqlite3 *db)
        : byId(db, rowSql())
        , prepareError(byId.valid() ? std::string() : std::string("cannot read the requests: ") + sqlite3_errmsg(db))
        , begin(db, "BEGIN")
        , commit(db, "COMMIT")
        , db(db)
    {
    }
    Statement byId;
    std::string prepareError; ///< said by SQLite when preparing, long gone by the time of a fetch
    Statement begin, commit;
    sqlite3 *db;
};

RowFetcher::RowFetcher(const ReadConnection &connection) : m_statements(std::make_unique<Statements>(connection.db())) {}
RowFetcher::~RowFetcher() = default;

std::vector<TableRow> RowFetcher::fetch(std::span<const std::int64_t> ids)
{
    // A prepared point look-up per id, in one read transaction: outside one, every statement takes and
    // drops the file lock and revalidates the page cache, 14 µs a row (256 random rows of a million:
    // 3.5 ms, in a transaction 0.5 ms). One `WHERE id IN (256 ?)` measured 0.33 ms, but needs a statement
    // per batch size and putting the rows back in order; both are far below a frame.
    const bool ownTransaction = sqlite3_get_autocommit(m_statements->db) && m_statements->begin.step() == SQLITE_DONE;
    m_statements->begin.reset();
    std::vector<TableRow> rows(ids.size());
    Statement &stmt = m_statements->byId;
    sqlite3_stmt *q = stmt.get();
    m_error = m_statements->prepareError;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        TableRow &row = rows[i];
        row.id = ids[i];
        row.values.fill(kNotMeasured);
        if (!m_error.empty())
            continue;
        stmt.bindInt(1, ids[i]);
        const int rc = stmt.step();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            m_error = std::string("cannot read the requests: ") + sqlite3_errmsg(m_statements->db);
        if (rc == SQLITE_ROW) {
            row.sourceId = columnText(q, 0);
            row.values[0] = ids[i];
            for (int c = 1; c < kRequestColumnCount; ++c)
                row.values[static_cast<std::size_t>(c)] = columnOr(q, c);
            row.model = columnText(q, kRequestColumnCount);
            row.route = columnText(q, kRequestColumnCount + 1);
        }
        stmt.reset();
    }
    if (ownTransaction) {
        m_statements->commit.step();
        m_statements->commit.reset();
    }
    return rows;
}

std::vector<TableRow> fetchRows(const ReadConnection &connection, std::span<const std::int64_t> ids)
{
    return RowFetcher(connection).fetch(ids);
}

} // namespace lx
