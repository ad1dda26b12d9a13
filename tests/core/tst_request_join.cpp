// SPDX-License-Identifier: GPL-3.0-or-later
// The join of client records and server records (core/store/request_join.h, docs/JOIN.md): both sides of the
// same simulated requests, written by the generator as AIPerf-style client records and vLLM-style OTLP
// spans, must join into requests whose network equals the simulated network to the ns; inline fixtures
// check each matching key, the joined fields, clock skew, ambiguity and the unmatched lists.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "report/report_format.h"
#include "store/request_join.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using lxtest::dump;

namespace {

/// The joined requests as rows: id, network, e2e, e2e scope, flags, dominant, ttft, token scope, how
/// matched and the server record's id.
constexpr const char *kJoinedSql =
    "SELECT d.source_id, r.network_ns, r.e2e_ns, r.e2e_scope, r.flags, r.dominant, r.ttft_ns, r.token_scope,"
    " j.matched_by, sd.source_id FROM requests r JOIN request_details d ON d.request_id = r.id"
    " JOIN request_joins j ON j.request_id = r.id JOIN request_details sd ON sd.request_id = j.server_request_id"
    " ORDER BY d.source_id";

QString summaryText(const lx::JoinSummary &s)
{
    return QStringLiteral("%1|%2|%3|%4").arg(s.matched).arg(s.clientOnly).arg(s.serverOnly).arg(s.ambiguous);
}

/// A native client record: what the client saw, send and receive on its clock.
QByteArray clientLine(const char *id, qint64 send, qint64 recv, const char *extra = "")
{
    return QStringLiteral("{\"id\":\"%1\",\"t_client_send_ns\":%2,\"t_client_recv_ns\":%3%4}\n")
        .arg(QLatin1String(id)).arg(send).arg(recv).arg(QLatin1String(extra)).toUtf8();
}

/// A native server record from receive to send (90 us), every stamp measured: decode dominates.
QByteArray serverLine(const char *id, qint64 recv, bool withSend = true)
{
    QString line = QStringLiteral("{\"id\":\"%1\",\"t_server_recv_ns\":%2,\"t_preprocess_done_ns\":%3,\"t_sched_ns\":%4,"
                                  "\"t_first_token_ns\":%5,\"t_last_token_ns\":%6")
                       .arg(QLatin1String(id)).arg(recv).arg(recv + 1000).arg(recv + 2000).arg(recv + 5000).arg(recv + 85000);
    if (withSend)
        line += QStringLiteral(",\"t_server_send_ns\":%1").arg(recv + 90000);
    return (line + QStringLiteral(",\"output_tokens\":5}\n")).toUtf8();
}

/// A vLLM llm_request span (OTLP/JSON, one line) with e2e 1 s, from 1700000000 s on.
QByteArray spanLine(const char *requestId, const char *traceId)
{
    return QStringLiteral(
               "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"vllm\"}}]},"
               "\"scopeSpans\":[{\"spans\":[{\"traceId\":\"%2\",\"spanId\":\"eee19b7ec3c1b174\",\"name\":\"llm_request\",\"kind\":2,"
               "\"startTimeUnixNano\":\"1700000000000000000\",\"endTimeUnixNano\":\"1700000001000000000\",\"attributes\":["
               "{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"%1\"}},"
               "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":0.01}},"
               "{\"key\":\"gen_ai.latency.time_to_first_token\",\"value\":{\"doubleValue\":0.05}},"
               "{\"key\":\"gen_ai.latency.time_in_model_prefill\",\"value\":{\"doubleValue\":0.03}},"
               "{\"key\":\"gen_ai.latency.time_in_model_decode\",\"value\":{\"doubleValue\":0.9}},"
               "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":1.0}}]}]}]}]}\n")
        .arg(QLatin1String(requestId), QLatin1String(traceId))
        .toUtf8();
}

constexpr qint64 kSpanStart = 1700000000000000000;
constexpr const char *kTrace = "5b8efff798038103d269b633813fc60c";

/// The files in order into one temporary store, each import run as the user would (joining after it).
struct Investigation {
    QTemporaryDir dir;
    std::unique_ptr<lx::Store> store;
    std::vector<lx::FileImport> files;

    bool import(const std::vector<QByteArray> &contents)
    {
        std::vector<std::string> paths;
        for (const QByteArray &content : contents)
            paths.push_back(lxtest::writeFile(dir, QStringLiteral("input%1").arg(files.size() + paths.size()), content));
        std::string why;
        if (!store)
            store = lx::Store::openTemporary(&why);
        if (!store)
            return false;
        const auto imported = lx::importFiles(*store, paths);
        files.insert(files.end(), imported.begin(), imported.end());
        for (const lx::FileImport &f : imported) {
            if (f.outcome != lx::FileImport::Outcome::Complete || f.rejected > 0 || !f.message.empty()) {
                qWarning("%s", lxtest::describe(f).constData());
                return false;
            }
        }
        return true;
    }
};

} // namespace

class TestRequestJoin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void simulated_data();
    void simulated();
    void keys_data();
    void keys();
    void tokenMetricsFromBothSides_data();
    void tokenMetricsFromBothSides();
    void unmatchedListed();
    void laterImportJoins();
    void unjoinedStoreJoinsAtTheNextImport();
    void mergedStoresJoin();
    void reportShowsJoin();
    void joinKeyOfVllmIds_data();
    void joinKeyOfVllmIds();
    void cliReport_data();
    void cliReport();
    void progressSaysTheJoin_data();
    void progressSaysTheJoin();
    void detailsOfJoinCandidatesOnly_data();
    void detailsOfJoinCandidatesOnly();
};

void TestRequestJoin::progressSaysTheJoin_data()
{
    QTest::addColumn<QByteArray>("clients");
    QTest::addColumn<QByteArray>("servers");
    QTest::addColumn<bool>("joins");
    QTest::newRow("both sides") << clientLine("r1", 1000, 101000) << serverLine("r1", 5000) << true;
    QTest::newRow("both sides, nothing matches") << clientLine("r1", 1000, 101000) << serverLine("r2", 5000) << true;
    QTest::newRow("a benchmark alone") << clientLine("r1", 1000, 101000) << QByteArray() << false;
    QTest::newRow("a trace dump alone") << QByteArray() << serverLine("r1", 5000) << false;
}

void TestRequestJoin::progressSaysTheJoin()
{
    QFETCH(QByteArray, clients);
    QFETCH(QByteArray, servers);
    QFETCH(bool, joins);
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (const QByteArray &content : {clients, servers}) {
        if (!content.isEmpty())
            paths.push_back(lxtest::writeFile(dir, QStringLiteral("input%1.jsonl").arg(paths.size()), content));
    }
    std::string why;
    const auto store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    std::vector<lx::ImportProgress> reports;
    lx::ImportOptions options;
    options.progress = [&](const lx::ImportProgress &p) {
        reports.push_back(p);
        return true;
    };
    lx::importFiles(*store, paths, options);
    QVERIFY(!reports.empty());
    const auto joining = std::count_if(reports.begin(), reports.end(), [](const lx::ImportProgress &p) { return p.joining; });
    QCOMPARE(joining, joins ? 1 : 0);
    QVERIFY(!reports.back().joining); // the last report: everything done
    QCOMPARE(reports.back().bytesDone, reports.back().bytesTotal);
    if (joins) { // said after every byte is read, just before the end
        const lx::ImportProgress &said = reports[reports.size() - 2];
        QVERIFY(said.joining);
        QCOMPARE(said.bytesDone, said.bytesTotal);
    }
}

void TestRequestJoin::simulated_data()
{
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("tokenTimesEvery");
    QTest::addColumn<int>("dropClientEvery"); ///< leave out the client record of every k-th request (0: none)
    QTest::addColumn<int>("dropServerEvery");
    QTest::newRow("all joined") << 600 << 0 << 0 << 0;
    QTest::newRow("token times from the client") << 300 << 2 << 0 << 0;
    QTest::newRow("client records dropped") << 500 << 0 << 7 << 0;
    QTest::newRow("server records dropped") << 500 << 0 << 0 << 11;
    QTest::newRow("both sides dropped") << 700 << 3 << 7 << 11;
}

/// Both sides of the same simulated requests join into requests whose network, segments, e2e and clock-skew
/// flag equal what the timestamps form of the same requests gives, to the ns; the dropped ones are unmatched.
void TestRequestJoin::simulated()
{
    QFETCH(int, requests);
    QFETCH(int, tokenTimesEvery);
    QFETCH(int, dropClientEvery);
    QFETCH(int, dropServerEvery);
    lx::sim::SimConfig config;
    config.requests = requests;
    config.seed = 7;
    config.tokenTimesEvery = tokenTimesEvery;
    config.skewRate = 0.02; // enough skewed requests to see the flag in a few hundred
    std::string timestamps, client, server;
    qint64 bothSides = 0, clientOnly = 0, serverOnly = 0;
    lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) {
        lx::sim::appendTimestampsLine(timestamps, r);
        const bool dropClient = dropClientEvery > 0 && r.index % dropClientEvery == 3;
        const bool dropServer = dropServerEvery > 0 && r.index % dropServerEvery == 5;
        if (!dropClient)
            lx::sim::appendClientLine(client, r);
        if (!dropServer)
            lx::sim::appendOtlpLine(server, r);
        bothSides += !dropClient && !dropServer;
        clientOnly += !dropClient && dropServer;
        serverOnly += dropClient && !dropServer;
    });
    Investigation joined;
    QVERIFY(joined.import({QByteArray::fromStdString(client), QByteArray::fromStdString(server)}));
    QCOMPARE(joined.files[0].format, std::string("aiperf"));
    QCOMPARE(joined.files[1].format, std::string("otlp-json"));
    const lx::JoinSummary summary = lx::readJoinSummary(*joined.store);
    QVERIFY(summary.active);
    QCOMPARE(summaryText(summary), QStringLiteral("%1|%2|%3|0").arg(bothSides).arg(clientOnly).arg(serverOnly));
    QCOMPARE(dump(joined.store->db(), "SELECT count(*) FROM requests").toLongLong(), bothSides + clientOnly + serverOnly);

    Investigation reference;
    QVERIFY(reference.import({QByteArray::fromStdString(timestamps)}));
    sqlite3 *db = joined.store->db();
    const std::string attach = "ATTACH DATABASE '" + reference.store->fileName() + "' AS ref";
    QVERIFY(joined.store->exec(attach.c_str()));
    // Every joined request against the reference: the same network, server segments, e2e, status and skew.
    const char *compare =
        // A request refused in preprocess has no TTFT in its span, so no preprocess: only ok ones are compared.
        "SELECT count(*), sum(r.network_ns IS x.network_ns), sum(x.status = 1 OR (r.preprocess_ns IS x.preprocess_ns"
        " AND r.queue_ns IS x.queue_ns AND r.prefill_ns IS x.prefill_ns AND r.decode_ns IS x.decode_ns)),"
        " sum(r.e2e_ns IS x.e2e_ns AND r.e2e_scope = 1), sum(r.status = x.status), sum((r.flags & 1) = (x.flags & 1)),"
        " sum(r.flags & 1), sum(coalesce(r.network_ns, 0) + coalesce(r.preprocess_ns, 0) + coalesce(r.queue_ns, 0)"
        " + coalesce(r.prefill_ns, 0) + coalesce(r.decode_ns, 0) + coalesce(r.postprocess_ns, 0) + coalesce(r.unattributed_ns, 0)"
        " = r.e2e_ns)"
        " FROM requests r JOIN request_details d ON d.request_id = r.id"
        " JOIN ref.request_details xd ON xd.source_id = d.source_id JOIN ref.requests x ON x.id = xd.request_id"
        " WHERE r.flags & 8";
    const QStringList cells = dump(db, compare).split(QLatin1Char('|'));
    QCOMPARE(cells.size(), 8);
    const QString n = QString::number(bothSides);
    QCOMPARE(cells[0], n);
    QCOMPARE(cells[1], n); // network, to the ns
    QCOMPARE(cells[2], n);
    QCOMPARE(cells[3], n);
    QCOMPARE(cells[4], n);
    QCOMPARE(cells[5], n);   // the clock-skew flag agrees
    QVERIFY(cells[6].toInt() > 0); // and some are skewed
    QCOMPARE(cells[7], n);   // segments add up to e2e
    // Token metrics are the client's: as many as the client file gives, on the client clock.
    QCOMPARE(dump(db, "SELECT count(*) FROM requests WHERE flags & 8 AND ttft_ns IS NOT NULL AND token_scope <> 1"), QStringLiteral("0"));
    // But not only those: a TPOT or TTLT the client did not measure (AIPerf without its chunks' times
    // measures TTFT) is the server span's, read on its clock. They were dropped: no joined request had a TPOT.
    QCOMPARE(
        dump(db,
             "SELECT count(*) FROM requests r JOIN request_details d ON d.request_id = r.id"
             " JOIN ref.request_details xd ON xd.source_id = d.source_id JOIN ref.requests x ON x.id = xd.request_id"
             " WHERE r.flags & 8 AND ((x.tpot_ns IS NOT NULL AND r.tpot_ns IS NULL) OR (x.ttlt_ns IS NOT NULL AND "
             "r.ttlt_ns IS NULL))"),
        QStringLiteral("0"));
    QVERIFY(dump(db, "SELECT count(*) FROM requests WHERE flags & 8 AND flags & 64").toLongLong() > 0);
    // The report counts them on the server's clock, with those of the server records left unjoined.
    const qint64 serverTpot = dump(db,
                                   "SELECT count(*) FROM requests WHERE status = 0 AND tpot_ns IS NOT NULL AND "
                                   "(token_scope = 2 OR flags & 64)")
                                  .toLongLong();
    const lx::Report report = lx::analyze(*joined.store, {});
    const auto fromServer = report.tpot.scopes.find("server");
    QVERIFY2(serverTpot == report.tpot.stat.count
                 ? report.tpot.scope == "server"
                 : fromServer != report.tpot.scopes.end() && fromServer->second == serverTpot,
             qPrintable(QStringLiteral("%1 of %2 TPOT flagged as the server's, the report's scope %3")
                            .arg(serverTpot)
                            .arg(report.tpot.stat.count)
                            .arg(QString::fromStdString(report.tpot.scope))));
    QCOMPARE(report.ttft.scope, std::string(dropClientEvery > 0 ? "mixed" : "client")); // unjoined spans have theirs
    QCOMPARE(dump(db, "SELECT count(*) FROM token_times t JOIN requests r ON r.id = t.request_id WHERE r.token_scope <> 1"),
             QStringLiteral("0"));
    // The unmatched list holds exactly the dropped ones, each on its side.
    QCOMPARE(dump(db, "SELECT count(*) FROM join_unmatched u JOIN request_details d ON d.request_id = u.request_id"
                      " JOIN requests r ON r.id = u.request_id WHERE r.flags & 8 = 0"),
             QString::number(clientOnly + serverOnly));
}

void TestRequestJoin::keys_data()
{
    QTest::addColumn<QByteArray>("clients");
    QTest::addColumn<QByteArray>("servers");
    QTest::addColumn<QString>("summary"); ///< matched|client only|server only|ambiguous
    QTest::addColumn<QString>("joined");  ///< kJoinedSql

    // Network 10 us = 100 - 90; flags 8 (joined); decode (4) dominates; no client token metric: the server's.
    QTest::newRow("request id") << clientLine("r1", 1000, 101000) << serverLine("r1", 5000) << "1|0|0|0"
                                << "r1|10000|100000|1|8|4|5000|2|1|r1";
    QTest::newRow("vllm chat id") << clientLine("r1", 1000, 101000) << serverLine("chatcmpl-r1", 5000) << "1|0|0|0"
                                  << "r1|10000|100000|1|8|4|5000|2|2|chatcmpl-r1";
    QTest::newRow("vllm completion prompt id") << clientLine("req-7", 1000, 101000) << serverLine("cmpl-req-7-0", 5000)
                                               << "1|0|0|0" << "req-7|10000|100000|1|8|4|5000|2|2|cmpl-req-7-0";
    // The exact id wins over the one without the prefix.
    QTest::newRow("exact id first") << clientLine("chatcmpl-r1", 1000, 101000) + clientLine("r1", 1000, 101000)
                                    << serverLine("chatcmpl-r1", 5000) << "1|1|0|0"
                                    << "chatcmpl-r1|10000|100000|1|8|4|5000|2|1|chatcmpl-r1";
    // Ids differ; the trace id (upper-case in the client's file) joins them. Network 1.2 s - 1 s, the span's
    // durations form (2) carried over.
    QTest::newRow("trace id") << clientLine("c1", kSpanStart - 100000000, kSpanStart + 1100000000,
                                            ",\"trace_id\":\"5B8EFFF798038103D269B633813FC60C\"")
                              << spanLine("cmpl-9", kTrace) << "1|0|0|0"
                              << "c1|200000000|1200000000|1|10|4|50000000|2|3|cmpl-9";
    QTest::newRow("traceparent") << clientLine("c1", kSpanStart - 100000000, kSpanStart + 1100000000,
                                               ",\"traceparent\":\"00-5b8efff798038103d269b633813fc60c-00f067aa0ba902b7-01\"")
                                 << spanLine("cmpl-9", kTrace) << "1|0|0|0"
                                 << "c1|200000000|1200000000|1|10|4|50000000|2|3|cmpl-9";
    QTest::newRow("no common key") << clientLine("a", 1000, 101000) << serverLine("b", 5000) << "0|1|1|0" << "";
    // Client e2e below server e2e: network -10 us, kept and flagged as clock skew (8 | 1).
    QTest::newRow("negative network") << clientLine("r1", 1000, 81000) << serverLine("r1", 5000) << "1|0|0|0"
                                      << "r1|-10000|80000|1|9|4|5000|2|1|r1";
    // Network positive, but the client's send is after the server's receive: its clock runs ahead (skew).
    QTest::newRow("client clock ahead") << clientLine("r1", 6000, 106000) << serverLine("r1", 5000) << "1|0|0|0"
                                        << "r1|10000|100000|1|9|4|5000|2|1|r1";
    // No server send: client e2e - engine e2e holds postprocess and network together, so it is unattributed
    // and network stays not measured.
    QTest::newRow("engine scope server") << clientLine("r1", 1000, 101000) << serverLine("r1", 5000, false) << "1|0|0|0"
                                         << "r1|NULL|100000|1|8|4|5000|2|1|r1";
    // A client id twice (two client files of the same run): joining either would be a guess.
    QTest::newRow("duplicate client ids") << clientLine("r1", 1000, 101000) << serverLine("r1", 5000)
                                          << "0|0|0|3" << "";
    // A server record without a client one, beside a joined pair.
    QTest::newRow("server without client") << clientLine("r1", 1000, 101000) << serverLine("r1", 5000) + serverLine("r2", 9000)
                                           << "1|0|1|0" << "r1|10000|100000|1|8|4|5000|2|1|r1";
}

void TestRequestJoin::keys()
{
    QFETCH(QByteArray, clients);
    QFETCH(QByteArray, servers);
    QFETCH(QString, summary);
    QFETCH(QString, joined);
    Investigation investigation;
    std::vector<QByteArray> files = {clients, servers};
    if (QByteArray(QTest::currentDataTag()) == "duplicate client ids")
        files.insert(files.begin(), clients); // the same client file opened twice
    QVERIFY(investigation.import(files));
    QCOMPARE(summaryText(lx::readJoinSummary(*investigation.store)), summary);
    sqlite3 *db = investigation.store->db();
    QCOMPARE(dump(db, kJoinedSql), joined);
    // A joined request is one request: the server record's request row is gone (its details row stays, for
    // what it was imported from), every other one is still there.
    const int matched = summary.section(QLatin1Char('|'), 0, 0).toInt();
    const int requests = matched + summary.section(QLatin1Char('|'), 1, 1).toInt()
                         + summary.section(QLatin1Char('|'), 2, 2).toInt() + summary.section(QLatin1Char('|'), 3, 3).toInt();
    QCOMPARE(dump(db, "SELECT count(*) FROM requests"), QString::number(requests));
    QCOMPARE(dump(db, "SELECT count(*) FROM requests_readable"), QString::number(requests));
    QCOMPARE(dump(db, "SELECT count(*) FROM request_details"), QString::number(requests + matched));
}

/// A client that measured TTFT alone (AIPerf without its chunks' times) and a server record with TPOT,
/// TTLT and token times: each metric comes from the side that measured it, and says its clock. The joined
/// request had the client's TTFT and nothing else.
void TestRequestJoin::tokenMetricsFromBothSides_data()
{
    QTest::addColumn<QByteArray>("client");
    QTest::addColumn<QString>("joined"); ///< ttft|tpot|ttlt|token scope|flags|token times of the joined request
    QTest::addColumn<QString>("scopes"); ///< the report's scope of TTFT, TPOT, TTLT and ITL

    const auto aiperf = [](const char *metrics) {
        return QByteArray(
                   R"({"metadata":{"x_request_id":"r1","timestamp_ns":1000,"credit_phase":"profiling"},"metrics":{)")
            + metrics
            + R"(},"error":null})"
              "\n";
    };
    // Flags: 2 the client's durations form, 8 joined, 64 TPOT and 128 TTLT the server's, 256 its token times.
    // AIPerf's chunks give the client a TTLT (TTFT + the chunks) but no TPOT without the output length.
    QTest::newRow("client TTFT only") << aiperf(
        R"("ttft":{"value":7000,"unit":"ns"},"request_latency":{"value":100000,"unit":"ns"})")
                                      << "7000|20000|85000|1|458|1"
                                      << "client|server|server|server";
    QTest::newRow("client TTFT and its chunks")
        << aiperf(R"("ttft":{"value":7000,"unit":"ns"},"request_latency":{"value":100000,"unit":"ns"},)"
                  R"("inter_chunk_latency":{"value":[30000,30000],"unit":"ns"})")
        << "7000|20000|67000|1|74|1"
        << "client|server|client|client";
    QTest::newRow("client without token metrics")
        << aiperf(R"("request_latency":{"value":100000,"unit":"ns"})") << "5000|20000|85000|2|10|1"
        << "server|server|server|server";
}

void TestRequestJoin::tokenMetricsFromBothSides()
{
    QFETCH(QByteArray, client);
    QFETCH(QString, joined);
    QFETCH(QString, scopes);
    // serverLine()'s stamps: first token 5 us after receive, last 85 us; five tokens 20 us apart.
    QByteArray server = serverLine("r1", 5000);
    server.insert(server.lastIndexOf('}'), ",\"token_times_ns\":[10000,30000,50000,70000,90000]");
    Investigation investigation;
    QVERIFY(investigation.import({ client, server }));
    QCOMPARE(summaryText(lx::readJoinSummary(*investigation.store)), QStringLiteral("1|0|0|0"));
    QCOMPARE(dump(investigation.store->db(),
                  "SELECT ttft_ns, tpot_ns, ttlt_ns, token_scope, flags,"
                  " (SELECT count(*) FROM token_times t WHERE t.request_id = r.id) FROM requests r"),
             joined);
    const lx::Report report = lx::analyze(*investigation.store, {});
    QCOMPARE(QString::fromStdString(report.ttft.scope + '|' + report.tpot.scope + '|' + report.ttlt.scope + '|'
                                    + report.itl.scope),
             scopes);
}

void TestRequestJoin::unmatchedListed()
{
    Investigation investigation;
    QVERIFY(investigation.import({clientLine("r1", 1000, 101000) + clientLine("r2", 1000, 101000),
                                  serverLine("r1", 5000) + serverLine("s9", 9000)}));
    const std::vector<lx::UnmatchedRecord> list = lx::listUnmatched(*investigation.store);
    QCOMPARE(list.size(), std::size_t(2));
    QCOMPARE(list[0].side, lx::JoinSide::Client);
    QCOMPARE(list[0].sourceId, std::string("r2"));
    QCOMPARE(list[0].sourceLine, qint64(2));
    QCOMPARE(list[0].sourcePath, investigation.files[0].path);
    QVERIFY(!list[0].ambiguous);
    QCOMPARE(list[1].side, lx::JoinSide::Server);
    QCOMPARE(list[1].sourceId, std::string("s9"));
    QCOMPARE(list[1].sourcePath, investigation.files[1].path);
    QCOMPARE(QString::fromStdString(lx::unmatchedReason(list[1])),
             QStringLiteral("no client record has its request id or trace id"));
    // Pages across the sides: the first, the second, past the end.
    QCOMPARE(lx::listUnmatched(*investigation.store, 1, 0).size(), std::size_t(1));
    QCOMPARE(lx::listUnmatched(*investigation.store, 1, 0).at(0).sourceId, std::string("r2"));
    QCOMPARE(lx::listUnmatched(*investigation.store, 1, 1).at(0).sourceId, std::string("s9"));
    QCOMPARE(lx::listUnmatched(*investigation.store, 5, 2).size(), std::size_t(0));
    QCOMPARE(dump(investigation.store->db(), "SELECT side, reason, source_id FROM join_unmatched_readable ORDER BY side"),
             QStringLiteral("client|no record on the other side|r2\nserver|no record on the other side|s9"));
}

/// A server dump opened after the benchmark joins with it; a lone side has nothing unmatched; records that
/// come after a join are unmatched until their other side comes.
void TestRequestJoin::laterImportJoins()
{
    Investigation investigation;
    QVERIFY(investigation.import({clientLine("r1", 1000, 101000) + clientLine("r2", 1000, 101000)}));
    QVERIFY(!lx::readJoinSummary(*investigation.store).active);
    QVERIFY(investigation.import({serverLine("r1", 5000)}));
    QCOMPARE(summaryText(lx::readJoinSummary(*investigation.store)), QStringLiteral("1|1|0|0"));
    QVERIFY(investigation.import({serverLine("r2", 5000) + serverLine("r3", 5000)}));
    QCOMPARE(summaryText(lx::readJoinSummary(*investigation.store)), QStringLiteral("2|0|1|0"));
    QCOMPARE(dump(investigation.store->db(), "SELECT network_ns FROM requests WHERE flags & 8"), QStringLiteral("10000\n10000"));
    // Each import went on past the ids of the rows the joins deleted (the writer leaves to SQLite only the
    // ids it would choose itself): every request has its own details.
    QCOMPARE(dump(investigation.store->db(), "SELECT r.id, d.source_id FROM requests r JOIN request_details d ON d.request_id = r.id"
                                             " ORDER BY r.id"),
             QStringLiteral("1|r1\n2|r2\n5|r3"));
    // A second join changes nothing.
    lx::JoinSummary again;
    std::string why;
    QVERIFY2(lx::joinClientServer(*investigation.store, &again, &why), why.c_str());
    QCOMPARE(summaryText(again), QStringLiteral("2|0|1|0"));
}

/// A call cancelled in its last file leaves the files before it unjoined; the next import joins them, even
/// one that brings no record the join may take (an import into an empty store of such records skips it).
void TestRequestJoin::unjoinedStoreJoinsAtTheNextImport()
{
    QTemporaryDir dir;
    const std::vector<std::string> first = {
        lxtest::writeFile(dir, QStringLiteral("c.jsonl"), clientLine("r1", 1000, 101000)),
        lxtest::writeFile(dir, QStringLiteral("s.jsonl"), serverLine("r1", 5000)),
        lxtest::writeFile(dir, QStringLiteral("big.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 3000))};
    std::string why;
    const auto store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    lx::ImportOptions cancelLate;
    cancelLate.batchSize = 100;
    cancelLate.progress = [](const lx::ImportProgress &p) { return !(p.file == 2 && p.records > 500); };
    const std::vector<lx::FileImport> cancelled = lx::importFiles(*store, first, cancelLate);
    QCOMPARE(cancelled.back().outcome, lx::FileImport::Outcome::Cancelled);
    QVERIFY(!lx::readJoinSummary(*store).active);
    // Records of both clocks (neither side of a join) alone.
    const std::string neither = lxtest::writeFile(dir, QStringLiteral("n.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 50));
    QVERIFY(!lx::importFiles(*store, {neither}).front().joinCandidates);
    QCOMPARE(summaryText(lx::readJoinSummary(*store)), QStringLiteral("1|0|0|0"));
}

/// Stores of each side, merged as `report a.lxdb b.lxdb` merges them, join; the joins of a merged store
/// keep their server records' identity.
void TestRequestJoin::mergedStoresJoin()
{
    Investigation clients, servers;
    QVERIFY(clients.import({clientLine("r1", 1000, 101000)}));
    QVERIFY(servers.import({serverLine("r1", 5000)}));
    std::string why;
    auto merged = lx::Store::openTemporary(&why);
    QVERIFY2(merged, why.c_str());
    QVERIFY2(lx::mergeStore(*merged, clients.store->fileName(), &why), why.c_str());
    QVERIFY(!lx::readJoinSummary(*merged).active);
    QVERIFY2(lx::mergeStore(*merged, servers.store->fileName(), &why), why.c_str());
    QCOMPARE(summaryText(lx::readJoinSummary(*merged)), QStringLiteral("1|0|0|0"));
    QCOMPARE(dump(merged->db(), kJoinedSql), QStringLiteral("r1|10000|100000|1|8|4|5000|2|1|r1"));
    // Merging the joined store again: its join comes along, with the server's run renumbered.
    auto twice = lx::Store::openTemporary(&why);
    QVERIFY2(lx::mergeStore(*twice, merged->fileName(), &why), why.c_str());
    QCOMPARE(summaryText(lx::readJoinSummary(*twice)), QStringLiteral("1|0|0|0"));
    QCOMPARE(dump(twice->db(), "SELECT i.path = (SELECT path FROM import_runs WHERE id = 2) FROM request_joins j"
                               " JOIN import_runs i ON i.id = j.server_run_id"),
             QStringLiteral("1"));
}

/// The report counts the join and the skewed joined requests, and leaves a skewed network out.
void TestRequestJoin::reportShowsJoin()
{
    Investigation investigation;
    QVERIFY(investigation.import({clientLine("r1", 1000, 81000) + clientLine("r2", 1000, 101000) + clientLine("r3", 1, 2),
                                  serverLine("r1", 5000) + serverLine("r2", 5000) + serverLine("r4", 5000)}));
    const lx::Report report = lx::analyze(*investigation.store);
    QCOMPARE(summaryText(report.join), QStringLiteral("2|1|1|0"));
    QCOMPARE(report.total, qint64(4));
    QCOMPARE(report.clockSkew, qint64(1));
    QCOMPARE(report.segments[0].stat.count, std::size_t(1));
    QCOMPARE(report.segments[0].excluded, qint64(1));
    QCOMPARE(report.unmatchedSample.size(), std::size_t(2));
    QCOMPARE(report.unmatchedSample[0].sourceId, std::string("r3"));
}

void TestRequestJoin::joinKeyOfVllmIds_data()
{
    QTest::addColumn<QByteArray>("serverId");
    QTest::addColumn<QString>("clientId");
    QTest::addColumn<int>("matchedBy"); ///< 0: no match
    QTest::newRow("chat") << QByteArray("chatcmpl-abc") << "abc" << 2;
    QTest::newRow("completion") << QByteArray("cmpl-abc") << "abc" << 2;
    QTest::newRow("completion prompt index") << QByteArray("cmpl-abc-12") << "abc" << 2;
    QTest::newRow("chat keeps its dashes") << QByteArray("chatcmpl-abc-12") << "abc" << 0;
    QTest::newRow("other prefix") << QByteArray("req-abc") << "abc" << 0;
    QTest::newRow("prefix alone") << QByteArray("cmpl-") << "" << 0;
    QTest::newRow("index without id") << QByteArray("cmpl--3") << "" << 0;
    QTest::newRow("exact") << QByteArray("cmpl-abc-12") << "cmpl-abc-12" << 1;
}

void TestRequestJoin::joinKeyOfVllmIds()
{
    QFETCH(QByteArray, serverId);
    QFETCH(QString, clientId);
    QFETCH(int, matchedBy);
    Investigation investigation;
    const QByteArray client = clientId.isEmpty() ? clientLine("x", 1000, 101000) : clientLine(clientId.toUtf8().constData(), 1000, 101000);
    QVERIFY(investigation.import({client, serverLine(serverId.constData(), 5000)}));
    QCOMPARE(dump(investigation.store->db(), "SELECT coalesce(max(matched_by), 0) FROM request_joins").toInt(), matchedBy);
}

void TestRequestJoin::cliReport_data()
{
    QTest::addColumn<QStringList>("forms");  ///< generated files, in the order given to `report`
    QTest::addColumn<QString>("join");       ///< the JSON member, compact
    QTest::addColumn<int>("unmatchedSample");
    QTest::newRow("client and server") << QStringList{QStringLiteral("client"), QStringLiteral("otlp")}
                                       << R"({"ambiguous":0,"client_only":0,"matched":40,"server_only":0})" << 0;
    QTest::newRow("server first") << QStringList{QStringLiteral("otlp"), QStringLiteral("client")}
                                  << R"({"ambiguous":0,"client_only":0,"matched":40,"server_only":0})" << 0;
    QTest::newRow("client alone") << QStringList{QStringLiteral("client")} << "null" << 0;
    // The same client file twice: every key is shared, nothing is joined, the sample names ten records.
    QTest::newRow("client twice") << QStringList{QStringLiteral("client"), QStringLiteral("client"), QStringLiteral("otlp")}
                                  << R"({"ambiguous":120,"client_only":0,"matched":0,"server_only":0})" << 10;
}

/// `latency-explorer-cli report --json` of generated client and server files of the same requests.
void TestRequestJoin::cliReport()
{
    QFETCH(QStringList, forms);
    QFETCH(QString, join);
    QFETCH(int, unmatchedSample);
    QTemporaryDir dir;
    QStringList args{QStringLiteral("report"), QStringLiteral("--json")};
    for (int i = 0; i < forms.size(); ++i) {
        const QString path = dir.filePath(QStringLiteral("%1-%2").arg(i).arg(forms[i]));
        QProcess generate;
        generate.start(QString::fromUtf8(LX_CLI_PATH), {QStringLiteral("generate"), QStringLiteral("--requests"),
                                                          QStringLiteral("40"), QStringLiteral("--form"), forms[i],
                                                          QStringLiteral("-o"), path});
        QVERIFY(generate.waitForFinished(120000));
        QCOMPARE(generate.exitCode(), 0);
        args << path;
    }
    QProcess report;
    report.start(QString::fromUtf8(LX_CLI_PATH), args);
    QVERIFY(report.waitForFinished(120000));
    QCOMPARE(report.exitCode(), 0);
    const QJsonObject json = QJsonDocument::fromJson(report.readAllStandardOutput()).object();
    QVERIFY(json.contains(QStringLiteral("join")));
    const QJsonValue member = json.value(QStringLiteral("join"));
    QCOMPARE(member.isNull() ? QStringLiteral("null")
                             : QString::fromUtf8(QJsonDocument(member.toObject()).toJson(QJsonDocument::Compact)),
             join);
    QCOMPARE(json.value(QStringLiteral("unmatched_sample")).toArray().size(), unmatchedSample);
    QCOMPARE(json.value(QStringLiteral("relative_time")).toInt(-1), 0);
}

void TestRequestJoin::detailsOfJoinCandidatesOnly_data()
{
    QTest::addColumn<QStringList>("files"); ///< forms of the generated files, in import order
    QTest::addColumn<bool>("noDetails");    ///< no record of these files can be joined: no details row at all
    QTest::newRow("timestamps") << QStringList{QStringLiteral("timestamps")} << true;
    QTest::newRow("durations") << QStringList{QStringLiteral("durations")} << true;
    QTest::newRow("client alone") << QStringList{QStringLiteral("client")} << false;
    QTest::newRow("client and server") << QStringList{QStringLiteral("client"), QStringLiteral("otlp")} << false;
    QTest::newRow("client twice and server")
        << QStringList{QStringLiteral("client"), QStringLiteral("client"), QStringLiteral("otlp")} << false;
    QTest::newRow("timestamps beside client and server")
        << QStringList{QStringLiteral("timestamps"), QStringLiteral("client"), QStringLiteral("otlp")} << false;
}

/// A report's throw-away store writes request_details only for the records a join may take
/// (DetailRows::JoinCandidates): the join, its unmatched list and the report must be those of a store with
/// every details row, and the details kept must be exactly those of the records the join's SQL calls a side.
void TestRequestJoin::detailsOfJoinCandidatesOnly()
{
    QFETCH(QStringList, files);
    QFETCH(bool, noDetails);
    lx::sim::SimConfig config;
    config.requests = 300;
    config.seed = 11;
    config.tokenTimesEvery = 3;
    config.skewRate = 0.02;
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (const QString &form : files) {
        std::string text;
        lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) {
            // Every 9th client record and every 13th server record left out: some of each side stay unmatched.
            if (form == QLatin1String("client") && r.index % 9 != 4)
                lx::sim::appendClientLine(text, r);
            else if (form == QLatin1String("otlp") && r.index % 13 != 6)
                lx::sim::appendOtlpLine(text, r);
            else if (form == QLatin1String("timestamps"))
                lx::sim::appendTimestampsLine(text, r);
            else if (form == QLatin1String("durations"))
                lx::sim::appendDurationsLine(text, r);
        });
        paths.push_back(lxtest::writeFile(dir, QStringLiteral("%1-%2").arg(paths.size()).arg(form), QByteArray::fromStdString(text)));
    }
    const auto importWith = [&](lx::DetailRows details) -> std::unique_ptr<lx::Store> {
        std::string why;
        std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
        lx::ImportOptions options;
        options.detailRows = details;
        for (const lx::FileImport &f : lx::importFiles(*store, paths, options)) {
            if (f.outcome != lx::FileImport::Outcome::Complete || f.rejected > 0) {
                qWarning("%s", lxtest::describe(f).constData());
                return nullptr;
            }
        }
        return store;
    };
    const std::unique_ptr<lx::Store> all = importWith(lx::DetailRows::All);
    const std::unique_ptr<lx::Store> some = importWith(lx::DetailRows::JoinCandidates);
    QVERIFY(all && some);
    const auto unmatched = [](const lx::Store &store) {
        QStringList list;
        for (const lx::UnmatchedRecord &u : lx::listUnmatched(store))
            list << QStringLiteral("%1 %2 %3 %4").arg(u.requestId).arg(int(u.side)).arg(u.ambiguous).arg(QString::fromStdString(u.sourceId));
        return list;
    };
    QCOMPARE(summaryText(lx::readJoinSummary(*some)), summaryText(lx::readJoinSummary(*all)));
    QCOMPARE(unmatched(*some), unmatched(*all));
    QCOMPARE(dump(some->db(), kJoinedSql), dump(all->db(), kJoinedSql));
    QCOMPARE(lx::reportToJson(lx::analyze(*some)), lx::reportToJson(lx::analyze(*all)));

    // The details kept: those of the records on a side of the join, nothing else. With both sides present,
    // the join's own lists say which (the joined rows, their server records and the unmatched ones); with
    // one side only no join ran, and the sides are counted by their definition in docs/JOIN.md.
    const QString kept = dump(some->db(), "SELECT count(*) FROM request_details");
    const QString sides = lx::readJoinSummary(*all).active
                              ? dump(all->db(), "SELECT (SELECT count(*) FROM request_joins) * 2 + (SELECT count(*) FROM join_unmatched)")
                              : dump(all->db(), "SELECT count(*) FROM requests WHERE e2e_scope IN (2, 3) OR ((e2e_scope = 1 OR token_scope = 1)"
                                                " AND network_ns IS NULL AND preprocess_ns IS NULL AND queue_ns IS NULL"
                                                " AND prefill_ns IS NULL AND postprocess_ns IS NULL)");
    QCOMPARE(kept, sides);
    QCOMPARE(kept == QLatin1String("0"), noDetails);
    QVERIFY(dump(all->db(), "SELECT count(*) FROM request_details").toLongLong() > kept.toLongLong() || !noDetails);
}

QTEST_GUILESS_MAIN(TestRequestJoin)
#include "tst_request_join.moc"
