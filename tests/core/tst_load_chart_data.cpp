// SPDX-License-Identifier: GPL-3.0-or-later
// The load view's per-bucket data beside core's load analysis: on a simulated rising-load trace every
// bucket holds the requests core counted in it, its segment shares are its means over its mean e2e, and
// its TTFT and TPOT are those of the requests whose windows fall in the bucket's load range (found here
// by another route than the code's). The story a knee tells: TTFT takes the queue on while TPOT barely
// moves. When the buckets' totals span more than tenfold, the view starts on shares.

#include "analysis/load_chart_data.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lx;

namespace {

struct Simulated {
    Simulated()
    {
        sim::SimConfig config;
        config.requests = 6000; // 32 slots, 1 to 18 req/s: past the knee near 9 req/s
        std::string text;
        sim::simulate(config, [&](const sim::SimRequest &r) { sim::appendTimestampsLine(text, r); });
        imported = lxtest::importPaths({lxtest::writeFile(dir, QStringLiteral("trace.jsonl"), QByteArray::fromStdString(text))});
        if (imported.store) {
            loaded = readLoadRows(*imported.store, {});
            data = computeLoadChartData(loaded.rows, loaded.tokens);
        }
    }
    QTemporaryDir dir;
    lxtest::Imported imported;
    LoadRows loaded;
    LoadChartData data;
};

const Simulated &simulated()
{
    static const Simulated s;
    return s;
}

void addLoadKeyRows()
{
    QTest::addColumn<int>("key");
    QTest::newRow("by arrival rate") << int(LoadKey::ArrivalRate);
    QTest::newRow("by requests in flight") << int(LoadKey::InFlight);
}

/// A bucket with only its mean e2e set, for bucketsSpanTenfold().
LoadBucket bucketOfMean(double meanNs, std::int64_t count = 10)
{
    LoadBucket b;
    b.count = count;
    if (count > 0)
        b.e2eMeanNs = meanNs;
    return b;
}

} // namespace

class TestLoadChartData : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(simulated().imported.store, simulated().imported.error.c_str());
        QVERIFY2(simulated().data.byArrivalRate.knee, simulated().data.byArrivalRate.sentence().c_str());
        QCOMPARE(simulated().loaded.tokens.size(), simulated().loaded.rows.size());
    }

    void storeScanIsTheRowsScan()
    {
        // The store overload reads the same rows with their token metrics.
        const LoadChartData fromStore = computeLoadChartData(*simulated().imported.store, {});
        QCOMPARE(fromStore.byArrivalRate.sentence(), simulated().data.byArrivalRate.sentence());
        QCOMPARE(fromStore.arrivalRateDetails.size(), simulated().data.arrivalRateDetails.size());
        for (std::size_t b = 0; b < fromStore.arrivalRateDetails.size(); ++b)
            QCOMPARE(fromStore.arrivalRateDetails[b].tpot.meanNs, simulated().data.arrivalRateDetails[b].tpot.meanNs);
    }

    void bucketsHoldCoresRequests_data() { addLoadKeyRows(); }
    void bucketsHoldCoresRequests()
    {
        QFETCH(int, key);
        const LoadAnalysis &load = simulated().data.analysis(LoadKey(key));
        const std::vector<LoadBucketDetail> &details = simulated().data.details(LoadKey(key));
        QVERIFY(!load.buckets.empty());
        QCOMPARE(details.size(), load.buckets.size());
        for (std::size_t b = 0; b < details.size(); ++b) {
            QCOMPARE(details[b].requests, load.buckets[b].count);
            QVERIFY(details[b].tpot.count <= details[b].requests);
            QVERIFY(details[b].ttft.count <= details[b].requests);
        }
    }

    void sharesAreMeansOverE2e_data() { addLoadKeyRows(); }
    void sharesAreMeansOverE2e()
    {
        QFETCH(int, key);
        const LoadAnalysis &load = simulated().data.analysis(LoadKey(key));
        const std::vector<LoadBucketDetail> &details = simulated().data.details(LoadKey(key));
        for (std::size_t b = 0; b < details.size(); ++b) {
            double sum = 0;
            for (int s = 0; s < kSegmentCount; ++s) {
                const double share = details[b].segmentShare[std::size_t(s)];
                sum += share;
                if (load.buckets[b].count > 0)
                    QCOMPARE(share, load.buckets[b].segmentMeanNs[std::size_t(s)] / *load.buckets[b].e2eMeanNs);
            }
            if (load.buckets[b].count > 0)
                QVERIFY2(std::abs(sum - 1) < 1e-9, qPrintable(QString::number(sum)));
            else
                QCOMPARE(sum, 0.0);
        }
    }

    void tokenMetricsOfTheBucketsWindows_data() { addLoadKeyRows(); }
    void tokenMetricsOfTheBucketsWindows()
    {
        // Another route to each bucket's requests: every window whose load lies in the bucket's range and
        // that core counted requests of, then the rows that started in those windows.
        QFETCH(int, key);
        const LoadAnalysis &load = simulated().data.analysis(LoadKey(key));
        const std::vector<LoadBucketDetail> &details = simulated().data.details(LoadKey(key));
        const LoadRows &loaded = simulated().loaded;
        const std::int64_t width = load.profile.windowNs;
        for (std::size_t b = 0; b < details.size(); ++b) {
            const LoadBucket &bucket = load.buckets[b];
            const bool last = b + 1 == details.size();
            double sum = 0;
            std::int64_t n = 0;
            for (const LoadWindow &w : load.profile.windows) {
                const double x = LoadKey(key) == LoadKey::ArrivalRate ? w.arrivalRps : w.meanInFlight;
                const bool inside = x >= bucket.loadLo * (1 - 1e-12) && (last ? x <= bucket.loadHi * (1 + 1e-12) : x < bucket.loadHi);
                if (!inside || w.count < 3 || 2 * w.coveredNs < width)
                    continue;
                for (std::size_t i = 0; i < loaded.rows.size(); ++i) {
                    const LatencyRow &row = loaded.rows[i];
                    if (row.start >= w.startNs && row.start < w.startNs + width && inLatencyStats(row, false)
                        && isMeasured(loaded.tokens[i].tpot)) {
                        sum += double(loaded.tokens[i].tpot);
                        ++n;
                    }
                }
            }
            QCOMPARE(details[b].tpot.count, n);
            if (n > 0)
                QVERIFY2(std::abs(*details[b].tpot.meanNs - sum / double(n)) < 1e-6 * sum / double(n), qPrintable(QString::number(b)));
        }
    }

    void tpotBarelyMovesWhileTtftTakesTheQueue()
    {
        // The seed's story: below the knee the queue is near empty, past it the queue dominates; TTFT
        // grows with the queue, TPOT (the decode's pace, slower as a full batch shares the engine) stays within
        // half of where it started.
        const std::vector<LoadBucketDetail> &details = simulated().data.arrivalRateDetails;
        const LoadBucketDetail *first = nullptr, *last = nullptr;
        for (const LoadBucketDetail &d : details) {
            if (d.tpot.count == 0)
                continue;
            if (!first)
                first = &d;
            last = &d;
        }
        QVERIFY(first && last && first != last);
        QVERIFY2(*last->ttft.meanNs > 10 * *first->ttft.meanNs,
                 qPrintable(QStringLiteral("TTFT %1 ms to %2 ms").arg(*first->ttft.meanNs / 1e6).arg(*last->ttft.meanNs / 1e6)));
        QVERIFY2(std::abs(*last->tpot.meanNs / *first->tpot.meanNs - 1) < 0.5,
                 qPrintable(QStringLiteral("TPOT %1 ms to %2 ms").arg(*first->tpot.meanNs / 1e6).arg(*last->tpot.meanNs / 1e6)));
        QCOMPARE(first->tpot.percentilesNs.size(), kBucketTokenPercentiles.size());
        QVERIFY(first->tpot.percentilesNs[0] && first->tpot.percentilesNs[1]);
        QVERIFY(*first->tpot.percentilesNs[0] <= *first->tpot.percentilesNs[1]);
    }

    void withoutTokenMetrics()
    {
        // Rows alone (the CLI's path before it had the token metrics): the buckets and their shares, no TTFT or TPOT.
        const LoadChartData data = computeLoadChartData(simulated().loaded.rows);
        QCOMPARE(data.arrivalRateDetails.size(), data.byArrivalRate.buckets.size());
        for (std::size_t b = 0; b < data.arrivalRateDetails.size(); ++b) {
            QCOMPARE(data.arrivalRateDetails[b].requests, data.byArrivalRate.buckets[b].count);
            QCOMPARE(data.arrivalRateDetails[b].tpot.count, std::int64_t(0));
            QVERIFY(!data.arrivalRateDetails[b].tpot.meanNs);
        }
    }

    void noRowsNoBuckets()
    {
        const LoadChartData data = computeLoadChartData(std::vector<LatencyRow>{});
        QVERIFY(data.arrivalRateDetails.empty());
        QVERIFY(data.inFlightDetails.empty());
        QVERIFY(!bucketsSpanTenfold(data.byArrivalRate));
    }

    void spanTenfold_data()
    {
        QTest::addColumn<QList<double>>("means"); // a negative mean: an empty bucket
        QTest::addColumn<bool>("tenfold");
        QTest::newRow("no buckets") << QList<double>{} << false;
        QTest::newRow("one bucket") << QList<double>{1e9} << false;
        QTest::newRow("fivefold") << QList<double>{1e9, 5e9} << false;
        QTest::newRow("exactly tenfold is not more") << QList<double>{1e9, 10e9} << false;
        QTest::newRow("elevenfold") << QList<double>{2e9, 1e9, 11e9} << true;
        QTest::newRow("hour-long queues past the knee") << QList<double>{3e9, 4e9, 3600e9} << true;
        QTest::newRow("empty buckets left out") << QList<double>{-1, 1e9, -1, 5e9} << false;
        QTest::newRow("only empty buckets") << QList<double>{-1, -1} << false;
    }
    void spanTenfold()
    {
        QFETCH(QList<double>, means);
        QFETCH(bool, tenfold);
        LoadAnalysis load;
        for (double mean : means)
            load.buckets.push_back(mean < 0 ? bucketOfMean(0, 0) : bucketOfMean(mean));
        QCOMPARE(bucketsSpanTenfold(load), tenfold);
    }
};

QTEST_GUILESS_MAIN(TestLoadChartData)
#include "tst_load_chart_data.moc"
