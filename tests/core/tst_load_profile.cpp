// SPDX-License-Identifier: GPL-3.0-or-later
// The load profile on hand-made requests whose windows are worked out by hand: arrivals, completions,
// requests in flight, segment means and p95 per window; the round window widths; empty input.

#include "analysis/grouped_e2e.h"
#include "analysis/load_profile.h"
#include "analysis/time_grid.h"
#include "model/time_range.h"

#include <QTest>
#include <limits>
#include <random>

#include <numeric>

using namespace lx;

namespace {

constexpr qint64 S = 1'000'000'000;
constexpr qint64 T0 = 1'700'000'000 * S; // a whole second, so 1 s windows start at T0

LatencyRow row(qint64 startMs, qint64 queueMs, qint64 decodeMs, bool ok = true)
{
    LatencyRow r;
    r.start = T0 + startMs * 1'000'000;
    r.segments.fill(kNotMeasured);
    r.segments[int(Segment::Queue)] = queueMs * 1'000'000;
    r.segments[int(Segment::Decode)] = decodeMs * 1'000'000;
    r.segments[int(Segment::Unattributed)] = 0;
    r.e2e = (queueMs + decodeMs) * 1'000'000;
    r.ok = ok;
    return r;
}

} // namespace

class TestLoadProfile : public QObject {
    Q_OBJECT

private slots:
    void windowIndexIsTheDivision_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("width");
        QTest::newRow("1 s windows over an hour of 2025")
            << qint64(1'735'732'800'141'644'922) << qint64(1'735'736'400'000'000'000) << qint64(1'000'000'000);
        QTest::newRow("1 ns windows") << qint64(-5'000) << qint64(95'000) << qint64(1);
        QTest::newRow("a width that is no power of ten") << qint64(0) << qint64(7'777'777'777'777) << qint64(7'919);
        QTest::newRow("1677 to 2262 in 100,000 windows") << std::numeric_limits<qint64>::min()
                + 1 << std::numeric_limits<qint64>::max() << qint64(184'467'440'737'095);
        QTest::newRow("one window a day over 300 years")
            << qint64(-4'000'000'000'000'000'000) << qint64(5'000'000'000'000'000'000) << qint64(86'400'000'000'000);
    }
    /// WindowIndexer (a multiplication by the width's inverse) gives exactly the grid's division, at window
    /// edges, a ns either side of them, past the grid's end and at the ends of int64.
    void windowIndexIsTheDivision()
    {
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(qint64, width);
        const TimeGrid grid = TimeGrid::over(first, last, width);
        const WindowIndexer index(grid);
        std::vector<std::int64_t> times = { first, last, std::numeric_limits<std::int64_t>::max() };
        std::mt19937_64 random(7);
        for (int i = 0; i < 20'000; ++i) {
            const std::uint64_t w = random() % grid.count; // a window's edge, a ns either side, and a time inside
            const std::int64_t edge = grid.startOf(w);
            for (const std::int64_t t :
                 { edge, edge - 1, edge + 1,
                   saturatingAdd(edge, static_cast<std::int64_t>(random() % static_cast<std::uint64_t>(width))) })
                if (t >= grid.origin)
                    times.push_back(t);
        }
        for (const std::int64_t t : times)
            QCOMPARE(index(t), grid.indexOf(t));
        // A profile of no rows has no windows and width 0 (analyzeLoad() still makes its indexer): nothing
        // divides by zero (the sanitizer build's UBSan would stop here), and a time lies in no window.
        const WindowIndexer none(TimeGrid { first, 0, 0 });
        QVERIFY(none(first) == 0 && none(saturatingAdd(first, 5)) == 5);
    }

    void windowWidth_data()
    {
        QTest::addColumn<qint64>("spanNs");
        QTest::addColumn<qint64>("widthNs");
        QTest::newRow("one instant") << qint64(0) << qint64(1'000'000);
        QTest::newRow("100 ms") << qint64(100'000'000) << qint64(1'000'000);
        QTest::newRow("1 s: 5 ms would need 201 windows") << S << qint64(10'000'000);
        QTest::newRow("133 s (a sample trace)") << 133 * S << S;
        QTest::newRow("1 h") << 3600 * S << 30 * S;
        QTest::newRow("10 days") << 864000 * S << 7200 * S;
        QTest::newRow("1000 days: whole days") << 86'400'000 * S << 6 * 86400 * S; // 5 days would need 201
    }
    void windowWidth()
    {
        QFETCH(qint64, spanNs);
        QFETCH(qint64, widthNs);
        QCOMPARE(chooseWindowWidth(spanNs), widthNs);
        QVERIFY(spanNs / widthNs + 1 <= 200);
    }

    void handWorkedWindows()
    {
        // A: 0..2 s (queue 1.5 s, decode 0.5 s); B: 0.5..1.5 s (decode 1 s); C: 1.5..1.7 s (queue 0.2 s); an
        // error at 0.2 s that counts as an arrival and in flight but not in the latency figures.
        const std::vector<LatencyRow> rows = {row(0, 1500, 500), row(500, 0, 1000), row(1500, 200, 0), row(200, 0, 100, false)};
        LoadOptions options;
        options.windowNs = S;
        const LoadProfile p = computeLoadProfile(rows, options);
        QCOMPARE(p.windowNs, S);
        QCOMPARE(p.windows.size(), std::size_t(2));
        const LoadWindow &w0 = p.windows[0], &w1 = p.windows[1];
        QCOMPARE(w0.startNs, T0);
        QCOMPARE(w0.arrivals, qint64(3));
        QCOMPARE(w0.count, qint64(2));
        QCOMPARE(w0.coveredNs, S);
        QCOMPARE(w0.arrivalRps, 3.0);
        QCOMPARE(w0.completions, qint64(1)); // the error, at 0.3 s
        QCOMPARE(w0.meanInFlight, 1.6);      // A 1 s + B 0.5 s + the error 0.1 s
        QCOMPARE(w0.segmentMeanNs[int(Segment::Queue)], 750e6);
        QCOMPARE(w0.segmentMeanNs[int(Segment::Decode)], 750e6);
        QCOMPARE(*w0.e2eMeanNs, 1.5e9);
        QCOMPARE(*w0.e2eP95Ns, 1.95e9); // type 7 over {1 s, 2 s}
        QCOMPARE(w1.arrivals, qint64(1));
        QCOMPARE(w1.coveredNs, S / 2 + 1); // up to the last start, inclusive
        QCOMPARE(w1.completions, qint64(2)); // B at 1.5 s, C at 1.7 s; A ends at 2 s, past the last window
        QCOMPARE(w1.throughputRps, 2.0);
        QCOMPARE(w1.meanInFlight, 1.7); // A 1 s + B 0.5 s + C 0.2 s
        QCOMPARE(*w1.e2eP95Ns, 200e6);
    }

    /// An edge window's rate is per second of its covered part, of half its width at least: a burst sent at
    /// one instant was once "8000000000 req/s" (8 arrivals over the 1 ns its window covered).
    void edgeWindowRates_data()
    {
        QTest::addColumn<QList<qint64>>("startsMs");
        QTest::addColumn<QList<double>>("rates"); // each window's, windows of 1 s
        QTest::newRow("a burst at one instant") << QList<qint64> { 0, 0, 0, 0 } << QList<double> { 8.0 };
        QTest::newRow("a last arrival just past a window's start")
            << QList<qint64> { 0, 250, 500, 750, 1000 } << QList<double> { 4.0, 2.0 };
        QTest::newRow("a last window covered by more than half")
            << QList<qint64> { 0, 500, 1600 } << QList<double> { 2.0, 1.0 / 0.600000001 };
    }
    void edgeWindowRates()
    {
        QFETCH(QList<qint64>, startsMs);
        QFETCH(QList<double>, rates);
        std::vector<LatencyRow> rows;
        for (qint64 ms : startsMs)
            rows.push_back(row(ms, 0, 100));
        LoadOptions options;
        options.windowNs = S;
        const LoadProfile p = computeLoadProfile(rows, options);
        QCOMPARE(p.windows.size(), std::size_t(rates.size()));
        for (qsizetype i = 0; i < rates.size(); ++i)
            QVERIFY2(
                std::abs(p.windows[std::size_t(i)].arrivalRps - rates[i]) < 1e-6 * rates[i],
                qPrintable(QStringLiteral("window %1: %2 req/s").arg(i).arg(p.windows[std::size_t(i)].arrivalRps)));
    }

    void untilTheLastEnd_data()
    {
        QTest::addColumn<qint64>("windowNs");     // asked for; 0: automatic
        QTest::addColumn<qint64>("expectedWidth");
        QTest::addColumn<int>("windows");
        QTest::newRow("1 s, as asked") << S << S << 3;
        // Starts span 1.5 s (10 ms windows), the last end is at 2 s: the automatic width over 2 s.
        QTest::newRow("automatic: over the whole span") << qint64(0) << qint64(chooseWindowWidth(2 * S)) << 101;
        QTest::newRow("too narrow a width is widened") << qint64(1'000'000) << qint64(chooseWindowWidth(2 * S)) << 101;
    }

    void untilTheLastEnd() // the same requests as handWorkedWindows, the windows on to A's end at 2 s
    {
        QFETCH(qint64, windowNs);
        QFETCH(qint64, expectedWidth);
        QFETCH(int, windows);
        const std::vector<LatencyRow> rows = {row(0, 1500, 500), row(500, 0, 1000), row(1500, 200, 0), row(200, 0, 100, false)};
        LoadOptions options;
        options.windowNs = windowNs;
        options.untilLastEnd = true;
        const LoadProfile p = computeLoadProfile(rows, options);
        QCOMPARE(p.windowNs, expectedWidth);
        QCOMPARE(int(p.windows.size()), windows);
        std::int64_t arrivals = 0, completions = 0;
        double busy = 0;
        for (const LoadWindow &w : p.windows) {
            arrivals += w.arrivals;
            completions += w.completions;
            busy += w.meanInFlight * double(p.windowNs);
            QCOMPARE(w.coveredNs, std::min<std::int64_t>(w.startNs + p.windowNs, T0 + 2 * S + 1) - std::max<std::int64_t>(w.startNs, T0)); // to the last end
            if (w.startNs > T0 + 1500 * 1'000'000) // past the last start: no arrivals, no rate
                QCOMPARE(w.arrivalRps, 0.0);
        }
        QCOMPARE(arrivals, qint64(4));
        QCOMPARE(completions, qint64(4)); // A's at 2 s too, now inside the last window
        QCOMPARE(busy, 3.3e9);            // 2 s + 1 s + 0.2 s + 0.1 s in flight, all of it
        QVERIFY(p.windows.back().completions >= 1); // the last window holds the last end
    }

    // Requests in flight over many windows each (a long wait over narrow windows), against the overlaps
    // summed window by window here: the profile adds the whole windows between a request's first and last
    // as a difference instead of one by one.
    void inFlightOverManyWindows_data()
    {
        QTest::addColumn<QList<qint64>>("startsMs");
        QTest::addColumn<QList<qint64>>("e2esMs");
        QTest::addColumn<bool>("untilLastEnd");
        QTest::newRow("one request over ten windows and a half") << QList<qint64>{0} << QList<qint64>{10'500} << true;
        QTest::newRow("starting mid-window") << QList<qint64>{300} << QList<qint64>{3'000} << true;
        QTest::newRow("within one window") << QList<qint64>{200, 600} << QList<qint64>{300, 100} << true;
        QTest::newRow("ending exactly at a window's end") << QList<qint64>{0, 1'000} << QList<qint64>{2'000, 1'000} << true;
        QTest::newRow("past the last window") << QList<qint64>{0, 2'500} << QList<qint64>{100'000, 200} << false;
        QTest::newRow("no time in flight") << QList<qint64>{0, 1'500} << QList<qint64>{0, 0} << false;
    }
    void inFlightOverManyWindows()
    {
        QFETCH(QList<qint64>, startsMs);
        QFETCH(QList<qint64>, e2esMs);
        QFETCH(bool, untilLastEnd);
        std::vector<LatencyRow> rows;
        for (int i = 0; i < startsMs.size(); ++i)
            rows.push_back(row(startsMs[i], 0, e2esMs[i]));
        LoadOptions options;
        options.windowNs = S;
        options.untilLastEnd = untilLastEnd;
        const LoadProfile p = computeLoadProfile(rows, options);
        QVERIFY(!p.windows.empty());
        for (const LoadWindow &w : p.windows) {
            double busy = 0;
            for (const LatencyRow &r : rows)
                busy += double(std::max<std::int64_t>(0, std::min<std::int64_t>(r.start + r.e2e, w.startNs + S) - std::max<std::int64_t>(r.start, w.startNs)));
            QCOMPARE(w.meanInFlight, busy / double(S));
        }
    }

    void e2eInGroupsOfWindows_data()
    {
        QTest::addColumn<int>("valuesAtOnce");
        QTest::newRow("one value: a window a group") << 1;
        QTest::newRow("fewer than a window holds") << 7;
        QTest::newRow("a few windows a group") << 60;
        QTest::newRow("all but the last windows") << 380;
    }
    /// The windows' e2e, read a group of windows at a time (LoadOptions::e2eValuesAtOnce), give the figures
    /// of all at once: rows out of start order, errors, and a row without a start among them.
    void e2eInGroupsOfWindows()
    {
        QFETCH(int, valuesAtOnce);
        std::vector<LatencyRow> rows;
        for (int i = 0; i < 400; ++i) // starts over 20 s, out of order; e2e from 10 ms to 2 s
            rows.push_back(row((i * 7919) % 20'000, (i * 31) % 500, 10 + (i * 104'729) % 1'500, i % 13 != 0));
        rows.push_back(LatencyRow{});
        LoadOptions options;
        options.windowNs = S;
        const LoadProfile whole = computeLoadProfile(rows, options);
        options.e2eValuesAtOnce = std::size_t(valuesAtOnce);
        const LoadProfile grouped = computeLoadProfile(rows, options);
        QCOMPARE(grouped.windows.size(), whole.windows.size());
        QCOMPARE(whole.windows.size(), std::size_t(20));
        for (std::size_t i = 0; i < whole.windows.size(); ++i) {
            const LoadWindow &a = grouped.windows[i], &b = whole.windows[i];
            QVERIFY(b.count > 0);
            QCOMPARE(a.count, b.count);
            QCOMPARE(a.e2eMeanNs, b.e2eMeanNs);
            QCOMPARE(a.e2eP95Ns, b.e2eP95Ns);
            QCOMPARE(a.segmentMeanNs, b.segmentMeanNs);
        }
    }

    void groupedE2eHoldsAtMostItsBound_data()
    {
        QTest::addColumn<QList<int>>("groupSizes");
        QTest::addColumn<int>("valuesAtOnce");
        QTest::addColumn<bool>("twoThreads");
        QTest::addColumn<bool>("inRuns");
        QTest::newRow("all groups in one pass") << QList<int> { 3, 5, 2 } << 100 << false << false;
        QTest::newRow("a group a pass") << QList<int> { 3, 5, 2 } << 5 << false << false;
        QTest::newRow("a group past the bound, in place") << QList<int> { 2, 40, 3 } << 8 << false << false;
        QTest::newRow("every group past the bound") << QList<int> { 9, 12, 30 } << 8 << false << false;
        QTest::newRow("empty groups between") << QList<int> { 0, 6, 0, 0, 7, 0 } << 7 << false << false;
        QTest::newRow("empty groups before a group past the bound")
            << QList<int> { 0, 0, 20, 0 } << 4 << false << false;
        // Each pass needs a little more than the one before: resize() alone asked for twice the values.
        QTest::newRow("passes growing by one") << QList<int> { 4, 4, 5, 4, 6, 3, 7 } << 7 << false << false;
        // The same on two threads (row_halves.h), each half of the rows filling its own places.
        QTest::newRow("two threads: all groups in one pass") << QList<int> { 3, 5, 2 } << 100 << true << false;
        QTest::newRow("two threads: a group past the bound, in place") << QList<int> { 2, 40, 3 } << 8 << true << false;
        QTest::newRow("two threads: passes growing by one") << QList<int> { 4, 4, 5, 4, 6, 3, 7 } << 7 << true << false;
        // Each group's rows one after the other, as a trace's windows come: a batch reads only their span.
        QTest::newRow("in runs: a group a pass") << QList<int> { 3, 5, 2 } << 5 << false << true;
        QTest::newRow("in runs, two threads: passes growing by one")
            << QList<int> { 4, 4, 5, 4, 6, 3, 7 } << 7 << true << true;
        QTest::newRow("in runs, two threads: empty groups, one past the bound")
            << QList<int> { 0, 6, 0, 20, 7, 0 } << 7 << true << true;
    }
    /// Each group's e2e statistic is summarize()'s over its values, however the groups are taken, and no
    /// batch holds more than `valuesAtOnce` values: a group of more is read in place. (The bound is what
    /// the function reports of its batches' capacity; the in-place histogram's own memory is not in it.)
    void groupedE2eHoldsAtMostItsBound()
    {
        QFETCH(QList<int>, groupSizes);
        QFETCH(int, valuesAtOnce);
        QFETCH(bool, twoThreads);
        QFETCH(bool, inRuns);
        std::vector<LatencyRow> rows;
        std::vector<std::int64_t> groupOfRow;
        std::vector<std::vector<std::int64_t>> expected(std::size_t(groupSizes.size()));
        std::vector<std::size_t> counts;
        for (qsizetype g = 0; g < groupSizes.size(); ++g)
            counts.push_back(std::size_t(groupSizes[g]));
        // Rows of all groups interleaved (or in runs), and rows of no group among them.
        std::size_t left = std::accumulate(counts.begin(), counts.end(), std::size_t(0));
        for (int i = 0; left > 0; ++i) {
            std::size_t g = std::size_t(i) % counts.size();
            if (inRuns) // the first group not yet full
                for (g = 0; expected[g].size() == counts[g]; ++g) { }
            if (expected[g].size() < counts[g]) {
                rows.push_back(row(i, i % 3, 10 + (i * 104'729) % 997));
                groupOfRow.push_back(std::int64_t(g));
                expected[g].push_back(rows.back().e2e);
                --left;
            }
            if (i % 4 == 3) {
                rows.push_back(row(i, 0, 1'000));
                groupOfRow.push_back(-1);
            }
        }
        // Each group's rows in each half of the rows, as the threads split them.
        const std::size_t twoThreadsFrom = twoThreads ? 1 : SIZE_MAX;
        const std::size_t upper = upperHalfStart(rows.size(), twoThreadsFrom);
        QCOMPARE(upper < rows.size(), twoThreads);
        GroupRowsByHalf halves = { std::vector<GroupRows>(counts.size()), std::vector<GroupRows>(counts.size()) };
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (groupOfRow[i] >= 0)
                halves[i < upper ? 0 : 1][std::size_t(groupOfRow[i])].add(i);
        const std::vector<double> percentiles = {50.0, 95.0};
        // In batches of groups, and (where the groups hold more than a batch) a RankHistogram a group.
        for (const std::size_t histogramsUpTo : { std::size_t(0), kGroupedE2eHistograms }) {
            std::vector<int> done(counts.size(), 0);
            const std::size_t held = summarizeE2eByGroup(
                rows, halves, [&](std::size_t i) { return groupOfRow[i]; }, percentiles,
                [&](std::size_t g, const Statistic &stat) {
                    ++done[g];
                    const Statistic want = summarize(expected[g], percentiles);
                    QCOMPARE(stat.count, want.count);
                    QCOMPARE(stat.meanNs, want.meanNs);
                    QCOMPARE(stat.maxNs, want.maxNs);
                    QCOMPARE(stat.percentilesNs, want.percentilesNs);
                },
                std::size_t(valuesAtOnce), twoThreadsFrom, histogramsUpTo);
            for (std::size_t g = 0; g < counts.size(); ++g)
                QCOMPARE(done[g], counts[g] > 0 ? 1 : 0);
            QVERIFY2(held <= std::size_t(valuesAtOnce), qPrintable(QString::number(held)));
        }
    }

    void errorsInTheFiguresWhenAsked()
    {
        const std::vector<LatencyRow> rows = {row(0, 0, 100), row(10, 0, 300, false)};
        LoadOptions options;
        options.includeErrors = true;
        options.windowNs = S;
        const LoadProfile p = computeLoadProfile(rows, options);
        QCOMPARE(p.windows.front().count, qint64(2));
        QCOMPARE(*p.windows.front().e2eMeanNs, 200e6);
    }

    void segmentMeansAreExact_data()
    {
        QTest::addColumn<int>("twoThreadsFrom");
        // Sums past 2^53 ns, where a double's running sum drops the low bits, in an order of its own per half.
        QTest::newRow("days of queue, one thread") << (std::numeric_limits<int>::max)();
        QTest::newRow("days of queue, two halves") << 1;
    }
    /// A window's mean part is its rows' exact sum over their count, rounded once (WindowSums: the knee adds
    /// the windows' sums up into its buckets and bands, in another order than a pass over the rows would).
    void segmentMeansAreExact()
    {
        QFETCH(int, twoThreadsFrom);
        std::vector<LatencyRow> rows;
        qint64 sum = 0; // exact: 64 values of about 2^50 stay below 2^63
        double naiveSum = 0; // a double's running sum, as the windows' sums were
        for (int i = 0; i < 64; ++i) {
            LatencyRow r = row(i, 0, 100);
            // About 2^50 ns (13 days) each, odd: 64 of them sum past 2^53.
            const qint64 queue = (qint64(1) << 50) + i + 1;
            r.segments[int(Segment::Queue)] = queue;
            r.e2e = queue + 100'000'000;
            sum += queue;
            naiveSum += static_cast<double>(queue);
            rows.push_back(r);
        }
        QVERIFY(naiveSum != static_cast<double>(sum)); // the rows do reach the sums a double rounds
        LoadOptions options;
        options.windowNs = 3600 * S;
        options.twoThreadsFrom = std::size_t(twoThreadsFrom);
        const LoadProfile p = computeLoadProfile(rows, options);
        QCOMPARE(p.windows.size(), std::size_t(1));
        QCOMPARE(p.windows.front().count, qint64(64));
        // Exactly: QCOMPARE of doubles allows a relative 1e-12, which the running sum's 16 ns would pass.
        const double mean = p.windows.front().segmentMeanNs[int(Segment::Queue)];
        QVERIFY2(mean == static_cast<double>(sum) / 64.0, qPrintable(QString::number(mean, 'g', 17)));
        QVERIFY(p.rowTallies);
        QVERIFY(p.rowTallies->sums.front().parts[int(Segment::Queue)].value() == static_cast<double>(sum));
        QVERIFY(naiveSum / 64.0 != static_cast<double>(sum) / 64.0); // what the old sums gave differs
    }

    void talliesOnlyOfTheirRows_data()
    {
        QTest::addColumn<bool>("staleTimes");
        QTest::addColumn<bool>("untilLastEnd");
        QTest::newRow("its own rows") << false << false;
        QTest::newRow("times that are not the rows' (a row before the first window)") << true << false;
        QTest::newRow("on to the last end") << false << true;
    }
    /// The windows' tallies, from which the knee adds up its buckets and bands, are kept only where they are
    /// those of the knee's windows: not when a row lies before the first window (given times that are not
    /// the rows', the profile puts it in the last), nor for the load over time on to the last end.
    void talliesOnlyOfTheirRows()
    {
        QFETCH(bool, staleTimes);
        QFETCH(bool, untilLastEnd);
        const std::vector<LatencyRow> rows = { row(0, 0, 100), row(1500, 0, 300), row(2500, 10, 20) };
        LoadOptions options;
        options.windowNs = S;
        options.untilLastEnd = untilLastEnd;
        if (staleTimes) {
            RowTimes times;
            times.add(rows[1].start, rows[1].e2e, 0); // a scan that saw the later rows alone
            times.add(rows[2].start, rows[2].e2e, 0);
            options.rowTimes = times;
        }
        const LoadProfile p = computeLoadProfile(rows, options);
        QVERIFY(!p.windows.empty());
        QCOMPARE(bool(p.rowTallies), !staleTimes && !untilLastEnd);
        if (p.rowTallies) {
            QVERIFY(p.rowTallies->data == rows.data());
            QCOMPARE(p.rowTallies->rows, rows.size());
        }
    }

    void nothingToProfile_data()
    {
        QTest::addColumn<bool>("withRowWithoutStart");
        QTest::newRow("no rows") << false;
        QTest::newRow("only a row without a start") << true;
    }
    void nothingToProfile()
    {
        QFETCH(bool, withRowWithoutStart);
        std::vector<LatencyRow> rows;
        if (withRowWithoutStart)
            rows.push_back(LatencyRow{});
        const LoadProfile p = computeLoadProfile(rows);
        QVERIFY(p.windows.empty());
        QCOMPARE(p.windowNs, qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestLoadProfile)
#include "tst_load_profile.moc"
