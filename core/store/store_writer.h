// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "model/text_keys.h"
#include "store/held_rows.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

/// \file store_writer.h
/// Bulk inserts of one import run through prepared multi-row INSERT statements (the C API: Qt's SQL
/// module measured 3-4x slower for this). The caller owns the transaction.

struct sqlite3;

namespace lx {

class AttributeSets;
class InsertStatement;
class RequestColumnsWriter;
class Statement;
class Store;

/// A record the importer refused, as stored in the `rejected` table.
struct Rejection {
    std::int64_t line = 0;
    std::string reason;
    std::string excerpt; ///< at most kExcerptBytes of the record's text
};
inline constexpr std::size_t kExcerptBytes = 200;

/// Which requests get their request_details row (source id, line, raw stamps, attributes).
enum class DetailRows {
    All,            ///< every request: what a kept investigation needs for its detail view, filters and what-if
    JoinCandidates, ///< only the records a client/server join may take (mayBeJoined()): what a report's
                    ///< throw-away store reads. The rest cost a third of an import's time and nothing read them.
};

class StoreWriter {
public:
    /// Writes on the store's own connection, inside the caller's transaction. With \a held (a store whose
    /// `requests` table is empty), the requests go there instead of into `requests` and `token_times`, until
    /// a record the join may take comes: then what was held is written, and the rest with it (heldWritten()).
    StoreWriter(Store &store, std::int64_t runId, DetailRows details = DetailRows::All, HeldRows *held = nullptr);
    ~StoreWriter();

    /// Inserts the records (already decomposed) with their id hashes, and the keys of their texts when the
    /// parser gave them (text_keys.h: one per record, or none); false on an SQLite error.
    bool insertRequests(std::span<const RequestRecord> records, std::span<const std::uint64_t> idHashes,
                        std::span<const RecordKeys> keys = {});
    bool insertRejections(std::span<const Rejection> rejections);
    /// Writes the column chunk still open (request_columns.h): call before the caller commits.
    bool finish();
    const std::string &error() const { return m_error; }
    /// The rows held were written to the tables (a record the join may take came): the held rows are empty.
    bool heldWritten() const { return m_heldWritten; }
    /// Whether a record the client/server join may take (mayBeJoined(), join_queries.h) was inserted.
    bool wroteJoinCandidates() const { return m_joinCandidates; }

private:
    /// Binds the row id of a row of a table whose next id SQLite would give is `nextId` (the largest + 1):
    /// NULL when it is that one; `nextId` then follows.
    void bindRowId(InsertStatement &stmt, int param, std::int64_t rowId, std::int64_t &nextId);
    void bindRequest(InsertStatement &stmt, int firstParam, const HeldRequest &r, std::int64_t rowId);
    void bindDetails(InsertStatement &stmt, int firstParam, const RequestRecord &r, std::uint32_t attributesKey, std::uint64_t idHash,
                     std::int64_t rowId);
    /// Inserts records[k] for each k of `rows` as row firstRowId + k, into requests or request_details.
    bool insertRows(std::span<const RequestRecord> records, std::span<const std::uint64_t> idHashes, std::int64_t firstRowId,
                    bool details, std::span<const std::size_t> rows);
    /// Inserts `count` rows into request_details or requests, as many a statement as it takes; bind(stmt,
    /// first parameter, i) binds the i-th. A template, so that the binding of each row is inlined (defined
    /// in the .cpp, its only user).
    template <typename Bind>
    bool insertBatched(bool details, std::size_t count, const Bind &bind);
    bool insertTokenTimes(std::int64_t rowId, std::span<const std::int64_t> times);
    /// Adds a request written to `requests` to the column chunks, when they are kept.
    void addColumns(std::int64_t rowId, const HeldRequest &request);
    /// Writes the held rows into `requests` and `token_times`, and stops holding.
    bool writeHeld();
    /// The labels.id of a model or route name, inserting it the first time; kNotMeasured for none.
    std::int64_t labelId(const std::string &text);
    /// The keys of records[k] of the batch being written: the parser's, or unkeyed without them.
    RecordKeys keysOf(std::size_t k) const;
    /// labelId() of a text by its key: looked up once a key.
    std::int64_t labelFor(std::uint32_t key, const std::string &text);
    /// The attribute set of attributes by their key (attribute_sets.h), looked up once a key; nullopt: in the row.
    std::optional<std::int64_t> attributeSetFor(std::uint32_t key, const std::string &json);
    bool stepAndReset(Statement &stmt);

    sqlite3 *m_db;
    std::int64_t m_runId;
    DetailRows m_detailRows;
    HeldRows *m_held;
    bool m_heldWritten = false;
    std::vector<std::size_t> m_rows; ///< the indices of the batch that insertRows() writes, reused
    std::int64_t m_nextRowId = 1;
    std::int64_t m_nextRequestId = 1; ///< the id SQLite would give the next row of `requests`
    std::int64_t m_nextDetailId = 1;  ///< and of `request_details`
    std::int64_t m_lastRowId = 0; ///< the id of the last row bound
    bool m_joinCandidates = false;
    /// The column chunks of the rows written (request_columns.h); null when the store's chunks do not
    /// describe its rows already, which ensureRequestColumns() then writes anew after the import.
    std::unique_ptr<RequestColumnsWriter> m_columns;
    /// An INSERT of `rows` rows at once.
    struct BatchedInsert {
        std::size_t rows = 0;
        std::unique_ptr<InsertStatement> statement;
    };
    /// The INSERTs of a table, fewest statements first: as many rows as SQLite takes parameters for (at
    /// most kMostRowsPerInsert), then 16, then 1, for what is left of a batch.
    static std::vector<BatchedInsert> batchedInserts(sqlite3 *db, std::string_view head, int columns);
    std::vector<BatchedInsert> m_requestInserts;
    std::vector<BatchedInsert> m_detailInserts;
    std::unique_ptr<Statement> m_insertLabel;
    std::unique_ptr<Statement> m_insertTokens;
    std::unique_ptr<Statement> m_insertRejection;
    std::unordered_map<std::string, std::int64_t> m_labels;
    std::unique_ptr<AttributeSets> m_attributeSets; ///< the attributes many requests share, written once
    std::span<const RecordKeys> m_batchKeys;         ///< of the batch insertRequests() writes, while it does
    std::vector<std::int64_t> m_labelOfKey;          ///< labels.id by the parser's key
    std::vector<std::int64_t> m_setOfKey;            ///< attribute_sets.id by the parser's key
    std::string m_error;
};

} // namespace lx
