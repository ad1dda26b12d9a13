// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_join.h"

#include "decompose.h"
#include "sqlite_util.h"
#include "store.h"

#include <array>
#include <string_view>

namespace lx {

namespace {

/// A record measured by a client alone: e2e or token metrics on the client clock and no server segment
/// (decode may be the client's, from the chunks it received). Joined rows are never candidates again.
constexpr const char *kClientSide =
    "((r.flags & 8) = 0 AND (r.e2e_scope = 1 OR r.token_scope = 1) AND r.network_ns IS NULL AND r.preprocess_ns IS NULL"
    " AND r.queue_ns IS NULL AND r.prefill_ns IS NULL AND r.postprocess_ns IS NULL)";
/// A record measured by a server: its e2e starts at the server's receive.
constexpr const char *kServerSide = "((r.flags & 8) = 0 AND r.e2e_scope IN (2, 3))";

constexpr std::string_view kChatPrefix = "chatcmpl-";
constexpr std::string_view kCompletionPrefix = "cmpl-";

/// The request id a client sent (its X-Request-Id) as a vLLM server id may hold it: vLLM's chat API
/// names the request "chatcmpl-<id>", its completions API "cmpl-<id>", and each prompt of a completion
/// "cmpl-<id>-<n>". Variant 0 is the id itself, 1 without the prefix, 2 without the prefix and the
/// prompt's index as well; an empty view when the variant does not apply.
std::string_view joinKey(std::string_view id, int variant)
{
    if (variant == 0)
        return id;
    const bool chat = id.starts_with(kChatPrefix);
    if (!chat && !id.starts_with(kCompletionPrefix))
        return {};
    std::string_view base = id.substr(chat ? kChatPrefix.size() : kCompletionPrefix.size());
    if (variant == 1)
        return base;
    const std::size_t dash = base.rfind('-');
    if (chat || dash == std::string_view::npos || dash == 0 || dash + 1 == base.size()
        || base.find_first_not_of("0123456789", dash + 1) != std::string_view::npos)
        return {};
    return base.substr(0, dash);
}

void sqlJoinKey(sqlite3_context *context, int, sqlite3_value **argv)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(argv[0]));
    const std::string_view key = joinKey(text ? std::string_view(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0])))
                                              : std::string_view(),
                                         sqlite3_value_int(argv[1]));
    if (key.empty())
        sqlite3_result_null(context);
    else
        sqlite3_result_text(context, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
}

void sqlIdHash(sqlite3_context *context, int, sqlite3_value **argv)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(argv[0]));
    if (!text) {
        sqlite3_result_null(context);
        return;
    }
    const std::string_view id(text, static_cast<std::size_t>(sqlite3_value_bytes(argv[0])));
    sqlite3_result_int64(context, static_cast<std::int64_t>(hashRequestId(id)));
}

/// lx_dominant(e2e, network, ..., unattributed): the dominant segment as decompose() defines it, NULL
/// when e2e is not measured. One definition, in C++, for imports and joins alike.
void sqlDominant(sqlite3_context *context, int, sqlite3_value **argv)
{
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(context);
        return;
    }
    std::array<std::int64_t, kSegmentCount> segments;
    for (int s = 0; s < kSegmentCount; ++s)
        segments[s] = sqlite3_value_type(argv[s + 1]) == SQLITE_NULL ? kNotMeasured : sqlite3_value_int64(argv[s + 1]);
    const int dominant = dominantSegment(segments);
    if (dominant < 0)
        sqlite3_result_null(context);
    else
        sqlite3_result_int(context, dominant);
}

bool registerFunctions(sqlite3 *db)
{
    const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    return sqlite3_create_function_v2(db, "lx_join_key", 2, flags, nullptr, sqlJoinKey, nullptr, nullptr, nullptr) == SQLITE_OK
           && sqlite3_create_function_v2(db, "lx_id_hash", 1, flags, nullptr, sqlIdHash, nullptr, nullptr, nullptr) == SQLITE_OK
           && sqlite3_create_function_v2(db, "lx_dominant", 1 + kSegmentCount, flags, nullptr, sqlDominant, nullptr, nullptr,
                                         nullptr)
                  == SQLITE_OK;
}

std::int64_t scalar(sqlite3 *db, const std::string &sql)
{
    Statement stmt(db, sql);
    return stmt.valid() && stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : 0;
}

/// The candidates of both sides: join_side(request_id, side, tokens), tokens 1 when the record measured
/// TTFT, TPOT or TTLT (the joined request then keeps the client's).
const std::string kCollectSides =
    std::string("CREATE TEMP TABLE join_side (request_id INTEGER PRIMARY KEY, side INTEGER NOT NULL, tokens INTEGER NOT NULL);"
                "INSERT INTO join_side SELECT r.id, CASE WHEN ")
    + kClientSide + " THEN 1 ELSE 2 END, (r.ttft_ns IS NOT NULL OR r.tpot_ns IS NOT NULL OR r.ttlt_ns IS NOT NULL)"
    + " FROM requests r WHERE " + kClientSide + " OR " + kServerSide + ";"
    + "CREATE TEMP TABLE join_pairs (client INTEGER NOT NULL, server INTEGER NOT NULL, matched_by INTEGER NOT NULL,"
      " client_tokens INTEGER NOT NULL);"
      "CREATE TEMP TABLE join_ambiguous (request_id INTEGER PRIMARY KEY);";

/// Pairs each server candidate not yet paired with the client candidates whose record id equals the
/// server's key of the variant ?1 (joinKey), through the index on id_hash. matched_by is ?2.
constexpr const char *kPairByIdSql =
    "INSERT INTO join_pairs SELECT cs.request_id, x.request_id, ?2, cs.tokens"
    " FROM (SELECT ss.request_id, lx_join_key(s.source_id, ?1) AS key FROM join_side ss"
    "       CROSS JOIN request_details s ON s.request_id = ss.request_id"
    "       WHERE ss.side = 2 AND ss.request_id NOT IN (SELECT server FROM join_pairs)) x"
    " CROSS JOIN request_details c ON c.id_hash = lx_id_hash(x.key) AND c.source_id = x.key"
    " CROSS JOIN join_side cs ON cs.request_id = c.request_id"
    " WHERE x.key IS NOT NULL AND cs.side = 1 AND cs.request_id NOT IN (SELECT client FROM join_pairs)";

/// A W3C trace id (32 lower-case hex digits) from a record's attributes: `trace_id` (the OTLP reader's),
/// else the trace id field of a `traceparent` header ("00-<trace id>-<span id>-<flags>").
constexpr const char *kTraceIdOf =
    "lower(coalesce(json_extract(d.attributes, '$.trace_id'),"
    " CASE WHEN length(json_extract(d.attributes, '$.traceparent')) = 55"
    "      THEN substr(json_extract(d.attributes, '$.traceparent'), 4, 32) END))";

/// Pairs the records still unpaired whose trace ids agree.
const std::string kPairByTraceSql =
    std::string("CREATE TEMP TABLE join_client_traces AS SELECT cs.request_id, cs.tokens, ") + kTraceIdOf
    + " AS trace FROM join_side cs CROSS JOIN request_details d ON d.request_id = cs.request_id"
      " WHERE cs.side = 1 AND cs.request_id NOT IN (SELECT client FROM join_pairs)"
      " AND d.attributes IS NOT NULL AND instr(d.attributes, '\"trace') > 0;"
      "DELETE FROM join_client_traces WHERE trace IS NULL OR length(trace) <> 32;"
      "CREATE INDEX temp.join_client_traces_by_trace ON join_client_traces(trace);"
      "INSERT INTO join_pairs SELECT ct.request_id, x.request_id, 3, ct.tokens FROM (SELECT ss.request_id, "
    + kTraceIdOf
    + " AS trace FROM join_side ss CROSS JOIN request_details d ON d.request_id = ss.request_id"
      "   WHERE ss.side = 2 AND ss.request_id NOT IN (SELECT server FROM join_pairs)"
      "   AND d.attributes IS NOT NULL AND instr(d.attributes, '\"trace') > 0) x"
      " CROSS JOIN join_client_traces ct ON ct.trace = x.trace;"
      "DROP TABLE join_client_traces;";

/// A pair is a match only when neither of its records is in another pair: otherwise every record of
/// those pairs is ambiguous, and none of them is joined.
constexpr const char *kDropAmbiguousSql =
    "CREATE TEMP TABLE join_shared AS SELECT client AS request_id FROM join_pairs GROUP BY client HAVING count(*) > 1"
    " UNION SELECT server FROM join_pairs GROUP BY server HAVING count(*) > 1;"
    "INSERT OR IGNORE INTO join_ambiguous SELECT client FROM join_pairs"
    " WHERE client IN join_shared OR server IN join_shared;"
    "INSERT OR IGNORE INTO join_ambiguous SELECT server FROM join_pairs"
    " WHERE client IN join_shared OR server IN join_shared;"
    "DELETE FROM join_pairs WHERE client IN join_ambiguous;"
    "DROP TABLE join_shared;";

/// Writes the joined requests: the client record's row takes the server's segments, network becomes
/// client e2e minus server e2e (docs/JOIN.md), and the server record's rows go.
constexpr const char *kApplySql =
    // What identifies the server record stays, for the detail view and for SQL.
    "INSERT INTO request_joins SELECT p.client, s.run_id, sd.source_id, sd.source_line, s.e2e_ns, s.e2e_scope, p.matched_by"
    " FROM join_pairs p CROSS JOIN requests s ON s.id = p.server CROSS JOIN request_details sd ON sd.request_id = p.server;"
    "CREATE TEMP TABLE join_rows AS"
    " SELECT *, lx_dominant(e2e_ns, network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns,"
    "                      unattributed_ns) AS dominant FROM ("
    "  SELECT p.client AS id, max(c.status, s.status) AS status, coalesce(c.start_ns, s.start_ns) AS start_ns,"
    "   coalesce(c.e2e_ns, s.e2e_ns) AS e2e_ns, CASE WHEN c.e2e_ns IS NULL THEN s.e2e_scope ELSE 1 END AS e2e_scope,"
    "   CASE WHEN s.e2e_scope = 2 THEN c.e2e_ns - s.e2e_ns END AS network_ns,"
    "   s.preprocess_ns, s.queue_ns, s.prefill_ns, s.decode_ns, s.postprocess_ns,"
    // Beyond an engine-scope e2e (no server send) lie postprocess and network together: unattributed.
    "   CASE WHEN c.e2e_ns IS NULL OR s.e2e_scope = 2 THEN s.unattributed_ns"
    "        ELSE coalesce(s.unattributed_ns, 0) + c.e2e_ns - s.e2e_ns END AS unattributed_ns,"
    "   CASE WHEN p.client_tokens THEN c.ttft_ns ELSE s.ttft_ns END AS ttft_ns,"
    "   CASE WHEN p.client_tokens THEN c.tpot_ns ELSE s.tpot_ns END AS tpot_ns,"
    "   CASE WHEN p.client_tokens THEN c.ttlt_ns ELSE s.ttlt_ns END AS ttlt_ns,"
    "   CASE WHEN p.client_tokens THEN c.token_scope ELSE s.token_scope END AS token_scope,"
    // Clock skew as decompose() sees it: a negative network, or a negative leg where both starts are
    // wall-clock times (inbound = server receive - client send; outbound = the rest of the network).
    "   ((c.flags & ~3) | ((c.flags | s.flags) & 2) | 8"
    "    | CASE WHEN c.e2e_ns - s.e2e_ns < 0 THEN 1"
    "           WHEN c.start_ns IS NULL OR s.start_ns IS NULL OR ((c.flags | s.flags) & 4) <> 0 THEN 0"
    "           WHEN s.start_ns - c.start_ns < 0 OR (c.e2e_ns - s.e2e_ns) - (s.start_ns - c.start_ns) < 0 THEN 1"
    "           ELSE 0 END) AS flags,"
    "   coalesce(c.model_id, s.model_id) AS model_id, coalesce(c.route_id, s.route_id) AS route_id,"
    "   coalesce(c.input_tokens, s.input_tokens) AS input_tokens, coalesce(c.output_tokens, s.output_tokens) AS output_tokens"
    "  FROM join_pairs p CROSS JOIN requests c ON c.id = p.client CROSS JOIN requests s ON s.id = p.server);"
    "UPDATE requests AS r SET status = j.status, start_ns = j.start_ns, e2e_ns = j.e2e_ns, e2e_scope = j.e2e_scope,"
    " network_ns = j.network_ns, preprocess_ns = j.preprocess_ns, queue_ns = j.queue_ns, prefill_ns = j.prefill_ns,"
    " decode_ns = j.decode_ns, postprocess_ns = j.postprocess_ns, unattributed_ns = j.unattributed_ns, ttft_ns = j.ttft_ns,"
    " tpot_ns = j.tpot_ns, ttlt_ns = j.ttlt_ns, token_scope = j.token_scope, dominant = j.dominant, flags = j.flags,"
    " model_id = j.model_id, route_id = j.route_id, input_tokens = j.input_tokens, output_tokens = j.output_tokens"
    " FROM join_rows j WHERE r.id = j.id;"
    "DROP TABLE join_rows;"
    // The server's raw stamps fill the client's empty ones; its attributes join the client's (the client's
    // win a conflict): trace_id, service.name and span.name stay filterable.
    "UPDATE request_details AS d SET t_server_recv_ns = coalesce(d.t_server_recv_ns, sd.t_server_recv_ns),"
    " t_preprocess_done_ns = coalesce(d.t_preprocess_done_ns, sd.t_preprocess_done_ns),"
    " t_sched_ns = coalesce(d.t_sched_ns, sd.t_sched_ns), t_first_token_ns = coalesce(d.t_first_token_ns, sd.t_first_token_ns),"
    " t_last_token_ns = coalesce(d.t_last_token_ns, sd.t_last_token_ns),"
    " t_server_send_ns = coalesce(d.t_server_send_ns, sd.t_server_send_ns),"
    " attributes = CASE WHEN sd.attributes IS NULL THEN d.attributes WHEN d.attributes IS NULL THEN sd.attributes"
    "                   ELSE json_patch(sd.attributes, d.attributes) END"
    " FROM join_pairs p CROSS JOIN request_details sd ON sd.request_id = p.server WHERE d.request_id = p.client;"
    // Token times go with the token metrics: the server's move over when the client measured none.
    "DELETE FROM token_times WHERE request_id IN (SELECT client FROM join_pairs WHERE client_tokens = 0)"
    " AND EXISTS (SELECT 1 FROM token_times t JOIN join_pairs p ON t.request_id = p.server"
    "             WHERE p.client = token_times.request_id);"
    "UPDATE token_times SET request_id = (SELECT client FROM join_pairs WHERE server = token_times.request_id)"
    " WHERE request_id IN (SELECT server FROM join_pairs WHERE client_tokens = 0)"
    " AND NOT EXISTS (SELECT 1 FROM token_times t JOIN join_pairs p ON t.request_id = p.client"
    "                 WHERE p.server = token_times.request_id);"
    "DELETE FROM token_times WHERE request_id IN (SELECT server FROM join_pairs);"
    "DELETE FROM request_details WHERE request_id IN (SELECT server FROM join_pairs);"
    "DELETE FROM requests WHERE id IN (SELECT server FROM join_pairs);";

/// Lists what stays unjoined.
constexpr const char *kListUnmatchedSql =
    "DELETE FROM join_unmatched;"
    "INSERT INTO join_unmatched SELECT request_id, side, request_id IN join_ambiguous FROM join_side"
    " WHERE request_id NOT IN (SELECT client FROM join_pairs) AND request_id NOT IN (SELECT server FROM join_pairs);";

constexpr const char *kDropTempSql =
    "DROP TABLE IF EXISTS temp.join_side; DROP TABLE IF EXISTS temp.join_pairs; DROP TABLE IF EXISTS temp.join_ambiguous;"
    "DROP TABLE IF EXISTS temp.join_rows; DROP TABLE IF EXISTS temp.join_shared; DROP TABLE IF EXISTS temp.join_client_traces;";

class Join {
public:
    explicit Join(Store &store) : m_store(store), m_db(store.db()) {}

    bool run(std::string *error)
    {
        if (!registerFunctions(m_db)) {
            *error = sqlite3_errmsg(m_db);
            return false;
        }
        // A lone benchmark or a lone trace dump has nothing to join: it is told apart by two look-ups
        // (a scan only when a side is absent), so that such imports pay for no index and no temporary table.
        const std::int64_t joined = scalar(m_db, "SELECT count(*) FROM request_joins");
        const bool clients = joined > 0 || scalar(m_db, std::string("SELECT EXISTS (SELECT 1 FROM requests r WHERE ") + kClientSide + ")");
        const bool servers = joined > 0 || scalar(m_db, std::string("SELECT EXISTS (SELECT 1 FROM requests r WHERE ") + kServerSide + ")");
        if (!clients || !servers)
            return m_store.exec("DELETE FROM join_unmatched", error);
        m_store.exec(kDropTempSql);
        if (!exec("BEGIN") || !m_store.ensureIdIndex(&m_error) || !exec(kCollectSides.c_str()) || !pairAll()
            || !exec(kListUnmatchedSql) || !exec(kDropTempSql) || !exec("COMMIT")) {
            m_store.exec("ROLLBACK");
            m_store.exec(kDropTempSql);
            *error = "cannot join client and server records: " + m_error;
            return false;
        }
        return true;
    }

private:
    bool exec(const char *sql) { return m_store.exec(sql, &m_error); }

    /// Pairs by id, then by id without vLLM's prefixes, then by trace id, each pass over the records still
    /// unpaired and only while both sides have some; then keeps the unambiguous pairs and writes them.
    bool pairAll()
    {
        const std::int64_t clients = scalar(m_db, "SELECT count(*) FROM join_side WHERE side = 1");
        const std::int64_t servers = scalar(m_db, "SELECT count(*) FROM join_side WHERE side = 2");
        if (clients == 0 || servers == 0)
            return true; // records joined before: what came since is unmatched
        Statement pairById(m_db, kPairByIdSql);
        for (int variant = 0; variant < 3 && !allPaired(clients, servers); ++variant) {
            sqlite3_bind_int(pairById.get(), 1, variant);
            sqlite3_bind_int(pairById.get(), 2, variant == 0 ? 1 : 2);
            if (pairById.step() != SQLITE_DONE) {
                m_error = sqlite3_errmsg(m_db);
                return false;
            }
            pairById.reset();
        }
        if (!allPaired(clients, servers) && !exec(kPairByTraceSql.c_str()))
            return false;
        return exec(kDropAmbiguousSql) && exec(kApplySql);
    }

    /// True when every client or every server candidate is paired: the later passes have nothing to do.
    bool allPaired(std::int64_t clients, std::int64_t servers)
    {
        return scalar(m_db, "SELECT count(DISTINCT client) FROM join_pairs") >= clients
               || scalar(m_db, "SELECT count(DISTINCT server) FROM join_pairs") >= servers;
    }

    Store &m_store;
    sqlite3 *m_db;
    std::string m_error;
};

} // namespace

bool joinClientServer(Store &store, JoinSummary *summary, std::string *error)
{
    std::string why;
    const bool ok = Join(store).run(&why);
    if (!ok && error)
        *error = why;
    if (summary)
        *summary = readJoinSummary(store);
    return ok;
}

JoinSummary readJoinSummary(const Store &store)
{
    JoinSummary summary;
    Statement counts(store.db(), "SELECT (SELECT count(*) FROM request_joins),"
                                 " (SELECT count(*) FROM join_unmatched WHERE side = 1 AND reason = 0),"
                                 " (SELECT count(*) FROM join_unmatched WHERE side = 2 AND reason = 0),"
                                 " (SELECT count(*) FROM join_unmatched WHERE reason = 1)");
    if (!counts.valid() || counts.step() != SQLITE_ROW)
        return summary;
    summary.matched = sqlite3_column_int64(counts.get(), 0);
    summary.clientOnly = sqlite3_column_int64(counts.get(), 1);
    summary.serverOnly = sqlite3_column_int64(counts.get(), 2);
    summary.ambiguous = sqlite3_column_int64(counts.get(), 3);
    summary.active = summary.matched + summary.clientOnly + summary.serverOnly + summary.ambiguous > 0;
    return summary;
}

std::vector<UnmatchedRecord> listUnmatched(const Store &store, std::size_t limit, std::size_t offset)
{
    std::vector<UnmatchedRecord> list;
    Statement rows(store.db(), "SELECT u.request_id, u.side, u.reason, d.source_id, d.source_line, i.path FROM join_unmatched u"
                               " JOIN request_details d ON d.request_id = u.request_id JOIN requests r ON r.id = u.request_id"
                               " JOIN import_runs i ON i.id = r.run_id ORDER BY u.side, u.request_id LIMIT ? OFFSET ?");
    rows.bindInt(1, limit > static_cast<std::size_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(limit));
    rows.bindInt(2, static_cast<std::int64_t>(offset));
    while (rows.valid() && rows.step() == SQLITE_ROW) {
        sqlite3_stmt *q = rows.get();
        UnmatchedRecord record;
        record.requestId = sqlite3_column_int64(q, 0);
        record.side = sqlite3_column_int(q, 1) == 1 ? JoinSide::Client : JoinSide::Server;
        record.ambiguous = sqlite3_column_int(q, 2) == 1;
        record.sourceId = std::string(columnText(q, 3));
        record.sourceLine = sqlite3_column_int64(q, 4);
        record.sourcePath = std::string(columnText(q, 5));
        list.push_back(std::move(record));
    }
    return list;
}

std::string unmatchedReason(const UnmatchedRecord &record)
{
    const bool client = record.side == JoinSide::Client;
    if (record.ambiguous)
        return std::string("its request id or trace id is shared by several ") + (client ? "client" : "server")
               + " records, or its match is: joining it would be a guess";
    return std::string("no ") + (client ? "server" : "client") + " record has its request id or trace id";
}

} // namespace lx
