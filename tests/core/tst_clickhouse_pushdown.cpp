// SPDX-License-Identifier: GPL-3.0-or-later
// The report computed in ClickHouse (core/source/clickhouse_pushdown.h, docs/CLICKHOUSE.md "Push-down")
// against the report of the same spans pulled into a store, on a real ClickHouse engine (chdb behind
// tests/clickhouse/shim.mjs, as tst_clickhouse_source): every count equal, every mean, max and percentile
// within a few ulps, the load windows equal to the pulled requests filtered to each window, the CDF equal to
// the pulled e2e's percentiles. Then what is refused (auto, the presets SQL cannot follow, nested claimed
// spans), the count before a pull, and the CLI's `report --from` with and without --push-down. Skips,
// saying why, without node or chdb.

#include "analysis/analysis.h"
#include "clickhouse_shim.h"
#include "source/clickhouse_catalog.h"
#include "source/clickhouse_pull.h"
#include "source/clickhouse_pushdown.h"
#include "store/store.h"
#include "test_support.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <memory>

using lx::source::PushDownOptions;
using lx::source::PushDownResult;

namespace {

/// Equal to what two correct computations of the same percentile in double may differ by: a few ulps of
/// the value, and the rounding of the rank h = (n - 1) p / 100, which ClickHouse forms as level x (n - 1):
/// one ulp of h moves the interpolated value by that much of the gap between two neighbours, at most
/// n x 2^-52 x the largest value (below a thousandth of a nanosecond here, far below the report's 1 ns).
bool nearlyEqual(std::optional<double> a, std::optional<double> b, std::int64_t n = 0, double largest = 0)
{
    if (!a || !b)
        return !a && !b;
    constexpr double eps = std::numeric_limits<double>::epsilon();
    return std::fabs(*a - *b) <= 4 * eps * std::max(std::fabs(*a), std::fabs(*b)) + 2 * eps * static_cast<double>(n) * largest;
}

QString text(std::optional<double> v) { return v ? QString::number(*v, 'g', 17) : u"none"_qs; }

/// Compares one statistic; the first difference, or empty.
QString statisticDifference(const QString &name, const lx::Statistic &pulled, const lx::Statistic &pushed, double largest = 0)
{
    if (largest == 0)
        largest = pulled.maxNs.value_or(0);
    if (pulled.count != pushed.count)
        return name + u" count %1 pulled, %2 pushed down"_qs.arg(pulled.count).arg(pushed.count);
    if (!nearlyEqual(pulled.meanNs, pushed.meanNs))
        return name + u" mean "_qs + text(pulled.meanNs) + u" pulled, "_qs + text(pushed.meanNs) + u" pushed down"_qs;
    if (!nearlyEqual(pulled.maxNs, pushed.maxNs))
        return name + u" max "_qs + text(pulled.maxNs) + u" pulled, "_qs + text(pushed.maxNs) + u" pushed down"_qs;
    if (pulled.percentilesNs.size() != pushed.percentilesNs.size())
        return name + u" percentile lists differ"_qs;
    for (std::size_t i = 0; i < pulled.percentilesNs.size(); ++i) {
        if (!nearlyEqual(pulled.percentilesNs[i], pushed.percentilesNs[i], pulled.count, largest))
            return name + u" percentile #%1 "_qs.arg(i) + text(pulled.percentilesNs[i]) + u" pulled, "_qs
                   + text(pushed.percentilesNs[i]) + u" pushed down"_qs;
    }
    return {};
}

QString metricDifference(const QString &name, const lx::MetricSummary &pulled, const lx::MetricSummary &pushed)
{
    if (QString why = statisticDifference(name, pulled.stat, pushed.stat); !why.isEmpty())
        return why;
    if (pulled.scope != pushed.scope || pulled.scopes != pushed.scopes)
        return name + u" scope "_qs + QString::fromStdString(pulled.scope) + u" pulled, "_qs + QString::fromStdString(pushed.scope)
               + u" pushed down"_qs;
    return {};
}

QString reportDifference(const lx::Report &pulled, const lx::Report &pushed)
{
    const auto count = [](const char *what, std::int64_t a, std::int64_t b) {
        return a == b ? QString() : QString::fromLatin1(what) + u" %1 pulled, %2 pushed down"_qs.arg(a).arg(b);
    };
    for (const QString &why : {count("total", pulled.total, pushed.total), count("ok", pulled.ok, pushed.ok),
                               count("error", pulled.error, pushed.error), count("rejected", pulled.rejected, pushed.rejected),
                               count("first start", pulled.firstStartNs, pushed.firstStartNs),
                               count("last start", pulled.lastStartNs, pushed.lastStartNs),
                               count("dominant total", pulled.dominantTotal, pushed.dominantTotal)}) {
        if (!why.isEmpty())
            return why;
    }
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        const QString name = QString::fromLatin1(lx::segmentName(static_cast<lx::Segment>(s)).data());
        if (QString why = metricDifference(name, pulled.segments[s], pushed.segments[s]); !why.isEmpty())
            return why;
        if (pulled.dominantCounts[s] != pushed.dominantCounts[s])
            return name + u" dominant in %1 pulled, %2 pushed down"_qs.arg(pulled.dominantCounts[s]).arg(pushed.dominantCounts[s]);
    }
    const std::pair<const char *, std::pair<const lx::MetricSummary *, const lx::MetricSummary *>> metrics[] = {
        {"e2e", {&pulled.e2e, &pushed.e2e}}, {"ttft", {&pulled.ttft, &pushed.ttft}},
        {"tpot", {&pulled.tpot, &pushed.tpot}}, {"ttlt", {&pulled.ttlt, &pushed.ttlt}}, {"itl", {&pulled.itl, &pushed.itl}}};
    for (const auto &[name, pair] : metrics) {
        if (QString why = metricDifference(QString::fromLatin1(name), *pair.first, *pair.second); !why.isEmpty())
            return why;
    }
    return {};
}

} // namespace

class TestClickHousePushDown : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void equalsThePull_data();
    void equalsThePull();
    void approximateIsLabelled();
    void refusals_data();
    void refusals();
    void countsBeforeAPull();
    void cliReportFrom();

private:
    lx::source::SpanWindow everything(const QString &table) const;
    /// Pulls the table into a temporary store with `mapping`.
    std::unique_ptr<lx::Store> pull(const QString &table, const std::string &mapping, std::uint64_t *rows = nullptr);

    lxtest::ClickHouseShim m_engine;
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestClickHousePushDown::initTestCase()
{
    // QSKIP here skips the whole suite, with the reason.
    if (const QString why = lxtest::ClickHouseShim::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QString error;
    QVERIFY2(m_engine.start(&error), qPrintable(error));
    m_dir = std::make_unique<QTemporaryDir>();
    const QString generated = m_dir->filePath(u"generated.otlp.jsonl"_qs);
    const lxtest::CliRun generate = lxtest::runCli(QStringLiteral(LX_CLI_PATH), {u"generate"_qs, u"--form"_qs, u"otlp"_qs,
                                                                                  u"--requests"_qs, u"3000"_qs, u"-o"_qs, generated});
    QVERIFY2(generate.exitCode == 0, generate.err.constData());
    QVERIFY(m_engine.load(u"golden"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"generated"_qs, {generated}));
    QVERIFY(m_engine.load(u"cases"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_cases.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"sglang"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_sglang.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"sglang_below"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_sglang_below.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"tgi"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_tgi.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"gateway"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_gateway.otlp.jsonl")}));
    QVERIFY(m_engine.load(u"gateway_two"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_gateway_two.otlp.jsonl")}));
    // Real public spans beside the repository (../shared/realdata), when they are there: a demo shop's
    // services, none of which the presets claim (each root an unattributed request).
    const QString realdata = QStringLiteral(LX_REALDATA_DIR "/otlp2parquet");
    if (QFileInfo::exists(realdata + u"/traces.jsonl"_qs)) {
        QVERIFY(m_engine.load(u"realdata_jsonl"_qs, {realdata + u"/traces.jsonl"_qs}));
        QVERIFY(m_engine.load(u"realdata_json"_qs, {realdata + u"/trace.json"_qs}));
    }
    QVERIFY(m_engine.load(u"nested"_qs, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_nested.otlp.jsonl")}));
}

lx::source::SpanWindow TestClickHousePushDown::everything(const QString &table) const
{
    lx::source::SpanWindow window;
    window.services = m_engine.services(table);
    window.fromNs = 0;
    window.toNs = std::numeric_limits<std::int64_t>::max();
    return window;
}

std::unique_ptr<lx::Store> TestClickHousePushDown::pull(const QString &table, const std::string &mapping, std::uint64_t *rows)
{
    std::string error;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&error);
    if (!store) {
        qWarning("%s", error.c_str());
        return nullptr;
    }
    lx::source::PullOptions options;
    options.spanMapping = mapping;
    options.request = m_engine.withPassword();
    options.progress = [rows](const lx::source::PullProgress &progress) {
        if (rows)
            *rows = progress.rowsReceived;
        return true;
    };
    const lx::FileImport imported = lx::source::pullSpans(*store, m_engine.endpoint(table), everything(table), options);
    if (imported.outcome != lx::FileImport::Outcome::Complete) {
        qWarning("%s", lxtest::describe(imported).constData());
        return nullptr;
    }
    return store;
}

void TestClickHousePushDown::equalsThePull_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<QString>("percentiles");
    QTest::addColumn<bool>("includeErrors");
    QTest::addColumn<int>("requests"); ///< the pulled report's total, so that an empty window cannot pass
    QTest::newRow("golden spans, vllm") << u"golden"_qs << u"vllm"_qs << u""_qs << false << 16;
    QTest::newRow("golden spans, odd percentiles") << u"golden"_qs << u"vllm"_qs << u"0,1,33.3,50,99.99,100"_qs << false << 16;
    QTest::newRow("3000 generated requests, vllm") << u"generated"_qs << u"vllm"_qs << u""_qs << false << 3000;
    QTest::newRow("3000 generated requests, errors included") << u"generated"_qs << u"vllm"_qs << u"50,95"_qs << true << 3000;
    // A gateway root above the request, a trace no span of which is claimed, a latency that is no number,
    // an e2e short of its segments, an error, a time to first token short of queue and prefill, a token
    // count that is no integer, a claimed root with a claimed span nested in it: the pull's rejections and
    // its unattributed requests, counted alike.
    QTest::newRow("edge cases, vllm") << u"cases"_qs << u"vllm"_qs << u""_qs << false << 6;
    QTest::newRow("edge cases, errors included") << u"cases"_qs << u"vllm"_qs << u"50"_qs << true << 6;
    // SGLang's stage spans summed at any depth below the request (tokenize twice, decode_loop under
    // another span), its attributes winning over them, a root with only a decode loop, an unclaimed trace,
    // an error, stage spans longer than their request.
    QTest::newRow("sglang stage spans") << u"sglang"_qs << u"sglang"_qs << u""_qs << false << 5;
    QTest::newRow("sglang stage spans, errors included") << u"sglang"_qs << u"sglang"_qs << u"50,90"_qs << true << 5;
    QTest::newRow("golden spans, sglang") << u"golden"_qs << u"sglang"_qs << u""_qs << false << 16;
    // TGI's duration strings (units from ns to h, several parts, a fraction alone, past 30 digits, both
    // spellings of µ; no number, no unit, an e2e short of its segments), and its stage spans.
    QTest::newRow("tgi duration strings") << u"tgi"_qs << u"tgi"_qs << u""_qs << false << 6;
    // A gateway's server span around the LLM server's: its inner span by name, by attribute prefix, by
    // another service two levels down; none; one that starts before the gateway's (no network); an error
    // on the inner span only; tokens on the gateway's span; a trace no root of which is claimed.
    QTest::newRow("http-gateway") << u"gateway"_qs << u"http-gateway"_qs << u""_qs << false << 8;
    QTest::newRow("http-gateway, errors included") << u"gateway"_qs << u"http-gateway"_qs << u"50,99"_qs << true << 8;
    // auto: vllm, then sglang, then tgi tried on each span, as the pull tries them (SGLang's span with
    // gen_ai.latency.* keys is vllm's).
    QTest::newRow("golden spans, auto") << u"golden"_qs << u"auto"_qs << u""_qs << false << 16;
    QTest::newRow("3000 generated requests, no mapping named") << u"generated"_qs << u""_qs << u""_qs << false << 3000;
    QTest::newRow("edge cases, auto") << u"cases"_qs << u"auto"_qs << u""_qs << true << 6;
    QTest::newRow("sglang stage spans, auto") << u"sglang"_qs << u"auto"_qs << u""_qs << false << 5;
    QTest::newRow("tgi duration strings, auto") << u"tgi"_qs << u"auto"_qs << u""_qs << false << 6;
    if (QFileInfo::exists(QStringLiteral(LX_REALDATA_DIR "/otlp2parquet/traces.jsonl"))) {
        QTest::newRow("realdata otlp2parquet traces.jsonl, auto") << u"realdata_jsonl"_qs << u"auto"_qs << u""_qs << false << 19;
        QTest::newRow("realdata otlp2parquet traces.jsonl, http-gateway") << u"realdata_jsonl"_qs << u"http-gateway"_qs << u""_qs << false << 19;
        QTest::newRow("realdata otlp2parquet trace.json, auto") << u"realdata_json"_qs << u"auto"_qs << u""_qs << false << 1;
    }
    QTest::newRow("edge cases, a mapping file in ms") << u"cases"_qs << QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/pushdown_ms.json")
                                                      << u""_qs << false << 6;
}

void TestClickHousePushDown::equalsThePull()
{
    QFETCH(QString, table);
    QFETCH(QString, mapping);
    QFETCH(QString, percentiles);
    QFETCH(bool, includeErrors);
    QFETCH(int, requests);
    PushDownOptions options;
    options.spanMapping = mapping.toStdString();
    options.includeErrors = includeErrors;
    options.request = m_engine.withPassword();
    if (!percentiles.isEmpty()) {
        std::string why;
        const auto list = lx::parsePercentileList(percentiles.toStdString(), &why);
        QVERIFY2(list, why.c_str());
        options.percentiles = *list;
    }
    const PushDownResult pushed = lx::source::pushDownReport(m_engine.endpoint(table), everything(table), options);
    QVERIFY2(pushed.ok(), pushed.error.c_str());

    std::unique_ptr<lx::Store> store = pull(table, options.spanMapping);
    QVERIFY(store);
    lx::AnalysisOptions analysis;
    analysis.percentiles = options.percentiles;
    analysis.includeErrors = includeErrors;
    const lx::Report pulled = lx::analyze(*store, {}, analysis);
    QCOMPARE(pulled.total, requests);
    if (table == u"gateway"_qs) // the gaps measured: the inner spans by name, by prefix, by service, under tokens, and the error
        QCOMPARE(pulled.segments[static_cast<int>(lx::Segment::Network)].stat.count, includeErrors ? 5 : 4);
    const QString difference = reportDifference(pulled, pushed.report);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY(QString::fromStdString(pushed.computedBy).contains(u"quantilesExactInclusive"_qs));

    // Each load window holds the pulled requests that start in it, with their e2e.
    QVERIFY(pushed.windowNs > 0);
    std::int64_t windowed = 0;
    for (const lx::source::PushDownWindow &w : pushed.windows) {
        lx::RequestFilter within;
        within.fromNs = w.startNs;
        within.toNs = w.startNs + pushed.windowNs;
        const lx::Report inWindow = lx::analyze(*store, within, analysis);
        QCOMPARE(w.requests, inWindow.total);
        lx::Statistic expected = inWindow.e2e.stat;
        expected.maxNs.reset(); // the windows carry no max
        const QString why = statisticDifference(u"window %1 e2e"_qs.arg(w.startNs), expected, w.e2e, pulled.e2e.stat.maxNs.value_or(0));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        windowed += w.requests;
    }
    QCOMPARE(windowed, pulled.total);

    // The CDF is the pulled e2e at its levels.
    lx::AnalysisOptions cdf = analysis;
    cdf.percentiles.clear();
    for (double level : pushed.cdfLevels)
        cdf.percentiles.push_back(level * 100.0);
    const lx::Report atLevels = lx::analyze(*store, {}, cdf);
    QCOMPARE(pushed.cdfE2eNs.size(), std::size_t{101});
    for (std::size_t i = 0; i < pushed.cdfE2eNs.size(); ++i)
        QVERIFY2(nearlyEqual(atLevels.e2e.stat.percentilesNs[i], pushed.cdfE2eNs[i], pulled.e2e.stat.count, pulled.e2e.stat.maxNs.value_or(0)),
                 qPrintable(u"CDF at %1: "_qs.arg(pushed.cdfLevels[i]) + text(atLevels.e2e.stat.percentilesNs[i]) + u" pulled, "_qs
                            + text(pushed.cdfE2eNs[i]) + u" pushed down"_qs));
}

void TestClickHousePushDown::approximateIsLabelled()
{
    PushDownOptions options;
    options.spanMapping = "vllm";
    options.mode = lx::source::QuantileMode::Approximate;
    options.request = m_engine.withPassword();
    const PushDownResult approximate = lx::source::pushDownReport(m_engine.endpoint(u"generated"_qs), everything(u"generated"_qs), options);
    QVERIFY2(approximate.ok(), approximate.error.c_str());
    QVERIFY(QString::fromStdString(approximate.computedBy).contains(u"approximate"_qs));
    options.mode = lx::source::QuantileMode::Exact;
    const PushDownResult exact = lx::source::pushDownReport(m_engine.endpoint(u"generated"_qs), everything(u"generated"_qs), options);
    QVERIFY2(exact.ok(), exact.error.c_str());
    // Counts and means are exact in both modes; a t-digest's median lies within a few percent of the true one.
    QCOMPARE(approximate.report.e2e.stat.count, exact.report.e2e.stat.count);
    QVERIFY(nearlyEqual(approximate.report.e2e.stat.meanNs, exact.report.e2e.stat.meanNs));
    const double p50 = *exact.report.e2e.stat.percentilesNs[0];
    const double estimate = *approximate.report.e2e.stat.percentilesNs[0];
    QVERIFY2(std::fabs(estimate - p50) < 0.05 * p50, qPrintable(u"t-digest p50 %1, exact %2"_qs.arg(estimate).arg(p50)));
    const QByteArray json = QByteArray::fromStdString(lx::source::pushDownToJson(approximate));
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    QVERIFY2(object[u"computed_by"_qs].toString().contains(u"quantilesTDigest"_qs), json.constData());
    QCOMPARE(object[u"requests"_qs].toObject()[u"total"_qs].toInt(), 3000);
    QVERIFY(object[u"not_computed"_qs].toArray().contains(u"itl"_qs));
}

void TestClickHousePushDown::refusals_data()
{
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<QString>("message");
    QTest::newRow("auto, claimed siblings") << u"nested"_qs << u"auto"_qs
                                           << u"1 traces hold more than one span that mapping \"vllm\", then \"sglang\", then \"tgi\" claims"_qs;
    QTest::newRow("sglang: a request below another span") << u"sglang_below"_qs << u"sglang"_qs
                                                         << u"in 1 the claimed span is below another"_qs;
    QTest::newRow("http-gateway: two inner spans") << u"gateway_two"_qs << u"http-gateway"_qs
                                                  << u"in 1 more than one span matches the inner selector"_qs;
    QTest::newRow("claimed siblings under a root") << u"nested"_qs << u"vllm"_qs << u"1 traces hold more than one span that mapping \"vllm\" claims"_qs;
    QTest::newRow("unknown table") << u"missing"_qs << u"vllm"_qs << u"UNKNOWN_TABLE"_qs;
    QTest::newRow("unknown mapping") << u"golden"_qs << u"no-such-mapping"_qs << u"no-such-mapping"_qs;
}

void TestClickHousePushDown::refusals()
{
    QFETCH(QString, table);
    QFETCH(QString, mapping);
    QFETCH(QString, message);
    PushDownOptions options;
    options.spanMapping = mapping.toStdString();
    options.request = m_engine.withPassword();
    lx::source::SpanWindow window;
    window.fromNs = 0;
    window.toNs = std::numeric_limits<std::int64_t>::max();
    const PushDownResult result = lx::source::pushDownReport(m_engine.endpoint(table), window, options);
    QVERIFY(!result.ok());
    QVERIFY2(QString::fromStdString(result.error).contains(message), result.error.c_str());
    QCOMPARE(result.report.total, 0);
}

void TestClickHousePushDown::countsBeforeAPull()
{
    for (const QString &table : {u"golden"_qs, u"generated"_qs, u"cases"_qs}) {
        std::uint64_t pulledRows = 0;
        QVERIFY(pull(table, "vllm", &pulledRows));
        const lx::source::SpanCount count = lx::source::countSpans(m_engine.endpoint(table), everything(table), m_engine.withPassword());
        QVERIFY2(count.ok(), count.error.c_str());
        QCOMPARE(count.spans, pulledRows);
        QVERIFY(pulledRows > 0);
    }
    lx::source::SpanWindow none = everything(u"golden"_qs);
    none.toNs = 1; // before any span
    const lx::source::SpanCount empty = lx::source::countSpans(m_engine.endpoint(u"golden"_qs), none, m_engine.withPassword());
    QVERIFY2(empty.ok(), empty.error.c_str());
    QCOMPARE(empty.spans, std::uint64_t{0});
}

void TestClickHousePushDown::cliReportFrom()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"LX_CLICKHOUSE_PASSWORD"_qs, QString::fromLatin1(lxtest::ClickHouseShim::kPassword));
    const QString url = u"clickhouse://127.0.0.1:%1/otel?table=golden"_qs.arg(m_engine.port());
    const QStringList window{u"--from"_qs, url, u"--service"_qs, u"vllm"_qs, u"--time-range"_qs, u"2025-01-01T00:00:00Z..2025-01-02T00:00:00Z"_qs};
    const auto report = [&](const QStringList &more) {
        return lxtest::runCli(QStringLiteral(LX_CLI_PATH), QStringList{u"report"_qs, u"--json"_qs} + window + more, environment);
    };
    // Pulled into a temporary store: the report of the file, figure for figure.
    const lxtest::CliRun pulled = report({u"--mapping"_qs, u"vllm"_qs});
    QVERIFY2(pulled.exitCode == 0, pulled.err.constData());
    const lxtest::CliRun file = lxtest::runCli(QStringLiteral(LX_CLI_PATH), {u"report"_qs, u"--json"_qs, u"--mapping"_qs, u"vllm"_qs,
                                                                             QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl")});
    QVERIFY2(file.exitCode == 0, file.err.constData());
    QJsonObject fromPull = QJsonDocument::fromJson(pulled.out).object();
    QJsonObject fromFile = QJsonDocument::fromJson(file.out).object();
    fromPull.remove(u"inputs"_qs);
    fromFile.remove(u"inputs"_qs);
    QVERIFY(!fromPull.isEmpty());
    QCOMPARE(fromPull, fromFile);

    // Pushed down: the same counts, labelled, and the segments' figures to the printed precision.
    const lxtest::CliRun pushed = report({u"--mapping"_qs, u"vllm"_qs, u"--push-down"_qs});
    QVERIFY2(pushed.exitCode == 0, pushed.err.constData());
    const QJsonObject fromStore = QJsonDocument::fromJson(pushed.out).object();
    QVERIFY2(fromStore[u"computed_by"_qs].toString().contains(u"ClickHouse (push-down)"_qs), pushed.out.constData());
    QCOMPARE(fromStore[u"requests"_qs], fromFile[u"requests"_qs]);
    QCOMPARE(fromStore[u"segments"_qs], fromFile[u"segments"_qs]);
    QCOMPARE(fromStore[u"e2e"_qs], fromFile[u"e2e"_qs]);
    QCOMPARE(fromStore[u"dominant"_qs], fromFile[u"dominant"_qs]);
    const lxtest::CliRun text = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                               QStringList{u"report"_qs} + window + QStringList{u"--mapping"_qs, u"vllm"_qs, u"--push-down"_qs, u"--approximate"_qs},
                                               environment);
    QVERIFY2(text.exitCode == 0 && text.out.contains("approximate percentiles: quantilesTDigest"), text.out.constData());

    // Above --max-spans a pull is refused, pointing at push-down; push-down is not bound by it.
    const lxtest::CliRun tooMany = report({u"--max-spans"_qs, u"10"_qs});
    QCOMPARE(tooMany.exitCode, 2);
    QVERIFY2(tooMany.err.contains("16 spans") && tooMany.err.contains("--push-down"), tooMany.err.constData());
    QCOMPARE(report({u"--max-spans"_qs, u"10"_qs, u"--mapping"_qs, u"vllm"_qs, u"--push-down"_qs}).exitCode, 0);
    const lxtest::CliRun importTooMany = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                                        QStringList{u"import"_qs, u"--db"_qs, m_dir->filePath(u"big.lxdb"_qs)} + window
                                                            + QStringList{u"--max-spans"_qs, u"10"_qs},
                                                        environment);
    QCOMPARE(importTooMany.exitCode, 2);
    QVERIFY2(importTooMany.err.contains("--push-down"), importTooMany.err.constData());

    // auto, the default, pushed down as the pull applies it; a filter is refused, the window is the narrowing.
    const lxtest::CliRun automatic = report({u"--push-down"_qs});
    QVERIFY2(automatic.exitCode == 0, automatic.err.constData());
    QCOMPARE(QJsonDocument::fromJson(automatic.out).object()[u"requests"_qs], fromFile[u"requests"_qs]);
    const lxtest::CliRun filtered = report({u"--push-down"_qs, u"--model"_qs, u"x"_qs});
    QCOMPARE(filtered.exitCode, 1);
    QVERIFY2(filtered.err.contains("narrow it with --service and --time-range"), filtered.err.constData());
    const lxtest::CliRun alone = lxtest::runCli(QStringLiteral(LX_CLI_PATH), {u"report"_qs, u"--push-down"_qs, u"x.lxdb"_qs});
    QCOMPARE(alone.exitCode, 1);
    QVERIFY2(alone.err.contains("--push-down goes with --from"), alone.err.constData());
}

QTEST_GUILESS_MAIN(TestClickHousePushDown)
#include "tst_clickhouse_pushdown.moc"
