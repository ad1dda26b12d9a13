// SPDX-License-Identifier: GPL-3.0-or-later
// SLO targets: the grammar (valid and refused texts), durations in the filter language's units, and the
// evaluation over a store against values worked out here: the percentile, pass or fail, the margin and the
// segment budget of the requests around a failing percentile.

#include "model/duration_parse.h"
#include "model/percentiles.h"
#include "analysis/slo.h"
#include "test_support.h"

#include <QTest>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

/// A request with server stamps: preprocess 1 ms, then queue, prefill 10 ms, decode, postprocess 1 ms.
QByteArray request(int i, qint64 queueMs, qint64 decodeMs, const char *model)
{
    qint64 t = T0 + i * 1000 * MS;
    QByteArray out = "{\"id\":\"r" + QByteArray::number(i) + "\",\"model\":\"" + model + "\",\"t_server_recv_ns\":" + QByteArray::number(t);
    for (auto [name, ms] : {std::pair{"t_preprocess_done_ns", qint64(1)}, {"t_sched_ns", queueMs}, {"t_first_token_ns", qint64(10)},
                            {"t_last_token_ns", decodeMs}, {"t_server_send_ns", qint64(1)}}) {
        t += ms * MS;
        out += QByteArray(",\"") + name + "\":" + QByteArray::number(t);
    }
    return out + "}\n";
}

} // namespace

class TestSlo : public QObject {
    Q_OBJECT

private slots:
    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ns"); // -1: refused
        QTest::newRow("seconds") << "2s" << qint64(2'000'000'000);
        QTest::newRow("fraction, unit apart") << "1.5 s" << qint64(1'500'000'000);
        QTest::newRow("bare number is ms") << "250" << qint64(250'000'000);
        QTest::newRow("micro sign") << QStringLiteral("12µs") << qint64(12'000);
        QTest::newRow("minutes") << "2min" << qint64(120'000'000'000);
        QTest::newRow("sub-ns fraction rounds") << "1.0000006ms" << qint64(1'000'001);
        QTest::newRow("unknown unit") << "2sec" << qint64(-1);
        QTest::newRow("no number") << "s" << qint64(-1);
        QTest::newRow("empty") << "" << qint64(-1);
        QTest::newRow("out of range") << "99999999999999999h" << qint64(-1);
    }
    void durations()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ns);
        std::string why;
        const auto parsed = parseDurationNs(text.toStdString(), &why);
        if (ns < 0) {
            QVERIFY(!parsed);
            QVERIFY(!why.empty());
        } else {
            QVERIFY2(parsed, why.c_str());
            QCOMPARE(*parsed, ns);
        }
    }

    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("metric"); // empty: refused, and `error` is part of the message
        QTest::addColumn<double>("percentile");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<qint64>("thresholdMs");
        QTest::addColumn<QString>("error");
        QTest::newRow("e2e p95") << "e2e.p95<=2s" << "e2e" << 95.0 << false << qint64(2000) << "";
        QTest::newRow("ttft p99 strict, spaces") << "ttft.p99 < 500ms" << "ttft" << 99.0 << true << qint64(500) << "";
        QTest::newRow("segment, p99.9") << "queue.p99.9<=1.5s" << "queue" << 99.9 << false << qint64(1500) << "";
        QTest::newRow("with a filter") << "itl.p50<=30ms where model = \"m\"" << "itl" << 50.0 << false << qint64(30) << "";
        QTest::newRow("unknown metric") << "latency.p95<=2s" << "" << 0.0 << false << qint64(0) << "unknown metric";
        QTest::newRow("no percentile") << "e2e<=2s" << "" << 0.0 << false << qint64(0) << "expected METRIC.pQ";
        QTest::newRow("percentile over 100") << "e2e.p101<=2s" << "" << 0.0 << false << qint64(0) << "from 0 to 100";
        QTest::newRow("greater than") << "e2e.p95>=2s" << "" << 0.0 << false << qint64(0) << "expected <= or <";
        QTest::newRow("bad unit") << "e2e.p95<=2 parsecs" << "" << 0.0 << false << qint64(0) << "is not one of";
        QTest::newRow("bad filter") << "e2e.p95<=2s where e2 > 1s" << "" << 0.0 << false << qint64(0) << "filter: unknown field";
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QString, metric);
        QFETCH(double, percentile);
        QFETCH(bool, strict);
        QFETCH(qint64, thresholdMs);
        QFETCH(QString, error);
        std::string why;
        const auto slo = parseSlo(text.toStdString(), &why);
        if (metric.isEmpty()) {
            QVERIFY(!slo);
            QVERIFY2(why.find(error.toStdString()) != std::string::npos, why.c_str());
            QVERIFY2(why.find(text.toStdString()) != std::string::npos, why.c_str()); // names the target
            return;
        }
        QVERIFY2(slo, why.c_str());
        QCOMPARE(QString::fromStdString(slo->metric), metric);
        QCOMPARE(slo->percentile, percentile);
        QCOMPARE(slo->strict, strict);
        QCOMPARE(slo->thresholdNs, thresholdMs * MS);
    }

    void evaluate()
    {
        // 20 requests: "a" ones decode-bound (e2e 112..1012 ms), "b" ones queue-bound and slow.
        QByteArray lines;
        std::vector<std::int64_t> e2eAll, ttftB;
        for (int i = 0; i < 20; ++i) {
            const bool slow = i % 4 == 3;
            const qint64 queue = slow ? 2000 + 100 * i : 0, decode = slow ? 100 : 100 + 50 * i;
            lines += request(i, queue, decode, slow ? "b" : "a");
            e2eAll.push_back((12 + queue + decode) * MS);
            if (slow)
                ttftB.push_back((11 + queue) * MS);
        }
        lxtest::StoreFixture f(lines);
        std::sort(e2eAll.begin(), e2eAll.end());
        std::sort(ttftB.begin(), ttftB.end());
        std::vector<SloTarget> targets;
        for (const char *text : {"e2e.p95<=2s", "e2e.p50<=2s", "ttft.p90<3s where model = b", "decode.p50<=1ms where model = nobody"}) {
            std::string why;
            targets.push_back(*parseSlo(text, &why));
        }
        const std::vector<SloResult> r = evaluateSlos(*f.store, {}, targets);
        QCOMPARE(r.size(), std::size_t(4));

        const double p95 = percentileOfSorted(e2eAll, 95);
        QCOMPARE(r[0].count, qint64(20));
        QCOMPARE(*r[0].valueNs, p95);
        QVERIFY(!r[0].pass);
        QCOMPARE(r[0].marginNs, 2e9 - p95);
        // Around p95: e2e between p94 and p96, here the slowest request alone, which is queue-bound.
        QCOMPARE(r[0].bandLoNs, percentileOfSorted(e2eAll, 94));
        QCOMPARE(r[0].bandHiNs, percentileOfSorted(e2eAll, 96));
        QVERIFY(r[0].bandCount >= 1);
        QCOMPARE(r[0].budgetDominant, int(Segment::Queue));
        QVERIFY(r[0].budgetSentence().starts_with("at p95, queue is "));

        QCOMPARE(*r[1].valueNs, percentileOfSorted(e2eAll, 50));
        QVERIFY(r[1].pass);
        QCOMPARE(r[1].budgetDominant, -1); // a passing target has no budget

        QCOMPARE(r[2].count, qint64(5));
        QCOMPARE(*r[2].valueNs, percentileOfSorted(ttftB, 90));
        QCOMPARE(r[2].pass, *r[2].valueNs < 3e9);

        QCOMPARE(r[3].count, qint64(0)); // no request matches: no value, neither pass nor fail
        QVERIFY(!r[3].valueNs);
    }
};

QTEST_GUILESS_MAIN(TestSlo)
#include "tst_slo.moc"
