// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_columns.h"

#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace lx {

namespace {

static_assert(std::endian::native == std::endian::little, "column chunks are little-endian");

// The chunk's arrays, in the order schema.sql gives: the int64 ones, then flags, then the three bytes.
constexpr int kIdColumn = 0, kStartColumn = 1, kE2eColumn = 2, kFirstSegmentColumn = 3;
constexpr int kTtftColumn = kFirstSegmentColumn + kSegmentCount, kTpotColumn = kTtftColumn + 1, kTtltColumn = kTtftColumn + 2;
constexpr int kInt64Columns = kTtltColumn + 1;
constexpr std::size_t kBytesPerRow = kInt64Columns * sizeof(std::int64_t) + sizeof(std::uint32_t) + 3;

/// The arrays of one chunk's BLOB, read in place (a BLOB has no alignment: values are copied out).
class ChunkView {
public:
    ChunkView(const unsigned char *bytes, std::size_t rows) : m_bytes(bytes), m_rows(rows) {}

    std::int64_t value(int column, std::size_t i) const
    {
        std::int64_t v;
        std::memcpy(&v, m_bytes + (static_cast<std::size_t>(column) * m_rows + i) * sizeof v, sizeof v);
        return v;
    }
    std::uint32_t flags(std::size_t i) const
    {
        std::uint32_t v;
        std::memcpy(&v, m_bytes + kInt64Columns * sizeof(std::int64_t) * m_rows + i * sizeof v, sizeof v);
        return v;
    }
    /// Byte array k (0 ok, 1 e2e scope, 2 token scope).
    unsigned char byte(int k, std::size_t i) const
    {
        return m_bytes[(kInt64Columns * sizeof(std::int64_t) + sizeof(std::uint32_t) + static_cast<std::size_t>(k)) * m_rows + i];
    }

    RequestRow row(std::size_t i) const
    {
        RequestRow row;
        row.start = value(kStartColumn, i);
        row.e2e = value(kE2eColumn, i);
        for (int s = 0; s < kSegmentCount; ++s)
            row.segments[static_cast<std::size_t>(s)] = value(kFirstSegmentColumn + s, i);
        row.flags = flags(i);
        row.ok = byte(0, i) != 0;
        row.tpot = value(kTpotColumn, i);
        row.e2eScope = static_cast<E2eScope>(byte(1, i));
        row.ttft = value(kTtftColumn, i);
        row.ttlt = value(kTtltColumn, i);
        row.tokenScope = static_cast<E2eScope>(byte(2, i));
        return row;
    }

private:
    const unsigned char *m_bytes;
    std::size_t m_rows;
};

[[noreturn]] void damaged(std::int64_t firstId, const char *what)
{
    throw std::runtime_error("the store's column chunk at request " + std::to_string(firstId) + " is damaged (" + what
                             + "); drop the table request_columns to read the store by rows");
}

} // namespace

struct RequestColumnsWriter::Pending {
    std::array<std::vector<std::int64_t>, kInt64Columns> int64s;
    std::vector<std::uint32_t> flags;
    std::array<std::vector<unsigned char>, 3> bytes;
    std::vector<unsigned char> blob;

    std::size_t size() const { return int64s[kIdColumn].size(); }
    void clear()
    {
        for (auto &c : int64s)
            c.clear();
        flags.clear();
        for (auto &c : bytes)
            c.clear();
    }
};

RequestColumnsWriter::RequestColumnsWriter(sqlite3 *db) : m_db(db), m_pending(std::make_unique<Pending>()) {}

RequestColumnsWriter::~RequestColumnsWriter() = default;

bool RequestColumnsWriter::add(std::int64_t id, const RequestRow &row)
{
    Pending &p = *m_pending;
    p.int64s[kIdColumn].push_back(id);
    p.int64s[kStartColumn].push_back(row.start);
    p.int64s[kE2eColumn].push_back(row.e2e);
    for (int s = 0; s < kSegmentCount; ++s)
        p.int64s[static_cast<std::size_t>(kFirstSegmentColumn + s)].push_back(row.segments[static_cast<std::size_t>(s)]);
    p.int64s[kTtftColumn].push_back(row.ttft);
    p.int64s[kTpotColumn].push_back(row.tpot);
    p.int64s[kTtltColumn].push_back(row.ttlt);
    p.flags.push_back(row.flags);
    p.bytes[0].push_back(row.ok ? 1 : 0);
    p.bytes[1].push_back(static_cast<unsigned char>(row.e2eScope));
    p.bytes[2].push_back(static_cast<unsigned char>(row.tokenScope));
    return p.size() < kRowsPerChunk || flush();
}

bool RequestColumnsWriter::flush()
{
    Pending &p = *m_pending;
    const std::size_t n = p.size();
    if (n == 0)
        return true;
    p.blob.resize(n * kBytesPerRow);
    unsigned char *out = p.blob.data();
    for (const auto &column : p.int64s) {
        std::memcpy(out, column.data(), n * sizeof(std::int64_t));
        out += n * sizeof(std::int64_t);
    }
    std::memcpy(out, p.flags.data(), n * sizeof(std::uint32_t));
    out += n * sizeof(std::uint32_t);
    for (const auto &column : p.bytes) {
        std::memcpy(out, column.data(), n);
        out += n;
    }
    Statement insert(m_db, "INSERT INTO request_columns (first_id, last_id, rows, data) VALUES (?, ?, ?, ?)");
    insert.bindInt(1, p.int64s[kIdColumn].front());
    insert.bindInt(2, p.int64s[kIdColumn].back());
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
            || bytes != static_cast<std::uint64_t>(rows) * kBytesPerRow)
            return false;
        if (hi == range.hi)
            return chunks.step() == SQLITE_DONE; // the last row's chunk must be the last chunk
        next = hi + 1;
        first = false;
    }
    return false; // the chunks end before the rows do
}

void scanRequestColumns(sqlite3 *db, std::int64_t lo, std::int64_t hi, const std::vector<std::int64_t> *only, int half,
                        RequestRowVisit visit, void *context)
{
    Statement chunks(db, "SELECT first_id, last_id, rows, data FROM request_columns WHERE first_id <= ? AND last_id >= ?"
                         " ORDER BY first_id");
    chunks.bindInt(1, hi);
    chunks.bindInt(2, lo);
    std::size_t next = 0; // in `only`
    while (chunks.step() == SQLITE_ROW) {
        sqlite3_stmt *q = chunks.get();
        const std::int64_t firstId = sqlite3_column_int64(q, 0), lastId = sqlite3_column_int64(q, 1);
        const auto rows = static_cast<std::size_t>(std::max<std::int64_t>(sqlite3_column_int64(q, 2), 0));
        const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(q, 3));
        if (rows < 1 || rows > kRowsPerChunk || !bytes || static_cast<std::size_t>(sqlite3_column_bytes(q, 3)) != rows * kBytesPerRow)
            damaged(firstId, "its size is not its rows'");
        const ChunkView chunk(bytes, rows);
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
            visit(context, half, chunk.row(i));
        }
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
    if (store.heldRows() || store.isReadOnly())
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
