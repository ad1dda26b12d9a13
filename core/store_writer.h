// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "request.h"

#include <memory>
#include <span>
#include <string>

/// \file store_writer.h
/// Bulk inserts of one import run through prepared multi-row INSERT statements (the C API: Qt's SQL
/// module measured 3-4x slower for this). The caller owns the transaction.

struct sqlite3;

namespace lx {

class Statement;

/// A record the importer refused, as stored in the `rejected` table.
struct Rejection {
    std::int64_t line = 0;
    std::string reason;
    std::string excerpt; ///< at most kExcerptBytes of the record's text
};
inline constexpr std::size_t kExcerptBytes = 200;

class StoreWriter {
public:
    StoreWriter(sqlite3 *db, std::int64_t runId);
    ~StoreWriter();

    /// Inserts the records (already decomposed) with their id hashes; false on an SQLite error.
    bool insertRequests(std::span<const RequestRecord> records, std::span<const std::uint64_t> idHashes);
    bool insertRejections(std::span<const Rejection> rejections);
    const std::string &error() const { return m_error; }

private:
    void bindRequest(Statement &stmt, int firstParam, const RequestRecord &r, std::uint64_t idHash, std::int64_t rowId);
    bool stepAndReset(Statement &stmt);

    sqlite3 *m_db;
    std::int64_t m_runId;
    std::int64_t m_nextRowId = 1;
    std::unique_ptr<Statement> m_insertMany;
    std::unique_ptr<Statement> m_insertOne;
    std::unique_ptr<Statement> m_insertTokens;
    std::unique_ptr<Statement> m_insertRejection;
    std::string m_error;
};

} // namespace lx
