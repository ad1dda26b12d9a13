// SPDX-License-Identifier: GPL-3.0-or-later
// The knee on traces where it is known: the simulation's server has a capacity (slots over the mean time a
// request holds one), and a rising load crosses it at a known rate. The knee found must lie within 10% of
// that rate, with decode dominating below it and the queue above; a trace that stays under capacity has no
// knee and says why. Also a closed load (clients that wait for their answers), the reasons for no knee and
// the sentence. tst_knee_accuracy holds the knee to the capacity over many seeds, lengths, slots and shapes.

#include "analysis/findings.h"
#include "analysis/load_analysis.h"
#include "analysis/row_statistics.h"
#include "filter/request_filter.h"
#include "model/percentiles.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>
#include <queue>
#include <stdexcept>

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

/// A closed load: clients that send their next request when the answer to the last one arrives, joining
/// one by one until there are four times the slots; a FIFO server with `decodeSlots` slots, each request
/// holding one for about `serviceS` seconds.
std::vector<LatencyRow> closedLoadRows(int decodeSlots, double serviceS)
{
    const std::int64_t origin = 1'700'000'000'000'000'000, service = static_cast<std::int64_t>(serviceS * 1e9);
    const int clients = 4 * decodeSlots;
    const std::int64_t joinEvery = 20 * service / decodeSlots, end = origin + (clients + 20) * joinEvery;
    using Send = std::pair<std::int64_t, int>; // when, which client
    std::priority_queue<Send, std::vector<Send>, std::greater<>> sends;
    for (int c = 0; c < clients; ++c)
        sends.push({origin + c * joinEvery, c});
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> slotFree;
    for (int s = 0; s < decodeSlots; ++s)
        slotFree.push(origin);
    std::vector<LatencyRow> rows;
    std::uint64_t jitter = 1;
    while (!sends.empty() && sends.top().first < end) {
        const auto [sent, client] = sends.top();
        sends.pop();
        const std::int64_t start = std::max(sent, slotFree.top());
        slotFree.pop();
        jitter = jitter * 6364136223846793005ull + 1442695040888963407ull; // a few percent either way
        const std::int64_t hold = service + static_cast<std::int64_t>((jitter >> 40) % 1000) * service / 10000 - service / 20;
        slotFree.push(start + hold);
        LatencyRow row;
        row.start = sent;
        row.e2e = start + hold - sent;
        row.segments.fill(0);
        row.segments[int(Segment::Queue)] = start - sent;
        row.segments[int(Segment::Decode)] = hold;
        row.tpot = hold / 100;
        rows.push_back(row);
        sends.push({start + hold, client});
    }
    return rows;
}

/// Every figure of a load analysis and its findings, written out in full (%.17g): what two ways of
/// computing them must agree on to the last bit.
std::string everyFigure(const LoadAnalysis &load, const std::vector<Finding> &findings)
{
    std::string out;
    const auto add = [&](double v) {
        char text[32];
        std::snprintf(text, sizeof text, "%.17g ", v);
        out += text;
    };
    const auto addOptional = [&](const std::optional<double> &v) { v ? add(*v) : void(out += "- "); };
    // A window or a bucket: its own figures, then the segments' means and the e2e's.
    const auto addGroup = [&](std::initializer_list<double> own, const std::array<double, kSegmentCount> &segmentMeans,
                              const std::optional<double> &e2eMean, const std::optional<double> &e2eP95) {
        for (double v : own)
            add(v);
        for (double v : segmentMeans)
            add(v);
        addOptional(e2eMean);
        addOptional(e2eP95);
        out += "\n";
    };
    for (const LoadWindow &w : load.profile.windows)
        addGroup({ double(w.startNs), double(w.coveredNs), double(w.arrivals), double(w.completions), w.arrivalRps,
                   w.throughputRps, w.meanInFlight, double(w.count) },
                 w.segmentMeanNs, w.e2eMeanNs, w.e2eP95Ns);
    for (const LoadBucket &b : load.buckets)
        addGroup({ b.loadLo, b.loadHi, double(b.windows), double(b.count) }, b.segmentMeanNs, b.e2eMeanNs, b.e2eP95Ns);
    for (const SegmentShare &share : { load.below, load.above, load.justPast, load.farPast }) {
        add(share.segment);
        add(share.share);
        add(double(share.count));
    }
    if (load.knee) {
        add(load.knee->rateRps);
        add(load.knee->inFlight);
        add(double(load.knee->timeNs));
    }
    addOptional(load.tpotBelowNs);
    addOptional(load.tpotAboveNs);
    out += load.sentence() + "\n";
    for (const Finding &f : findings) {
        out += f.id + " " + std::to_string(f.count) + " ";
        add(f.tailShare);
        out += f.evidence + " " + f.filter + "\n";
    }
    return out;
}

} // namespace

class TestKnee : public QObject {
    Q_OBJECT

private slots:
    void twoThreadsGiveOneThreadsFigures_data()
    {
        QTest::addColumn<int>("valuesAtOnce");
        QTest::addColumn<bool>("shuffled");
        QTest::addColumn<bool>("includeErrors");
        QTest::newRow("all e2e at once") << 1'000'000 << false << false;
        QTest::newRow("windows and buckets past the bound, read in place") << 5 << false << false;
        QTest::newRow("a few groups a batch, rows out of order") << 150 << true << false;
        QTest::newRow("errors in the statistics") << 1'000'000 << true << true;
    }
    /// The passes over the rows split between two threads (row_halves.h) give every figure of one thread's:
    /// the windows, the buckets and their p95, the knee and its bands, the findings. The rows of a closed
    /// load with a knee, with errors and requests without a start among them, lowered to two threads.
    void twoThreadsGiveOneThreadsFigures()
    {
        QFETCH(int, valuesAtOnce);
        QFETCH(bool, shuffled);
        QFETCH(bool, includeErrors);
        std::vector<LatencyRow> rows = closedLoadRows(8, 2.0);
        for (std::size_t i = 0; i < rows.size(); i += 7)
            rows[i].ok = false;
        // Requests without a start are in no window; fifty times as long as the others (all of it queue),
        // they weigh in the findings' shares over every request, which must count them.
        for (std::size_t i = 3; i < rows.size(); i += 41) {
            rows[i].start = kNotMeasured;
            rows[i].segments[int(Segment::Queue)] += 49 * rows[i].e2e;
            rows[i].e2e *= 50;
        }
        // A negative e2e (only a store edited by hand holds one) is in no window's statistics, and so in no
        // bucket or band either, however they are added up.
        for (std::size_t i = 5; i < rows.size(); i += 97)
            rows[i].e2e = -1'000;
        for (std::size_t i = 11; i < rows.size(); i += 53)
            rows[i].flags |= kFlagClockSkew; // counted by the findings over every request
        if (shuffled)
            for (std::size_t i = 0; i + 1 < rows.size(); i += 2)
                std::swap(rows[i], rows[rows.size() - 1 - i / 3]);
        // The e2e p90 of the rows in the statistics, as a report computes it beside the findings.
        std::vector<std::int64_t> e2e;
        for (const LatencyRow &row : rows)
            if (inLatencyStats(row, includeErrors))
                e2e.push_back(row.e2e);
        const std::optional<double> p90 = summarize(e2e, { 90.0 }).percentilesNs[0];
        // The rows' times as a report's scan counts them beside the rows.
        RowTimes times;
        for (const LatencyRow &row : rows)
            times.add(row.start, row.e2e, row.flags);
        const auto figures = [&](std::size_t twoThreadsFrom, bool thresholdGiven = false, bool timesGiven = false,
                                 bool kneeFromRows = false, bool foreignTallies = false) {
            LoadOptions loadOptions;
            loadOptions.includeErrors = includeErrors;
            loadOptions.e2eValuesAtOnce = std::size_t(valuesAtOnce);
            loadOptions.twoThreadsFrom = twoThreadsFrom;
            if (timesGiven)
                loadOptions.rowTimes = times;
            KneeOptions kneeOptions;
            kneeOptions.includeErrors = includeErrors;
            kneeOptions.e2eValuesAtOnce = std::size_t(valuesAtOnce);
            kneeOptions.twoThreadsFrom = twoThreadsFrom;
            FindingsOptions findingsOptions;
            findingsOptions.includeErrors = includeErrors;
            findingsOptions.twoThreadsFrom = twoThreadsFrom;
            if (thresholdGiven)
                findingsOptions.tailThresholdNs = p90;
            LoadProfile profile = computeLoadProfile(rows, loadOptions);
            if (kneeFromRows)
                profile.rowTallies.reset(); // the buckets, bands and findings read from the rows, not the windows
            findingsOptions.windowTallies = profile.rowTallies;
            if (foreignTallies) { // counted with the errors the other way: the findings must not take them
                LoadOptions other = loadOptions;
                other.includeErrors = !includeErrors;
                findingsOptions.windowTallies = computeLoadProfile(rows, other).rowTallies;
            }
            const LoadAnalysis load = analyzeLoad(profile, rows, kneeOptions);
            return everyFigure(load, findFindings(rows, &load, findingsOptions));
        };
        // The windows' tallies are kept for these rows, so that the figures below do take them.
        QVERIFY(computeLoadProfile(rows).rowTallies);
        const std::string one = figures(SIZE_MAX), two = figures(1);
        QVERIFY2(one.find("knee near") != std::string::npos, one.c_str());
        QVERIFY(one.find("errors") != std::string::npos);
        QCOMPARE(QString::fromStdString(two), QString::fromStdString(one));
        // The findings given the tail's threshold (diagnose() passes the report's p90) read the same tail.
        QVERIFY(p90);
        QCOMPARE(QString::fromStdString(figures(1, true)), QString::fromStdString(one));
        // And the load profile given the rows' times (diagnose() passes the report's) makes the same windows.
        QCOMPARE(QString::fromStdString(figures(1, true, true)), QString::fromStdString(one));
        // The knee's buckets and bands, and the findings' figures over every request, added up from the
        // windows' tallies are those of a pass over the rows, on one thread or two (exact sums: in any order
        // the same).
        QCOMPARE(QString::fromStdString(figures(SIZE_MAX, false, false, true)), QString::fromStdString(one));
        QCOMPARE(QString::fromStdString(figures(1, false, false, true)), QString::fromStdString(one));
        QCOMPARE(QString::fromStdString(figures(1, false, false, false, true)), QString::fromStdString(one));
    }

    void twoThreadsRethrow_data()
    {
        QTest::addColumn<int>("failingHalf");
        QTest::newRow("this thread's half") << 0;
        QTest::newRow("the worker's half") << 1;
    }
    /// An exception of either half of a pass (a damaged chunk read on the second connection, say) is thrown
    /// to the caller once both halves are done, rather than ending the process.
    void twoThreadsRethrow()
    {
        QFETCH(int, failingHalf);
        std::array<int, 2> ran {};
        try {
            onTwoThreads([&](std::size_t half) {
                ++ran[half];
                if (int(half) == failingHalf)
                    throw std::runtime_error("half " + std::to_string(half));
            });
            QFAIL("nothing thrown");
        } catch (const std::runtime_error &e) {
            QCOMPARE(QByteArray(e.what()), QByteArray("half ") + QByteArray::number(failingHalf));
        }
        QCOMPARE(ran, (std::array<int, 2> { 1, 1 }));
    }

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
        QVERIFY2(std::abs(load.knee->rateRps - capacity) <= 0.1 * capacity, why);
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
        // The buckets' e2e read a few buckets at a time (analysis/grouped_e2e.h) give the figures of all at once.
        for (const std::size_t atOnce : {std::size_t(1), std::size_t(150), std::size_t(1000)}) {
            KneeOptions grouped = options;
            grouped.e2eValuesAtOnce = atOnce;
            const LoadAnalysis again = analyzeLoad(*sim.imported.store, {}, {}, grouped);
            QCOMPARE(again.buckets.size(), load.buckets.size());
            for (std::size_t b = 0; b < load.buckets.size(); ++b) {
                QCOMPARE(again.buckets[b].count, load.buckets[b].count);
                QCOMPARE(again.buckets[b].e2eMeanNs, load.buckets[b].e2eMeanNs);
                QCOMPARE(again.buckets[b].e2eP95Ns, load.buckets[b].e2eP95Ns);
                QCOMPARE(again.buckets[b].segmentMeanNs, load.buckets[b].segmentMeanNs);
            }
        }
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
        QCOMPARE(load.justPast.segment, -1);
        QCOMPARE(load.farPast.segment, -1);
        QVERIFY(load.tpotBelowNs && !load.tpotAboveNs); // every request's TPOT is "below"
        QVERIFY(load.sentence().starts_with("no knee: "));
    }

    // Requests `spacingMs` apart in windows of a second. An OTLP trace with 19 windows of one or two
    // requests each was told "too few windows with requests (0, 8 needed)".
    void tooFewWindows_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<int>("spacingMs");
        QTest::addColumn<int>("e2eMs");
        QTest::addColumn<QString>("expected");
        // No row at all (a filter that matches none): nothing is short, there is nothing to look at.
        QTest::newRow("nothing") << 0 << 1000 << 500 << QStringLiteral("no request to look at");
        QTest::newRow("a handful")
            << 5 << 1000 << 500
            << QStringLiteral("0 of the 5 windows that hold requests hold at least 3, 8 such windows needed");
        QTest::newRow("19 windows of one or two requests each")
            << 30 << 650 << 500
            << QStringLiteral("0 of the 19 windows that hold requests hold at least 3, 8 such windows needed (wider "
                              "windows hold more: --window)");
        // Windows full of requests of which none ends before the last arrival: the fit has no throughput.
        // They were reported as "10 of the 10 windows ... hold at least 3, 8 such windows needed".
        QTest::newRow("10 full windows, no completion in any")
            << 100 << 100 << 60'000
            << QStringLiteral("0 of the 10 windows that hold at least 3 requests see a request complete, 8 such "
                              "windows needed (wider windows hold more: --window)");
    }
    void tooFewWindows()
    {
        QFETCH(int, requests);
        QFETCH(int, spacingMs);
        QFETCH(int, e2eMs);
        QFETCH(QString, expected);
        std::vector<LatencyRow> rows(static_cast<std::size_t>(requests));
        for (int i = 0; i < requests; ++i) {
            rows[static_cast<std::size_t>(i)].start = 1'700'000'000'000'000'000 + i * spacingMs * 1'000'000LL;
            rows[static_cast<std::size_t>(i)].segments.fill(0);
            rows[static_cast<std::size_t>(i)].segments[int(Segment::Decode)] = rows[static_cast<std::size_t>(i)].e2e
                = e2eMs * 1'000'000LL;
        }
        LoadOptions options;
        options.windowNs = 1'000'000'000; // one window a second: one or two requests each
        const LoadAnalysis load = analyzeLoad(computeLoadProfile(rows, options), rows);
        QVERIFY(!load.knee);
        QCOMPARE(QString::fromStdString(load.noKneeText()),
                 requests ? QStringLiteral("too few windows to look for one: ") + expected : expected);
        // The hint names the control it is given (the GUI's window box), and only where wider windows help.
        const QString hint = QStringLiteral(" (wider windows hold more: --window)");
        QCOMPARE(load.widerWindowsHelp, expected.endsWith(hint));
        QCOMPARE(QString::fromStdString(load.noKneeText("the Window box")),
                 QString::fromStdString(load.noKneeText())
                     .replace(QStringLiteral("--window"), QStringLiteral("the Window box")));
        QVERIFY(!QString::fromStdString(load.noKneeReason).contains(QStringLiteral("--window")));
        QCOMPARE(load.below.segment, requests ? int(Segment::Decode) : -1);
        QCOMPARE(load.below.share, requests ? 1.0 : 0.0);
    }

    // Clients that wait for their answers (a benchmark raising its concurrency): the offered load never
    // passes what the server completes, but the throughput stops growing with the requests in flight at the
    // server's capacity, slots over the service time.
    void closedLoadKnee_data()
    {
        QTest::addColumn<int>("decodeSlots");
        QTest::addColumn<double>("serviceS");
        QTest::newRow("8 slots, 2 s") << 8 << 2.0;
        QTest::newRow("32 slots, 1 s") << 32 << 1.0;
        QTest::newRow("100 slots, 3 s") << 100 << 3.0;
    }
    void closedLoadKnee()
    {
        QFETCH(int, decodeSlots);
        QFETCH(double, serviceS);
        const std::vector<LatencyRow> rows = closedLoadRows(decodeSlots, serviceS);
        const LoadAnalysis load = analyzeLoad(computeLoadProfile(rows), rows);
        const double capacity = decodeSlots / serviceS;
        const QByteArray why = QByteArray::fromStdString(describe(load)) + "capacity " + QByteArray::number(capacity);
        QVERIFY2(load.knee, why);
        QVERIFY2(std::abs(load.knee->rateRps - capacity) <= 0.1 * capacity, why);
        QVERIFY2(load.knee->inFlight >= 0.7 * decodeSlots && load.knee->inFlight <= 1.3 * decodeSlots, why);
        QCOMPARE(load.below.segment, int(Segment::Decode));
        QCOMPARE(load.farPast.segment, int(Segment::Queue));
    }

    void sentence_data()
    {
        QTest::addColumn<int>("justPast"); // a Segment or -1
        QTest::addColumn<int>("farPast");
        QTest::addColumn<bool>("tpot");
        QTest::addColumn<QString>("expected");
        const int decode = int(Segment::Decode), queue = int(Segment::Queue);
        QTest::newRow("both bands, TPOT")
            << decode << queue << true
            << QStringLiteral("below the knee decode dominates (96% of e2e, queue 2%); just past it decode (78% of "
                              "e2e), far past it queue (99% of e2e); "
                              "time per output token 29.0 ms below, 31.0 ms above; knee near 4.6 req/s, 13 in flight");
        QTest::newRow("no far band: above it")
            << decode << -1 << true
            << QStringLiteral("below the knee decode dominates (96% of e2e, queue 2%); above it queue (90% of e2e); "
                              "time per output token 29.0 ms below, 31.0 ms above; knee near 4.6 req/s, 13 in flight");
        QTest::newRow("no TPOT measured")
            << decode << queue << false
            << QStringLiteral("below the knee decode dominates (96% of e2e, queue 2%); just past it decode (78% of "
                              "e2e), far past it queue (99% of e2e); "
                              "knee near 4.6 req/s, 13 in flight");
    }
    void sentence()
    {
        QFETCH(int, justPast);
        QFETCH(int, farPast);
        QFETCH(bool, tpot);
        QFETCH(QString, expected);
        LoadAnalysis load;
        load.knee = Knee{4.6, 13.0, 0};
        load.below = {int(Segment::Decode), 0.96, 100};
        load.queueShareBelow = 0.02;
        load.above = {int(Segment::Queue), 0.90, 100};
        if (justPast >= 0)
            load.justPast = {justPast, 0.78, 40};
        if (farPast >= 0)
            load.farPast = {farPast, 0.99, 60};
        if (tpot) {
            load.tpotBelowNs = 29e6;
            load.tpotAboveNs = 31e6;
        }
        QCOMPARE(QString::fromStdString(load.sentence()), expected);
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
        // (A vLLM result's sends are rebuilt from its request_rate when it saved none: it has arrivals.)
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
