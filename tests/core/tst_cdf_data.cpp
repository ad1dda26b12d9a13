// SPDX-License-Identifier: GPL-3.0-or-later
// The CDF view's data: each curve is the empirical distribution of its metric (checked point by point
// against an independent count on small inputs), monotone from (min, 0) to (max, 1), at most a few
// thousand points on large inputs with the tail kept; its p50/p90/p99 guides are the report's, exactly,
// under several filters; empty stores and metrics that were never measured give empty curves.

#include "analysis/analysis.h"
#include "analysis/cdf_data.h"
#include "analysis/dominant_breakdown.h"
#include "store/store.h"
#include "test_support.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'735'732'800'000'000'000LL; // 2025-01-01T12:00:00Z
constexpr qint64 MS = 1'000'000;

/// `n` requests in the durations form, seeded: a long-tailed queue, decode, prefill, sometimes
/// preprocess and postprocess (so some metrics are missing on some rows), models a and b, 5 % errors.
QByteArray randomRequests(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::lognormal_distribution<double> queue(2.0, 1.5), decode(6.0, 0.5), prefill(3.0, 0.3);
    std::uniform_int_distribution<int> coin(0, 99);
    QByteArray out;
    for (int i = 0; i < n; ++i) {
        out += "{\"id\":\"r" + QByteArray::number(i) + "\",\"start_ns\":" + QByteArray::number(T0 + qint64(i) * 7 * MS)
               + ",\"model\":\"" + (coin(rng) < 30 ? "a" : "b") + "\""
               + (coin(rng) < 5 ? ",\"status\":\"error\"" : "")
               + ",\"queue_ms\":" + QByteArray::number(queue(rng), 'f', 3)
               + ",\"prefill_ms\":" + QByteArray::number(prefill(rng), 'f', 3)
               + ",\"decode_ms\":" + QByteArray::number(decode(rng), 'f', 3);
        if (coin(rng) < 60)
            out += ",\"preprocess_ms\":" + QByteArray::number(coin(rng) / 10.0, 'f', 1);
        if (coin(rng) < 20)
            out += ",\"postprocess_ms\":0"; // zeros: measured, not missing
        out += "}\n";
    }
    return out;
}

std::vector<std::int64_t> sortedOf(std::vector<std::int64_t> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

/// Checks the shape every curve has: starts at (min, 0), ends at (max, 1), then strictly increasing.
void verifyShape(const CdfCurve &curve, const std::vector<std::int64_t> &sorted)
{
    QCOMPARE(curve.count, qint64(sorted.size()));
    QVERIFY(curve.points.size() >= 2);
    QCOMPARE(curve.points.front(), (CdfPoint{sorted.front(), 0.0}));
    QCOMPARE(curve.points.back(), (CdfPoint{sorted.back(), 1.0}));
    for (std::size_t i = 2; i < curve.points.size(); ++i) {
        QVERIFY2(curve.points[i].valueNs > curve.points[i - 1].valueNs, qPrintable(QString::number(i)));
        QVERIFY2(curve.points[i].fraction > curve.points[i - 1].fraction, qPrintable(QString::number(i)));
    }
    // Every point is the ECDF at its value: the share of samples at most it.
    for (const CdfPoint &p : std::span(curve.points).subspan(1)) {
        const auto atMost = std::upper_bound(sorted.begin(), sorted.end(), p.valueNs) - sorted.begin();
        QCOMPARE(p.fraction, double(atMost) / double(sorted.size()));
    }
}

} // namespace

class TestCdfData : public QObject {
    Q_OBJECT

private slots:
    void curveOfSorted_data()
    {
        QTest::addColumn<std::vector<std::int64_t>>("values");
        QTest::addColumn<int>("expectedPoints");
        QTest::newRow("one sample") << std::vector<std::int64_t>{5} << 2;
        QTest::newRow("distinct") << std::vector<std::int64_t>{1, 2, 3, 10} << 5;
        QTest::newRow("ties count at their value") << std::vector<std::int64_t>{0, 0, 0, 7, 7, 9} << 4;
        QTest::newRow("all equal") << std::vector<std::int64_t>{4, 4, 4} << 2;
        QTest::newRow("negative values") << std::vector<std::int64_t>{-3, -1, 2} << 4;
        std::vector<std::int64_t> large(200'000);
        std::mt19937_64 rng(7);
        std::exponential_distribution<double> tail(1e-6);
        for (std::int64_t &v : large)
            v = std::int64_t(tail(rng));
        QTest::newRow("200,000 samples: thinned") << large << -1;
    }

    void curveOfSorted()
    {
        QFETCH(std::vector<std::int64_t>, values);
        QFETCH(int, expectedPoints);
        const std::vector<std::int64_t> sorted = sortedOf(values);
        const CdfCurve curve = cdfCurveOfSorted(sorted);
        verifyShape(curve, sorted);
        if (expectedPoints >= 0) {
            QCOMPARE(int(curve.points.size()), expectedPoints);
        } else {
            QVERIFY2(curve.points.size() <= 4000, qPrintable(QString::number(curve.points.size())));
            // The tail is dense: at least a thousand points above p99, the top ones sample by sample.
            const auto aboveP99 = std::count_if(curve.points.begin(), curve.points.end(),
                                                [](const CdfPoint &p) { return p.fraction > 0.99; });
            QVERIFY2(aboveP99 >= 1000, qPrintable(QString::number(aboveP99)));
            QCOMPARE(curve.points[curve.points.size() - 2].valueNs, sorted[sorted.size() - 2]);
        }
        for (std::size_t i = 0; i < kCdfGuidePercentiles.size(); ++i)
            QCOMPARE(curve.guidesNs[i], percentileOfSorted(sorted, kCdfGuidePercentiles[i]));
    }

    void curveOfNothing()
    {
        const CdfCurve curve = cdfCurveOfSorted({});
        QCOMPARE(curve.count, qint64(0));
        QVERIFY(curve.points.empty());
        QCOMPARE(curve.fractionAt(1.0), 0.0);
    }

    void fractionAt_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("fraction");
        // samples 10, 20, 20, 40: points (10, 0) (10, .25) (20, .75) (40, 1)
        QTest::newRow("below the minimum") << 5.0 << 0.0;
        QTest::newRow("at the minimum") << 10.0 << 0.25;
        QTest::newRow("between points") << 15.0 << 0.5;
        QTest::newRow("at a tie") << 20.0 << 0.75;
        QTest::newRow("at the maximum") << 40.0 << 1.0;
        QTest::newRow("above the maximum") << 1e12 << 1.0;
    }

    void fractionAt()
    {
        QFETCH(double, value);
        QFETCH(double, fraction);
        const std::vector<std::int64_t> sorted = {10, 20, 20, 40};
        QCOMPARE(cdfCurveOfSorted(sorted).fractionAt(value), fraction);
    }

    void guidesEqualReport_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("includeErrors");
        QTest::newRow("everything") << QString() << false;
        QTest::newRow("errors included") << QString() << true;
        QTest::newRow("model a") << QStringLiteral("model = a") << false;
        QTest::newRow("slow queue") << QStringLiteral("queue > 20ms") << false;
        QTest::newRow("a time range") << QStringLiteral("start >= 2025-01-01T12:00:10Z and start < 2025-01-01T12:00:30Z") << false;
        QTest::newRow("matches nothing") << QStringLiteral("e2e > 1h") << false;
    }

    void guidesEqualReport()
    {
        QFETCH(QString, expression);
        QFETCH(bool, includeErrors);
        static const lxtest::StoreFixture fixture(randomRequests(6000, 11));
        QVERIFY(fixture.store);
        const std::optional<RequestFilter> compiled = lxtest::filterOf(expression);
        QVERIFY(compiled);
        const RequestFilter &filter = *compiled;
        AnalysisOptions options;
        options.includeErrors = includeErrors;
        options.percentiles = {kCdfGuidePercentiles.begin(), kCdfGuidePercentiles.end()};
        const Report report = analyze(*fixture.store, filter, options);
        const CdfData data = computeCdfData(*fixture.store, filter, options);
        QCOMPARE(data.requests, includeErrors ? report.total : report.ok);
        for (int m = 0; m < kCdfMetricCount; ++m) {
            const MetricSummary &summary = m == kCdfE2e ? report.e2e : m == kCdfTtft ? report.ttft : report.segments[std::size_t(m)];
            const CdfCurve &curve = data.curves[std::size_t(m)];
            const QByteArray name(cdfMetricName(m).data(), qsizetype(cdfMetricName(m).size()));
            QVERIFY2(curve.count == summary.stat.count, name.constData());
            QCOMPARE(curve.excluded, summary.excluded);
            if (curve.count == 0) {
                QVERIFY2(curve.points.empty(), name.constData());
                continue;
            }
            QCOMPARE(double(curve.maxNs()), *summary.stat.maxNs);
            for (std::size_t i = 0; i < kCdfGuidePercentiles.size(); ++i)
                QVERIFY2(curve.guidesNs[i] == *summary.stat.percentilesNs[i], name.constData()); // exactly
            for (std::size_t i = 2; i < curve.points.size(); ++i)
                QVERIFY(curve.points[i].valueNs > curve.points[i - 1].valueNs && curve.points[i].fraction > curve.points[i - 1].fraction);
            QCOMPARE(curve.points.back().fraction, 1.0);
        }
    }

    void emptyStore()
    {
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        const CdfData data = computeCdfData(*store);
        QCOMPARE(data.requests, qint64(0));
        for (const CdfCurve &curve : data.curves) {
            QCOMPARE(curve.count, qint64(0));
            QVERIFY(curve.points.empty());
        }
    }

    void metricsNotMeasured()
    {
        // Server stamps only: no network; no token stamps on the second: its TTFT and decode are missing.
        const QByteArray lines =
            "{\"id\":\"a\",\"t_server_recv_ns\":" + QByteArray::number(T0) + ",\"t_sched_ns\":" + QByteArray::number(T0 + 5 * MS)
            + ",\"t_first_token_ns\":" + QByteArray::number(T0 + 15 * MS) + ",\"t_last_token_ns\":" + QByteArray::number(T0 + 95 * MS)
            + ",\"t_server_send_ns\":" + QByteArray::number(T0 + 100 * MS) + "}\n"
            "{\"id\":\"b\",\"t_server_recv_ns\":" + QByteArray::number(T0) + ",\"t_server_send_ns\":" + QByteArray::number(T0 + 40 * MS) + "}\n";
        const lxtest::StoreFixture fixture(lines);
        const CdfData data = computeCdfData(*fixture.store);
        QCOMPARE(data.requests, qint64(2));
        QCOMPARE(data.curves[std::size_t(Segment::Network)].count, qint64(0));
        QVERIFY(data.curves[std::size_t(Segment::Network)].points.empty());
        QCOMPARE(data.curves[std::size_t(Segment::Decode)].count, qint64(1));
        QCOMPARE(data.curves[kCdfTtft].count, qint64(1));
        QCOMPARE(data.curves[kCdfE2e].count, qint64(2));
        QCOMPARE(data.curves[kCdfE2e].minNs(), 40 * MS);
        QCOMPARE(data.curves[kCdfE2e].maxNs(), 100 * MS);
        QCOMPARE(data.curves[kCdfE2e].guidesNs[0], 70.0 * MS);
    }

    void aMillionRequests()
    {
        // A printed figure to watch, not a timed assertion: both views' data over a million requests, made
        // with SQL rather than an import, beside the report's own scan. The guides still equal the report's.
        QTemporaryDir dir;
        std::string why;
        auto store = Store::open(lxtest::pathOf(dir.filePath(QStringLiteral("m.lxdb"))), &why);
        QVERIFY2(store, why.c_str());
        const std::string sql =
            "BEGIN; INSERT INTO import_runs (id, path, format, compressed, started_ns, outcome) VALUES (1, 'gen', 'jsonl', 0, 0, 'complete');"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)"
            " INSERT INTO requests (id, run_id, status, start_ns, e2e_ns, e2e_scope, queue_ns, decode_ns, unattributed_ns,"
            " ttft_ns, token_scope, dominant, flags)"
            " SELECT i, 1, i % 50 = 0, " + std::to_string(T0) + " + i * 1000000, (i * 7919) % 100003 * 20000 + 1000000,"
            " 2, (i * 104729) % 10007 * 1000, (i * 7919) % 100003 * 20000, 1000000 - (i * 104729) % 10007 * 1000,"
            " CASE WHEN i % 7 THEN (i * 31) % 997 * 100000 END, 2, 4, 0 FROM n; COMMIT;";
        QVERIFY2(store->exec(sql.c_str(), &why), why.c_str());
        AnalysisOptions options;
        options.percentiles = {kCdfGuidePercentiles.begin(), kCdfGuidePercentiles.end()};
        QElapsedTimer timer;
        timer.start();
        const Report report = analyze(*store, {}, options);
        const qint64 reportMs = timer.restart();
        const CdfData data = computeCdfData(*store, {}, options);
        const qint64 cdfMs = timer.restart();
        const DominantBreakdown breakdown = computeDominantBreakdown(*store, {}, options);
        qInfo("1,000,000 requests: report %lld ms, CDF data %lld ms, dominant breakdown %lld ms", reportMs, cdfMs,
              timer.elapsed());
        QCOMPARE(data.curves[kCdfE2e].count, report.e2e.stat.count);
        QCOMPARE(data.curves[kCdfE2e].guidesNs[0], *report.e2e.stat.percentilesNs[0]);
        QVERIFY(data.curves[kCdfE2e].points.size() <= 4000);
        QCOMPARE(breakdown.overall.total, report.dominantTotal);
    }

    void metricNames()
    {
        QCOMPARE(cdfMetricName(int(Segment::Queue)), std::string_view("queue"));
        QCOMPARE(cdfMetricName(kCdfE2e), std::string_view("e2e"));
        QCOMPARE(cdfMetricName(kCdfTtft), std::string_view("ttft"));
    }
};

QTEST_MAIN(TestCdfData)
#include "tst_cdf_data.moc"
