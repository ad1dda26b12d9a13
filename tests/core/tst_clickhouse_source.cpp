// SPDX-License-Identifier: GPL-3.0-or-later
// Pulls from a ClickHouse trace store (core/source, docs/CLICKHOUSE.md) against a real ClickHouse engine:
// chdb (ClickHouse run in-process) behind a loopback HTTP stand-in, tests/clickhouse/shim.mjs. The table is
// the Collector exporter's own `otel_traces` DDL; its rows are OTLP files converted as the exporter writes
// them (tests/clickhouse/otlp_to_rows.mjs). A pull must give the report of importing the same file, and
// the failures (wrong password, unknown table, an exception mid-body, connection refused, a timeout, a
// cancel) must be said and leave nothing in the store. Skips, saying why, without node or chdb.

#include "clickhouse_engine.h"
#include "source/clickhouse_client.h"
#include "source/clickhouse_pull.h"
#include "store/import_runs.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using lx::source::ClickHouseEndpoint;
using lx::source::ClickHouseQuery;
using lx::source::ClickHouseResult;

constexpr const char *kPassword = lxtest::kEnginePassword;

class TestClickHouseSource : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void streamsCompressedAndPlainAlike();
    void pullEqualsFileImport_data();
    void pullEqualsFileImport();
    void cliPullPrintsTheSummary();
    void failures_data();
    void failures();
    void cancelledPullKeepsNothing();

private:
    ClickHouseEndpoint endpoint(const QString &table = u"otel_traces"_qs) const { return m_engine.endpoint(table); }
    lx::source::ClickHouseRequestOptions withPassword() const { return m_engine.withPassword(); }
    bool load(const QString &table, const QStringList &files) { return m_engine.load(table, files); }
    QJsonObject reportOf(const QString &input);

    lxtest::ClickHouseEngine m_engine;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_generated; ///< an OTLP file of the simulated server (generate --form otlp)
};

void TestClickHouseSource::initTestCase()
{
    bool skip = false;
    const QString why = m_engine.start(skip);
    if (skip)
        QSKIP(qPrintable(why)); // QSKIP here skips the whole suite, with the reason
    QVERIFY2(why.isEmpty(), qPrintable(why));
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    // A larger trace than the golden one: the simulated server's spans, many blocks of rows and many traces.
    m_generated = m_dir->filePath(u"generated.otlp.jsonl"_qs);
    const lxtest::CliRun generate = lxtest::runCli(QStringLiteral(LX_CLI_PATH), {u"generate"_qs, u"--form"_qs, u"otlp"_qs,
                                                                                  u"--requests"_qs, u"3000"_qs, u"-o"_qs, m_generated});
    QVERIFY2(generate.exitCode == 0, generate.err.constData());
}

QJsonObject TestClickHouseSource::reportOf(const QString &input)
{
    const lxtest::CliRun run = lxtest::runCli(QStringLiteral(LX_CLI_PATH), {u"report"_qs, u"--json"_qs, input});
    if (run.exitCode != 0)
        qWarning("report %s: %s", qPrintable(input), run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

void TestClickHouseSource::streamsCompressedAndPlainAlike()
{
    ClickHouseQuery query;
    query.sql = "SELECT number, toString(number * 7919) AS name FROM numbers({n:UInt64})";
    query.params = {{"n", "100000"}};
    std::vector<ClickHouseResult> results;
    std::vector<std::string> firstRows, lastRows;
    for (bool compress : {true, false}) {
        lx::source::ClickHouseRequestOptions options = withPassword();
        options.compress = compress;
        std::string first, last;
        lx::source::ClickHouseProgress progress;
        const ClickHouseResult result = lx::source::runClickHouseQuery(
            endpoint(), query,
            [&](std::string_view row) {
                if (first.empty())
                    first = row;
                last = row;
                return true;
            },
            options, [&](const lx::source::ClickHouseProgress &p, std::uint64_t) {
                progress = p;
                return true;
            });
        QVERIFY2(result.ok(), result.message.c_str());
        QCOMPARE(result.rows, 100000u);
        QVERIFY2(progress.readRows > 0, "the X-ClickHouse-Progress header reached the callback");
        results.push_back(result);
        firstRows.push_back(first);
        lastRows.push_back(last);
    }
    QCOMPARE(QString::fromStdString(firstRows[0]), u"{\"number\":0,\"name\":\"0\"}"_qs);
    QCOMPARE(firstRows[0], firstRows[1]);
    QCOMPARE(QString::fromStdString(lastRows[0]), u"{\"number\":99999,\"name\":\"791892081\"}"_qs);
    QCOMPARE(lastRows[0], lastRows[1]);
    // The compressed body came over the wire as zstd: far fewer bytes than the plain one.
    QVERIFY2(results[0].bodyBytes * 3 < results[1].bodyBytes,
             qPrintable(u"compressed %1 bytes, plain %2"_qs.arg(results[0].bodyBytes).arg(results[1].bodyBytes)));
}

void TestClickHouseSource::pullEqualsFileImport_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QStringList>("services");
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<int>("requests");

    QTest::newRow("golden vLLM spans") << QStringList{QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")}
                                       << QStringList{u"vllm"_qs} << u"auto"_qs << 16;
    QTest::newRow("golden vLLM spans, vllm preset") << QStringList{QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")}
                                                    << QStringList{u"vllm"_qs} << u"vllm"_qs << 16;
    QTest::newRow("generated 3000 requests") << QStringList{m_generated} << QStringList{} << u"auto"_qs << 3000;
    const QString realdata = QStringLiteral(LX_REALDATA_DIR "/otlp2parquet");
    if (QFileInfo::exists(realdata + u"/traces.jsonl"_qs)) {
        QTest::newRow("realdata otlp2parquet traces.jsonl") << QStringList{realdata + u"/traces.jsonl"_qs}
                                                            << QStringList{} << u"auto"_qs << 19;
        QTest::newRow("realdata otlp2parquet trace.json") << QStringList{realdata + u"/trace.json"_qs}
                                                          << QStringList{} << u"auto"_qs << 1;
    }
}

void TestClickHouseSource::pullEqualsFileImport()
{
    QFETCH(QStringList, files);
    QFETCH(QStringList, services);
    QFETCH(QString, mapping);
    QFETCH(int, requests);
    if (!QFileInfo::exists(QStringLiteral(LX_REALDATA_DIR)) && QString::fromLatin1(QTest::currentDataTag()).startsWith(u"realdata"_qs))
        QSKIP("../shared/realdata is absent");
    const QString table = u"t_"_qs + QString::fromLatin1(QTest::currentDataTag()).replace(QRegularExpression(u"[^a-z0-9]"_qs), u"_"_qs);
    QVERIFY(load(table, files));
    // Which services are there: the window pulls them all when the row names none.
    std::vector<std::string> serviceList;
    if (services.isEmpty())
        serviceList = m_engine.services(table);
    for (const QString &service : services)
        serviceList.push_back(service.toStdString());

    QTemporaryDir dir;
    const QString pulled = dir.filePath(u"pulled.lxdb"_qs);
    std::string error;
    {
        std::unique_ptr<lx::Store> store = lx::Store::open(pulled.toStdString(), &error);
        QVERIFY2(store, error.c_str());
        lx::source::SpanWindow window;
        window.services = serviceList;
        window.fromNs = 0;
        window.toNs = std::numeric_limits<std::int64_t>::max();
        lx::source::PullOptions options;
        options.spanMapping = mapping.toStdString();
        options.request = withPassword();
        std::uint64_t lastRows = 0;
        options.progress = [&](const lx::source::PullProgress &progress) {
            lastRows = progress.rowsReceived;
            return true;
        };
        const lx::FileImport pull = lx::source::pullSpans(*store, endpoint(table), window, options);
        QVERIFY2(pull.outcome == lx::FileImport::Outcome::Complete, lxtest::describe(pull).constData());
        QCOMPARE(pull.accepted, requests);
        QCOMPARE(QString::fromStdString(pull.format), u"clickhouse-otel_traces"_qs);
        QVERIFY2(QString::fromStdString(pull.path).startsWith(u"clickhouse://127.0.0.1:%1/otel?table=%2&user=default services="_qs.arg(m_engine.port()).arg(table)),
                 pull.path.c_str());
        QVERIFY(!QString::fromStdString(pull.path).contains(QString::fromLatin1(kPassword)));
        const std::vector<lx::ImportRun> runs = lx::listImportRuns(*store);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs.front().path, pull.path);
        QCOMPARE(QString::fromStdString(runs.front().outcome), u"complete"_qs);
    }
    QJsonObject fromPull = reportOf(pulled);
    QJsonObject fromFile;
    if (files.size() == 1) {
        fromFile = reportOf(files.front());
    }
    QVERIFY(!fromPull.isEmpty());
    QVERIFY(!fromFile.isEmpty());
    // The figures, not the inputs: the inputs name a file on one side and the pull on the other.
    const QJsonArray pullInputs = fromPull.take(u"inputs"_qs).toArray();
    const QJsonArray fileInputs = fromFile.take(u"inputs"_qs).toArray();
    QCOMPARE(pullInputs.size(), 1);
    QCOMPARE(pullInputs[0].toObject()[u"accepted"_qs], fileInputs[0].toObject()[u"accepted"_qs]);
    QCOMPARE(pullInputs[0].toObject()[u"rejected"_qs], fileInputs[0].toObject()[u"rejected"_qs]);
    if (fromPull != fromFile) {
        qWarning("pulled: %s", QJsonDocument(fromPull).toJson(QJsonDocument::Compact).constData());
        qWarning("file:   %s", QJsonDocument(fromFile).toJson(QJsonDocument::Compact).constData());
    }
    QCOMPARE(fromPull, fromFile);
}

void TestClickHouseSource::cliPullPrintsTheSummary()
{
    QVERIFY(load(u"cli"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")}));
    QTemporaryDir dir;
    const QString db = dir.filePath(u"cli.lxdb"_qs);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"LX_CLICKHOUSE_PASSWORD"_qs, QString::fromLatin1(kPassword));
    const QString url = u"clickhouse://127.0.0.1:%1/otel?table=cli"_qs.arg(m_engine.port());
    const lxtest::CliRun run = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                              {u"import"_qs, u"--db"_qs, db, u"--from"_qs, url, u"--service"_qs, u"vllm"_qs,
                                               u"--time-range"_qs, u"2025-01-01T00:00:00Z..2025-01-02T00:00:00Z"_qs},
                                              environment);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.out.contains("clickhouse://127.0.0.1:") && run.out.contains("16 accepted"), run.out.constData());
    QVERIFY(!run.out.contains(kPassword) && !run.err.contains(kPassword));

    // The same pull without the password: ClickHouse's refusal, exit 2, nothing kept.
    environment.remove(u"LX_CLICKHOUSE_PASSWORD"_qs);
    const lxtest::CliRun refused = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                                  {u"import"_qs, u"--db"_qs, dir.filePath(u"refused.lxdb"_qs), u"--from"_qs, url,
                                                   u"--service"_qs, u"vllm"_qs, u"--time-range"_qs, u"0..9000000000000000000"_qs},
                                                  environment);
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("Authentication failed"), refused.err.constData());

    // A time range is required, and a password in the URL is refused before anything is sent.
    const lxtest::CliRun noRange = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                                  {u"import"_qs, u"--db"_qs, db, u"--from"_qs, url, u"--service"_qs, u"vllm"_qs});
    QCOMPARE(noRange.exitCode, 1);
    QVERIFY2(noRange.err.contains("--time-range A..B"), noRange.err.constData());
    const lxtest::CliRun inUrl = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                                {u"import"_qs, u"--db"_qs, db, u"--from"_qs, u"clickhouse://u:pw@127.0.0.1/otel"_qs,
                                                 u"--service"_qs, u"vllm"_qs, u"--time-range"_qs, u"0..1"_qs});
    QCOMPARE(inUrl.exitCode, 1);
    QVERIFY2(inUrl.err.contains("LX_CLICKHOUSE_PASSWORD"), inUrl.err.constData());
}

void TestClickHouseSource::failures_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("code");

    QTest::newRow("wrong password") << u"password"_qs << int(ClickHouseResult::Outcome::ServerError)
                                    << u"answered HTTP 401: Code: 516. DB::Exception: default: Authentication failed"_qs << 516;
    QTest::newRow("unknown table") << u"table"_qs << int(ClickHouseResult::Outcome::ServerError) << u"(UNKNOWN_TABLE)"_qs << 60;
    QTest::newRow("exception mid-body") << u"midbody"_qs << int(ClickHouseResult::Outcome::ServerError)
                                        << u"failed after "_qs << 395;
    QTest::newRow("connection refused") << u"refused"_qs << int(ClickHouseResult::Outcome::ConnectionError) << u"cannot read from clickhouse://127.0.0.1:"_qs << 0;
    QTest::newRow("timeout") << u"timeout"_qs << int(ClickHouseResult::Outcome::Timeout) << u"timed out"_qs << 0;
    QTest::newRow("cancel while no byte comes") << u"cancel-waiting"_qs << int(ClickHouseResult::Outcome::Cancelled) << u"cancelled"_qs << 0;
    QTest::newRow("cancel") << u"cancel"_qs << int(ClickHouseResult::Outcome::Cancelled) << u"cancelled"_qs << 0;
}

void TestClickHouseSource::failures()
{
    QFETCH(QString, kind);
    QFETCH(int, outcome);
    QFETCH(QString, message);
    QFETCH(int, code);
    ClickHouseEndpoint target = endpoint();
    lx::source::ClickHouseRequestOptions options = withPassword();
    ClickHouseQuery query;
    query.sql = "SELECT number FROM numbers(10)";
    std::uint64_t rowsSeen = 0;
    lx::source::ClickHouseRowCallback onRow = [&](std::string_view) {
        ++rowsSeen;
        return true;
    };
    if (kind == u"password"_qs) {
        options.password = "wrong";
    } else if (kind == u"table"_qs) {
        query.sql = "SELECT * FROM {database:Identifier}.{table:Identifier}";
        query.params = {{"database", "otel"}, {"table", "no_such_table"}};
    } else if (kind == u"midbody"_qs) {
        // ClickHouse's own throwIf, after the first blocks went out: the status was 200 by then.
        query.sql = "SELECT number, throwIf(number = {at:UInt64}, 'the test''s exception') FROM numbers(100000) "
                    "SETTINGS max_block_size = 1000, max_threads = 1";
        query.params = {{"at", "90000"}};
    } else if (kind == u"refused"_qs) {
        // Port 1 (tcpmux) is a privileged port that no test machine serves: closed, so refused at once.
        std::string error;
        QVERIFY(lx::source::parseClickHouseUrl("clickhouse://127.0.0.1:1/otel", target, &error));
    } else if (kind == u"timeout"_qs) {
        query.sql = "SELECT sleep(3)";
        options.totalTimeoutMs = 300;
    } else if (kind == u"cancel-waiting"_qs) {
        // A slow query sends nothing for seconds: the poll between bytes must still be able to stop it.
        query.sql = "SELECT sleep(3)";
        int polls = 0;
        options.keepGoing = [polls](std::uint64_t) mutable { return ++polls < 3; };
    } else if (kind == u"cancel"_qs) {
        query.sql = "SELECT number FROM numbers(100000)";
        onRow = [&](std::string_view) { return ++rowsSeen < 10; };
    }
    const ClickHouseResult result = lx::source::runClickHouseQuery(target, query, onRow, options);
    QVERIFY2(int(result.outcome) == outcome,
             qPrintable(QString::fromLatin1(lx::source::outcomeName(result.outcome).data()) + u": "_qs + QString::fromStdString(result.message)));
    QVERIFY2(QString::fromStdString(result.message).contains(message), result.message.c_str());
    QCOMPARE(result.exceptionCode, code);
    QVERIFY(!QString::fromStdString(result.message).contains(QString::fromLatin1(kPassword)));
    if (kind == u"midbody"_qs) {
        QVERIFY2(result.rows > 0 && result.rows < 100000, "rows came before the exception, and no row after it");
        QVERIFY(QString::fromStdString(result.message).contains(u"the test's exception"_qs));
    }
    if (kind == u"cancel"_qs)
        QCOMPARE(rowsSeen, 10u);
}

void TestClickHouseSource::cancelledPullKeepsNothing()
{
    QVERIFY(load(u"cancel"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")}));
    QTemporaryDir dir;
    std::string error;
    std::unique_ptr<lx::Store> store = lx::Store::open(dir.filePath(u"cancel.lxdb"_qs).toStdString(), &error);
    QVERIFY2(store, error.c_str());
    lx::source::SpanWindow window;
    window.services = {"vllm"};
    window.fromNs = 0;
    window.toNs = std::numeric_limits<std::int64_t>::max();
    lx::source::PullOptions options;
    options.request = withPassword();
    // Stops after spans were handed to the import (some of them requests by then): none may stay.
    options.progress = [](const lx::source::PullProgress &progress) { return progress.rowsReceived < 12; };
    lx::FileImport pull = lx::source::pullSpans(*store, endpoint(u"cancel"_qs), window, options);
    QVERIFY2(pull.outcome == lx::FileImport::Outcome::Cancelled, lxtest::describe(pull).constData());
    QCOMPARE(lxtest::dump(store->db(), "SELECT count(*) FROM requests"), u"0"_qs);
    QCOMPARE(lxtest::dump(store->db(), "SELECT outcome FROM import_runs"), u"cancelled"_qs);

    // A pull of a table that does not exist: ClickHouse's error, kept in the run's row, and no request.
    lx::source::PullOptions plain;
    plain.request = withPassword();
    pull = lx::source::pullSpans(*store, endpoint(u"missing"_qs), window, plain);
    QVERIFY2(pull.outcome == lx::FileImport::Outcome::ReadError, lxtest::describe(pull).constData());
    QVERIFY2(QString::fromStdString(pull.message).contains(u"UNKNOWN_TABLE"_qs), pull.message.c_str());
    QCOMPARE(lxtest::dump(store->db(), "SELECT count(*) FROM requests"), u"0"_qs);
}

QTEST_GUILESS_MAIN(TestClickHouseSource)
#include "tst_clickhouse_source.moc"
