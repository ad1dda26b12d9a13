// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_columns.h"

#include "store/column_chunk_codec.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

namespace lx {

namespace {

static_assert(kFirstSegmentColumn + kSegmentCount == kTtftColumn);

/// The states column: ok, and the two scopes (0 to 3 each), in one small number.
std::int64_t statesOf(const RequestRow &row)
{
    return (row.ok ? kStateOk : 0) | static_cast<std::int64_t>(row.e2eScope) << 1
        | static_cast<std::int64_t>(row.tokenScope) << 4;
}

/// The columns of one chunk, decoded into memory a scan reuses from chunk to chunk.
class DecodedChunk {
public:
    void decode(std::span<const unsigned char> blob, const std::array<ColumnCoding, kChunkColumns> &codings, std::size_t rows)
    {
        for (std::size_t c = 0; c < kChunkColumns; ++c)
            decodeColumn(blob, codings, c, rows, column(c));
    }

    std::int64_t value(std::size_t c, std::size_t i) const { return m_values[c * kColumnStride + i]; }

    RequestRow row(std::size_t i) const
    {
        RequestRow row;
        row.start = value(kStartColumn, i);
        row.e2e = value(kE2eColumn, i);
        for (int s = 0; s < kSegmentCount; ++s)
            row.segments[static_cast<std::size_t>(s)] = value(kFirstSegmentColumn + static_cast<std::size_t>(s), i);
        row.flags = static_cast<std::uint32_t>(value(kFlagsColumn, i));
        const std::int64_t states = value(kStatesColumn, i);
        row.ok = (states & kStateOk) != 0;
        row.tpot = value(kTpotColumn, i);
        row.e2eScope = storedScope(states >> 1 & 7);
        row.ttft = value(kTtftColumn, i);
        row.ttlt = value(kTtltColumn, i);
        row.tokenScope = storedScope(states >> 4 & 7);
        return row;
    }

private:
    // Columns a power of two apart put every column's value of a row in the same set of the L1 and L2
    // caches: 15 lines competing for 8 ways, each read missed both. A cache line more apart, each in a
    // set of its own.
    static constexpr std::size_t kColumnStride = kRowsPerChunk + 64 / sizeof(std::int64_t);
    std::int64_t *column(std::size_t c) { return m_values.get() + c * kColumnStride; }

    // Left uninitialised (new[] of a scalar type, where make_unique<T[]> zeroes; libc++ 14 has no
    // make_unique_for_overwrite): a scan of a small store touches only the pages its rows need.
    std::unique_ptr<std::int64_t[]> m_values { new std::int64_t[kChunkColumns * kColumnStride] };
};

[[noreturn]] void damaged(std::int64_t firstId, const char *what)
{
    throw std::runtime_error("the store's column chunk at request " + std::to_string(firstId) + " is damaged (" + what
                             + "); drop the table request_columns to read the store by rows");
}

/// The codings of the chunk that starts at `firstId`, read from the head of its BLOB alone (the BLOB's
/// first page, not the whole of it); nullopt when they are not this layout's or do not make its size.
std::optional<std::array<ColumnCoding, kChunkColumns>> chunkHeader(sqlite3 *db, std::int64_t firstId, std::size_t rows,
                                                                   std::uint64_t size)
{
    if (size < kChunkHeaderBytes)
        return std::nullopt;
    sqlite3_blob *blob = nullptr;
    std::array<unsigned char, kChunkHeaderBytes> head;
    const bool read = sqlite3_blob_open(db, "main", "request_columns", "data", firstId, 0, &blob) == SQLITE_OK
                      && sqlite3_blob_read(blob, head.data(), static_cast<int>(head.size()), 0) == SQLITE_OK;
    sqlite3_blob_close(blob);
    return read ? readChunkHeader(head, rows, size) : std::nullopt;
}

} // namespace

struct RequestColumnsWriter::Pending {
    std::array<std::vector<std::int64_t>, kChunkColumns> columns;
    std::vector<unsigned char> blob;

    std::size_t size() const { return columns[kIdColumn].size(); }
    void clear()
    {
        for (auto &c : columns)
            c.clear();
        blob.clear();
    }
};

RequestColumnsWriter::RequestColumnsWriter(sqlite3 *db) : m_db(db), m_pending(std::make_unique<Pending>()) {}

RequestColumnsWriter::~RequestColumnsWriter() = default;

bool RequestColumnsWriter::add(std::int64_t id, const RequestRow &row)
{
    auto &c = m_pending->columns;
    c[kIdColumn].push_back(id);
    c[kStartColumn].push_back(row.start);
    c[kE2eColumn].push_back(row.e2e);
    for (int s = 0; s < kSegmentCount; ++s)
        c[kFirstSegmentColumn + static_cast<std::size_t>(s)].push_back(row.segments[static_cast<std::size_t>(s)]);
    c[kTtftColumn].push_back(row.ttft);
    c[kTpotColumn].push_back(row.tpot);
    c[kTtltColumn].push_back(row.ttlt);
    c[kFlagsColumn].push_back(row.flags);
    c[kStatesColumn].push_back(statesOf(row));
    return m_pending->size() < kRowsPerChunk || flush();
}

bool RequestColumnsWriter::flush()
{
    Pending &p = *m_pending;
    const std::size_t n = p.size();
    if (n == 0)
        return true;
    std::array<std::span<const std::int64_t>, kChunkColumns> columns;
    for (std::size_t c = 0; c < kChunkColumns; ++c)
        columns[c] = p.columns[c];
    encodeChunk(columns, p.blob);
    Statement insert(m_db, "INSERT INTO request_columns (first_id, last_id, rows, data) VALUES (?, ?, ?, ?)");
    insert.bindInt(1, p.columns[kIdColumn].front());
    insert.bindInt(2, p.columns[kIdColumn].back());
    insert.bindInt(3, static_cast<std::int64_t>(n));
    sqlite3_bind_blob64(insert.get(), 4, p.blob.data(), p.blob.size(), SQLITE_STATIC);
    if (!insert.valid() || insert.step() != SQLITE_DONE) {
        m_error = sqlite3_errmsg(m_db);
        return false;
    }
    p.clear();
    return true;
}

bool readableRequestColumns(sqlite3 *db, const RowIdRange &range)
{
    if (range.rows() == 0)
        return false;
    // length() of a BLOB reads its size from the record header, not its pages.
    Statement chunks(db, "SELECT first_id, last_id, rows, length(data) FROM request_columns ORDER BY first_id");
    if (!chunks.valid())
        return false; // no such table: a read-only store whose stand-ins failed
    std::int64_t next = range.lo; // the least id the next chunk may start at
    bool first = true;
    while (chunks.step() == SQLITE_ROW) {
        sqlite3_stmt *q = chunks.get();
        const std::int64_t lo = sqlite3_column_int64(q, 0), hi = sqlite3_column_int64(q, 1), rows = sqlite3_column_int64(q, 2);
        const auto bytes = static_cast<std::uint64_t>(sqlite3_column_int64(q, 3));
        // A chunk of more rows than this program writes is refused before its size is multiplied out: a
        // crafted count could wrap the product onto the BLOB's real size.
        if ((first && lo != range.lo) || lo < next || hi < lo || rows < 1 || static_cast<std::uint64_t>(rows) > kRowsPerChunk
            || static_cast<std::uint64_t>(rows) - 1 > static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo)
            || !chunkHeader(db, lo, static_cast<std::size_t>(rows), bytes))
            return false; // chunks of an earlier layout among them: the import writes them anew
        if (hi == range.hi)
            return chunks.step() == SQLITE_DONE; // the last row's chunk must be the last chunk
        next = hi + 1;
        first = false;
    }
    return false; // the chunks end before the rows do
}

namespace {

/// scanRequestColumns() with the requests chosen by their ids (`only`), by a condition, or all of them.
void scanChunks(sqlite3 *db, std::int64_t lo, std::int64_t hi, const std::vector<std::int64_t> *only,
                const RowCondition *condition, int half, RequestRowVisit visit, void *context)
{
    Statement chunks(db, "SELECT first_id, last_id, rows, data FROM request_columns WHERE first_id <= ? AND last_id >= ?"
                         " ORDER BY first_id");
    chunks.bindInt(1, hi);
    chunks.bindInt(2, lo);
    std::size_t next = 0; // in `only`
    DecodedChunk chunk;
    while (chunks.step() == SQLITE_ROW) {
        sqlite3_stmt *q = chunks.get();
        const std::int64_t firstId = sqlite3_column_int64(q, 0), lastId = sqlite3_column_int64(q, 1);
        const auto rows = static_cast<std::size_t>(std::max<std::int64_t>(sqlite3_column_int64(q, 2), 0));
        const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(q, 3));
        const std::span<const unsigned char> blob(bytes, static_cast<std::size_t>(sqlite3_column_bytes(q, 3)));
        if (rows < 1 || rows > kRowsPerChunk || !bytes)
            damaged(firstId, "its size is not its rows'");
        const auto codings = readChunkHeader(blob, rows, blob.size());
        if (!codings)
            damaged(firstId, "its layout does not make its size");
        chunk.decode(blob, *codings, rows);
        std::int64_t previous = firstId;
        for (std::size_t i = 0; i < rows; ++i) {
            const std::int64_t id = chunk.value(kIdColumn, i);
            if (i == 0 ? id != firstId : id <= previous || id > lastId)
                damaged(firstId, "its ids are out of order");
            previous = id;
            if (id < lo || id > hi)
                continue;
            if (only) {
                while (next < only->size() && (*only)[next] < id)
                    ++next;
                if (next == only->size())
                    return;
                if ((*only)[next] != id)
                    continue;
            }
            const RequestRow row = chunk.row(i);
            if (!condition || condition->selects(row))
                visit(context, half, row);
        }
    }
}

} // namespace

void scanRequestColumns(sqlite3 *db, std::int64_t lo, std::int64_t hi, const std::vector<std::int64_t> *only, int half,
                        RequestRowVisit visit, void *context)
{
    scanChunks(db, lo, hi, only, nullptr, half, visit, context);
}

void scanRequestColumns(sqlite3 *db, std::int64_t lo, std::int64_t hi, const RowCondition &condition, int half,
                        RequestRowVisit visit, void *context)
{
    scanChunks(db, lo, hi, nullptr, &condition, half, visit, context);
}

void readChunkColumns(sqlite3 *db, std::span<const std::size_t> columns, const ChunkColumnsVisit &visit,
                      std::int64_t firstIdFrom, std::int64_t firstIdTo)
{
    // Each chunk's header, then each column's own bytes, out of the BLOB through sqlite3_blob_read(): only
    // the pages that hold them are read, not the chunk's whole record.
    Statement chunks(db,
                     "SELECT first_id, rows, length(data) FROM request_columns WHERE first_id BETWEEN ? AND ?"
                     " ORDER BY first_id");
    chunks.bindInt(1, firstIdFrom);
    chunks.bindInt(2, firstIdTo);
    std::vector<std::vector<std::int64_t>> values(columns.size(), std::vector<std::int64_t>(kRowsPerChunk));
    std::vector<const std::int64_t *> decoded(columns.size());
    std::vector<unsigned char> codes;
    std::array<unsigned char, kChunkHeaderBytes> head;
    while (chunks.step() == SQLITE_ROW) {
        sqlite3_stmt *q = chunks.get();
        const std::int64_t firstId = sqlite3_column_int64(q, 0);
        const std::int64_t rows = sqlite3_column_int64(q, 1);
        const auto size = static_cast<std::uint64_t>(sqlite3_column_int64(q, 2));
        if (rows < 1 || static_cast<std::uint64_t>(rows) > kRowsPerChunk || size < kChunkHeaderBytes)
            damaged(firstId, "its size is not its rows'");
        const auto n = static_cast<std::size_t>(rows);
        {
            sqlite3_blob *opened = nullptr;
            const bool open
                = sqlite3_blob_open(db, "main", "request_columns", "data", firstId, 0, &opened) == SQLITE_OK;
            // Closed on every way out of this block, an exception's too.
            const std::unique_ptr<sqlite3_blob, int (*)(sqlite3_blob *)> blob(opened, sqlite3_blob_close);
            const auto unreadable = [&] {
                throw std::runtime_error(std::string("cannot read the store's column chunks: ") + sqlite3_errmsg(db));
            };
            if (!open || sqlite3_blob_read(blob.get(), head.data(), static_cast<int>(head.size()), 0) != SQLITE_OK)
                unreadable();
            const auto codings = readChunkHeader(head, n, size);
            if (!codings)
                damaged(firstId, "its layout does not make its size");
            for (std::size_t k = 0; k < columns.size(); ++k) {
                const ColumnCoding coding = (*codings)[columns[k]];
                codes.resize(coding.width * n);
                if (!codes.empty()
                    && sqlite3_blob_read(blob.get(), codes.data(), static_cast<int>(codes.size()),
                                         static_cast<int>(coding.offset))
                        != SQLITE_OK)
                    unreadable();
                decodeCodes(codes, coding, n, values[k].data());
                decoded[k] = values[k].data();
            }
        }
        visit(decoded, n);
    }
}

bool dropRequestColumns(sqlite3 *db, std::string *error)
{
    if (sqlite3_exec(db, "DELETE FROM request_columns", nullptr, nullptr, nullptr) == SQLITE_OK)
        return true;
    if (error)
        *error = sqlite3_errmsg(db);
    return false;
}

bool ensureRequestColumns(Store &store, std::string *error)
{
    if (store.heldRows() || !store.isWritable())
        return true;
    sqlite3 *db = store.db();
    const RowIdRange range = requestIdRange(db);
    if (range.rows() == 0 || readableRequestColumns(db, range))
        return true;
    std::string why;
    if (!store.exec("BEGIN IMMEDIATE", &why)) {
        if (error)
            *error = why;
        return false;
    }
    RequestColumnsWriter writer(db);
    bool ok = dropRequestColumns(db, &why);
    if (ok)
        ok = forEachStoredRow(db, [&](std::int64_t id, const RequestRow &row) { return writer.add(id, row); }) && writer.flush();
    if (ok)
        ok = store.exec("COMMIT", &why);
    if (!ok) {
        if (why.empty())
            why = writer.error().empty() ? std::string(sqlite3_errmsg(db)) : writer.error();
        store.exec("ROLLBACK");
        if (error)
            *error = "cannot write the column chunks: " + why;
    }
    return ok;
}

} // namespace lx
