// SPDX-License-Identifier: GPL-3.0-or-later
// The knee on traces where it is known: the simulation's server has a capacity (slots over the mean time a
// request holds one), and a rising load crosses it at a known rate. The knee found must lie within ±20% of
// that rate, with decode dominating below it and the queue above; a trace that stays under capacity has no
// knee and says why. Also the hinge on hand-made windows and the sentence.

#include "analysis/load_analysis.h"
#include "filter/request_filter.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace lx;

namespace {

/// A simulated rising-load trace imported into a temporary store.
struct SimulatedStore {
    explicit SimulatedStore(const sim::SimConfig &config)
    {
        std::string text;
        sim::simulate(config, [&](const sim::SimRequest &r) { sim::appendTimestampsLine(text, r); });
        const std::string path = lxtest::writeFile(dir, QStringLiteral("trace.jsonl"), QByteArray::fromStdString(text));
        imported = lxtest::importPaths({path});
    }
    QTemporaryDir dir;
    lxtest::Imported imported;
};

std::string describe(const LoadAnalysis &load)
{
    std::string out = load.sentence() + "\n";
    for (const LoadWindow &w : load.profile.windows) {
        char line[160];
        std::snprintf(line, sizeof line, "  rate %6.2f thr %6.2f inflight %7.1f n %4lld p95 %8.0f ms queue %8.0f ms\n", w.arrivalRps,
                      w.throughputRps, w.meanInFlight, static_cast<long long>(w.count), w.e2eP95Ns ? *w.e2eP95Ns / 1e6 : -1.0,
                      w.segmentMeanNs[int(Segment::Queue)] / 1e6);
        out += line;
    }
    return out;
}

} // namespace

class TestKnee : public QObject {
    Q_OBJECT

private slots:
    void simulatedKnee_data()
    {
        QTest::addColumn<int>("decodeSlots");
        QTest::addColumn<double>("startRate");
        QTest::addColumn<double>("endRate");
        QTest::addColumn<int>("requests");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("32 slots, 1 to 18 req/s") << 32 << 1.0 << 18.0 << 6000 << quint64(42);
        QTest::newRow("16 slots, 0.5 to 9 req/s") << 16 << 0.5 << 9.0 << 4000 << quint64(7);
        QTest::newRow("64 slots, 2 to 36 req/s") << 64 << 2.0 << 36.0 << 12000 << quint64(2024);
        QTest::newRow("32 slots, knee late: 4 to 11 req/s") << 32 << 4.0 << 11.0 << 6000 << quint64(5);
    }
    void simulatedKnee()
    {
        QFETCH(int, decodeSlots);
        QFETCH(double, startRate);
        QFETCH(double, endRate);
        QFETCH(int, requests);
        QFETCH(quint64, seed);
        sim::SimConfig config;
        config.decodeSlots = decodeSlots;
        config.startRateRps = startRate;
        config.endRateRps = endRate;
        config.requests = requests;
        config.seed = seed;
        const double capacity = sim::estimatedCapacityRps(config);
        SimulatedStore sim(config);
        QVERIFY2(sim.imported.store, sim.imported.error.c_str());
        const LoadAnalysis load = analyzeLoad(*sim.imported.store, {});
        const QByteArray why = QByteArray::fromStdString(describe(load)) + "capacity " + QByteArray::number(capacity);
        QVERIFY2(load.knee, why);
        QVERIFY2(std::abs(load.knee->rateRps - capacity) <= 0.2 * capacity, why);
        QCOMPARE(load.below.segment, int(Segment::Decode));
        QCOMPARE(load.above.segment, int(Segment::Queue));
        QVERIFY2(load.above.share > 0.5, why);
        // At the knee about every slot is busy (the queue starts to build a little before all are, in bursts).
        QVERIFY2(load.knee->inFlight >= 0.5 * decodeSlots && load.knee->inFlight <= 1.5 * decodeSlots, why);
        qInfo("%s (capacity %.2f req/s)", load.sentence().c_str(), capacity);
    }

    void bucketWidths_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<double>("endRate"); // from 1 req/s; 32 slots make about 9 req/s
        QTest::addColumn<bool>("geometric");
        QTest::newRow("in flight, overloaded: hundreds against a knee in the tens") << int(LoadKey::InFlight) << 18.0 << true;
        QTest::newRow("arrival rate, overloaded: equal widths") << int(LoadKey::ArrivalRate) << 18.0 << false;
        QTest::newRow("in flight, under capacity: within tenfold") << int(LoadKey::InFlight) << 5.0 << false;
    }
    void bucketWidths()
    {
        QFETCH(int, key);
        QFETCH(double, endRate);
        QFETCH(bool, geometric);
        sim::SimConfig config;
        config.startRateRps = endRate > 10 ? 1.0 : 3.0;
        config.endRateRps = endRate;
        config.requests = 3000;
        SimulatedStore sim(config);
        QVERIFY2(sim.imported.store, sim.imported.error.c_str());
        KneeOptions options;
        options.bucketBy = LoadKey(key);
        const LoadAnalysis load = analyzeLoad(*sim.imported.store, {}, {}, options);
        QCOMPARE(load.geometricBuckets, geometric);
        QCOMPARE(int(load.buckets.size()), options.buckets);
        const LoadBucket &first = load.buckets.front(), &last = load.buckets.back();
        QCOMPARE(last.loadHi >= 10 * first.loadLo, geometric || LoadKey(key) == LoadKey::ArrivalRate);
        std::int64_t windows = 0;
        for (std::size_t b = 0; b < load.buckets.size(); ++b) {
            const LoadBucket &bucket = load.buckets[b];
            if (b > 0)
                QCOMPARE(bucket.loadLo, load.buckets[b - 1].loadHi); // they tile the range
            const double expected = geometric ? first.loadLo * std::pow(last.loadHi / first.loadLo, double(b + 1) / double(load.buckets.size()))
                                              : first.loadLo + (last.loadHi - first.loadLo) * double(b + 1) / double(load.buckets.size());
            QVERIFY2(std::abs(bucket.loadHi - expected) <= 1e-9 * expected, qPrintable(QString::number(bucket.loadHi)));
            windows += bucket.windows;
        }
        // Every window of the fit is in the bucket that holds its load.
        std::int64_t usable = 0;
        for (const LoadWindow &w : load.profile.windows) {
            const double x = LoadKey(key) == LoadKey::InFlight ? w.meanInFlight : w.arrivalRps;
            if (2 * w.coveredNs < load.profile.windowNs || w.count < options.minWindowRequests || !w.e2eP95Ns)
                continue;
            ++usable;
            QVERIFY(x >= first.loadLo && x <= last.loadHi);
        }
        QCOMPARE(windows, usable);
    }

    void underCapacityHasNoKnee()
    {
        sim::SimConfig config;
        config.startRateRps = 1.0;
        config.endRateRps = 0.6 * sim::estimatedCapacityRps(config);
        config.requests = 3000;
        SimulatedStore sim(config);
        QVERIFY2(sim.imported.store, sim.imported.error.c_str());
        const LoadAnalysis load = analyzeLoad(*sim.imported.store, {});
        QVERIFY2(!load.knee, describe(load).c_str());
        QVERIFY(load.noKneeReason.find("never reaches its knee") != std::string::npos);
        QCOMPARE(load.below.segment, int(Segment::Decode));
        QCOMPARE(load.above.segment, -1);
        QVERIFY(load.sentence().starts_with("no knee: "));
    }

    void tooFewWindows_data()
    {
        QTest::addColumn<int>("requests");
        QTest::newRow("nothing") << 0;
        QTest::newRow("a handful") << 5;
    }
    void tooFewWindows()
    {
        QFETCH(int, requests);
        std::vector<LatencyRow> rows(static_cast<std::size_t>(requests));
        for (int i = 0; i < requests; ++i) {
            rows[static_cast<std::size_t>(i)].start = 1'700'000'000'000'000'000 + i * 1'000'000'000LL;
            rows[static_cast<std::size_t>(i)].segments.fill(0);
            rows[static_cast<std::size_t>(i)].segments[int(Segment::Decode)] = rows[static_cast<std::size_t>(i)].e2e = 500'000'000;
        }
        const LoadAnalysis load = analyzeLoad(computeLoadProfile(rows), rows);
        QVERIFY(!load.knee);
        QVERIFY2(load.noKneeReason.starts_with("too few windows"), load.noKneeReason.c_str());
        QCOMPARE(load.below.segment, requests ? int(Segment::Decode) : -1);
        QCOMPARE(load.below.share, requests ? 1.0 : 0.0);
    }

    // Benchmark results without send times (vLLM bench, LLMPerf) have requests but no arrivals: the reason
    // is said instead of "too few windows"; one request with a start is enough to look at the load.
    void noArrivalTimes_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("withStart");
        QTest::addColumn<bool>("expected");
        QTest::newRow("none has a start") << 4 << 0 << true;
        QTest::newRow("one has a start") << 4 << 1 << false;
        QTest::newRow("all have a start") << 4 << 4 << false;
        QTest::newRow("no requests") << 0 << 0 << false;
    }
    void noArrivalTimes()
    {
        QFETCH(int, requests);
        QFETCH(int, withStart);
        QFETCH(bool, expected);
        std::vector<LatencyRow> rows(static_cast<std::size_t>(requests));
        for (int i = 0; i < requests; ++i) {
            LatencyRow &row = rows[static_cast<std::size_t>(i)];
            if (i < withStart)
                row.start = 1'700'000'000'000'000'000 + i * 1'000'000'000LL;
            row.segments.fill(0);
            row.segments[int(Segment::Decode)] = row.e2e = 500'000'000;
        }
        const LoadAnalysis load = analyzeLoad(computeLoadProfile(rows), rows);
        QCOMPARE(load.noArrivalTimes, expected);
        QCOMPARE(load.noKneeReason == kNoArrivalTimes, expected);
        QCOMPARE(load.sentence() == kNoArrivalTimes, expected);
        QVERIFY(!load.knee);
    }

    void noArrivalTimesInBenchmarkFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("vLLM bench") << QStringLiteral("vllm_bench/serving_result.json");
        QTest::newRow("LLMPerf") << QStringLiteral("llmperf/model_550_150_individual_responses.json");
    }
    void noArrivalTimesInBenchmarkFiles()
    {
        QFETCH(QString, file);
        const lxtest::Imported imported = lxtest::importPaths({(QStringLiteral(LX_SOURCE_DIR "/tests/golden/") + file).toStdString()});
        QVERIFY2(imported.store, imported.error.c_str());
        const LoadAnalysis load = analyzeLoad(*imported.store, RequestFilter{});
        QVERIFY(load.noArrivalTimes);
        QCOMPARE(load.sentence(), std::string(kNoArrivalTimes));
    }
};

QTEST_GUILESS_MAIN(TestKnee)
#include "tst_load_analysis.moc"
