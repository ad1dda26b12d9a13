// SPDX-License-Identifier: GPL-3.0-or-later
// The dominant-segment breakdown: its overall shares are the report's, every non-empty bar sums to 1,
// e2e bands are cut at the report's percentiles, time windows are round and count every request with a
// start, requests without a start are counted apart, and each cell's filter expression, compiled by
// core's filter, selects exactly the requests the cell counts.

#include "analysis/analysis.h"
#include "analysis/dominant_breakdown.h"
#include "filter/filter_expression.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'735'732'800'000'000'000LL; // 2025-01-01T12:00:00Z
constexpr qint64 MS = 1'000'000;
constexpr qint64 S = 1000 * MS;

/// One durations-form request.
QByteArray request(int i, qint64 start, double queueMs, double decodeMs, const char *extra = "")
{
    return "{\"id\":\"r" + QByteArray::number(i) + "\",\"start_ns\":" + QByteArray::number(start) + ",\"queue_ms\":"
           + QByteArray::number(queueMs, 'f', 3) + ",\"decode_ms\":" + QByteArray::number(decodeMs, 'f', 6) + extra + "}\n";
}

/// `n` seeded requests over ~10 minutes whose queue grows with time (the rising-load shape), 5 % errors,
/// models a and b, a prefill on some.
QByteArray risingLoad(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::lognormal_distribution<double> decode(6.0, 0.4);
    std::uniform_int_distribution<int> coin(0, 99);
    QByteArray out;
    for (int i = 0; i < n; ++i) {
        const double load = double(i) / n;
        std::string extra = coin(rng) < 5 ? ",\"status\":\"error\"" : "";
        extra += coin(rng) < 50 ? ",\"model\":\"a\"" : ",\"model\":\"b\"";
        if (coin(rng) < 30)
            extra += ",\"prefill_ms\":" + std::to_string(coin(rng) * 3);
        out += request(i, T0 + qint64(i) * 600 * S / n + coin(rng) * MS, load * load * 2000 * coin(rng) / 50.0,
                       decode(rng), extra.c_str());
    }
    return out;
}

/// How many requests match `expression` ANDed with `base` and with the expression `within`, by core's
/// filter (the report's total): the way a view narrows its filter by a clicked bar.
qint64 countMatching(const Store &store, RequestFilter base, const std::string &within, const std::string &expression)
{
    auto compiled = compileFilterExpression(within.empty() ? expression : "(" + within + ") and " + expression);
    if (!std::holds_alternative<SqlCondition>(compiled)) {
        qWarning("%s: %s", expression.c_str(), std::get<FilterError>(compiled).message.c_str());
        return -1;
    }
    base.expression = std::get<SqlCondition>(compiled);
    return analyze(store, base).total;
}

/// Every cell of every bar, checked through the filter.
void verifyExpressions(const Store &store, const RequestFilter &base, const DominantBreakdown &b,
                       const std::string &within = {})
{
    std::vector<const DominantBar *> bars = {&b.overall};
    for (const DominantBar &bar : b.bands)
        bars.push_back(&bar);
    for (const DominantBar &bar : b.windows)
        bars.push_back(&bar);
    int checked = 0;
    for (const DominantBar *bar : bars) {
        for (int s = 0; s < kSegmentCount; ++s) {
            // Empty cells too, but not all of them: an empty bar's seven cells say the same thing.
            if (bar->counts[std::size_t(s)] == 0 && (bar->total == 0 || s % 3 != 0))
                continue;
            const std::string &expression = bar->expressions[std::size_t(s)];
            QVERIFY2(countMatching(store, base, within, expression) == bar->counts[std::size_t(s)],
                     (expression + " should match " + std::to_string(bar->counts[std::size_t(s)])).c_str());
            ++checked;
        }
    }
    QVERIFY(checked > 0 || b.overall.total == 0);
}

} // namespace

class TestDominantBreakdown : public QObject {
    Q_OBJECT

private slots:
    void agreesWithReport_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("includeErrors");
        QTest::newRow("everything") << QString() << false;
        QTest::newRow("errors included") << QString() << true;
        QTest::newRow("model a") << QStringLiteral("model = a") << false;
        QTest::newRow("second half") << QStringLiteral("start >= 2025-01-01T12:05:00Z") << false;
        QTest::newRow("matches nothing") << QStringLiteral("e2e > 1h") << false;
    }

    void agreesWithReport()
    {
        QFETCH(QString, expression);
        QFETCH(bool, includeErrors);
        static const lxtest::StoreFixture fixture(risingLoad(3000, 5));
        QVERIFY(fixture.store);
        const std::optional<RequestFilter> compiled = lxtest::filterOf(expression);
        QVERIFY(compiled);
        const RequestFilter &filter = *compiled;
        AnalysisOptions options;
        options.includeErrors = includeErrors;
        options.percentiles = {50, 90, 99};
        const Report report = analyze(*fixture.store, filter, options);
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store, filter, options);

        QCOMPARE(b.overall.total, report.dominantTotal);
        for (int s = 0; s < kSegmentCount; ++s)
            QCOMPARE(b.overall.share(s), report.dominantShare(s)); // exactly: the same counts
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE(b.e2ePercentilesNs[i], report.e2e.stat.percentilesNs[i].value_or(0.0));

        // Every non-empty bar sums to 1; bands and windows together count every request once.
        qint64 inBands = 0, inWindows = 0;
        const auto sumsToOne = [](const DominantBar &bar) {
            double sum = 0;
            qint64 count = 0;
            for (int s = 0; s < kSegmentCount; ++s) {
                sum += bar.share(s);
                count += bar.counts[std::size_t(s)];
            }
            return count == bar.total && (bar.total == 0 || std::abs(sum - 1.0) < 1e-12);
        };
        QVERIFY(sumsToOne(b.overall));
        for (const DominantBar &bar : b.bands) {
            QVERIFY2(sumsToOne(bar), bar.label.c_str());
            inBands += bar.total;
        }
        for (const DominantBar &bar : b.windows) {
            QVERIFY2(sumsToOne(bar), bar.label.c_str());
            inWindows += bar.total;
        }
        QCOMPARE(inBands + b.withoutE2e, b.overall.total);
        QCOMPARE(inWindows + b.withoutStart, b.overall.total);
        if (b.overall.total > 0) {
            QVERIFY2(b.windows.size() >= 20 && b.windows.size() <= 60, qPrintable(QString::number(b.windows.size())));
            QCOMPARE(b.windows.front().fromNs % b.windowNs, qint64(0)); // round: aligned to its width
        }
        verifyExpressions(*fixture.store, {}, b, expression.toStdString());
    }

    void expressionsOfBaseFilter()
    {
        // The cell's expression goes with the filter the breakdown was made under (the view ANDs them).
        static const lxtest::StoreFixture fixture(risingLoad(1500, 9));
        RequestFilter base;
        base.models = {"b"};
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store, base);
        verifyExpressions(*fixture.store, base, b);
    }

    void bandBoundaries_data()
    {
        QTest::addColumn<QList<double>>("e2eMs");
        QTest::addColumn<QList<qint64>>("bandCounts");
        QTest::addColumn<QList<qint64>>("edgesNs");
        // 10..100 ms: p50 55, p90 91, p99 99.1 ms; 99.1 ms is no whole ns boundary below it.
        QTest::newRow("ten steps") << QList<double>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
                                   << QList<qint64>{5, 4, 0, 1} << QList<qint64>{55 * MS, 91 * MS, 99'100'000};
        // A value equal to p50 belongs to the band above it: bands are [from, to).
        QTest::newRow("value at p50") << QList<double>{10, 20, 30} << QList<qint64>{1, 1, 0, 1}
                                      << QList<qint64>{20 * MS, 28 * MS, 29'800'000};
        QTest::newRow("all equal") << QList<double>{5, 5, 5, 5} << QList<qint64>{0, 0, 0, 4}
                                   << QList<qint64>{5 * MS, 5 * MS, 5 * MS};
        QTest::newRow("fraction of a ns rounds up") << QList<double>{0.000001, 0.000002} << QList<qint64>{1, 0, 0, 1}
                                                    << QList<qint64>{2, 2, 2};
    }

    void bandBoundaries()
    {
        QFETCH(QList<double>, e2eMs);
        QFETCH(QList<qint64>, bandCounts);
        QFETCH(QList<qint64>, edgesNs);
        QByteArray lines;
        for (int i = 0; i < e2eMs.size(); ++i)
            lines += request(i, T0 + i * S, 0, e2eMs[i]);
        const lxtest::StoreFixture fixture(lines);
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store);
        for (int band = 0; band < kLatencyBandCount; ++band)
            QCOMPARE(b.bands[std::size_t(band)].total, bandCounts[band]);
        QCOMPARE(b.bands[0].fromNs, kNotMeasured);
        QCOMPARE(b.bands[3].toNs, kNotMeasured);
        for (int edge = 0; edge < 3; ++edge) {
            QCOMPARE(b.bands[std::size_t(edge)].toNs, edgesNs[edge]);
            QCOMPARE(b.bands[std::size_t(edge) + 1].fromNs, edgesNs[edge]);
        }
        verifyExpressions(*fixture.store, {}, b);
    }

    void bandExpressionText()
    {
        const lxtest::StoreFixture fixture(request(0, T0, 1, 10) + request(1, T0 + S, 30, 10) + request(2, T0 + 2 * S, 0, 50));
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store);
        QCOMPARE(b.overall.expressions[std::size_t(Segment::Queue)], std::string("dominant = queue"));
        QCOMPARE(b.bands[1].expressions[std::size_t(Segment::Queue)],
                 std::string("dominant = queue and e2e >= 40ms and e2e < 48ms"));
        QCOMPARE(b.windows[0].expressions[std::size_t(Segment::Decode)],
                 std::string("dominant = decode and start >= 2025-01-01T12:00:00Z and start < 2025-01-01T12:00:00.050Z"));
        QVERIFY(b.bands[1].descriptions[std::size_t(Segment::Queue)].starts_with("queue-dominated requests, e2e p50–90"));
    }

    void bandEdgeText_data()
    {
        QTest::addColumn<QList<double>>("e2eMs");
        QTest::addColumn<int>("band");
        QTest::addColumn<QString>("condition");
        // p50 of two is their middle, 8626975926 ns: no request between it and 8.627 s.
        QTest::newRow("rounded to the ms") << QList<double>{8000, 9253.951852} << 0 << QStringLiteral("and e2e < 8.627s");
        QTest::newRow("the next band from the same edge")
            << QList<double>{8000, 9253.951852} << 1 << QStringLiteral("and e2e >= 8.627s and e2e < ");
        // p50 of three is the middle request's e2e: a rounded edge would move it to the other band.
        QTest::newRow("a request on the edge keeps the ns")
            << QList<double>{1000, 8626.975926, 9000} << 0 << QStringLiteral("and e2e < 8.626975926s");
        QTest::newRow("whole ms stay as they are") << QList<double>{10, 20} << 1 << QStringLiteral("and e2e >= 15ms and e2e < ");
    }

    void bandEdgeText()
    {
        QFETCH(QList<double>, e2eMs);
        QFETCH(int, band);
        QFETCH(QString, condition);
        QByteArray lines;
        for (int i = 0; i < e2eMs.size(); ++i)
            lines += request(i, T0 + i * S, 0, e2eMs[i]);
        const lxtest::StoreFixture fixture(lines);
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store);
        const std::string &expression = b.bands[std::size_t(band)].expressions[std::size_t(Segment::Decode)];
        QVERIFY2(expression.find(condition.toStdString()) != std::string::npos, expression.c_str());
        verifyExpressions(*fixture.store, {}, b); // and each cell still selects exactly its count
    }

    void errorsAreLeftOutOfTheSelection()
    {
        // An error request that the statistics leave out must not be selected by the bar's expression.
        const lxtest::StoreFixture fixture(request(0, T0, 50, 1) + request(1, T0, 60, 1, ",\"status\":\"error\""));
        const DominantBreakdown b = computeDominantBreakdown(*fixture.store);
        QCOMPARE(b.overall.total, qint64(1));
        QVERIFY(b.overall.expressions[std::size_t(Segment::Queue)].ends_with(" and status = ok"));
        verifyExpressions(*fixture.store, {}, b);
        AnalysisOptions all;
        all.includeErrors = true;
        const DominantBreakdown withErrors = computeDominantBreakdown(*fixture.store, {}, all);
        QCOMPARE(withErrors.overall.total, qint64(2));
        QCOMPARE(withErrors.overall.expressions[std::size_t(Segment::Queue)], std::string("dominant = queue"));
    }

    void requestsWithoutStart()
    {
        // A vLLM bench file has no request times: its requests are in the shares and bands, in no window.
        QTemporaryDir dir;
        const std::string bench = lxtest::writeFile(
            dir, QStringLiteral("bench.json"),
            R"({"backend": "vllm", "model_id": "m", "num_prompts": 3, "input_lens": [10, 20, 30], "output_lens": [3, 2, 2],)"
            R"( "ttfts": [0.1, 0.25, 0.2], "itls": [[0.02, 0.03], [0.5], [0.01]], "errors": ["", "", ""]})");
        const std::string native = lxtest::writeFile(dir, QStringLiteral("t.jsonl"), request(0, T0, 5, 20) + request(1, T0 + S, 9, 2));
        const lxtest::Imported imported = lxtest::importPaths({bench, native});
        QVERIFY2(imported.store, imported.error.c_str());
        const DominantBreakdown b = computeDominantBreakdown(*imported.store);
        QCOMPARE(b.overall.total, qint64(5));
        QCOMPARE(b.withoutStart, qint64(3));
        qint64 inWindows = 0;
        for (const DominantBar &bar : b.windows)
            inWindows += bar.total;
        QCOMPARE(inWindows, qint64(2));
        verifyExpressions(*imported.store, {}, b);
    }

    void relativeTimes()
    {
        // Times from an unknown origin (kFlagRelativeTime): windows from 0, boundaries as durations, labels
        // as offsets. No reader yields such requests with segments yet, so they are written directly.
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        QVERIFY2(store->exec("INSERT INTO import_runs (id, path, format, compressed, started_ns, outcome) VALUES (1, 'g', 'jsonl', 0, 0, 'complete');"
                             "INSERT INTO requests (id, run_id, status, start_ns, e2e_ns, e2e_scope, queue_ns, decode_ns, unattributed_ns,"
                             " token_scope, dominant, flags) VALUES"
                             " (1, 1, 0, 0, 30, 2, 20, 10, 0, 2, 2, 4), (2, 1, 0, 5000000000, 30, 2, 5, 25, 0, 2, 4, 4),"
                             " (3, 1, 0, 61000000000, 30, 2, 5, 25, 0, 2, 4, 4);", &why), why.c_str());
        const DominantBreakdown b = computeDominantBreakdown(*store);
        QVERIFY(b.relativeTime);
        QCOMPARE(b.windowNs, 2 * S);
        QCOMPARE(b.windows.size(), std::size_t(31));
        QCOMPARE(b.windows[0].expressions[std::size_t(Segment::Queue)],
                 std::string("dominant = queue and start >= 0s and start < 2s"));
        QCOMPARE(b.windows[30].label, std::string("+1 min 0 s"));
        verifyExpressions(*store, {}, b);
    }

    void emptyStore()
    {
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        const DominantBreakdown b = computeDominantBreakdown(*store);
        QCOMPARE(b.overall.total, qint64(0));
        QVERIFY(b.windows.empty());
        QCOMPARE(b.windowNs, qint64(0));
        for (const DominantBar &bar : b.bands)
            QCOMPARE(bar.total, qint64(0));
    }

    void sampleTrace()
    {
        // The shipped rising-load trace: absolute times, ISO boundaries, decode first and queue later.
        const lxtest::Imported imported = lxtest::importPaths({LX_SOURCE_DIR "/sample_traces/rising_load.jsonl"});
        QVERIFY2(imported.store, imported.error.c_str());
        const DominantBreakdown b = computeDominantBreakdown(*imported.store);
        QCOMPARE(b.overall.total, analyze(*imported.store).dominantTotal);
        QVERIFY(!b.relativeTime);
        QVERIFY(b.windows.front().share(int(Segment::Decode)) > 0.5);
        QVERIFY(b.windows.back().share(int(Segment::Queue)) > 0.5);
        verifyExpressions(*imported.store, {}, b);
    }

    void roundWidths_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("width");
        QTest::newRow("one instant") << T0 << T0 << qint64(1);
        QTest::newRow("59 s: 60 windows of 1 s") << T0 << T0 + 59 * S << S;
        QTest::newRow("60 s: 61 of 1 s would be too many") << T0 << T0 + 60 * S << 2 * S;
        QTest::newRow("10 min") << T0 << T0 + 600 * S - 1 << 10 * S;
        QTest::newRow("15 s steps") << T0 << T0 + 14 * 60 * S << 15 * S;
        QTest::newRow("not aligned: 60 windows") << T0 + 500 * MS << T0 + 59 * S + 600 * MS << S;
        QTest::newRow("not aligned: 61 windows") << T0 + 500 * MS << T0 + 60 * S + 100 * MS << 2 * S;
        QTest::newRow("3 days") << T0 << T0 + 3 * 86400 * S << 7200 * S;
        QTest::newRow("100 days") << T0 << T0 + 100 * 86400 * S << 2 * 86400 * S;
        QTest::newRow("relative, negative") << qint64(-30) * S << 29 * S << S;
        QTest::newRow("sub-ms") << qint64(0) << qint64(99'000) << qint64(2000);
    }

    void roundWidths()
    {
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(qint64, width);
        QCOMPARE(roundWindowWidth(first, last), width);
    }
};

QTEST_MAIN(TestDominantBreakdown)
#include "tst_dominant_breakdown.moc"
