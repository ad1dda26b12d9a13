// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall's data: the rows the loader reads equal the store's, sorted as an independent stable sort
// sorts them; segments add up to e2e; lanes never overlap and are as few as the largest concurrency; the
// density's cells and bands equal a brute-force computation over the covered requests; "not measured"
// stays apart from 0; the filter holds; an empty store and requests without a start time are handled.

#include "store/sqlite_util.h"
#include "test_support.h"
#include "analysis/waterfall_data.h"
#include "analysis/waterfall_density.h"
#include "analysis/waterfall_rows.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

/// One timestamps-form line with stamps given as ms after T0 + startMs (-1 = absent).
QByteArray line(const QByteArray &id, qint64 startMs, std::array<qint64, kStampCount> offsetsMs, const char *extra = "")
{
    static const char *names[] = {"t_client_send_ns", "t_server_recv_ns", "t_preprocess_done_ns", "t_sched_ns",
                                  "t_first_token_ns", "t_last_token_ns", "t_server_send_ns", "t_client_recv_ns"};
    QByteArray out = "{\"id\":\"" + id + "\"" + extra;
    for (int i = 0; i < kStampCount; ++i) {
        if (offsetsMs[static_cast<std::size_t>(i)] >= 0)
            out += QByteArray(",\"") + names[i] + "\":" + QByteArray::number(T0 + (startMs + offsetsMs[static_cast<std::size_t>(i)]) * MS);
    }
    return out + "}\n";
}

/// Requests with random stamps, some missing, some starting at the same time, two models.
QByteArray randomTrace(int count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> step(0, 40), coin(0, 3);
    QByteArray out;
    qint64 start = 0;
    for (int i = 0; i < count; ++i) {
        start += coin(rng) == 0 ? 0 : step(rng); // a quarter start with the one before
        std::array<qint64, kStampCount> t{};
        qint64 at = 0;
        for (qint64 &stamp : t) {
            at += step(rng) * (coin(rng) + 1);
            stamp = at;
        }
        if (coin(rng) == 0) { // server-side only: no network
            t[0] = -1;
            t[7] = -1;
        }
        if (coin(rng) == 0)
            t[2] = -1; // no preprocess: queue from server receive
        if (coin(rng) == 0)
            t[3] = -1; // no sched: queue and prefill unattributed
        out += line("r" + QByteArray::number(i), start, t, coin(rng) < 2 ? ",\"model\":\"m1\"" : ",\"model\":\"m2\"");
    }
    return out;
}

/// The store's placed requests as the test reads them itself, in id order.
struct Reference {
    qint64 id, start, e2e;
    std::array<qint64, kSegmentCount> segments;
};

std::vector<Reference> readReference(const Store &store, const char *where = "1")
{
    Statement q(store.db(), std::string("SELECT id, start_ns, e2e_ns, network_ns, preprocess_ns, queue_ns, prefill_ns,"
                                        " decode_ns, postprocess_ns, unattributed_ns FROM requests r WHERE start_ns IS NOT NULL AND ")
                                + where + " ORDER BY id");
    std::vector<Reference> out;
    while (q.step() == SQLITE_ROW) {
        Reference r{};
        r.id = sqlite3_column_int64(q.get(), 0);
        r.start = columnOr(q.get(), 1);
        r.e2e = columnOr(q.get(), 2);
        for (int s = 0; s < kSegmentCount; ++s)
            r.segments[static_cast<std::size_t>(s)] = columnOr(q.get(), 3 + s);
        out.push_back(r);
    }
    return out;
}

std::shared_ptr<const WaterfallData> load(const Store &store, const RequestFilter &filter = {})
{
    std::string error;
    auto data = loadWaterfall(store, filter, nullptr, &error);
    if (!data)
        qWarning("loadWaterfall: %s", error.c_str());
    return data;
}

/// The largest number of intervals open at one time: what no packing can go below.
std::uint32_t maxConcurrency(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends)
{
    std::vector<std::pair<std::int64_t, int>> events;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        events.emplace_back(starts[i], +1);
        events.emplace_back(std::max(ends[i], starts[i]), -1);
    }
    std::sort(events.begin(), events.end()); // an end before a start at the same time: they may touch
    int open = 0, most = 0;
    for (const auto &[time, delta] : events) {
        open += delta;
        most = std::max(most, open);
    }
    return static_cast<std::uint32_t>(most);
}

/// No two intervals of a lane overlap (touching is fine).
bool lanesDisjoint(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends,
                   std::span<const std::uint32_t> lanes)
{
    for (std::size_t i = 0; i < starts.size(); ++i) {
        for (std::size_t j = i + 1; j < starts.size(); ++j) {
            if (lanes[i] == lanes[j] && starts[j] < ends[i] && starts[i] < ends[j])
                return false;
        }
    }
    return true;
}

/// The order of a request's parts in its bar, worked out here: pipeline order, with unattributed moved
/// before the first server segment that is not measured (where the missing time was spent), else last.
std::vector<int> barOrder(const WaterfallData &data, std::size_t i)
{
    std::vector<int> order;
    bool placed = false;
    for (int s = 0; s < int(Segment::Unattributed); ++s) {
        if (!placed && s != int(Segment::Network) && !isMeasured(data.segment(i, Segment(s)))) {
            order.push_back(int(Segment::Unattributed));
            placed = true;
        }
        order.push_back(s);
    }
    if (!placed)
        order.push_back(int(Segment::Unattributed));
    return order;
}

WaterfallSort sortBy(WaterfallSort::Key key, bool descending, Segment segment = Segment::Network)
{
    WaterfallSort s;
    s.key = key;
    s.segment = segment;
    s.descending = descending;
    return s;
}

} // namespace

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
    void density_data();
    void density();
    void densityOnThreads_data();
    void densityOnThreads();
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

void TestWaterfallData::density_data()
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

void TestWaterfallData::density()
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

void TestWaterfallData::densityOnThreads_data()
{
    QTest::addColumn<bool>("lanes");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("bands");
    for (bool lanes : {false, true}) {
        for (int threads : {2, 3, 7}) {
            QTest::addRow("%s, %d threads", lanes ? "lanes" : "rows", threads) << lanes << threads << 40;
            QTest::addRow("%s, %d threads, more than the bands", lanes ? "lanes" : "rows", threads) << lanes << threads << 2;
        }
    }
}

void TestWaterfallData::densityOnThreads()
{
    QFETCH(bool, lanes);
    QFETCH(int, threads);
    QFETCH(int, bands);
    lxtest::StoreFixture f(randomTrace(700, 9));
    const auto data = load(*f.store);
    QVERIFY(data);
    const WaterfallRows rows = lanes ? WaterfallRows::lanes(*data) : WaterfallRows::sorted(*data, sortBy(WaterfallSort::Key::E2e, true));
    const WaterfallViewport view{data->firstStart, data->lastEnd + 1, 0, rows.rowCount(), 90, bands};
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
    QCOMPARE(requests, std::int64_t(data->size())); // every request, once
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
