// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/column_chunk_codec.h"
#include "store/request_scan.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

/// \file request_columns.h
/// The column chunks of `requests` (schema.sql, `request_columns`): the values every statistic reads of
/// every request (a RequestRow), column after column in BLOBs of up to kRowsPerChunk requests. Decoding them
/// out of SQLite's rows was most of a report's time on a store; out of a chunk they are a copy
/// (docs/ARCHITECTURE.md, "Column chunks").
///
/// The rows stay the truth: filters, the table, the join and the sqlite3 shell read them. The chunks are
/// written beside the rows by the importer (StoreWriter); what changes the rows otherwise (the join, a merge)
/// drops the chunks in its transaction, and ensureRequestColumns() writes them again from the rows. A scan
/// reads the chunks only when they cover exactly the ids of the table (readableRequestColumns()), else the rows.

struct sqlite3;

namespace lx {

class Store;

/// Requests per chunk: a chunk is 3 to 7 MB (column_chunk_codec.h), a scan holds one per thread.
inline constexpr std::size_t kRowsPerChunk = 65536;

/// The states column's bit that says a request is ok (the two scopes are above it).
inline constexpr std::int64_t kStateOk = 1;

/// Collects rows in id order and writes them as chunks into `request_columns`, inside the caller's
/// transaction.
class RequestColumnsWriter {
public:
    explicit RequestColumnsWriter(sqlite3 *db);
    ~RequestColumnsWriter();
    RequestColumnsWriter(const RequestColumnsWriter &) = delete;
    RequestColumnsWriter &operator=(const RequestColumnsWriter &) = delete;

    /// Adds the request of row `id` (greater than the last one added); writes a chunk when one is full.
    bool add(std::int64_t id, const RequestRow &row);
    /// Writes what was added since the last chunk. False on an SQLite error (error() says which).
    bool flush();
    const std::string &error() const { return m_error; }

private:
    struct Pending;
    sqlite3 *m_db;
    std::unique_ptr<Pending> m_pending;
    std::string m_error;
};

/// Whether the chunks describe every row of `requests` with an id in `range` (requestIdRange() of the same
/// connection): they start at its first id, end at its last, follow each other without overlap, and each
/// BLOB is of this layout and has its rows' size (its header read, not its whole). A store made before
/// them, or whose rows changed since, is read row by row.
bool readableRequestColumns(sqlite3 *db, const RowIdRange &range);

/// Calls visit(context, half, row) for each chunked request with lo <= id <= hi, in id order; with
/// `only` (ascending ids), for those ids alone. Throws std::runtime_error when a chunk contradicts itself
/// (ids out of order or outside its bounds): a damaged store.
void scanRequestColumns(sqlite3 *db, std::int64_t lo, std::int64_t hi, const std::vector<std::int64_t> *only, int half,
                        RequestRowVisit visit, void *context);
/// The same for the chunked requests that `condition` selects.
void scanRequestColumns(sqlite3 *db, std::int64_t lo, std::int64_t hi, const RowCondition &condition, int half,
                        RequestRowVisit visit, void *context);

/// Called with the values of the columns a reader asked for, one chunk at a time: columns[k] holds `rows`
/// values of the k-th column asked for.
using ChunkColumnsVisit = std::function<void(std::span<const std::int64_t *const> columns, std::size_t rows)>;

/// Reads the columns `columns` (kTtftColumn, ...) of every chunk whose first id is in [firstIdFrom,
/// firstIdTo], in id order, and nothing else of them: a few of a chunk's 15 columns cost a few of its bytes.
/// For a store whose chunks are readable (readableRequestColumns()): every request of those chunks, none
/// chosen. Throws std::runtime_error when a chunk contradicts itself or cannot be read.
void readChunkColumns(sqlite3 *db, std::span<const std::size_t> columns, const ChunkColumnsVisit &visit,
                      std::int64_t firstIdFrom = INT64_MIN, std::int64_t firstIdTo = INT64_MAX);

/// Deletes every chunk, in the caller's transaction: for what changes rows other than by appending them.
bool dropRequestColumns(sqlite3 *db, std::string *error);

/// Writes the chunks again from the rows when they do not describe them (after a join or a merge, or in a
/// store made before them), in a transaction of its own. Nothing to do for a store whose rows are held in
/// memory, or a read-only one. False with the reason on an SQLite error; the store is then read by rows.
bool ensureRequestColumns(Store &store, std::string *error);

} // namespace lx
