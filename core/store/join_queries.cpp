// SPDX-License-Identifier: GPL-3.0-or-later
// The SQL of the client/server join (store/request_join.h, docs/JOIN.md): the join itself, its counts and
// its list of unmatched records. Here, because only core/store speaks SQL.
#include "store/join_queries.h"

#include "model/decompose.h"
#include "model/segments.h"
#include "store/request_columns.h"
#include "store/request_join.h"
#include "store/request_join_ids.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace lx {

namespace {

/// The segments that need a server's stamps: a client alone never measures them. Decode is not among them,
/// since a client may time it from the chunks it received; unattributed is what the others leave over.
constexpr std::array kSegmentsNeedingAServer = {Segment::Network, Segment::Preprocess, Segment::Queue, Segment::Prefill,
                                                Segment::Postprocess};

/// A record measured by a client alone: e2e or token metrics on the client clock and no server segment
/// (decode may be the client's, from the chunks it received). Joined rows are never candidates again.
std::string clientSide(const char *r)
{
    const std::string a(r);
    return "((" + a + ".flags & 8) = 0 AND (" + a + ".e2e_scope = 1 OR " + a + ".token_scope = 1) AND "
           + segmentColumnTerms(a + ".{} IS NULL", " AND ", kSegmentsNeedingAServer) + ")";
}

/// A record measured by a server: its e2e starts at the server's receive.
std::string serverSide(const char *r)
{
    const std::string a(r);
    return "((" + a + ".flags & 8) = 0 AND " + a + ".e2e_scope IN (2, 3))";
}

} // namespace

bool mayBeJoined(const RequestMetrics &m)
{
    if (m.flags & kFlagJoined)
        return false;
    if (m.e2eScope == E2eScope::Server || m.e2eScope == E2eScope::Engine)
        return true; // serverSide()
    const bool clientClock = m.e2eScope == E2eScope::Client || m.tokenScope == E2eScope::Client;
    return clientClock && std::none_of(kSegmentsNeedingAServer.begin(), kSegmentsNeedingAServer.end(), [&](Segment s) {
               return isMeasured(m.segments[static_cast<std::size_t>(s)]);
           }); // clientSide()
}

namespace {

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
    return sqlite3_create_function_v2(db, "lx_dominant", 1 + kSegmentCount, flags, nullptr, sqlDominant, nullptr, nullptr,
                                      nullptr)
           == SQLITE_OK;
}

std::int64_t scalar(sqlite3 *db, const std::string &sql)
{
    Statement stmt(db, sql);
    return stmt.valid() && stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : 0;
}

/// A W3C trace id (32 lower-case hex digits) from a record's attributes: `trace_id` (the OTLP reader's),
/// else the trace id field of a `traceparent` header ("00-<trace id>-<span id>-<flags>").
constexpr const char *kTraceIdOf =
    "lower(coalesce(json_extract(d.attributes, '$.trace_id'),"
    " CASE WHEN length(json_extract(d.attributes, '$.traceparent')) = 55"
    "      THEN substr(json_extract(d.attributes, '$.traceparent'), 4, 32) END))";

/// Pairs the records still unpaired whose trace ids agree. Only records that mention a trace are read.
const std::string kPairByTraceSql =
    std::string("CREATE TEMP TABLE join_client_traces AS SELECT r.id, (r.ttft_ns IS NOT NULL OR r.tpot_ns IS NOT NULL"
                " OR r.ttlt_ns IS NOT NULL) AS tokens, ") + kTraceIdOf
    + " AS trace FROM requests r CROSS JOIN request_attributes_json d ON d.request_id = r.id WHERE " + clientSide("r")
    + " AND r.id NOT IN (SELECT client FROM join_pairs) AND d.attributes IS NOT NULL AND instr(d.attributes, '\"trace') > 0;"
      "DELETE FROM join_client_traces WHERE trace IS NULL OR length(trace) <> 32;"
      "CREATE INDEX temp.join_client_traces_by_trace ON join_client_traces(trace);"
      "INSERT INTO join_pairs SELECT ct.id, x.id, 3, ct.tokens FROM (SELECT r.id, "
    + kTraceIdOf + " AS trace FROM requests r CROSS JOIN request_attributes_json d ON d.request_id = r.id WHERE " + serverSide("r")
    + " AND r.id NOT IN (SELECT server FROM join_pairs) AND d.attributes IS NOT NULL AND instr(d.attributes, '\"trace') > 0) x"
      " CROSS JOIN join_client_traces ct ON ct.trace = x.trace;"
      "DROP TABLE join_client_traces;";

/// A pair is a match only when neither of its records is in another pair: otherwise every record of
/// those pairs is ambiguous, and none of them is joined.
constexpr const char *kDropAmbiguousSql =
    "CREATE TEMP TABLE join_shared AS SELECT client AS request_id FROM join_pairs GROUP BY client HAVING count(*) > 1"
    " UNION SELECT server FROM join_pairs GROUP BY server HAVING count(*) > 1;"
    "INSERT OR IGNORE INTO join_ambiguous SELECT client FROM join_pairs WHERE client IN join_shared OR server IN join_shared;"
    "INSERT OR IGNORE INTO join_ambiguous SELECT server FROM join_pairs WHERE client IN join_shared OR server IN join_shared;"
    "DELETE FROM join_pairs WHERE client IN join_ambiguous;"
    "DROP TABLE join_shared;";

// The joined request's new values, over the client row c and the server row s (docs/JOIN.md). Beyond an
// engine-scope e2e (no server send) lie the server's work after the last token and the network together:
// that stretch is unattributed.
#define LX_JOINED_E2E "coalesce(c.e2e_ns, s.e2e_ns)"
#define LX_JOINED_NETWORK "(CASE WHEN s.e2e_scope = 2 THEN c.e2e_ns - s.e2e_ns END)"
#define LX_JOINED_UNATTRIBUTED                                                                                                   \
    "(CASE WHEN c.e2e_ns IS NULL OR s.e2e_scope = 2 THEN s.unattributed_ns"                                                       \
    " ELSE coalesce(s.unattributed_ns, 0) + c.e2e_ns - s.e2e_ns END)"
#define LX_CLIENT_OR_SERVER(column) "CASE WHEN p.client_tokens THEN c." column " ELSE s." column " END"

/// Each token metric is the client's where it measured it, else the server's: an AIPerf client measures
/// TTFT and e2e, its vLLM span TPOT and TTLT too, and all three were taken from the client or none (the
/// joined requests had no TPOT). `assignments`: the columns' `column = value`; else the flags that mark a
/// metric the server gave beside the client's token scope (tokenMetricScope()), ORed onto the others.
std::string tokenMetrics(bool assignments)
{
    const std::pair<const char *, RequestFlag> metrics[]
        = { { "ttft_ns", kFlagServerTtft }, { "tpot_ns", kFlagServerTpot }, { "ttlt_ns", kFlagServerTtlt } };
    std::string out;
    for (const auto &[column, flag] : metrics) {
        const std::string c = std::string("c.") + column, s = std::string("s.") + column;
        out += assignments ? ", " + std::string(column) + " = coalesce(" + c + ", " + s + ")"
                           : " | CASE WHEN p.client_tokens AND " + c + " IS NULL AND " + s + " IS NOT NULL THEN "
                + std::to_string(flag) + " ELSE 0 END";
    }
    return assignments ? out + ", token_scope = " LX_CLIENT_OR_SERVER("token_scope") : out;
}

/// A segment's value in the joined row: the server's own, but for network and unattributed (above).
std::string joinedSegment(const SegmentDefinition &segment)
{
    switch (segment.segment) {
    case Segment::Network:
        return LX_JOINED_NETWORK;
    case Segment::Unattributed:
        return LX_JOINED_UNATTRIBUTED;
    default:
        return "s." + std::string(segment.column);
    }
}

/// `column = value` for each segment of the joined row, and the values alone (lx_dominant's arguments).
std::string joinedSegmentAssignments(bool withColumns)
{
    std::string out;
    for (const SegmentDefinition &s : kSegments) {
        if (s.segment != Segment::Network)
            out += ", ";
        if (withColumns)
            out += std::string(s.column) + " = ";
        out += joinedSegment(s);
    }
    return out;
}

/// Writes the joined requests: the client record's row takes the server's segments, network becomes
/// client e2e minus server e2e, and the server record's request row goes (its details row stays).
const std::string kApplySql
    = "INSERT INTO request_joins SELECT p.client, p.server, s.run_id, s.e2e_ns, s.e2e_scope, p.matched_by"
      " FROM join_pairs p CROSS JOIN requests s ON s.id = p.server;"
      "UPDATE requests AS c SET status = max(c.status, s.status), start_ns = coalesce(c.start_ns, s.start_ns),"
      " e2e_ns = " LX_JOINED_E2E ", e2e_scope = CASE WHEN c.e2e_ns IS NULL THEN s.e2e_scope ELSE 1 END, "
    + joinedSegmentAssignments(true) + tokenMetrics(true) + ", dominant = lx_dominant(" LX_JOINED_E2E ", "
    + joinedSegmentAssignments(false)
    + "),"
      // Clock skew as decompose() sees it: a negative network, or a negative leg where both starts are
      // wall-clock times (inbound = server receive - client send; outbound = the rest of the network).
      " flags = (c.flags & ~3) | ((c.flags | s.flags) & 2) | 8"
      "   | CASE WHEN c.e2e_ns - s.e2e_ns < 0 THEN 1"
      "          WHEN c.start_ns IS NULL OR s.start_ns IS NULL OR ((c.flags | s.flags) & 4) <> 0 THEN 0"
      "          WHEN s.start_ns - c.start_ns < 0 OR (c.e2e_ns - s.e2e_ns) - (s.start_ns - c.start_ns) < 0 THEN 1"
      "          ELSE 0 END"
    + tokenMetrics(false)
    + ","
      " model_id = coalesce(c.model_id, s.model_id), route_id = coalesce(c.route_id, s.route_id),"
      " input_tokens = coalesce(c.input_tokens, s.input_tokens), output_tokens = coalesce(c.output_tokens, "
      "s.output_tokens)"
      " FROM join_pairs p CROSS JOIN requests s ON s.id = p.server WHERE c.id = p.client;"
      "DELETE FROM requests WHERE id IN (SELECT server FROM join_pairs);";

#undef LX_JOINED_E2E
#undef LX_JOINED_NETWORK
#undef LX_JOINED_UNATTRIBUTED
#undef LX_CLIENT_OR_SERVER

/// Token times go with the token metrics: the server's replace the client's when the client measured no
/// token metric, and move over (flagged as the server's) when the client sent none. Run only when the store
/// has token times at all.
const std::string kMoveTokenTimesSql
    = "DELETE FROM token_times WHERE request_id IN (SELECT client FROM join_pairs WHERE client_tokens = 0)"
      " AND EXISTS (SELECT 1 FROM token_times t JOIN join_pairs p ON t.request_id = p.server"
      "             WHERE p.client = token_times.request_id);"
      "UPDATE requests SET flags = flags | "
    + std::to_string(kFlagServerTokenTimes)
    + " WHERE id IN (SELECT p.client FROM join_pairs p WHERE p.client_tokens"
      "   AND EXISTS (SELECT 1 FROM token_times t WHERE t.request_id = p.server)"
      "   AND NOT EXISTS (SELECT 1 FROM token_times t WHERE t.request_id = p.client));"
      "UPDATE token_times SET request_id = (SELECT client FROM join_pairs WHERE server = token_times.request_id)"
      " WHERE request_id IN (SELECT server FROM join_pairs)"
      " AND NOT EXISTS (SELECT 1 FROM token_times t JOIN join_pairs p ON t.request_id = p.client"
      "                 WHERE p.server = token_times.request_id);"
      "DELETE FROM token_times WHERE request_id IN (SELECT server FROM join_pairs);";

/// Lists what stays unjoined: after the join, every candidate left.
const std::string kListUnmatchedSql = "INSERT INTO join_unmatched SELECT r.id, CASE WHEN " + clientSide("r")
                                      + " THEN 1 ELSE 2 END, r.id IN join_ambiguous FROM requests r WHERE "
                                      + clientSide("r") + " OR " + serverSide("r");

constexpr const char *kDropTempSql =
    "DROP TABLE IF EXISTS temp.join_pairs; DROP TABLE IF EXISTS temp.join_ambiguous;"
    "DROP TABLE IF EXISTS temp.join_shared; DROP TABLE IF EXISTS temp.join_client_traces;";

class Join {
public:
    Join(Store &store, const std::function<void()> &joining) : m_store(store), m_db(store.db()), m_joining(joining) {}

    bool run(std::string *error)
    {
        if (!registerFunctions(m_db)) {
            *error = sqlite3_errmsg(m_db);
            return false;
        }
        m_store.exec(kDropTempSql);
        if (!exec("BEGIN") || !joinAll() || !exec(kDropTempSql) || !exec("COMMIT")) {
            m_store.exec("ROLLBACK");
            m_store.exec(kDropTempSql);
            *error = "cannot join client and server records: " + m_error;
            return false;
        }
        return true;
    }

private:
    bool exec(const char *sql) { return m_store.exec(sql, &m_error); }
    bool exec(const std::string &sql) { return exec(sql.c_str()); }

    /// A lone benchmark or a lone trace dump has nothing to join: two probes tell, and nothing else runs.
    /// Otherwise pairs by id, then by id without vLLM's prefixes, then by trace id, each pass over the
    /// records still unpaired and only while both sides have some; keeps the unambiguous pairs and writes
    /// them; lists what is left (only when something is). The unmatched list is rebuilt by every join.
    bool joinAll()
    {
        // Two probes, each ended by the first record of its side: a scan only when a side is absent.
        const bool clients = scalar(m_db, "SELECT EXISTS (SELECT 1 FROM requests r WHERE " + clientSide("r") + ")");
        const bool servers = scalar(m_db, "SELECT EXISTS (SELECT 1 FROM requests r WHERE " + serverSide("r") + ")");
        const std::int64_t joined = scalar(m_db, "SELECT count(*) FROM request_joins");
        if (!exec("DELETE FROM join_unmatched;"
                  "CREATE TEMP TABLE join_pairs (client INTEGER NOT NULL, server INTEGER NOT NULL, matched_by INTEGER NOT NULL,"
                  " client_tokens INTEGER NOT NULL);"
                  "CREATE TEMP TABLE join_ambiguous (request_id INTEGER PRIMARY KEY);"))
            return false;
        if ((!clients && joined == 0) || (!servers && joined == 0))
            return true; // one side only: nothing is unmatched either
        bool allMatched = false;
        if (clients && servers) {
            if (m_joining)
                m_joining();
            // The rows change in place: their column chunks go, and are written anew after the join
            // (request_columns.h).
            if (!pair(allMatched) || !dropRequestColumns(m_db, &m_error) || !exec(kApplySql)
                || (scalar(m_db, "SELECT EXISTS (SELECT 1 FROM token_times)") && !exec(kMoveTokenTimesSql)))
                return false;
        }
        return allMatched || exec(kListUnmatchedSql);
    }

    /// Fills join_pairs; allMatched says that every candidate of both sides is in exactly one pair.
    bool pair(bool &allMatched)
    {
        IdPairing ids;
        if (!pairByRequestId(m_db, clientSide("r"), serverSide("r"), ids, &m_error))
            return false;
        std::int64_t pairedClients = ids.pairedClients, pairedServers = ids.pairedServers, pairs = ids.pairs;
        if (pairedClients < ids.clients && pairedServers < ids.servers) {
            if (!exec(kPairByTraceSql))
                return false;
            pairedClients = scalar(m_db, "SELECT count(DISTINCT client) FROM join_pairs");
            pairedServers = scalar(m_db, "SELECT count(DISTINCT server) FROM join_pairs");
            pairs = scalar(m_db, "SELECT count(*) FROM join_pairs");
        }
        allMatched = pairs == ids.clients && pairs == ids.servers && pairedClients == pairs && pairedServers == pairs;
        // Each record in one pair at most: nothing is ambiguous, and the grouping is spared.
        return (pairedClients == pairs && pairedServers == pairs) || exec(kDropAmbiguousSql);
    }

    bool fail()
    {
        m_error = sqlite3_errmsg(m_db);
        return false;
    }

    Store &m_store;
    sqlite3 *m_db;
    const std::function<void()> &m_joining;
    std::string m_error;
};

} // namespace

bool runClientServerJoin(Store &store, std::string *error, const std::function<void()> &joining)
{
    return Join(store, joining).run(error);
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
    // One side at a time, in row order: each query walks join_unmatched by its key and stops at the limit,
    // where ordering by side first would sort every unmatched record for the report's ten.
    std::vector<UnmatchedRecord> list;
    Statement rows(store.db(), "SELECT u.request_id, u.reason, d.source_id, d.source_line, i.path FROM join_unmatched u"
                               " JOIN request_details d ON d.request_id = u.request_id JOIN requests r ON r.id = u.request_id"
                               " JOIN import_runs i ON i.id = r.run_id WHERE u.side = ? ORDER BY u.request_id LIMIT ? OFFSET ?");
    const auto clients = static_cast<std::size_t>(scalar(store.db(), "SELECT count(*) FROM join_unmatched WHERE side = 1"));
    for (const JoinSide side : {JoinSide::Client, JoinSide::Server}) {
        const std::size_t skip = side == JoinSide::Client ? offset : offset - std::min(offset, clients);
        if (list.size() >= limit || (side == JoinSide::Client && offset >= clients))
            continue;
        rows.reset();
        rows.bindInt(1, static_cast<int>(side));
        rows.bindInt(2, static_cast<std::int64_t>(std::min<std::size_t>(limit - list.size(), INT64_MAX)));
        rows.bindInt(3, static_cast<std::int64_t>(skip));
        while (rows.valid() && rows.step() == SQLITE_ROW) {
            sqlite3_stmt *q = rows.get();
            UnmatchedRecord record;
            record.requestId = sqlite3_column_int64(q, 0);
            record.side = side;
            record.ambiguous = sqlite3_column_int(q, 1) == 1;
            record.sourceId = std::string(columnText(q, 2));
            record.sourceLine = sqlite3_column_int64(q, 3);
            record.sourcePath = std::string(columnText(q, 4));
            list.push_back(std::move(record));
        }
    }
    return list;
}

} // namespace lx
