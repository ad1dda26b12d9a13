// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall's level of detail: the density's cells and bands equal a brute-force computation over the
// covered requests, on one thread and on several; a cancelled one begins no band.

#include "waterfall_test_support.h"
#include "analysis/waterfall_density.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <tuple>

using namespace lx;
using namespace lxtest::waterfall;

class TestWaterfallDensity : public QObject {
    Q_OBJECT

private slots:
    void density_data();
    void density();
    void densityOnThreads_data();
    void densityOnThreads();
    void cancelled_data();
    void cancelled();
};

void TestWaterfallDensity::density_data()
{
    QTest::addColumn<bool>("lanes");
    QTest::addColumn<int>("sortKey");
    QTest::addColumn<double>("fromFraction");
    QTest::addColumn<double>("toFraction");
    QTest::addColumn<int>("firstRow");
    QTest::addColumn<int>("rowCount");
    QTest::addColumn<int>("columns");
    QTest::addColumn<int>("bands");
    QTest::newRow("rows by start, everything") << false << int(WaterfallSort::Key::Start) << 0.0 << 1.0 << 0 << 600 << 50 << 40;
    QTest::newRow("rows by e2e, zoomed") << false << int(WaterfallSort::Key::E2e) << 0.3 << 0.45 << 100 << 333 << 37 << 29;
    QTest::newRow("rows past the end") << false << int(WaterfallSort::Key::Start) << -0.2 << 1.3 << 550 << 200 << 20 << 7;
    QTest::newRow("more bands than rows") << false << int(WaterfallSort::Key::Start) << 0.0 << 1.0 << 10 << 5 << 20 << 30;
    QTest::newRow("lanes, everything") << true << 0 << 0.0 << 1.0 << 0 << 1000 << 64 << 3;
    QTest::newRow("lanes, zoomed") << true << 0 << 0.5 << 0.52 << 1 << 4 << 80 << 2;
}

void TestWaterfallDensity::density()
{
    QFETCH(bool, lanes);
    QFETCH(int, sortKey);
    QFETCH(double, fromFraction);
    QFETCH(double, toFraction);
    QFETCH(int, firstRow);
    QFETCH(int, rowCount);
    QFETCH(int, columns);
    QFETCH(int, bands);
    lxtest::StoreFixture f(randomTrace(600, 4));
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallRows rows = lanes ? WaterfallRows::lanes(*data)
                                     : WaterfallRows::sorted(*data, sortBy(WaterfallSort::Key(sortKey), true));
    const double span = static_cast<double>(data->lastEnd - data->firstStart);
    WaterfallViewport view;
    view.fromNs = data->firstStart + static_cast<std::int64_t>(fromFraction * span);
    view.toNs = data->firstStart + static_cast<std::int64_t>(toFraction * span);
    view.firstRow = std::size_t(firstRow);
    view.rowCount = std::min<std::size_t>(std::size_t(rowCount), rows.rowCount() - view.firstRow);
    view.columns = columns;
    view.bands = bands;
    const WaterfallDensity density = aggregateWaterfall(*data, rows, view);
    const int expectedBands = std::min(bands, int(view.rowCount));
    QCOMPARE(density.bands, expectedBands);
    QCOMPARE(density.columns, columns);
    QCOMPARE(density.fill.size(), std::size_t(expectedBands) * std::size_t(columns));

    const double bin = static_cast<double>(view.toNs - view.fromNs) / columns;
    std::size_t nextRow = view.firstRow;
    for (int b = 0; b < density.bands; ++b) {
        const WaterfallBand &band = density.bandInfo[std::size_t(b)];
        QCOMPARE(band.firstRow, nextRow); // the bands tile the rows
        QVERIFY(band.endRow > band.firstRow);
        nextRow = band.endRow;
        // Brute force: every request of the band's rows that is in the time range.
        std::vector<std::uint32_t> covered;
        for (std::uint32_t i : rows.requestsOf(band.firstRow, band.endRow)) {
            if (data->starts[i] < view.toNs && std::max(data->ends[i], data->starts[i] + 1) > view.fromNs)
                covered.push_back(i);
        }
        QCOMPARE(band.requests, std::int64_t(covered.size()));
        std::vector<std::array<double, kSegmentCount>> time(std::size_t(columns), std::array<double, kSegmentCount>{});
        for (int s = 0; s < kSegmentCount; ++s) {
            double sum = 0, measuredSum = 0;
            std::int64_t measured = 0;
            for (std::uint32_t i : covered) {
                sum += double(data->part(i, s));
                if (isMeasured(data->segment(i, Segment(s)))) {
                    ++measured;
                    measuredSum += double(data->segment(i, Segment(s)));
                }
            }
            QCOMPARE(band.measured[std::size_t(s)], measured);
            if (!covered.empty())
                QCOMPARE(band.meanPart(Segment(s)), sum / double(covered.size())); // the mean of the covered rows
            QCOMPARE(band.meanMeasured(Segment(s)).has_value(), measured > 0);
            if (measured)
                QCOMPARE(*band.meanMeasured(Segment(s)), measuredSum / double(measured));
        }
        for (std::uint32_t i : covered) {
            std::int64_t at = data->starts[i];
            for (int s : barOrder(*data, i)) {
                const std::int64_t d = data->part(i, s);
                if (d <= 0)
                    continue;
                for (int c = 0; c < columns; ++c) {
                    const double lo = double(view.fromNs) + c * bin, hi = lo + bin;
                    time[std::size_t(c)][std::size_t(s)] += std::max(0.0, std::min(hi, double(at + d)) - std::max(lo, double(at)));
                }
                at += d;
            }
        }
        const double bandRows = double(band.endRow - band.firstRow);
        for (int c = 0; c < columns; ++c) {
            const auto &t = time[std::size_t(c)];
            const double total = std::accumulate(t.begin(), t.end(), 0.0);
            const float fill = density.fill[density.cell(b, c)];
            QVERIFY2(std::abs(fill - std::min(1.0, total / bin / bandRows)) < 1e-4,
                     qPrintable(QStringLiteral("band %1 column %2: %3 against %4").arg(b).arg(c).arg(fill).arg(total / bin / bandRows)));
            const int dominant = density.dominant[density.cell(b, c)];
            if (total == 0) {
                QCOMPARE(dominant, -1);
                continue;
            }
            QVERIFY(dominant >= 0);
            const double most = *std::max_element(t.begin(), t.end());
            QVERIFY(t[std::size_t(dominant)] >= most * (1 - 1e-9) - 1e-3); // the largest, up to rounding
        }
    }
    QCOMPARE(nextRow, view.firstRow + view.rowCount);
}

void TestWaterfallDensity::densityOnThreads_data()
{
    QTest::addColumn<bool>("lanes");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("bands");
    QTest::addColumn<bool>("quarter"); // a quarter of the time in rows by start: the requests in a few bands
    for (bool lanes : {false, true}) {
        for (int threads : {2, 3, 7}) {
            QTest::addRow("%s, %d threads", lanes ? "lanes" : "rows", threads) << lanes << threads << 40 << false;
            QTest::addRow("%s, %d threads, more than the bands", lanes ? "lanes" : "rows", threads) << lanes << threads << 2 << false;
            QTest::addRow("%s, %d threads, a quarter of the time", lanes ? "lanes" : "rows", threads) << lanes << threads << 40 << true;
        }
    }
    QTest::newRow("rows, 2 threads, 500 bands") << false << 2 << 500 << true;
}

void TestWaterfallDensity::densityOnThreads()
{
    QFETCH(bool, lanes);
    QFETCH(int, threads);
    QFETCH(int, bands);
    QFETCH(bool, quarter);
    lxtest::StoreFixture f(randomTrace(700, 9));
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallRows rows = lanes ? WaterfallRows::lanes(*data)
                                     : WaterfallRows::sorted(*data, sortBy(quarter ? WaterfallSort::Key::Start : WaterfallSort::Key::E2e, true));
    WaterfallViewport view{data->firstStart, data->lastEnd + 1, 0, rows.rowCount(), 90, bands};
    if (quarter) {
        const std::int64_t span = data->lastEnd - data->firstStart;
        view.fromNs = data->firstStart + span / 4;
        view.toNs = data->firstStart + span / 2;
    }
    std::int64_t inTime = 0;
    rows.forEachIn(*data, 0, rows.rowCount(), view.fromNs, view.toNs, [&](std::size_t, std::size_t) { ++inTime; });
    const WaterfallDensity one = aggregateWaterfall(*data, rows, view, 1);
    const WaterfallDensity many = aggregateWaterfall(*data, rows, view, std::size_t(threads));
    QCOMPARE(many.bands, one.bands);
    QVERIFY(one.bands > 0);
    QVERIFY(many.fill == one.fill);
    QVERIFY(many.dominant == one.dominant);
    std::int64_t requests = 0;
    for (std::size_t b = 0; b < one.bandInfo.size(); ++b) {
        QCOMPARE(many.bandInfo[b].firstRow, one.bandInfo[b].firstRow);
        QCOMPARE(many.bandInfo[b].endRow, one.bandInfo[b].endRow);
        QCOMPARE(many.bandInfo[b].requests, one.bandInfo[b].requests);
        QVERIFY(many.bandInfo[b].partSums == one.bandInfo[b].partSums);
        QVERIFY(many.bandInfo[b].measured == one.bandInfo[b].measured);
        requests += one.bandInfo[b].requests;
    }
    QCOMPARE(requests, inTime); // every request in view, once
    if (!quarter)
        QCOMPARE(inTime, std::int64_t(data->size()));
    QVERIFY(inTime > 0);
}

void TestWaterfallDensity::cancelled_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("one thread") << 1;
    QTest::newRow("3 threads") << 3;
}

void TestWaterfallDensity::cancelled()
{
    QFETCH(int, threads);
    lxtest::StoreFixture f(randomTrace(700, 9));
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallRows rows = WaterfallRows::sorted(*data, {});
    const WaterfallViewport view{data->firstStart, data->lastEnd + 1, 0, rows.rowCount(), 90, 40};
    std::atomic<bool> cancel{false};
    const WaterfallDensity whole = aggregateWaterfall(*data, rows, view, std::size_t(threads), &cancel);
    QVERIFY(std::any_of(whole.fill.begin(), whole.fill.end(), [](float v) { return v > 0; }));
    cancel = true; // a view no longer wanted: no band is begun
    const WaterfallDensity dropped = aggregateWaterfall(*data, rows, view, std::size_t(threads), &cancel);
    QCOMPARE(dropped.bands, whole.bands);
    QVERIFY(std::all_of(dropped.fill.begin(), dropped.fill.end(), [](float v) { return v == 0; }));
    for (const WaterfallBand &band : dropped.bandInfo)
        QCOMPARE(band.requests, std::int64_t(0));
}

QTEST_GUILESS_MAIN(TestWaterfallDensity)
#include "tst_waterfall_density.moc"
