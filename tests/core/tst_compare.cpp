// SPDX-License-Identifier: GPL-3.0-or-later
// Compare: the shift-share split adds up to the e2e change exactly (mean and around p95), each side's
// figures agree with sums worked out here, two time windows of one store give the same as two stores.

#include "analysis/compare.h"
#include "test_support.h"

#include <QTest>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

QByteArray request(int i, qint64 startMs, double queueMs, double decodeMs, double networkMs)
{
    return "{\"id\":\"r" + QByteArray::number(i) + "\",\"start_ns\":" + QByteArray::number(T0 + startMs * MS)
           + ",\"network_ms\":" + QByteArray::number(networkMs) + ",\"queue_ms\":" + QByteArray::number(queueMs)
           + ",\"decode_ms\":" + QByteArray::number(decodeMs) + "}\n";
}

QByteArray side(int first, qint64 startMs, double queueMs, double decodeMs)
{
    QByteArray lines;
    for (int i = 0; i < 100; ++i)
        lines += request(first + i, startMs + i, queueMs * (1 + i % 7), decodeMs + 3 * i, 5 + i % 3);
    return lines;
}

double sum(const std::array<double, kSegmentCount> &parts)
{
    double total = 0;
    for (double p : parts)
        total += p;
    return total;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void splitAddsUp_data()
    {
        QTest::addColumn<double>("incidentQueueMs");
        QTest::addColumn<double>("incidentDecodeMs");
        QTest::newRow("queue grows") << 400.0 << 100.0;
        QTest::newRow("decode grows") << 2.0 << 900.0;
        QTest::newRow("both shrink") << 1.0 << 50.0;
    }
    void splitAddsUp()
    {
        QFETCH(double, incidentQueueMs);
        QFETCH(double, incidentDecodeMs);
        lxtest::StoreFixture baseline(side(0, 0, 2.0, 100.0));
        lxtest::StoreFixture incident(side(1000, 0, incidentQueueMs, incidentDecodeMs));
        const Comparison c = compareInvestigations(*baseline.store, {}, *incident.store, {});
        QCOMPARE(c.baselineMean.count, qint64(100));
        QCOMPARE(c.incidentMean.count, qint64(100));
        // The parts add up to the mean e2e on each side, so the deltas add up to its change (to rounding).
        QVERIFY(std::abs(sum(c.baselineMean.partNs) - c.baselineMean.e2eNs) < 1e-3);
        QVERIFY(std::abs(sum(c.incidentMean.partNs) - c.incidentMean.e2eNs) < 1e-3);
        QVERIFY(std::abs(sum(c.baselineTail.partNs) - c.baselineTail.e2eNs) < 1e-3);
        QVERIFY(std::abs(sum(c.incidentTail.partNs) - c.incidentTail.e2eNs) < 1e-3);
        QCOMPARE(c.baselineMean.e2eNs, *c.baseline.e2e.stat.meanNs);
        QCOMPARE(c.incidentMean.e2eNs, *c.incident.e2e.stat.meanNs);
        // Queue: mean of q * (1 + i % 7) over i < 100 is q * (1 + mean of i % 7) = q * (1 + 295 / 100).
        QCOMPARE(c.incidentMean.partNs[int(Segment::Queue)] / MS, incidentQueueMs * 3.95);
        QVERIFY(c.baselineTail.count >= 1);
        const std::string json = comparisonToJson(c);
        QVERIFY(json.find("\"shift_share\"") != std::string::npos);
        QVERIFY(json.find("\"p95_band\"") != std::string::npos);
        const std::string text = comparisonToText(c);
        QVERIFY(text.find("of the change") != std::string::npos);
        // The token metrics are in the text as in the JSON (the text had the segments and e2e alone).
        for (const char *row : {"\n  TTFT          p50 ", "\n  TPOT          p50 "})
            QVERIFY2(text.find(row) != std::string::npos, row);
    }

    void twoWindowsOfOneStore()
    {
        lxtest::StoreFixture both(side(0, 0, 2.0, 100.0) + side(1000, 10'000, 400.0, 100.0));
        lxtest::StoreFixture baseline(side(0, 0, 2.0, 100.0));
        lxtest::StoreFixture incident(side(1000, 10'000, 400.0, 100.0));
        RequestFilter early, late;
        early.toNs = T0 + 5'000 * MS;
        late.fromNs = T0 + 5'000 * MS;
        const Comparison windows = compareInvestigations(*both.store, early, *both.store, late);
        const Comparison stores = compareInvestigations(*baseline.store, {}, *incident.store, {});
        QCOMPARE(windows.baselineMean.e2eNs, stores.baselineMean.e2eNs);
        QCOMPARE(windows.incidentMean.e2eNs, stores.incidentMean.e2eNs);
        QCOMPARE(windows.incidentTail.partNs, stores.incidentTail.partNs);
    }

    void emptySide()
    {
        const Composition none = composition({}, false);
        QCOMPARE(none.count, qint64(0));
        QCOMPARE(none.e2eNs, 0.0);
        QCOMPARE(compositionAround({}, 95, false).count, qint64(0));
    }

    /// What makes a comparison less than it reads as is said with it: the split once explained a change
    /// between a client-only benchmark and a server trace, and a window of no request, without a word.
    void cautions_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QStringList>("said"); // one part of each caution, in order; none for like with like
        QTest::newRow("like with like") << QStringLiteral("") << QStringList {};
        QTest::newRow("a side of none") << QStringLiteral(
            "empty baseline") << QStringList { QStringLiteral("the baseline holds no request: nothing is compared") };
        QTest::newRow("errors only") << QStringLiteral("errors-only incident")
                                     << QStringList { QStringLiteral(
                                            "the incident has no request in the latency statistics") };
        QTest::newRow("different clocks")
            << QStringLiteral("server incident")
            << QStringList { QStringLiteral("different clocks (baseline: client, incident: server)") };
        QTest::newRow("a segment on one side")
            << QStringLiteral("queue in the incident")
            << QStringList { QStringLiteral("measured on one side only: queue (incident)") };
    }
    void cautions()
    {
        QFETCH(QString, setup);
        QFETCH(QStringList, said);
        Comparison c;
        for (Report *side : { &c.baseline, &c.incident }) {
            side->total = side->ok = 10;
            side->e2e.scope = "client";
            side->e2e.stat.count = 10;
            side->segments[static_cast<std::size_t>(Segment::Decode)].stat.count = 10;
        }
        c.baselineMean.count = c.incidentMean.count = 10;
        if (setup == QLatin1String("empty baseline")) {
            c.baseline.total = c.baseline.ok = 0;
            c.baselineMean.count = 0;
        } else if (setup == QLatin1String("errors-only incident")) {
            c.incident.ok = 0;
            c.incident.error = 10;
            c.incidentMean.count = 0;
        } else if (setup == QLatin1String("server incident")) {
            c.incident.e2e.scope = "server";
        } else if (setup == QLatin1String("queue in the incident")) {
            c.incident.segments[static_cast<std::size_t>(Segment::Queue)].stat.count = 10;
        }
        const std::vector<std::string> cautions = comparisonCautions(c);
        QCOMPARE(cautions.size(), std::size_t(said.size()));
        for (std::size_t i = 0; i < cautions.size(); ++i)
            QVERIFY2(QString::fromStdString(cautions[i]).contains(said[int(i)]), cautions[i].c_str());
        // Said in both outputs.
        const QString text = QString::fromStdString(comparisonToText(c));
        const QString json = QString::fromStdString(comparisonToJson(c));
        QCOMPARE(text.contains(QLatin1String("Caution: ")), !said.isEmpty());
        QCOMPARE(json.contains(QLatin1String("\"cautions\"")), !said.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
