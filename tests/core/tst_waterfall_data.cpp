// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall's data: the rows the loader reads equal the store's, sorted as an independent stable sort
// sorts them; segments add up to e2e; lanes never overlap and are as few as the largest concurrency;
// "not measured" stays apart from 0; the filter holds; an empty store and requests without a start time
// are handled. The density has a suite of its own (tst_waterfall_density.cpp).

#include "waterfall_test_support.h"
#include "analysis/waterfall_density.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>

using namespace lx;
using namespace lxtest::waterfall;

class TestWaterfallData : public QObject {
    Q_OBJECT

private slots:
    void readsTheStore();
    void sortOrders_data();
    void sortOrders();
    void lanesHandMade_data();
    void lanesHandMade();
    void lanesOfAStore();
    void frameColumnsAndVisits_data();
    void frameColumnsAndVisits();
    void unattributedWhereTimeWasMissing_data();
    void unattributedWhereTimeWasMissing();
    void notMeasuredIsNotZero();
    void filterRespected_data();
    void filterRespected();
    void emptyStore();
    void requestsWithoutStart();
    void relativeTimes();
    void cancelled();
    void visibleBarsAndHits();
};

void TestWaterfallData::readsTheStore()
{
    lxtest::StoreFixture f(randomTrace(300, 1));
    QVERIFY(f.store);
    const auto data = load(*f.store);
    QVERIFY(data);
    std::vector<Reference> ref = readReference(*f.store);
    QCOMPARE(data->size(), ref.size());
    std::stable_sort(ref.begin(), ref.end(), [](const Reference &a, const Reference &b) { return a.start < b.start; });
    for (std::size_t i = 0; i < ref.size(); ++i) {
        QCOMPARE(data->ids[i], ref[i].id);
        QCOMPARE(data->starts[i], ref[i].start);
        QCOMPARE(data->e2e[i], ref[i].e2e);
        std::int64_t sum = 0, laid = 0;
        for (int s = 0; s < kSegmentCount; ++s) {
            QCOMPARE(data->segment(i, Segment(s)), ref[i].segments[static_cast<std::size_t>(s)]);
            sum += data->part(i, s);
            laid += std::max<std::int64_t>(data->part(i, s), 0);
        }
        if (isMeasured(data->e2e[i]))
            QCOMPARE(sum, data->e2e[i]); // the segments add up to e2e
        QCOMPARE(data->ends[i], data->starts[i] + laid);
        QCOMPARE(data->indexOf(data->ids[i]), std::optional<std::size_t>(i));
    }
    QCOMPARE(data->firstStart, ref.front().start);
    QCOMPARE(data->lastEnd, *std::max_element(data->ends.begin(), data->ends.end()));
    QCOMPARE(data->withoutStart, std::int64_t(0));
    QVERIFY(!data->relativeTime);
    QVERIFY(!data->indexOf(-5));
}

void TestWaterfallData::sortOrders_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("segment");
    QTest::addColumn<bool>("descending");
    QTest::newRow("start") << int(WaterfallSort::Key::Start) << 0 << false;
    QTest::newRow("start, latest first") << int(WaterfallSort::Key::Start) << 0 << true;
    QTest::newRow("e2e, longest first") << int(WaterfallSort::Key::E2e) << 0 << true;
    QTest::newRow("e2e, shortest first") << int(WaterfallSort::Key::E2e) << 0 << false;
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::string name(segmentName(Segment(s)));
        QTest::newRow((name + ", longest first").c_str()) << int(WaterfallSort::Key::Segment) << s << true;
        QTest::newRow((name + ", shortest first").c_str()) << int(WaterfallSort::Key::Segment) << s << false;
    }
}

void TestWaterfallData::sortOrders()
{
    QFETCH(int, key);
    QFETCH(int, segment);
    QFETCH(bool, descending);
    lxtest::StoreFixture f(randomTrace(400, 2));
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallSort sort = sortBy(WaterfallSort::Key(key), descending, Segment(segment));
    const WaterfallRows rows = WaterfallRows::sorted(*data, sort);
    QVERIFY(!rows.isLanes());
    QCOMPARE(rows.rowCount(), data->size());

    // Independently: start order (ties by id), then a stable sort by the key with not measured last.
    std::vector<Reference> ref = readReference(*f.store);
    std::stable_sort(ref.begin(), ref.end(), [](const Reference &a, const Reference &b) { return a.start < b.start; });
    const auto value = [&](const Reference &r) {
        return sort.key == WaterfallSort::Key::Start ? r.start
            : sort.key == WaterfallSort::Key::E2e    ? r.e2e
                                                     : r.segments[static_cast<std::size_t>(segment)];
    };
    std::stable_sort(ref.begin(), ref.end(), [&](const Reference &a, const Reference &b) {
        const qint64 va = value(a), vb = value(b);
        if (isMeasured(va) != isMeasured(vb))
            return isMeasured(va);
        return descending ? va > vb : va < vb;
    });
    const auto measured = std::count_if(ref.begin(), ref.end(), [&](const Reference &r) { return isMeasured(value(r)); });
    QCOMPARE(rows.measuredCount(), std::size_t(measured));
    for (std::size_t row = 0; row < ref.size(); ++row) {
        QCOMPARE(data->ids[rows.requests()[row]], ref[row].id);
        QCOMPARE(rows.rowOf(*data, rows.requests()[row]), std::optional<std::size_t>(row));
    }
    QCOMPARE(rows.requestsOf(5, 9).size(), std::size_t(4));
    QCOMPARE(rows.requestsOf(5, 9)[0], rows.requests()[5]);
}

void TestWaterfallData::lanesHandMade_data()
{
    QTest::addColumn<QList<qint64>>("starts");
    QTest::addColumn<QList<qint64>>("ends");
    QTest::addColumn<QList<uint>>("lanes");
    QTest::newRow("none") << QList<qint64>{} << QList<qint64>{} << QList<uint>{};
    QTest::newRow("one after another, touching") << QList<qint64>{0, 1, 2} << QList<qint64>{1, 2, 3} << QList<uint>{0, 0, 0};
    QTest::newRow("all at once") << QList<qint64>{5, 5, 5} << QList<qint64>{9, 9, 9} << QList<uint>{0, 1, 2};
    // At 4: [0,10) [3,5) [4,8) are open; [1,3) frees lane 1 for [3,5); [10,12) reuses lane 0.
    QTest::newRow("pile-up") << QList<qint64>{0, 1, 3, 4, 10} << QList<qint64>{10, 3, 5, 8, 12} << QList<uint>{0, 1, 1, 2, 0};
    // The lowest free lane is taken: lane 0 frees at 2 and is taken again; at 6 only lane 1 is free.
    QTest::newRow("lowest free lane") << QList<qint64>{0, 1, 2, 6} << QList<qint64>{2, 3, 7, 8} << QList<uint>{0, 1, 0, 1};
    QTest::newRow("zero length requests") << QList<qint64>{0, 0, 0} << QList<qint64>{0, 0, 4} << QList<uint>{0, 0, 0};
}

void TestWaterfallData::lanesHandMade()
{
    QFETCH(QList<qint64>, starts);
    QFETCH(QList<qint64>, ends);
    QFETCH(QList<uint>, lanes);
    const std::vector<std::int64_t> s(starts.begin(), starts.end()), e(ends.begin(), ends.end());
    std::vector<std::uint32_t> got(s.size(), 99);
    const std::uint32_t count = assignLanes(s, e, got);
    QCOMPARE(QList<uint>(got.begin(), got.end()), lanes);
    QCOMPARE(count, maxConcurrency(s, e)); // minimal: the largest concurrency
    QVERIFY(lanesDisjoint(s, e, got));
}

void TestWaterfallData::lanesOfAStore()
{
    lxtest::StoreFixture f(randomTrace(500, 3));
    const auto data = load(*f.store);
    QVERIFY(data);
    QVERIFY(data->laneCount > 1);
    QCOMPARE(data->laneCount, maxConcurrency(data->starts, data->ends));
    QVERIFY(lanesDisjoint(data->starts, data->ends, data->lanes));

    const WaterfallRows rows = WaterfallRows::lanes(*data);
    QVERIFY(rows.isLanes());
    QCOMPARE(rows.rowCount(), std::size_t(data->laneCount));
    QCOMPARE(rows.requests().size(), data->size());
    for (std::size_t lane = 0; lane < rows.rowCount(); ++lane) {
        const auto requests = rows.requestsOf(lane, lane + 1);
        QVERIFY(!requests.empty());
        for (std::size_t k = 0; k < requests.size(); ++k) {
            QCOMPARE(data->lanes[requests[k]], std::uint32_t(lane));
            QCOMPARE(rows.rowOf(*data, requests[k]), std::optional<std::size_t>(lane));
            if (k > 0) // in start order, one after another
                QVERIFY(data->ends[requests[k - 1]] <= data->starts[requests[k]]);
        }
    }
}

void TestWaterfallData::frameColumnsAndVisits_data()
{
    QTest::addColumn<QByteArray>("trace");
    QTest::addColumn<int>("mode"); // -1: lanes; otherwise a WaterfallSort::Key, longest first
    QTest::addColumn<double>("fromFraction");
    QTest::addColumn<double>("toFraction");
    // Back-to-back requests: a lane of 60 or more beside the random trace's short ones.
    QByteArray serial;
    for (int i = 0; i < 60; ++i)
        serial += line("s" + QByteArray::number(i), i * 100, {0, 5, 10, 20, 30, 80, 85, 90});
    serial += randomTrace(120, 11);
    const QByteArray random = randomTrace(400, 5);
    for (const auto &[name, trace] : {std::pair("random", random), std::pair("serial", serial)}) {
        for (const auto &[window, from, to] : {std::tuple("everything", -0.1, 1.1), std::tuple("middle", 0.4, 0.55),
                                               std::tuple("a sliver", 0.3, 0.3001), std::tuple("before", -0.5, -0.2)}) {
            QTest::addRow("%s, lanes, %s", name, window) << trace << -1 << from << to;
            QTest::addRow("%s, by start, %s", name, window) << trace << int(WaterfallSort::Key::Start) << from << to;
            QTest::addRow("%s, by e2e, %s", name, window) << trace << int(WaterfallSort::Key::E2e) << from << to;
        }
    }
}

void TestWaterfallData::frameColumnsAndVisits()
{
    QFETCH(QByteArray, trace);
    QFETCH(int, mode);
    QFETCH(double, fromFraction);
    QFETCH(double, toFraction);
    lxtest::StoreFixture f(trace);
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallRows lanes = WaterfallRows::lanes(*data);
    std::size_t longest = 0, shortest = data->size();
    for (std::size_t lane = 0; lane < lanes.rowCount(); ++lane) {
        longest = std::max(longest, lanes.requestsOf(lane, lane + 1).size());
        shortest = std::min(shortest, lanes.requestsOf(lane, lane + 1).size());
    }
    QVERIFY(longest > 16 && shortest <= 16); // lanes searched by halving and in a line
    const WaterfallRows rows = mode < 0 ? WaterfallRows::lanes(*data) : WaterfallRows::sorted(*data, sortBy(WaterfallSort::Key(mode), true));
    // The frame's columns hold, at each display position, that request's values.
    const WaterfallFrameColumns columns = rows.columns(*data);
    const auto order = rows.requests();
    for (std::size_t p = 0; p < order.size(); ++p) {
        const std::uint32_t i = order[p];
        QCOMPARE(columns.starts[p], data->starts[i]);
        QCOMPARE(columns.ends[p], data->ends[i]);
        for (int s = 0; s < kSegmentCount; ++s) {
            QCOMPARE(columns.segments[std::size_t(s)][p], data->segment(i, Segment(s)));
            QCOMPARE(columns.part(p, s), data->part(i, s));
        }
    }
    // forEachIn visits what a brute force over the rows finds, in display order, each with its row.
    const double span = static_cast<double>(data->lastEnd - data->firstStart);
    const std::int64_t fromNs = data->firstStart + static_cast<std::int64_t>(fromFraction * span);
    const std::int64_t toNs = std::max(fromNs + 1, data->firstStart + static_cast<std::int64_t>(toFraction * span));
    const std::size_t first = rows.rowCount() / 5, end = rows.rowCount() - rows.rowCount() / 7;
    std::vector<std::pair<std::uint32_t, std::size_t>> expected, visited;
    for (std::size_t row = first; row < end; ++row) {
        for (std::uint32_t i : rows.requestsOf(row, row + 1)) {
            if (inTime(data->starts[i], data->ends[i], fromNs, toNs))
                expected.emplace_back(i, row);
        }
    }
    rows.forEachIn(*data, first, end, fromNs, toNs, [&](std::size_t p, std::size_t row) { visited.emplace_back(order[p], row); });
    QCOMPARE(visited, expected);
    if (fromFraction < 0 && toFraction > 1)
        QVERIFY(!expected.empty());
}

void TestWaterfallData::unattributedWhereTimeWasMissing_data()
{
    QTest::addColumn<QByteArray>("record");
    QTest::addColumn<QList<int>>("segments"); // the spans laid, in order
    QTest::addColumn<QList<qint64>>("boundariesMs"); // from the start: where each span ends
    const int N = int(Segment::Network), P = int(Segment::Preprocess), Q = int(Segment::Queue), F = int(Segment::Prefill),
              D = int(Segment::Decode), O = int(Segment::Postprocess), U = int(Segment::Unattributed);
    QTest::newRow("every stamp: no unattributed")
        << line("a", 0, {0, 2, 5, 9, 20, 120, 121, 124}) << QList<int>{N, P, Q, F, D, O} << QList<qint64>{5, 8, 12, 23, 123, 124};
    QTest::newRow("no scheduler stamp: between preprocess and decode")
        << line("b", 0, {-1, 0, 5, -1, 20, 120, 121, -1}) << QList<int>{P, U, D, O} << QList<qint64>{5, 20, 120, 121};
    QTest::newRow("client and server, no scheduler stamp: after network and preprocess")
        << line("d", 0, {0, 2, 5, -1, 20, 120, 121, 124}) << QList<int>{N, P, U, D, O} << QList<qint64>{5, 8, 23, 123, 124};
    // A client that sees its own send and receive and the tokens: the time to the first token comes first.
    QTest::newRow("client and tokens only: first")
        << line("c", 0, {0, -1, -1, -1, 30, 130, -1, 133}) << QList<int>{U, D} << QList<qint64>{33, 133};
}

void TestWaterfallData::unattributedWhereTimeWasMissing()
{
    QFETCH(QByteArray, record);
    QFETCH(QList<int>, segments);
    QFETCH(QList<qint64>, boundariesMs);
    lxtest::StoreFixture f(record);
    const auto data = load(*f.store);
    QVERIFY(data);
    QCOMPARE(data->size(), std::size_t(1));
    QList<int> laid;
    QList<qint64> ends;
    std::int64_t previous = data->starts[0];
    lx::forEachSegmentSpan(*data, 0, [&](int s, std::int64_t begin, std::int64_t end) {
        QCOMPARE(begin, previous); // one after another
        previous = end;
        laid << s;
        ends << (end - data->starts[0]) / MS;
    });
    QCOMPARE(laid, segments);
    QCOMPARE(ends, boundariesMs);
    QCOMPARE(previous, data->ends[0]);
}

void TestWaterfallData::notMeasuredIsNotZero()
{
    // a: queue 0 (sched at preprocess done); b: no sched, so queue and prefill are not measured.
    lxtest::StoreFixture f(line("a", 0, {-1, 0, 5, 5, 20, 120, 121, -1}) + line("b", 1, {-1, 0, 5, -1, 20, 120, 121, -1}));
    const auto data = load(*f.store);
    QVERIFY(data);
    QCOMPARE(data->size(), std::size_t(2));
    const std::size_t a = *data->indexOf(readReference(*f.store)[0].id), b = 1 - a;
    QCOMPARE(data->segment(a, Segment::Queue), std::int64_t(0));
    QCOMPARE(data->segment(b, Segment::Queue), kNotMeasured);
    QCOMPARE(data->part(b, int(Segment::Queue)), std::int64_t(0));
    QCOMPARE(data->segment(b, Segment::Unattributed), 15 * MS); // preprocess done .. first token
    const WaterfallRows rows = WaterfallRows::sorted(*data, {});
    WaterfallViewport view{data->firstStart, data->lastEnd, 0, 1, 10, 1};
    for (std::size_t row = 0; row < 2; ++row) {
        view.firstRow = row;
        const WaterfallBand band = aggregateWaterfall(*data, rows, view).bandInfo.at(0);
        QCOMPARE(band.requests, std::int64_t(1));
        const bool isA = rows.requests()[row] == a;
        QCOMPARE(band.meanMeasured(Segment::Queue), isA ? std::optional<double>(0.0) : std::nullopt);
        QCOMPARE(band.measured[std::size_t(Segment::Queue)], std::int64_t(isA ? 1 : 0));
        QCOMPARE(band.meanPart(Segment::Queue), 0.0);
    }
    // Sorted by queue, the request without one comes last in both directions.
    for (bool descending : {false, true}) {
        const WaterfallRows byQueue = WaterfallRows::sorted(*data, sortBy(WaterfallSort::Key::Segment, descending, Segment::Queue));
        QCOMPARE(byQueue.requests()[1], std::uint32_t(b));
        QCOMPARE(byQueue.measuredCount(), std::size_t(1));
    }
}

void TestWaterfallData::filterRespected_data()
{
    QTest::addColumn<QStringList>("models");
    QTest::addColumn<qint64>("fromMs");
    QTest::addColumn<qint64>("toMs");
    QTest::addColumn<QString>("where");
    QTest::newRow("model") << QStringList{QStringLiteral("m1")} << qint64(-1) << qint64(-1)
                           << QStringLiteral("model_id = (SELECT id FROM labels WHERE text = 'm1')");
    QTest::newRow("time range") << QStringList{} << qint64(1000) << qint64(3000)
                                << QStringLiteral("start_ns >= %1 AND start_ns < %2").arg(T0 + 1000 * MS).arg(T0 + 3000 * MS);
    QTest::newRow("model and time") << QStringList{QStringLiteral("m2")} << qint64(500) << qint64(-1)
                                    << QStringLiteral("model_id = (SELECT id FROM labels WHERE text = 'm2') AND start_ns >= %1").arg(T0 + 500 * MS);
    QTest::newRow("nothing matches") << QStringList{QStringLiteral("no such model")} << qint64(-1) << qint64(-1) << QStringLiteral("0");
}

void TestWaterfallData::filterRespected()
{
    QFETCH(QStringList, models);
    QFETCH(qint64, fromMs);
    QFETCH(qint64, toMs);
    QFETCH(QString, where);
    lxtest::StoreFixture f(randomTrace(300, 5));
    RequestFilter filter;
    for (const QString &m : models)
        filter.models.push_back(m.toStdString());
    if (fromMs >= 0)
        filter.fromNs = T0 + fromMs * MS;
    if (toMs >= 0)
        filter.toNs = T0 + toMs * MS;
    const auto data = load(*f.store, filter);
    QVERIFY(data);
    const std::vector<Reference> ref = readReference(*f.store, where.toUtf8().constData());
    std::vector<std::int64_t> expected, got(data->ids.begin(), data->ids.end());
    for (const Reference &r : ref)
        expected.push_back(r.id);
    std::sort(got.begin(), got.end());
    QCOMPARE(got, expected);
    QVERIFY(std::is_sorted(data->starts.begin(), data->starts.end()));
}

void TestWaterfallData::emptyStore()
{
    lxtest::StoreFixture f("");
    QVERIFY(f.store);
    const auto data = load(*f.store);
    QVERIFY(data);
    QVERIFY(data->empty());
    QCOMPARE(data->withoutStart, std::int64_t(0));
    QCOMPARE(data->laneCount, std::uint32_t(0));
    const WaterfallRows rows = WaterfallRows::sorted(*data, {});
    QCOMPARE(rows.rowCount(), std::size_t(0));
    QCOMPARE(WaterfallRows::lanes(*data).rowCount(), std::size_t(0));
    const WaterfallViewport view{0, 1000, 0, 0, 100, 100};
    QCOMPARE(aggregateWaterfall(*data, rows, view).bands, 0);
    QVERIFY(visibleBars(*data, rows, view, 10)->empty());
}

void TestWaterfallData::requestsWithoutStart()
{
    // vLLM's bench results carry durations only: nothing says when a request started.
    const QByteArray vllm = R"({"backend": "vllm", "input_lens": [10, 20, 30], "output_lens": [3, 1, 2], "ttfts": [0.1, 0.25, 0.2],)"
                            R"( "itls": [[0.02, 0.03], [], [0.01]], "errors": ["", "", ""]})";
    QTemporaryDir dir;
    const std::string bench = lxtest::writeFile(dir, QStringLiteral("bench.json"), vllm);
    const std::string native = lxtest::writeFile(dir, QStringLiteral("t.jsonl"), randomTrace(20, 6));

    lxtest::Imported onlyBench = lxtest::importPaths({bench});
    QVERIFY2(onlyBench.store, onlyBench.error.c_str());
    auto data = load(*onlyBench.store);
    QVERIFY(data);
    QVERIFY(data->empty());
    QCOMPARE(data->withoutStart, std::int64_t(3));

    lxtest::Imported both = lxtest::importPaths({bench, native});
    QVERIFY2(both.store, both.error.c_str());
    data = load(*both.store);
    QVERIFY(data);
    QCOMPARE(data->size(), std::size_t(20));
    QCOMPARE(data->withoutStart, std::int64_t(3));
}

void TestWaterfallData::relativeTimes()
{
    // Mooncake's arrival traces count milliseconds from the start of the trace, whose date is unknown.
    lxtest::StoreFixture f("{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [1]}\n"
                           "{\"timestamp\": 250, \"input_length\": 12, \"output_length\": 7, \"hash_ids\": [2]}\n");
    const auto data = load(*f.store);
    QVERIFY(data);
    QCOMPARE(data->size(), std::size_t(2));
    QVERIFY(data->relativeTime);
    QCOMPARE(data->starts[1] - data->starts[0], 250 * MS);
}

void TestWaterfallData::cancelled()
{
    lxtest::StoreFixture f(randomTrace(50, 7));
    const std::atomic<bool> cancel{true};
    std::string error;
    QVERIFY(!loadWaterfall(*f.store, {}, &cancel, &error));
    QCOMPARE(error, std::string("cancelled"));
}

void TestWaterfallData::visibleBarsAndHits()
{
    lxtest::StoreFixture f(randomTrace(200, 8));
    const auto data = load(*f.store);
    QVERIFY(data);
    for (bool lanes : {false, true}) {
        const WaterfallRows rows = lanes ? WaterfallRows::lanes(*data) : WaterfallRows::sorted(*data, {});
        const WaterfallViewport view{data->firstStart, data->lastEnd + 1, 0, rows.rowCount(), 100, 100};
        const auto bars = visibleBars(*data, rows, view, data->size());
        QVERIFY(bars);
        QCOMPARE(bars->size(), data->size()); // everything is in view
        QVERIFY(!visibleBars(*data, rows, view, data->size() - 1)); // one too many: the density instead
        // The middle of each bar hits its own request.
        for (const WaterfallBar &bar : *bars) {
            const std::int64_t middle = data->starts[bar.request] + (data->ends[bar.request] - data->starts[bar.request]) / 2;
            const auto hit = rows.requestAt(*data, bar.row, bar.row + 1, middle, 0, bar.row + 0.5);
            QCOMPARE(hit, std::optional<std::size_t>(bar.request));
        }
        // Before the first start there is nothing, unless the slack reaches it.
        QVERIFY(!rows.requestAt(*data, 0, rows.rowCount(), data->firstStart - 10 * MS, 0, 0));
        QVERIFY(rows.requestAt(*data, 0, rows.rowCount(), data->firstStart - 10 * MS, 10 * MS, 0));
    }
}

QTEST_GUILESS_MAIN(TestWaterfallData)
#include "tst_waterfall_data.moc"
