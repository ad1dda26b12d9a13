// SPDX-License-Identifier: GPL-3.0-or-later
// The two pieces of the knee on hand-made windows: the fit of min(N / L0, C) to the windows' throughput
// against their requests in flight, and where the offered load passes a capacity (Page's CUSUM).

#include "analysis/capacity_fit.h"

#include <QTest>

#include <cmath>

using namespace lx;

namespace {

/// Windows with `below` loads under N* = C L0 and `past` over it, spread evenly in logarithms, on the bounds.
std::vector<LoadPoint> onTheBounds(double capacity, double latency, int below, int past, double slopePast = 0)
{
    const double knee = capacity * latency;
    std::vector<LoadPoint> points;
    for (int i = 0; i < below; ++i) {
        const double n = knee * std::pow(0.1, double(below - i) / below); // from a tenth of the knee up
        points.push_back({std::log(n), std::log(n / latency), 10});
    }
    for (int i = 0; i < past; ++i) {
        const double n = knee * std::pow(20.0, double(i + 1) / past); // up to twenty times it
        points.push_back({std::log(n), std::log(capacity) + slopePast * std::log(n / knee), 10});
    }
    return points;
}

} // namespace

class TestCapacityFit : public QObject {
    Q_OBJECT

private slots:
    void fit_data()
    {
        QTest::addColumn<double>("capacity");
        QTest::addColumn<double>("latency");
        QTest::addColumn<int>("below");
        QTest::addColumn<int>("past");
        QTest::newRow("16 slots: 4.6 req/s, 2.8 s") << 4.6 << 2.8 << 40 << 60;
        QTest::newRow("256 slots: 73 req/s, 3 s") << 73.0 << 3.0 << 10 << 100;
        QTest::newRow("three windows each side") << 10.0 << 1.0 << 3 << 3;
        // `--window 1s` over five days: every split is fitted in constant time (prefix sums).
        QTest::newRow("432,000 windows") << 4.6 << 2.8 << 200'000 << 232'000;
    }
    void fit()
    {
        QFETCH(double, capacity);
        QFETCH(double, latency);
        QFETCH(int, below);
        QFETCH(int, past);
        const CapacityFit f = fitCapacity(onTheBounds(capacity, latency, below, past));
        QVERIFY(f.found);
        QVERIFY2(std::abs(std::exp(f.logCapacity) - capacity) < 1e-6 * capacity, qPrintable(QString::number(std::exp(f.logCapacity))));
        QVERIFY2(std::abs(std::exp(f.logKneeInFlight) - capacity * latency) < 1e-6 * capacity * latency,
                 qPrintable(QString::number(std::exp(f.logKneeInFlight))));
        QVERIFY2(f.sse < 1e-10 * 10 * (below + past), qPrintable(QString::number(f.sse))); // sums of squares: rounding, not a misfit
        QCOMPARE(f.pointsBelow, std::size_t(below));
        QCOMPARE(f.pointsPast, std::size_t(past));
        QVERIFY(std::abs(f.slopePast) < 1e-9);
    }

    // A load with a gap between its two levels (a step): the lines meet in the gap, not at a window.
    void kneeInAGap()
    {
        std::vector<LoadPoint> points;
        for (double n : {2.0, 2.1, 2.2, 1.9, 2.05})
            points.push_back({std::log(n), std::log(n / 2.0), 1}); // L0 = 2 s
        for (double n : {30.0, 60.0, 120.0, 240.0, 480.0})
            points.push_back({std::log(n), std::log(5.0), 1}); // C = 5 req/s, so N* = 10
        const CapacityFit f = fitCapacity(points);
        QVERIFY(f.found);
        QVERIFY2(std::abs(std::exp(f.logKneeInFlight) - 10.0) < 1e-6, qPrintable(QString::number(std::exp(f.logKneeInFlight))));
        QVERIFY(std::abs(std::exp(f.logCapacity) - 5.0) < 1e-6);
    }

    // A server that keeps up: the windows past any split still climb with the load.
    void keepsUpHasASteepSlopePast()
    {
        const CapacityFit f = fitCapacity(onTheBounds(10.0, 1.0, 20, 20, 0.9));
        QVERIFY(f.found);
        QVERIFY2(f.slopePast > 0.5, qPrintable(QString::number(f.slopePast)));
    }

    void tooFewPoints_data()
    {
        QTest::addColumn<int>("points");
        QTest::newRow("none") << 0;
        QTest::newRow("one") << 1;
        QTest::newRow("five, six needed") << 5;
    }
    void tooFewPoints()
    {
        QFETCH(int, points);
        std::vector<LoadPoint> p;
        for (int i = 0; i < points; ++i)
            p.push_back({double(i), double(i), 1});
        QVERIFY(!fitCapacity(p).found);
    }

    void overload_data()
    {
        QTest::addColumn<QList<double>>("rates"); // per window of 10 s
        QTest::addColumn<double>("capacity");
        QTest::addColumn<int>("start"); // -1: none
        QTest::newRow("steps over the capacity at window 4") << QList<double>{5, 5, 5, 5, 8, 8, 8, 8, 8, 8} << 6.0 << 4;
        QTest::newRow("at the capacity: chance, not an overload") << QList<double>{6, 6, 6, 6, 6, 6, 6, 6, 6, 6} << 6.0 << -1;
        QTest::newRow("5% over: within the allowance") << QList<double>{6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3, 6.3} << 6.0 << -1;
        QTest::newRow("one busy window is not enough") << QList<double>{5, 5, 7.5, 5, 5, 5} << 6.0 << -1;
        QTest::newRow("a ramp passes it where it crosses") << QList<double>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11} << 6.0 << 5;
        QTest::newRow("no windows") << QList<double>{} << 6.0 << -1;
        QTest::newRow("no capacity") << QList<double>{5, 8, 8} << 0.0 << -1;
    }
    void overload()
    {
        QFETCH(QList<double>, rates);
        QFETCH(double, capacity);
        QFETCH(int, start);
        std::vector<double> arrivals, seconds;
        for (double r : rates) {
            arrivals.push_back(10 * r);
            seconds.push_back(10);
        }
        const std::optional<std::size_t> found = overloadStart(arrivals, seconds, capacity);
        QCOMPARE(found ? int(*found) : -1, start);
    }
};

QTEST_GUILESS_MAIN(TestCapacityFit)
#include "tst_capacity_fit.moc"
