// SPDX-License-Identifier: GPL-3.0-or-later
// What a trace store holds, asked before a pull (core/source/clickhouse_catalog.h), against a real
// ClickHouse engine (tests/clickhouse/clickhouse_shim.h). The spans are written by this suite: three services,
// traces of one or two services, at known times; the services and counts of a window are worked out here
// from the spans written and must be what ClickHouse answers. The failures (wrong password, refused
// connection, an unknown database or table, a table that is not the exporter's, a cancel) must be said as such.
// Skips, saying why, without node or chdb.

#include "clickhouse_shim.h"
#include "source/clickhouse_catalog.h"
#include "test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using lx::source::SpanWindow;

namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kStart = 1'735'732'800 * kSecond; // 2025-01-01T12:00:00Z

struct TestSpan {
    int trace = 0;
    int id = 0;
    int parent = 0; ///< 0: a root
    QString service;
    std::int64_t startNs = 0;
};

/// Sixty traces ten seconds apart: a gateway's request with the LLM server's span below it (5 ms later),
/// the LLM server alone, or an embedder alone, in turn.
const QString kOddService = QStringLiteral("odd\\tname\twith tab\\");

std::vector<TestSpan> testSpans()
{
    std::vector<TestSpan> spans;
    int id = 0;
    for (int trace = 1; trace <= 60; ++trace) {
        const std::int64_t start = kStart + (trace - 1) * 10 * kSecond;
        switch (trace % 3) {
        case 0:
            spans.push_back({trace, ++id, 0, QStringLiteral("gateway"), start});
            spans.push_back({trace, ++id, id - 1, QStringLiteral("vllm"), start + 5'000'000});
            break;
        case 1:
            spans.push_back({trace, ++id, 0, QStringLiteral("vllm"), start});
            break;
        default:
            spans.push_back({trace, ++id, 0, QStringLiteral("embedder"), start});
        }
    }
    // A name with what ClickHouse's escaped parameter form reads as escapes: sent as it is, it would match
    // nothing ("\t" a tab) or fail to parse (the trailing backslash).
    spans.push_back({61, ++id, 0, kOddService, kStart + 50 * kSecond});
    return spans;
}

QByteArray otlpLine(const TestSpan &span)
{
    QJsonObject object{{QStringLiteral("traceId"), QStringLiteral("%1").arg(span.trace, 32, 16, QLatin1Char('0'))},
                       {QStringLiteral("spanId"), QStringLiteral("%1").arg(span.id, 16, 16, QLatin1Char('0'))},
                       {QStringLiteral("name"), QStringLiteral("request")},
                       {QStringLiteral("kind"), 2},
                       {QStringLiteral("startTimeUnixNano"), QString::number(span.startNs)},
                       {QStringLiteral("endTimeUnixNano"), QString::number(span.startNs + kSecond)}};
    if (span.parent)
        object.insert(QStringLiteral("parentSpanId"), QStringLiteral("%1").arg(span.parent, 16, 16, QLatin1Char('0')));
    const QJsonObject service{{QStringLiteral("key"), QStringLiteral("service.name")},
                              {QStringLiteral("value"), QJsonObject{{QStringLiteral("stringValue"), span.service}}}};
    const QJsonObject resourceSpans{
        {QStringLiteral("resource"), QJsonObject{{QStringLiteral("attributes"), QJsonArray{service}}}},
        {QStringLiteral("scopeSpans"), QJsonArray{QJsonObject{{QStringLiteral("spans"), QJsonArray{object}}}}}};
    return QJsonDocument(QJsonObject{{QStringLiteral("resourceSpans"), QJsonArray{resourceSpans}}}).toJson(QJsonDocument::Compact) + '\n';
}

bool starts(const TestSpan &span, const SpanWindow &window)
{
    return span.startNs >= window.fromNs && span.startNs < window.toNs;
}

/// The spans of each service starting in the window.
std::map<std::string, std::uint64_t> expectedServices(const std::vector<TestSpan> &spans, const SpanWindow &window)
{
    std::map<std::string, std::uint64_t> counts;
    for (const TestSpan &span : spans) {
        if (starts(span, window))
            ++counts[span.service.toStdString()];
    }
    return counts;
}

/// The spans a pull reads: every span of the traces with a span of the window's services starting in it.
std::pair<std::uint64_t, std::uint64_t> expectedPull(const std::vector<TestSpan> &spans, const SpanWindow &window)
{
    std::set<int> traces;
    for (const TestSpan &span : spans) {
        const bool chosen = window.services.empty()
            || std::find(window.services.begin(), window.services.end(), span.service.toStdString()) != window.services.end();
        if (chosen && starts(span, window))
            traces.insert(span.trace);
    }
    std::uint64_t count = 0;
    for (const TestSpan &span : spans)
        count += traces.count(span.trace);
    return {count, traces.size()};
}

SpanWindow window(std::int64_t fromSeconds, std::int64_t toSeconds, std::vector<std::string> services = {})
{
    return SpanWindow{std::move(services), kStart + fromSeconds * kSecond, kStart + toSeconds * kSecond};
}

} // namespace

Q_DECLARE_METATYPE(SpanWindow)

class TestClickHouseCatalog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void connectionSaysTheVersion();
    void servicesOfAWindow_data();
    void servicesOfAWindow();
    void spansAPullReads_data();
    void spansAPullReads();
    void failures_data();
    void failures();
    void cancelIsSaid();

private:
    lxtest::ClickHouseShim m_shim;
    std::vector<TestSpan> m_spans = testSpans();
};

void TestClickHouseCatalog::initTestCase()
{
    if (const QString why = lxtest::ClickHouseShim::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QString error;
    QVERIFY2(m_shim.start(&error), qPrintable(error));
    QTemporaryDir dir;
    QByteArray lines;
    for (const TestSpan &span : m_spans)
        lines += otlpLine(span);
    const QString file = dir.filePath(QStringLiteral("spans.otlp.jsonl"));
    QVERIFY(lxtest::writeFile(file, lines));
    QVERIFY(m_shim.load(QStringLiteral("otel_traces"), {file}));
    // Not the exporter's table: the connection check must say so.
    QVERIFY(m_shim.exec("CREATE TABLE otel.other (x UInt8) ENGINE = Memory"));
}

void TestClickHouseCatalog::connectionSaysTheVersion()
{
    const lx::source::ConnectionCheck check = lx::source::checkConnection(m_shim.endpoint(), m_shim.withPassword());
    QVERIFY2(check.ok(), check.error.c_str());
    // chdb@3.4.0 runs ClickHouse 26.7: a version of dotted numbers.
    QVERIFY2(QString::fromStdString(check.serverVersion).contains(QRegularExpression(QStringLiteral("^\\d+\\.\\d+"))),
             check.serverVersion.c_str());
}

void TestClickHouseCatalog::servicesOfAWindow_data()
{
    QTest::addColumn<SpanWindow>("window");
    QTest::newRow("every span") << window(0, 600);
    QTest::newRow("a middle window, bounds on span starts") << window(100, 300);
    QTest::newRow("ends between a gateway root and its vllm child")
        << SpanWindow{{}, kStart + 20 * kSecond, kStart + 20 * kSecond + 1'000'000};
    QTest::newRow("the window's services do not filter the list") << window(0, 600, {"vllm"});
    QTest::newRow("nothing in it") << window(-100, -10);
}

void TestClickHouseCatalog::servicesOfAWindow()
{
    QFETCH(SpanWindow, window);
    const lx::source::ServiceList list = lx::source::listServices(m_shim.endpoint(), window, m_shim.withPassword());
    QVERIFY2(list.ok(), list.error.c_str());
    std::map<std::string, std::uint64_t> answered;
    std::string previous;
    for (const lx::source::ServiceSpans &service : list.services) {
        QVERIFY2(previous < service.service, "the services are sorted by name, each once");
        previous = service.service;
        answered[service.service] = service.spans;
    }
    QCOMPARE(answered, expectedServices(m_spans, window));
}

void TestClickHouseCatalog::spansAPullReads_data()
{
    QTest::addColumn<SpanWindow>("window");
    QTest::newRow("vllm: its own traces and those below a gateway") << window(0, 600, {"vllm"});
    QTest::newRow("gateway: its spans and the vllm spans below") << window(100, 400, {"gateway"});
    QTest::newRow("two services") << window(100, 400, {"gateway", "embedder"});
    QTest::newRow("every service") << window(100, 400);
    QTest::newRow("a vllm child in the window, its gateway root before it")
        << SpanWindow{{"vllm"}, kStart + 20 * kSecond + 1'000'000, kStart + 30 * kSecond};
    QTest::newRow("no such service") << window(0, 600, {"nosuch"});
    QTest::newRow("a service with backslashes and a tab") << window(0, 600, {kOddService.toStdString()});
}

void TestClickHouseCatalog::spansAPullReads()
{
    QFETCH(SpanWindow, window);
    const lx::source::SpanCount count = lx::source::countSpans(m_shim.endpoint(), window, m_shim.withPassword());
    QVERIFY2(count.ok(), count.error.c_str());
    const auto [spans, traces] = expectedPull(m_spans, window);
    QCOMPARE(count.spans, spans);
    QCOMPARE(count.traces, traces);
}

void TestClickHouseCatalog::failures_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("password");
    QTest::addColumn<bool>("refused");
    QTest::addColumn<QString>("error");
    QTest::newRow("wrong password") << QStringLiteral("otel_traces") << QStringLiteral("wrong") << false
                                    << QStringLiteral("authentication failed for user default");
    QTest::newRow("refused") << QStringLiteral("otel_traces") << QString::fromLatin1(lxtest::ClickHouseShim::kPassword) << true
                             << QStringLiteral("cannot connect to 127.0.0.1:");
    QTest::newRow("unknown table") << QStringLiteral("missing") << QString::fromLatin1(lxtest::ClickHouseShim::kPassword) << false
                                   << QStringLiteral("no table otel.missing");
    QTest::newRow("unknown database") << QStringLiteral("otel_traces") << QString::fromLatin1(lxtest::ClickHouseShim::kPassword)
                                      << false << QStringLiteral("no database nodb on 127.0.0.1:");
    QTest::newRow("not the exporter's table") << QStringLiteral("other") << QString::fromLatin1(lxtest::ClickHouseShim::kPassword)
                                              << false << QStringLiteral("the table otel.other lacks a column");
}

void TestClickHouseCatalog::failures()
{
    QFETCH(QString, table);
    QFETCH(QString, password);
    QFETCH(bool, refused);
    QFETCH(QString, error);
    lx::source::ClickHouseEndpoint endpoint = m_shim.endpoint(table);
    if (error.startsWith(QStringLiteral("no database")))
        endpoint.database = "nodb";
    if (refused) {
        endpoint.port = 1; // a privileged port nothing listens on here
    }
    lx::source::ClickHouseRequestOptions options = m_shim.withPassword();
    options.password = password.toStdString();
    const lx::source::ConnectionCheck check = lx::source::checkConnection(endpoint, options);
    QVERIFY2(QString::fromStdString(check.error).startsWith(error), check.error.c_str());
    QVERIFY(!QString::fromStdString(check.error).contains(QString::fromLatin1(lxtest::ClickHouseShim::kPassword)));
    // The questions after it say the same.
    const lx::source::ServiceList list = lx::source::listServices(endpoint, window(0, 600), options);
    QVERIFY(list.services.empty());
    if (table != QStringLiteral("other")) // that table has no ServiceName: a missing column, said otherwise
        QVERIFY2(QString::fromStdString(list.error).startsWith(error), list.error.c_str());
    QVERIFY(!lx::source::countSpans(endpoint, window(0, 600), options).ok());
}

void TestClickHouseCatalog::cancelIsSaid()
{
    lx::source::ClickHouseRequestOptions options = m_shim.withPassword();
    options.keepGoing = [](std::uint64_t) { return false; };
    const lx::source::SpanCount count = lx::source::countSpans(m_shim.endpoint(), window(0, 600), options);
    QVERIFY(count.cancelled());
    QCOMPARE(QString::fromStdString(count.error), QStringLiteral("cancelled"));
}

QTEST_GUILESS_MAIN(TestClickHouseCatalog)
#include "tst_clickhouse_catalog.moc"
