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
        QVERIFY(comparisonToText(c).find("of the change") != std::string::npos);
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
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
