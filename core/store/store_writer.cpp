// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/store_writer.h"

#include "store/attribute_sets.h"
#include "store/insert_statement.h"
#include "store/packed_stamps.h"
#include "store/request_columns.h"
#include "store/request_join.h"
#include "store/request_scan.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace lx {

namespace {

// Rows per INSERT statement: each execution of a statement costs about what a few rows do. 256 rows at
// once measured 0.95x the time of an import of 1M requests against 16 (64: 0.95x, medians of 7-9 paired
// runs; 128 and 256 no further gain past the noise), and the rest of a batch goes 16, then 1, at a time.
constexpr std::size_t kMostRowsPerInsert = 256;
constexpr std::size_t kFewRowsPerInsert = 16;
constexpr int kRequestColumns = 16 + kSegmentCount; // the segments and 16 others
constexpr int kDetailColumns = 7;

/// The head of the requests' INSERT; its columns in the order the rows are bound.
const std::string &insertRequestsHead()
{
    static const std::string head = "INSERT INTO requests (id, run_id, status, start_ns, e2e_ns, e2e_scope, "
                                    + segmentColumnList()
                                    + ", ttft_ns, tpot_ns, ttlt_ns, token_scope, dominant, flags,"
                                      " model_id, route_id, input_tokens, output_tokens) VALUES ";
    return head;
}

constexpr const char *kInsertDetails =
    "INSERT INTO request_details (request_id, source_id, id_hash, source_line, stamps, attributes, attribute_set) VALUES ";

std::string insertSql(std::string_view head, int columns, int rows)
{
    std::string values = "(?";
    for (int c = 1; c < columns; ++c)
        values += ",?";
    values += ')';
    std::string sql(head);
    for (int r = 0; r < rows; ++r) {
        if (r > 0)
            sql += ',';
        sql += values;
    }
    return sql;
}

std::int64_t orAbsent(std::int64_t count) { return count < 0 ? kNotMeasured : count; }

/// In the writer's arrays by key: a text whose label or set is not looked up yet, and attributes that stay
/// in their row.
constexpr std::int64_t kNotLookedUp = -2;
constexpr std::int64_t kInTheRow = -1;

/// The slot of `key` in an array by key, grown as keys come.
std::int64_t &slotOf(std::vector<std::int64_t> &byKey, std::uint32_t key)
{
    if (key >= byKey.size())
        byKey.resize(std::size_t{key} + 1, kNotLookedUp);
    return byKey[key];
}

} // namespace

StoreWriter::StoreWriter(Store &store, std::int64_t runId, DetailRows details, HeldRows *held)
    : m_db(store.db())
    , m_runId(runId)
    , m_detailRows(details)
    , m_held(held)
    , m_requestInserts(batchedInserts(m_db, insertRequestsHead(), kRequestColumns))
    , m_detailInserts(batchedInserts(m_db, kInsertDetails, kDetailColumns))
    , m_insertLabel(std::make_unique<Statement>(m_db, "INSERT INTO labels (text) VALUES (?)"))
    , m_insertTokens(std::make_unique<Statement>(m_db, "INSERT INTO token_times (request_id, times) VALUES (?, ?)"))
    , m_insertRejection(std::make_unique<Statement>(m_db, "INSERT INTO rejected (run_id, line, reason, excerpt) VALUES (?, ?, ?, ?)"))
    , m_attributeSets(std::make_unique<AttributeSets>(m_db))
{
    // Row ids are assigned here, so that token times can refer to their request without a round trip. The
    // details of a joined server record outlive its request row (request_join.h): ids go past both.
    Statement maxId(m_db, "SELECT coalesce((SELECT max(id) FROM requests), 0) + 1,"
                          " coalesce((SELECT max(request_id) FROM request_details), 0) + 1");
    if (maxId.valid() && maxId.step() == SQLITE_ROW) {
        m_nextRequestId = sqlite3_column_int64(maxId.get(), 0);
        m_nextDetailId = sqlite3_column_int64(maxId.get(), 1);
        m_nextRowId = std::max(m_nextRequestId, m_nextDetailId);
    }
    // Chunks go on only where they describe every row so far: an empty store (with no stale chunk left),
    // or one whose chunks cover its rows.
    const RowIdRange range = requestIdRange(m_db);
    Statement anyChunk(m_db, "SELECT EXISTS (SELECT 1 FROM request_columns)");
    const bool noChunk = anyChunk.valid() && anyChunk.step() == SQLITE_ROW && sqlite3_column_int(anyChunk.get(), 0) == 0;
    if ((range.rows() == 0 && noChunk) || readableRequestColumns(m_db, range))
        m_columns = std::make_unique<RequestColumnsWriter>(m_db);
    Statement labels(m_db, "SELECT id, text FROM labels");
    while (labels.valid() && labels.step() == SQLITE_ROW)
        m_labels.emplace(reinterpret_cast<const char *>(sqlite3_column_text(labels.get(), 1)), sqlite3_column_int64(labels.get(), 0));
    for (const auto *stmt : {&m_insertLabel, &m_insertTokens, &m_insertRejection}) {
        if (!(*stmt)->valid())
            m_error = sqlite3_errmsg(m_db);
    }
    for (const auto *inserts : {&m_requestInserts, &m_detailInserts}) {
        for (const BatchedInsert &insert : *inserts) {
            if (!insert.statement->valid())
                m_error = sqlite3_errmsg(m_db);
        }
    }
    if (m_error.empty())
        m_error = m_attributeSets->error();
}

StoreWriter::~StoreWriter() = default;

/// The INSERTs of `columns` columns per row, most rows first: as many as the connection's limit of
/// parameters allows (999 in SQLite before 3.32, 32766 since), then 16, 1.
std::vector<StoreWriter::BatchedInsert> StoreWriter::batchedInserts(sqlite3 *db, std::string_view head, int columns)
{
    const auto parameters = static_cast<std::size_t>(std::max(1, sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, -1)));
    const std::size_t most = std::clamp<std::size_t>(parameters / static_cast<std::size_t>(columns), 1, kMostRowsPerInsert);
    std::vector<BatchedInsert> inserts;
    for (std::size_t rows : {most, kFewRowsPerInsert, std::size_t{1}}) {
        if (rows <= most && (inserts.empty() || rows < inserts.back().rows))
            inserts.push_back({rows, std::make_unique<InsertStatement>(db, insertSql(head, columns, static_cast<int>(rows)))});
    }
    return inserts;
}

bool StoreWriter::stepAndReset(Statement &stmt)
{
    const int rc = stmt.step();
    stmt.reset();
    if (rc != SQLITE_DONE) {
        m_error = sqlite3_errmsg(m_db);
        return false;
    }
    return true;
}

std::int64_t StoreWriter::labelId(const std::string &text)
{
    if (text.empty())
        return kNotMeasured;
    if (const auto it = m_labels.find(text); it != m_labels.end())
        return it->second;
    if (!m_error.empty()) // after a failed write SQLite may have ended the transaction: no INSERT outside it
        return kNotMeasured;
    m_insertLabel->bindText(1, text);
    if (!stepAndReset(*m_insertLabel))
        return kNotMeasured;
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    m_labels.emplace(text, id);
    return id;
}

void StoreWriter::bindRowId(InsertStatement &s, int p, std::int64_t rowId, std::int64_t &nextId)
{
    // The id SQLite would choose (the largest + 1) is left to it: an INSERT given its row id first looks
    // for a row of that id, a seek in the table per row. Without it, an import of 1M requests took 0.92x
    // the time (median of 7 paired runs). insertBatched() checks that SQLite chose this id.
    if (rowId == nextId)
        s.bindNull(p);
    else
        s.bindInt(p, rowId);
    nextId = std::max(nextId, rowId + 1);
    m_lastRowId = rowId;
}

void StoreWriter::bindRequest(InsertStatement &s, int p, const HeldRequest &r, std::int64_t rowId)
{
    const RequestMetrics &m = r.metrics;
    bindRowId(s, p++, rowId, m_nextRequestId);
    s.bindInt(p++, m_runId);
    s.bindInt(p++, static_cast<int>(r.status));
    s.bindMeasured(p++, m.start);
    s.bindMeasured(p++, m.e2e);
    s.bindInt(p++, static_cast<int>(m.e2eScope));
    for (std::int64_t segment : m.segments)
        s.bindMeasured(p++, segment);
    s.bindMeasured(p++, m.ttft);
    s.bindMeasured(p++, m.tpot);
    s.bindMeasured(p++, m.ttlt);
    s.bindInt(p++, static_cast<int>(m.tokenScope));
    s.bindMeasured(p++, m.dominant < 0 ? kNotMeasured : m.dominant);
    s.bindInt(p++, m.flags);
    s.bindMeasured(p++, r.modelId);
    s.bindMeasured(p++, r.routeId);
    s.bindMeasured(p++, orAbsent(r.inputTokens));
    s.bindMeasured(p++, orAbsent(r.outputTokens));
}

RecordKeys StoreWriter::keysOf(std::size_t k) const
{
    return m_batchKeys.empty() ? RecordKeys{kUnkeyedText, kUnkeyedText, kUnkeyedText} : m_batchKeys[k];
}

std::int64_t StoreWriter::labelFor(std::uint32_t key, const std::string &text)
{
    if (key == kUnkeyedText)
        return labelId(text);
    if (key == kNoText)
        return kNotMeasured;
    std::int64_t &id = slotOf(m_labelOfKey, key);
    if (id == kNotLookedUp)
        id = labelId(text);
    return id;
}

std::optional<std::int64_t> StoreWriter::attributeSetFor(std::uint32_t key, const std::string &json)
{
    // A text the parsing side left unkeyed, in a keyed batch, came after its numbering was full (a value per
    // request, such as a trace id): a new text, or any text once hardly any were known (text_keys.h). It
    // stays in its row without being hashed again on this thread. At most it repeats a set, which costs the
    // row's bytes and changes no answer: every reader takes the attributes from the row or the set alike.
    if (key == kUnkeyedText && !m_batchKeys.empty())
        return std::nullopt;
    if (key == kUnkeyedText)
        return m_attributeSets->idOf(json);
    if (key == kNoText)
        return std::nullopt;
    std::int64_t &set = slotOf(m_setOfKey, key);
    if (set == kNotLookedUp)
        set = m_attributeSets->idOf(json).value_or(kInTheRow);
    return set == kInTheRow ? std::nullopt : std::optional<std::int64_t>(set);
}

void StoreWriter::bindDetails(InsertStatement &s, int p, const RequestRecord &r, std::uint32_t attributesKey, std::uint64_t idHash,
                              std::int64_t rowId)
{
    bindRowId(s, p++, rowId, m_nextDetailId);
    s.bindText(p++, r.id);
    s.bindInt(p++, static_cast<std::int64_t>(idHash));
    s.bindInt(p++, r.sourceLine);
    // The record's own array is the BLOB (packed_stamps.h), and it outlives the statement's step.
    if (anyStampMeasured(r.stamps))
        s.bindBlob(p++, r.stamps.data(), kPackedStampBytes);
    else
        s.bindNull(p++);
    if (const std::optional<std::int64_t> set = attributeSetFor(attributesKey, r.attributesJson)) {
        s.bindNull(p++);
        s.bindInt(p++, *set);
        return;
    }
    if (!m_attributeSets->error().empty() && m_error.empty())
        m_error = m_attributeSets->error(); // insertBatched() then fails the batch
    s.bindText(p++, r.attributesJson, true);
    s.bindNull(p++);
}

template <typename Bind>
bool StoreWriter::insertBatched(bool details, std::size_t count, const Bind &bind)
{
    const int columns = details ? kDetailColumns : kRequestColumns;
    std::size_t i = 0;
    for (const BatchedInsert &insert : details ? m_detailInserts : m_requestInserts) {
        for (; i + insert.rows <= count; i += insert.rows) {
            for (std::size_t k = 0; k < insert.rows; ++k)
                bind(*insert.statement, 1 + static_cast<int>(k) * columns, i + k);
            // A label, an attribute set or a column chunk written while binding failed: SQLite may have
            // rolled the whole transaction back (a full disk does), and a step now would write these rows
            // outside it, with the failure's message lost to "row ids out of step".
            if (!m_error.empty())
                return false;
            if (!stepAndReset(insert.statement->statement()))
                return false;
            // Whether the ids left to SQLite are the ones bindRowId() counted on (seen by each statement's
            // last row): ids counted out of step would otherwise give rows the ids of others.
            if (sqlite3_last_insert_rowid(m_db) != m_lastRowId) {
                m_error = "the store's row ids went out of step during the import";
                return false;
            }
        }
    }
    return true;
}

bool StoreWriter::insertRows(std::span<const RequestRecord> records, std::span<const std::uint64_t> idHashes, std::int64_t firstRowId,
                             bool details, std::span<const std::size_t> rows)
{
    return insertBatched(details, rows.size(), [&](InsertStatement &stmt, int first, std::size_t i) {
        const std::size_t k = rows[i];
        const std::int64_t rowId = firstRowId + static_cast<std::int64_t>(k);
        if (details) {
            bindDetails(stmt, first, records[k], keysOf(k).attributes, idHashes[k], rowId);
            return;
        }
        const RequestRecord &r = records[k];
        // Here rather than in a pass of its own over the batch, whose records are no longer in the cache.
        m_joinCandidates = m_joinCandidates || mayBeJoined(r.metrics);
        const RecordKeys keys = keysOf(k);
        const HeldRequest request = HeldRequest::of(r, labelFor(keys.model, r.model), labelFor(keys.route, r.route));
        bindRequest(stmt, first, request, rowId);
        addColumns(rowId, request);
    });
}

bool StoreWriter::insertRequests(std::span<const RequestRecord> records, std::span<const std::uint64_t> idHashes,
                                 std::span<const RecordKeys> keys)
{
    m_batchKeys = keys;
    static_assert(std::endian::native == std::endian::little, "token_times BLOBs are little-endian int64");
    if (!m_error.empty())
        return false;
    if (m_held) {
        const bool joinable = std::any_of(records.begin(), records.end(), [](const RequestRecord &r) { return mayBeJoined(r.metrics); });
        if (!joinable && m_held->fits(records.size())) {
            for (std::size_t k = 0; k < records.size(); ++k) {
                const RecordKeys keys = keysOf(k);
                m_held->add(records[k], labelFor(keys.model, records[k].model), labelFor(keys.route, records[k].route));
            }
            m_nextRowId += static_cast<std::int64_t>(records.size());
            return m_error.empty();
        }
        // The join runs in SQL over the table, and memory is bounded: what was held is written, and so is
        // everything after it.
        if (!writeHeld())
            return false;
    }
    const std::int64_t firstRowId = m_nextRowId;
    m_nextRowId += static_cast<std::int64_t>(records.size());
    m_rows.resize(records.size());
    std::iota(m_rows.begin(), m_rows.end(), std::size_t{0});
    if (!insertRows(records, idHashes, firstRowId, false, m_rows))
        return false;
    if (m_detailRows == DetailRows::JoinCandidates)
        std::erase_if(m_rows, [&](std::size_t k) { return !mayBeJoined(records[k].metrics); });
    if (!insertRows(records, idHashes, firstRowId, true, m_rows))
        return false;
    for (std::size_t k = 0; k < records.size(); ++k) {
        if (!insertTokenTimes(firstRowId + static_cast<std::int64_t>(k), records[k].tokenTimes))
            return false;
    }
    return true;
}

bool StoreWriter::insertTokenTimes(std::int64_t rowId, std::span<const std::int64_t> times)
{
    if (times.empty())
        return true;
    m_insertTokens->bindInt(1, rowId);
    sqlite3_bind_blob64(m_insertTokens->get(), 2, times.data(), times.size() * sizeof(std::int64_t), SQLITE_STATIC);
    return stepAndReset(*m_insertTokens);
}

bool StoreWriter::writeHeld()
{
    HeldRows &held = *m_held;
    m_held = nullptr;
    m_heldWritten = true;
    // Held rows are ids 1..n of a store whose table was empty (importer.cpp only holds rows then).
    if (!insertBatched(false, held.size(), [&](InsertStatement &stmt, int first, std::size_t i) {
            bindRequest(stmt, first, held.request(i), static_cast<std::int64_t>(i) + 1);
            addColumns(static_cast<std::int64_t>(i) + 1, held.request(i));
        }))
        return false;
    for (std::size_t i = 0; i < held.size(); ++i) {
        if (!insertTokenTimes(static_cast<std::int64_t>(i) + 1, held.tokenTimes(i)))
            return false;
    }
    held.clear();
    return true;
}

void StoreWriter::addColumns(std::int64_t rowId, const HeldRequest &request)
{
    if (m_columns && !m_columns->add(rowId, rowOf(request)) && m_error.empty())
        m_error = m_columns->error();
}

bool StoreWriter::finish()
{
    if (m_columns && m_error.empty() && !m_columns->flush())
        m_error = m_columns->error();
    return m_error.empty();
}

bool StoreWriter::insertRejections(std::span<const Rejection> rejections)
{
    for (const Rejection &r : rejections) {
        m_insertRejection->bindInt(1, m_runId);
        m_insertRejection->bindInt(2, r.line);
        m_insertRejection->bindText(3, r.reason);
        m_insertRejection->bindText(4, r.excerpt);
        if (!stepAndReset(*m_insertRejection))
            return false;
    }
    return true;
}

} // namespace lx
