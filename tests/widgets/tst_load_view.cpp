// SPDX-License-Identifier: GPL-3.0-or-later
// The load view draws core's load analysis: on a simulated rising-load trace whose server has a known
// capacity, every stacked bar is core's segment means of its bucket, the line is core's e2e p95, the knee
// line stands at core's knee on either load axis, the profile's lines are core's windows and core's
// sentence is shown; a trace under capacity shows core's reason instead of a knee. The window combo asks
// for a width, the hover readout says a bucket's figures, exports are real files and a palette change
// recolours the drawing.

#include "analysis/knee_text.h"
#include "chart_checks.h"
#include "chart_tickers.h"
#include "count_text.h"
#include "load_chart_text.h"
#include "load_decomposition_chart.h"
#include "load_profile_chart.h"
#include "load_view.h"
#include "simulation/server_simulation.h"
#include "store/latency_rows.h"
#include "store/store.h"
#include "simulation/trace_writers.h"
#include "load_view_fixtures.h"
#include "test_support.h"

#include <QAbstractButton>
#include <QButtonGroup>
#include <QComboBox>
#include <QMap>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace lx;
using lxtest::Simulated;
using lxtest::withKnee;
using lxtest::withoutKnee;

namespace {

void addLoadKeyRows()
{
    QTest::addColumn<int>("key");
    QTest::newRow("by arrival rate") << int(LoadKey::ArrivalRate);
    QTest::newRow("by requests in flight") << int(LoadKey::InFlight);
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

} // namespace

namespace {

/// A chart's title as words: it wraps a long reason onto lines of the chart's width.
QString oneLine(QString title)
{
    return title.replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

class TestLoadView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(withKnee().data, withKnee().imported.error.c_str());
        QVERIFY2(withKnee().data->byArrivalRate.knee, withKnee().data->byArrivalRate.sentence().c_str());
        QVERIFY2(withoutKnee().data, withoutKnee().imported.error.c_str());
    }

    void dataIsCores()
    {
        // The view's data are core's analysis with core's defaults, as `report` computes it.
        const LoadAnalysis core = analyzeLoad(*withKnee().imported.store, {});
        const LoadChartData &data = *withKnee().data;
        QCOMPARE(data.byArrivalRate.sentence(), core.sentence());
        QCOMPARE(data.byArrivalRate.buckets.size(), core.buckets.size());
        QCOMPARE(data.byInFlight.bucketBy, LoadKey::InFlight);
        QCOMPARE(data.byInFlight.knee->inFlight, core.knee->inFlight);
        QVERIFY(!data.relativeTime);
    }

    void barsHoldCoreNumbers_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("shares");
        QTest::newRow("mean times by arrival rate") << int(LoadKey::ArrivalRate) << false;
        QTest::newRow("mean times by requests in flight") << int(LoadKey::InFlight) << false;
        QTest::newRow("shares by arrival rate") << int(LoadKey::ArrivalRate) << true;
        QTest::newRow("shares by requests in flight") << int(LoadKey::InFlight) << true;
    }

    void barsHoldCoreNumbers()
    {
        QFETCH(int, key);
        QFETCH(bool, shares);
        LoadView view;
        view.setData(withKnee().data);
        view.loadKeyButtons()->button(key)->click();
        if (view.sharesButton()->isChecked() != shares)
            view.sharesButton()->click();
        QCOMPARE(int(view.loadKey()), key);
        QCOMPARE(view.showsShares(), shares);
        const LoadAnalysis &core = withKnee().data->analysis(LoadKey(key));
        const std::vector<LoadBucketDetail> &details = withKnee().data->details(LoadKey(key));
        LoadDecompositionChart *chart = view.decompositionView();
        QCOMPARE(chart->bucketCount(), int(core.buckets.size()));
        QVERIFY(chart->bucketCount() >= 2);
        // The p95 shares the bars' duration axis in mean times, and moves to the right one among shares.
        QCOMPARE(chart->p95Line()->valueAxis(), shares ? chart->yAxis2 : chart->yAxis);
        QCOMPARE(chart->yAxis2->label().contains(QStringLiteral("e2e p95")), shares);
        int withRequests = 0;
        for (int b = 0; b < chart->bucketCount(); ++b) {
            const LoadBucket &bucket = core.buckets[std::size_t(b)];
            double stacked = 0;
            for (int s = 0; s < kSegmentCount; ++s) {
                QCOMPARE(chart->drawnSegmentMean(b, s),
                         shares ? details[std::size_t(b)].segmentShare[std::size_t(s)] : bucket.segmentMeanNs[std::size_t(s)]);
                stacked += chart->drawnSegmentMean(b, s);
            }
            QCOMPARE(chart->drawnP95(b).has_value(), bucket.e2eP95Ns.has_value());
            if (!bucket.e2eP95Ns)
                continue;
            ++withRequests;
            QCOMPARE(*chart->drawnP95(b), *bucket.e2eP95Ns);
            const double whole = shares ? 1.0 : *bucket.e2eMeanNs;
            QVERIFY2(near(stacked, whole), qPrintable(QStringLiteral("%1 vs %2").arg(stacked).arg(whole)));
        }
        QVERIFY(withRequests >= 2);
        // The p95 rises with the load on this trace: the last bucket's is well above the first's.
        QVERIFY(*core.buckets.back().e2eP95Ns > 1.25 * *core.buckets.front().e2eP95Ns);
    }

    void kneeIsMarked_data()
    {
        addLoadKeyRows();
    }

    void kneeIsMarked()
    {
        QFETCH(int, key);
        LoadView view;
        view.setData(withKnee().data);
        view.setLoadKey(LoadKey(key));
        const Knee &knee = *withKnee().data->byArrivalRate.knee;
        const std::optional<double> at = view.decompositionView()->kneePosition();
        QVERIFY(at);
        QCOMPARE(*at, LoadKey(key) == LoadKey::ArrivalRate ? knee.rateRps : knee.inFlight);
        QVERIFY(view.decompositionView()->xAxis->range().contains(*at));
        const QString label = view.decompositionView()->kneeLabel();
        // One rounding for the knee (knee_text.h), as the findings say it: the issue saw "2.5 req/s, 6.8 in
        // flight" on the chart beside "2.52 req/s, 7" in the finding.
        QCOMPARE(QString(label).replace(QLatin1Char('\n'), QLatin1Char(' ')), QStringLiteral("knee ≈ ") + QString::fromStdString(kneeText(knee)));
        // Core's sentence is shown whole above the chart.
        const QString sentence = QString::fromStdString(withKnee().data->byArrivalRate.sentence());
        QVERIFY2(sentence.contains(QStringLiteral("knee near ")), qPrintable(sentence));
        QVERIFY2(view.sentence().compare(sentence + QLatin1Char('.'), Qt::CaseInsensitive) == 0, qPrintable(view.sentence()));
        QVERIFY(sentence.startsWith(QStringLiteral("below the knee decode dominates")));
        // The profile marks when the load first passed it.
        const LoadProfile &profile = withKnee().data->overTime;
        QVERIFY(view.profileView()->kneeTime());
        QCOMPARE(*view.profileView()->kneeTime(), double(knee.timeNs - profile.windows.front().startNs) / 1e9);
        QCOMPARE(view.profileView()->kneeRate(), std::optional<double>(knee.rateRps));
        QCOMPARE(view.profileView()->kneeRateLabel(), QStringLiteral("knee ≈ %1 req/s").arg(QString::fromStdString(kneeRateText(knee.rateRps))));
    }

    /// The knee's label sits above the lines, in both modes: it once covered the highest e2e p95 points.
    void kneeLabelAboveTheLines_data()
    {
        QTest::addColumn<bool>("shares");
        QTest::newRow("times") << false;
        QTest::newRow("shares") << true;
    }
    void kneeLabelAboveTheLines()
    {
        QFETCH(bool, shares);
        LoadView view;
        view.resize(1200, 800);
        view.setData(withKnee().data);
        LoadDecompositionChart *chart = view.decompositionView();
        chart->setShowShares(shares);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        chart->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(chart->kneeText()->visible());
        const double labelBottom = chart->kneeText()->bottom->pixelPosition().y();
        for (QCPGraph *line : { chart->p95Line(), chart->ttftLine(), chart->tpotLine() }) {
            for (const QCPGraphData &point : *line->data()) {
                if (std::isnan(point.value))
                    continue;
                const double y = line->valueAxis()->coordToPixel(point.value);
                QVERIFY2(y > labelBottom,
                         qPrintable(QStringLiteral("%1 at %2 px, the label ends at %3 px")
                                        .arg(line->name())
                                        .arg(y)
                                        .arg(labelBottom)));
            }
        }
    }

    void noKneeSaysWhy()
    {
        LoadView view;
        view.setData(withoutKnee().data);
        const LoadAnalysis &core = withoutKnee().data->byArrivalRate;
        QVERIFY(!core.knee);
        QVERIFY(!view.decompositionView()->kneePosition());
        QVERIFY(view.decompositionView()->kneeLabel().isEmpty());
        QVERIFY(!view.profileView()->kneeTime());
        QVERIFY(!view.profileView()->kneeRate());
        QVERIFY(view.sentence().startsWith(QStringLiteral("No knee: ")));
        QVERIFY2(view.sentence().contains(QString::fromStdString(core.noKneeReason)), qPrintable(view.sentence()));
        QVERIFY(view.decompositionView()->bucketCount() > 0);
    }

    /// Where wider windows would help, the sentence and the empty chart name the Window box, not the
    /// command line's --window (the sentence showed "--window", the chart had it swapped by a replace).
    void noKneeNamesTheWindowBox()
    {
        LoadView view;
        view.setData(lxtest::withoutBuckets(*withoutKnee().data,
                                            "too few windows to look for one: 0 of the 19 windows that hold "
                                            "requests hold at least 3, 8 such windows needed"));
        for (const QString &text : { view.sentence(), oneLine(view.decompositionView()->title()) }) {
            QVERIFY2(text.contains(QStringLiteral("(wider windows hold more: the Window box)")), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("--window")), qPrintable(text));
        }
    }

    void profileHoldsCoreWindows()
    {
        LoadView view;
        view.setData(withKnee().data);
        const LoadProfile &profile = withKnee().data->overTime;
        LoadProfileChart *chart = view.profileView();
        QCOMPARE(chart->windowCount(), int(profile.windows.size()));
        for (int i = 0; i < chart->windowCount(); ++i) {
            const LoadWindow &w = profile.windows[std::size_t(i)];
            QCOMPARE(chart->arrivalLine()->data()->at(i)->value, w.arrivalRps);
            QCOMPARE(chart->throughputLine()->data()->at(i)->value, w.throughputRps);
            QCOMPARE(chart->inFlightArea()->data()->at(i)->value, w.meanInFlight);
            QCOMPARE(chart->arrivalLine()->data()->at(i)->key, double(w.startNs - profile.windows.front().startNs) / 1e9 + double(profile.windowNs) / 2e9);
        }
        QCOMPARE(chart->xAxis->label(), QStringLiteral("time (UTC)"));
    }

    // Benchmark results without send times: the view says core's sentence and draws no empty axes; a
    // trace with arrival times draws both charts and never says it.
    void noArrivalTimesSaid_data()
    {
        QTest::addColumn<QString>("file"); // a golden input, or empty for the simulated trace with a knee
        QTest::addColumn<bool>("noArrivals");
        // vLLM's sends, saved or rebuilt from its request_rate (here inf: all at once), are arrivals.
        QTest::newRow("vLLM bench") << QStringLiteral("vllm_bench/serving_result.json") << false;
        QTest::newRow("LLMPerf") << QStringLiteral("llmperf/model_550_150_individual_responses.json") << true;
        QTest::newRow("a trace with arrivals") << QString() << false;
    }
    void noArrivalTimesSaid()
    {
        QFETCH(QString, file);
        QFETCH(bool, noArrivals);
        std::shared_ptr<const LoadChartData> data = withKnee().data;
        if (!file.isEmpty()) {
            const lxtest::Imported imported = lxtest::importPaths({(QStringLiteral(LX_SOURCE_DIR "/tests/golden/") + file).toStdString()});
            QVERIFY2(imported.store, imported.error.c_str());
            data = std::make_shared<const LoadChartData>(computeLoadChartData(*imported.store, {}));
        }
        QCOMPARE(data->noArrivalTimes(), noArrivals);
        LoadView view;
        view.setData(data);
        const QString sentence = QString::fromUtf8(kNoArrivalTimes);
        QCOMPARE(view.sentence().compare(sentence + QLatin1Char('.'), Qt::CaseInsensitive) == 0, noArrivals);
        QCOMPARE(view.decompositionView()->isHidden(), noArrivals);
        QCOMPARE(view.profileView()->isHidden(), noArrivals);
        view.setData(nullptr); // cleared, the charts are back for the next data
        QVERIFY(!view.decompositionView()->isHidden());
        QVERIFY(!view.profileView()->isHidden());
    }

    /// An empty chart says why: once "no requests with a start time" for a filter that matched none, and
    /// "no window holds enough requests" for arrivals without a measured latency.
    void emptyChartsSayWhy_data()
    {
        QTest::addColumn<int>("requests"); // with a start, one a second
        QTest::addColumn<bool>("latency"); // an e2e measured
        QTest::addColumn<QString>("profileTitle");
        QTest::addColumn<QString>("decompositionTitle");
        QTest::newRow("no request (a filter matching none)")
            << 0 << false << QStringLiteral("no request to show") << QStringLiteral("no request to look at");
        QTest::newRow("arrivals without a latency")
            << 40 << false << QString() << QStringLiteral("none holds a request with a measured e2e");
    }
    void emptyChartsSayWhy()
    {
        QFETCH(int, requests);
        QFETCH(bool, latency);
        QFETCH(QString, profileTitle);
        QFETCH(QString, decompositionTitle);
        std::vector<LatencyRow> rows(static_cast<std::size_t>(requests));
        for (int i = 0; i < requests; ++i) {
            LatencyRow &row = rows[static_cast<std::size_t>(i)];
            row.start = 1'700'000'000'000'000'000 + i * 1'000'000'000LL;
            if (latency)
                row.e2e = 500'000'000;
        }
        LoadView view;
        view.setData(std::make_shared<const LoadChartData>(computeLoadChartData(rows)));
        QCOMPARE(view.decompositionView()->bucketCount(), 0);
        if (!profileTitle.isEmpty())
            QVERIFY2(view.profileView()->title().contains(profileTitle), qPrintable(view.profileView()->title()));
        QVERIFY2(oneLine(view.decompositionView()->title()).contains(decompositionTitle),
                 qPrintable(view.decompositionView()->title()));
    }

    void relativeTimesAreOffsets()
    {
        auto data = std::make_shared<LoadChartData>(*withKnee().data);
        data->relativeTime = true;
        LoadView view;
        view.setData(data);
        QVERIFY(view.profileView()->xAxis->label().contains(QStringLiteral("from the start")));
        auto ticker = view.profileView()->xAxis->ticker();
        QVERIFY(dynamic_cast<TimeTicker *>(ticker.data()));
        QVERIFY(view.profileView()->tooltipFor(1).contains(QStringLiteral("+")));
    }

    void windowWidthIsAsked_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("auto") << 0 << qint64(0);
        QTest::newRow("1 s") << 1 << qint64(1'000'000'000);
        QTest::newRow("30 s") << 4 << qint64(30'000'000'000);
        QTest::newRow("5 min") << 6 << qint64(300'000'000'000);
    }

    void windowWidthIsAsked()
    {
        QFETCH(int, index);
        QFETCH(qint64, ns);
        LoadView view;
        view.setData(withKnee().data);
        QSignalSpy asked(&view, &LoadView::windowWidthChanged);
        QComboBox *combo = view.windowSelector();
        combo->setCurrentIndex(index);
        emit combo->activated(index); // what a choice in the popup emits
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.at(0).at(0).toLongLong(), ns);
        QCOMPARE(view.windowWidth(), ns);
        // Set by the caller, e.g. from its settings: no request back.
        view.setWindowWidth(10'000'000'000);
        QCOMPARE(view.windowWidth(), qint64(10'000'000'000));
        view.setWindowWidth(2'000'000'000); // not in the list: added
        QCOMPARE(view.windowWidth(), qint64(2'000'000'000));
        QCOMPARE(asked.count(), 1);
    }

    void autoSaysItsWidth()
    {
        LoadView view;
        view.setData(withKnee().data);
        const std::int64_t width = withKnee().data->byArrivalRate.profile.windowNs;
        QCOMPARE(view.windowSelector()->itemText(0), QStringLiteral("auto (%1)").arg(loadtext::roundDuration(double(width))));
    }

    void tokenLinesAreCores_data() { addLoadKeyRows(); }
    void tokenLinesAreCores()
    {
        // TTFT and TPOT per bucket on the right axis, with their legend entries: the story's third part.
        QFETCH(int, key);
        LoadView view;
        view.setData(withKnee().data);
        view.setLoadKey(LoadKey(key));
        LoadDecompositionChart *chart = view.decompositionView();
        const std::vector<LoadBucketDetail> &details = withKnee().data->details(LoadKey(key));
        QCOMPARE(chart->ttftLine()->valueAxis(), chart->yAxis2);
        QCOMPARE(chart->tpotLine()->valueAxis(), chart->yAxis2);
        QVERIFY(chart->yAxis2->visible());
        QCOMPARE(chart->yAxis2->scaleType(), QCPAxis::stLogarithmic);
        int drawn = 0;
        for (int b = 0; b < chart->bucketCount(); ++b) {
            QCOMPARE(chart->drawnTtft(b), details[std::size_t(b)].ttft.meanNs);
            QCOMPARE(chart->drawnTpot(b), details[std::size_t(b)].tpot.meanNs);
            if (chart->drawnTpot(b)) {
                ++drawn;
                QVERIFY(chart->yAxis2->range().contains(*chart->drawnTpot(b)));
                QVERIFY(chart->yAxis2->range().contains(*chart->drawnTtft(b)));
            }
        }
        QVERIFY(drawn >= 2);
        QVERIFY(chart->legend->hasItemWithPlottable(chart->tpotLine()));
        QVERIFY(chart->legend->hasItemWithPlottable(chart->ttftLine()));
        const QString tip = chart->tooltipFor(0);
        QVERIFY2(tip.contains(QStringLiteral("TPOT mean %1").arg(loadtext::duration(*details[0].tpot.meanNs))), qPrintable(tip));
    }

    void withoutTokenMetricsNoLines()
    {
        // Rows without their token metrics (computeLoadChartData(rows)): no lines, no legend entries for them.
        LoadView view;
        view.setData(std::make_shared<const LoadChartData>(computeLoadChartData(readLatencyRows(*withKnee().imported.store, {}))));
        LoadDecompositionChart *chart = view.decompositionView();
        QVERIFY(chart->bucketCount() > 0);
        QVERIFY(!chart->drawnTpot(0));
        QVERIFY(!chart->legend->hasItemWithPlottable(chart->tpotLine()));
        QVERIFY(!chart->legend->hasItemWithPlottable(chart->ttftLine()));
    }

    void scaleByDefault_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::newRow("knee: queues past it dwarf the buckets below") << QStringLiteral("knee");
        QTest::newRow("no knee: mean times read well") << QStringLiteral("noknee");
    }
    void scaleByDefault()
    {
        // Shares when the buckets' mean e2e span more than tenfold; the user's choice then holds for the
        // session, over new data.
        QFETCH(QString, trace);
        const Simulated &sim = trace == QLatin1String("knee") ? withKnee() : withoutKnee();
        const bool tenfold = bucketsSpanTenfold(sim.data->byArrivalRate);
        QCOMPARE(tenfold, trace == QLatin1String("knee"));
        LoadView view;
        view.setData(sim.data);
        QCOMPARE(view.showsShares(), tenfold);
        QCOMPARE(view.sharesButton()->isChecked(), tenfold);
        view.sharesButton()->click();
        QCOMPARE(view.showsShares(), !tenfold);
        view.setData(withKnee().data);
        view.setData(withoutKnee().data);
        QCOMPARE(view.showsShares(), !tenfold);
        QCOMPARE(view.sharesButton()->isChecked(), !tenfold);
    }

    void hoverReadout_data()
    {
        QTest::addColumn<int>("bucket");
        QTest::newRow("first") << 0;
        QTest::newRow("middle") << 5;
        QTest::newRow("last") << -1;
    }

    void hoverReadout()
    {
        QFETCH(int, bucket);
        LoadView view;
        view.resize(1200, 800);
        view.setData(withKnee().data);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        LoadDecompositionChart *chart = view.decompositionView();
        chart->replot(QCustomPlot::rpImmediateRefresh);
        if (bucket < 0)
            bucket = chart->bucketCount() - 1;
        QCOMPARE(chart->bucketAt(chart->bucketCentre(bucket)), std::optional<int>(bucket));
        const LoadBucket &b = withKnee().data->byArrivalRate.buckets[std::size_t(bucket)];
        const QString tip = chart->tooltipFor(bucket);
        QVERIFY2(tip.contains(requestsText(b.count)), qPrintable(tip));
        QVERIFY2(tip.contains(loadtext::duration(*b.e2eP95Ns)), qPrintable(tip));
        QVERIFY2(tip.contains(loadtext::duration(b.segmentMeanNs[std::size_t(Segment::Decode)])), qPrintable(tip));
        QVERIFY(!chart->bucketAt(QPointF(2, 2))); // the title
        const QRect plot = view.profileView()->axisRect()->rect();
        const std::optional<int> window = view.profileView()->windowAt(QPointF(plot.left() + 1, plot.center().y()));
        QCOMPARE(window, std::optional<int>(0));
        QVERIFY(view.profileView()->tooltipFor(0).contains(QStringLiteral("req/s")));
    }

    void exportsAreFiles_data()
    {
        QTest::addColumn<QString>("chart");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("magic");
        for (const char *chart : {"decomposition", "profile"}) {
            for (const char *suffix : {"png", "svg", "pdf"}) {
                static const QMap<QString, QByteArray> magic = {{QStringLiteral("png"), QByteArray("\x89PNG")},
                    {QStringLiteral("svg"), QByteArray("<?xml")}, {QStringLiteral("pdf"), QByteArray("%PDF")}};
                QTest::addRow("%s %s", chart, suffix) << QString::fromLatin1(chart) << QStringLiteral("load.%1").arg(QLatin1String(suffix))
                                                      << magic.value(QLatin1String(suffix));
            }
        }
    }

    void exportsAreFiles()
    {
        QFETCH(QString, chart);
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        LoadView view;
        view.setData(withKnee().data);
        lxtest::verifyExport(chart == QLatin1String("profile") ? *view.profileChart() : *view.decompositionChart(), name, magic);
    }

    void paletteChangeRecolours()
    {
        LoadView view;
        view.setData(withKnee().data);
        view.setPalette(lxtest::darkPalette(view.palette()));
        QCOMPARE(view.decompositionView()->p95Line()->pen().color(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(view.decompositionView()->segmentBars(int(Segment::Queue))->pen().color(), QColor(0x20, 0x20, 0x20));
        QCOMPARE(view.profileView()->arrivalLine()->pen().color(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(view.profileView()->yAxis->tickLabelColor(), QColor(0xee, 0xee, 0xee));
    }

    void emptyAndCleared()
    {
        LoadView view;
        QCOMPARE(view.decompositionView()->bucketCount(), 0);
        QCOMPARE(view.profileView()->windowCount(), 0);
        view.setData(withKnee().data);
        QVERIFY(view.decompositionView()->bucketCount() > 0);
        view.setData(nullptr);
        QCOMPARE(view.decompositionView()->bucketCount(), 0);
        QCOMPARE(view.profileView()->windowCount(), 0);
        QVERIFY(!view.decompositionView()->kneePosition());
        QVERIFY(!view.decompositionView()->bucketAt(view.decompositionView()->rect().center()));
        // No rows at all: no windows, no buckets, core's reason.
        view.setData(std::make_shared<const LoadChartData>(computeLoadChartData(std::vector<LatencyRow>{})));
        QCOMPARE(view.decompositionView()->bucketCount(), 0);
        QVERIFY(view.sentence().startsWith(QStringLiteral("No knee")));
    }

};

QTEST_MAIN(TestLoadView)
#include "tst_load_view.moc"
