// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis.h"

#include "sqlite_util.h"
#include "store.h"

#include <cstring>

namespace lx {

namespace {

/// Values of one metric and the scopes they were read on, gathered before summarizing.
struct Samples {
    std::vector<std::int64_t> values;
    std::array<std::int64_t, 4> scopeCounts{};
    std::int64_t excluded = 0;

    void add(std::int64_t value, E2eScope scope)
    {
        values.push_back(value);
        ++scopeCounts[static_cast<int>(scope)];
    }
};

MetricSummary summarizeSamples(Samples &samples, const std::vector<double> &percentiles)
{
    MetricSummary m;
    m.stat = summarize(samples.values, percentiles);
    m.excluded = samples.excluded;
    int scopesSeen = 0;
    for (int s = 1; s < 4; ++s) {
        if (samples.scopeCounts[s] == 0)
            continue;
        ++scopesSeen;
        m.scope = std::string(scopeName(static_cast<E2eScope>(s)));
        m.scopes[m.scope] = samples.scopeCounts[s];
    }
    if (scopesSeen > 1)
        m.scope = "mixed";
    else
        m.scopes.clear();
    return m;
}

std::int64_t columnOr(sqlite3_stmt *stmt, int column)
{
    return sqlite3_column_type(stmt, column) == SQLITE_NULL ? kNotMeasured : sqlite3_column_int64(stmt, column);
}

void readInputs(const Store &store, Report &report)
{
    Statement runs(store.db(), "SELECT path, format, accepted, rejected, outcome, coalesce(message, '') FROM import_runs ORDER BY id");
    while (runs.step() == SQLITE_ROW) {
        InputSummary in;
        in.path = reinterpret_cast<const char *>(sqlite3_column_text(runs.get(), 0));
        in.format = reinterpret_cast<const char *>(sqlite3_column_text(runs.get(), 1));
        in.accepted = sqlite3_column_int64(runs.get(), 2);
        in.rejected = sqlite3_column_int64(runs.get(), 3);
        in.outcome = reinterpret_cast<const char *>(sqlite3_column_text(runs.get(), 4));
        in.message = reinterpret_cast<const char *>(sqlite3_column_text(runs.get(), 5));
        report.rejected += in.rejected;
        report.inputs.push_back(std::move(in));
    }
}

/// Pools the gaps between consecutive token times of the requests in the statistics.
void readTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors, Samples &itl)
{
    std::string sql = "SELECT t.times, r.token_scope FROM token_times t JOIN requests r ON r.id = t.request_id WHERE "
                      + where.sql;
    if (!includeErrors)
        sql += " AND r.status = 0";
    Statement stmt(store.db(), sql);
    where.bind(stmt);
    while (stmt.step() == SQLITE_ROW) {
        const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(stmt.get(), 0));
        const std::size_t n = static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), 0)) / sizeof(std::int64_t);
        const auto scope = static_cast<E2eScope>(sqlite3_column_int(stmt.get(), 1));
        std::int64_t previous = 0;
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t t = 0;
            std::memcpy(&t, bytes + i * sizeof t, sizeof t); // BLOBs carry no alignment guarantee
            if (i > 0)
                itl.add(t - previous, scope);
            previous = t;
        }
    }
}

} // namespace

Report analyze(const Store &store, const RequestFilter &filter, const AnalysisOptions &options)
{
    Report report;
    report.percentiles = options.percentiles;
    readInputs(store, report);

    const SqlCondition where = toSqlCondition(filter);
    Statement count(store.db(), "SELECT count(*) FROM requests r WHERE " + where.sql);
    where.bind(count);
    const std::int64_t expected = count.step() == SQLITE_ROW ? sqlite3_column_int64(count.get(), 0) : 0;

    std::array<Samples, kSegmentCount> segments;
    Samples e2e, ttft, tpot, ttlt, itl;
    for (Samples *s : {&e2e, &ttft, &tpot, &ttlt})
        s->values.reserve(static_cast<std::size_t>(expected));
    for (Samples &s : segments)
        s.values.reserve(static_cast<std::size_t>(expected));

    // Column order matches the table's, so SQLite decodes each record front to back once.
    Statement stmt(store.db(), "SELECT status, e2e_ns, e2e_scope, network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns,"
                               " postprocess_ns, unattributed_ns, ttft_ns, tpot_ns, ttlt_ns, token_scope, dominant, flags"
                               " FROM requests r WHERE " + where.sql);
    where.bind(stmt);
    sqlite3_stmt *q = stmt.get();
    while (stmt.step() == SQLITE_ROW) {
        ++report.total;
        const bool ok = sqlite3_column_int(q, 0) == 0;
        ok ? ++report.ok : ++report.error;
        if (!ok && !options.includeErrors)
            continue;
        const auto e2eScope = static_cast<E2eScope>(sqlite3_column_int(q, 2));
        const auto tokenScope = static_cast<E2eScope>(sqlite3_column_int(q, 13));
        const auto flags = static_cast<std::uint32_t>(sqlite3_column_int64(q, 15));
        if (const std::int64_t v = columnOr(q, 1); isMeasured(v))
            e2e.add(v, e2eScope);
        for (int s = 0; s < kSegmentCount; ++s) {
            const std::int64_t v = columnOr(q, 3 + s);
            if (!isMeasured(v))
                continue;
            if (s == static_cast<int>(Segment::Network) && (flags & kFlagClockSkew)) {
                ++segments[s].excluded; // a negative network time is clock skew, not a latency
                continue;
            }
            segments[s].add(v, s == static_cast<int>(Segment::Network) ? E2eScope::Client : E2eScope::Server);
        }
        if (flags & kFlagClockSkew)
            ++report.clockSkew;
        if (const std::int64_t v = columnOr(q, 10); isMeasured(v))
            ttft.add(v, tokenScope);
        if (const std::int64_t v = columnOr(q, 11); isMeasured(v))
            tpot.add(v, tokenScope);
        if (const std::int64_t v = columnOr(q, 12); isMeasured(v))
            ttlt.add(v, tokenScope);
        if (const std::int64_t d = columnOr(q, 14); isMeasured(d) && d >= 0 && d < kSegmentCount) {
            ++report.dominantCounts[static_cast<std::size_t>(d)];
            ++report.dominantTotal;
        }
    }
    readTokenGaps(store, where, options.includeErrors, itl);

    for (int s = 0; s < kSegmentCount; ++s)
        report.segments[s] = summarizeSamples(segments[s], options.percentiles);
    report.e2e = summarizeSamples(e2e, options.percentiles);
    report.ttft = summarizeSamples(ttft, options.percentiles);
    report.tpot = summarizeSamples(tpot, options.percentiles);
    report.ttlt = summarizeSamples(ttlt, options.percentiles);
    report.itl = summarizeSamples(itl, options.percentiles);
    return report;
}

} // namespace lx
