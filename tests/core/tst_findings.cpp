// SPDX-License-Identifier: GPL-3.0-or-later
// Findings: the dominant segment of the slow requests with its fix, ranked by the share of the tail it
// explains; clock skew and errors; and each finding's filter, compiled and run on a store, selects exactly
// the requests it talks about.

#include "analysis/analysis.h"
#include "filter/filter_expression.h"
#include "analysis/findings.h"
#include "store/latency_rows.h"
#include "test_support.h"

#include <QTest>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

/// A request in the durations form: start, queue and decode in ms.
QByteArray request(int i, double queueMs, double decodeMs, const char *status = "ok")
{
    return "{\"id\":\"r" + QByteArray::number(i) + "\",\"status\":\"" + status + "\",\"start_ns\":" + QByteArray::number(T0 + i * MS)
           + ",\"queue_ms\":" + QByteArray::number(queueMs) + ",\"decode_ms\":" + QByteArray::number(decodeMs) + "}\n";
}

/// Requests matching a filter expression on the store.
qint64 matching(const Store &store, const std::string &expression)
{
    auto compiled = compileFilterExpression(expression);
    if (!std::holds_alternative<SqlCondition>(compiled))
        return -1;
    RequestFilter filter;
    filter.expression = std::get<SqlCondition>(compiled);
    return analyze(store, filter).total;
}

} // namespace

class TestFindings : public QObject {
    Q_OBJECT

private slots:
    void rankedByTheTail_data()
    {
        QTest::addColumn<int>("slowQueue");   // slow requests whose queue dominates
        QTest::addColumn<int>("slowDecode"); // slow requests whose decode dominates
        QTest::addColumn<QString>("first");
        QTest::newRow("queue explains most of the tail") << 8 << 2 << "queue";
        QTest::newRow("decode explains most of the tail") << 3 << 7 << "decode";
    }
    void rankedByTheTail()
    {
        QFETCH(int, slowQueue);
        QFETCH(int, slowDecode);
        QFETCH(QString, first);
        // 90 fast decode-bound requests, then 10 slow ones: the tail above p90.
        QByteArray lines;
        int i = 0;
        for (; i < 90; ++i)
            lines += request(i, 1, 100 + i);
        for (int k = 0; k < slowQueue; ++k, ++i)
            lines += request(i, 3000 + k, 200);
        for (int k = 0; k < slowDecode; ++k, ++i)
            lines += request(i, 10, 4000 + k);
        lines += request(i++, 0, 50, "error");
        lxtest::StoreFixture f(lines);
        const LatencyRows rows = readLatencyRows(*f.store, {});
        QCOMPARE(rows.size(), std::size_t(101));
        const std::vector<Finding> findings = findFindings(rows);
        QVERIFY(findings.size() >= 3);
        QCOMPARE(QString::fromStdString(findings[0].id), first);
        QCOMPARE(findings[0].count, qint64(first == QLatin1String("queue") ? slowQueue : slowDecode));
        QCOMPARE(findings[0].tailShare, findings[0].count / 10.0);
        QVERIFY(findings[0].tailShare >= findings[1].tailShare);
        QVERIFY(!findings[0].fix.empty());
        QVERIFY(findings[0].evidence.find("above p90") != std::string::npos);
        // Each filter shows exactly the requests the finding counts.
        for (const Finding &finding : findings)
            QCOMPARE(matching(*f.store, finding.filter), finding.count);
        const auto errors = std::find_if(findings.begin(), findings.end(), [](const Finding &x) { return x.id == "errors"; });
        QVERIFY(errors != findings.end());
        QCOMPARE(errors->count, qint64(1));
        QCOMPARE(errors->tailShare, 0.0);
    }

    void unmappedSpansAskForAMapping_data()
    {
        QTest::addColumn<bool>("unmapped");
        QTest::addColumn<QString>("fixHas");
        QTest::newRow("spans no mapping claimed") << true << "span mapping";
        QTest::newRow("missing stamps") << false << "instrument the missing stamps";
    }
    void unmappedSpansAskForAMapping()
    {
        // Requests that are all unattributed time: when they are spans no mapping claimed, the fix is a
        // mapping, not more instrumentation.
        QFETCH(bool, unmapped);
        QFETCH(QString, fixHas);
        std::vector<LatencyRow> rows;
        for (int i = 0; i < 100; ++i) {
            LatencyRow r;
            r.start = T0 + i * MS;
            r.e2e = (10 + i) * MS;
            r.segments.fill(kNotMeasured);
            r.segments[int(Segment::Unattributed)] = r.e2e;
            r.flags = unmapped ? std::uint32_t(kFlagUnmappedSpan) : 0u;
            rows.push_back(r);
        }
        const std::vector<Finding> findings = findFindings(rows);
        QVERIFY(!findings.empty());
        QCOMPARE(findings[0].id, std::string("unattributed"));
        QVERIFY2(QString::fromStdString(findings[0].fix).contains(fixHas), findings[0].fix.c_str());
        QCOMPARE(findings[0].evidence.find("no mapping claimed") != std::string::npos, unmapped);
    }

    void clockSkewAndNoTail()
    {
        // Two requests with a negative network time, and one without an e2e: nothing to rank but the skew.
        lxtest::StoreFixture f(
            "{\"id\":\"a\",\"t_client_send_ns\":1700000000100000000,\"t_server_recv_ns\":1700000000000000000,"
            "\"t_server_send_ns\":1700000000500000000,\"t_client_recv_ns\":1700000000510000000}\n"
            "{\"id\":\"b\",\"t_client_send_ns\":1700000001100000000,\"t_server_recv_ns\":1700000001000000000,"
            "\"t_server_send_ns\":1700000001500000000,\"t_client_recv_ns\":1700000001510000000}\n");
        const LatencyRows rows = readLatencyRows(*f.store, {});
        const std::vector<Finding> findings = findFindings(rows);
        const auto skew = std::find_if(findings.begin(), findings.end(), [](const Finding &x) { return x.id == "clock_skew"; });
        QVERIFY(skew != findings.end());
        QCOMPARE(skew->count, qint64(2));
        QCOMPARE(matching(*f.store, skew->filter), qint64(2));
    }

    // The queue finding carries the knee's figures, when there is a knee: its rate (the capacity), the
    // requests in flight at it and when the load first passed it.
    void queueFindingNamesTheKnee_data()
    {
        QTest::addColumn<bool>("withKnee");
        QTest::addColumn<QString>("expected"); // the evidence's end; empty: no knee figures
        QTest::newRow("knee") << true << QStringLiteral("; the load passes the knee near 4.55 req/s, 13 in flight, first at 2025-01-04T15:30:00Z");
        QTest::newRow("no knee") << false << QString();
    }
    void queueFindingNamesTheKnee()
    {
        QFETCH(bool, withKnee);
        QFETCH(QString, expected);
        QByteArray lines;
        int i = 0;
        for (; i < 90; ++i)
            lines += request(i, 1, 100 + i);
        for (int k = 0; k < 10; ++k, ++i)
            lines += request(i, 3000 + k, 200);
        lxtest::StoreFixture f(lines);
        const LatencyRows rows = readLatencyRows(*f.store, {});
        LoadAnalysis load;
        if (withKnee)
            load.knee = Knee{4.553, 12.9, 1'736'004'600'000'000'000}; // 2025-01-04T15:30:00Z
        const std::vector<Finding> findings = findFindings(rows, &load);
        QVERIFY(!findings.empty());
        QCOMPARE(QString::fromStdString(findings[0].id), QStringLiteral("queue"));
        const QString evidence = QString::fromStdString(findings[0].evidence);
        QVERIFY2(expected.isEmpty() ? !evidence.contains(QStringLiteral("knee")) : evidence.endsWith(expected), qPrintable(evidence));
    }

    /// A segment that is the largest of the slow requests but a smaller share of their time than of all
    /// requests' is not what made them slow: the evidence names the segment whose share grew (AIPerf's
    /// trace read "decode dominates the slow requests ... 59% of their e2e time against 74%", fix: a
    /// smaller model).
    void namesWhatGrewInTheTail_data()
    {
        QTest::addColumn<double>("tailQueueMs");
        QTest::addColumn<double>("tailDecodeMs");
        QTest::addColumn<QString>("expected"); // in the decode finding's evidence; empty: no such clause
        QTest::newRow("decode largest, queue grew")
            << 1400.0 << 1500.0
            << QStringLiteral("; its share is smaller in the tail than over all requests, where queue grows from 18% "
                              "to 48% of the e2e time");
        QTest::newRow("decode grew: nothing to add") << 100.0 << 3000.0 << QString();
    }
    void namesWhatGrewInTheTail()
    {
        QFETCH(double, tailQueueMs);
        QFETCH(double, tailDecodeMs);
        QFETCH(QString, expected);
        QByteArray lines;
        int i = 0;
        for (; i < 90; ++i)
            lines += request(i, 100, 1000);
        for (int k = 0; k < 10; ++k, ++i)
            lines += request(i, tailQueueMs, tailDecodeMs);
        lxtest::StoreFixture f(lines);
        const std::vector<Finding> findings = findFindings(readLatencyRows(*f.store, {}), nullptr);
        QVERIFY(!findings.empty());
        QCOMPARE(QString::fromStdString(findings[0].id), QStringLiteral("decode"));
        const QString evidence = QString::fromStdString(findings[0].evidence);
        QVERIFY2(expected.isEmpty() ? !evidence.contains(QStringLiteral("smaller in the tail"))
                                    : evidence.endsWith(expected),
                 qPrintable(evidence));
    }

    void empty()
    {
        QVERIFY(findFindings({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
