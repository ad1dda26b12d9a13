// SPDX-License-Identifier: GPL-3.0-or-later
// The CDF view draws what core computed: its p50/p90/p99 guides sit at core's percentiles on either
// axis, a click on a legend entry hides and shows a curve, the log toggle switches the axis, a
// comparison is drawn dashed and labelled, the hover readout names the nearest curve, exports are real
// files and a palette change recolours the e2e curve.

#include "cdf_view.h"
#include "chart_tickers.h"
#include "model/duration_format.h"
#include "segment_colors.h"
#include "store/store.h"
#include "test_support.h"
#include "chart_checks.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace lx;

namespace {

/// The shipped rising-load trace's CDFs, computed once.
std::shared_ptr<const CdfData> sampleData(const char *expression = nullptr)
{
    const lxtest::Imported &imported = lxtest::risingLoadSample();
    if (!imported.store)
        return nullptr;
    RequestFilter filter;
    if (expression)
        filter.models = {expression};
    return std::make_shared<const CdfData>(computeCdfData(*imported.store, filter));
}

using ShownView = lxtest::ShownView<CdfView>;

} // namespace

class TestCdfView : public QObject {
    Q_OBJECT

private slots:
    void saysWhyNothingIsDrawn_data()
    {
        QTest::addColumn<QByteArray>("lines"); // empty: the shipped sample
        QTest::addColumn<QByteArray>("model"); // a filter on the model; empty: none
        QTest::addColumn<QString>("message");  // the start of the message; empty: none
        QByteArray arrivals; // Mooncake's form: arrival times and lengths, no durations
        for (int i = 0; i < 3; ++i)
            arrivals += "{\"timestamp\": " + QByteArray::number(i * 10) + ", \"input_length\": 10, \"output_length\": 5}\n";
        QTest::newRow("an arrival trace") << arrivals << QByteArray() << QStringLiteral("No time is measured in the 3 requests");
        QTest::newRow("measured") << QByteArray() << QByteArray() << QString();
        QTest::newRow("nothing matches") << QByteArray() << QByteArray("no-such-model") << QStringLiteral("No requests match");
    }

    void saysWhyNothingIsDrawn()
    {
        QFETCH(QByteArray, lines);
        QFETCH(QByteArray, model);
        QFETCH(QString, message);
        RequestFilter filter;
        if (!model.isEmpty())
            filter.models = {model.toStdString()};
        std::shared_ptr<const CdfData> data;
        if (lines.isEmpty()) {
            const lxtest::Imported &imported = lxtest::risingLoadSample();
            QVERIFY(imported.store);
            data = std::make_shared<const CdfData>(computeCdfData(*imported.store, filter));
        } else {
            lxtest::StoreFixture f(lines);
            data = std::make_shared<const CdfData>(computeCdfData(*f.store, filter));
        }
        CdfView view;
        view.setData(data);
        const QString shown = view.chart()->message();
        QVERIFY2(message.isEmpty() ? shown.isEmpty() : shown.startsWith(message), qPrintable(shown));
    }

    void guidesSitAtCorePercentiles_data()
    {
        QTest::addColumn<int>("metric");
        QTest::addColumn<bool>("log");
        QTest::newRow("e2e, log") << kCdfE2e << true;
        QTest::newRow("e2e, linear") << kCdfE2e << false;
        QTest::newRow("queue, log") << int(Segment::Queue) << true;
        QTest::newRow("decode, linear") << int(Segment::Decode) << false;
        QTest::newRow("ttft, log") << kCdfTtft << true;
    }

    void guidesSitAtCorePercentiles()
    {
        QFETCH(int, metric);
        QFETCH(bool, log);
        const auto data = sampleData();
        QVERIFY(data);
        CdfView view;
        view.setData(data);
        if (view.logScaleButton()->isChecked() != log)
            view.logScaleButton()->click();
        QCOMPARE(view.chart()->isLogX(), log);
        const int choice = view.guideSelector()->findData(metric);
        QVERIFY(choice >= 0);
        view.guideSelector()->setCurrentIndex(choice);
        emit view.guideSelector()->activated(choice);
        QCOMPARE(view.chart()->guideMetric(), metric);
        const CdfCurve &curve = data->curves[std::size_t(metric)];
        for (int i = 0; i < int(kCdfGuidePercentiles.size()); ++i) {
            const std::optional<double> at = view.chart()->guidePosition(i);
            QVERIFY(at);
            QCOMPARE(*at, curve.guidesNs[std::size_t(i)]); // where it is drawn is core's value
            QVERIFY2(view.chart()->guideLabel(i).contains(QString::fromStdString(formatDuration(curve.guidesNs[std::size_t(i)]))),
                     qPrintable(view.chart()->guideLabel(i)));
        }
        // The curve holds core's points.
        const QCPGraph *graph = view.chart()->curve(metric);
        QCOMPARE(graph->dataCount(), int(curve.points.size()));
        QCOMPARE(graph->data()->at(graph->dataCount() - 1)->key, double(curve.maxNs()));
        QCOMPARE(graph->data()->at(graph->dataCount() - 1)->value, 1.0);
    }

    void legendClickTogglesCurve_data()
    {
        QTest::addColumn<int>("metric");
        QTest::newRow("queue") << int(Segment::Queue);
        QTest::newRow("e2e") << kCdfE2e;
        QTest::newRow("ttft") << kCdfTtft;
    }

    void legendClickTogglesCurve()
    {
        QFETCH(int, metric);
        ShownView shown;
        shown.view.setData(sampleData());
        shown.view.setComparison(sampleData("qwen2.5-14b-instruct"), QStringLiteral("qwen only"));
        QVERIFY(shown.ready());
        CdfChart *chart = shown.view.chart();
        QSignalSpy toggled(chart, &CdfChart::curveVisibilityChanged);
        QVERIFY(chart->isCurveVisible(metric));
        const QPoint entry = chart->legendItem(metric)->outerRect().center();
        QTest::mouseClick(chart, Qt::LeftButton, {}, entry);
        QVERIFY(!chart->isCurveVisible(metric));
        QVERIFY(!chart->comparisonCurve(metric)->visible());
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.at(0).at(1).toBool(), false);
        QTest::mouseClick(chart, Qt::LeftButton, {}, entry);
        QVERIFY(chart->isCurveVisible(metric));
        QVERIFY(chart->comparisonCurve(metric)->visible());
        // A click beside the legend toggles nothing.
        QTest::mouseClick(chart, Qt::LeftButton, {}, chart->axisRect()->rect().center());
        QCOMPARE(toggled.count(), 2);
    }

    void hidingTheGuideMetricHidesItsGuides()
    {
        CdfView view;
        view.setData(sampleData());
        view.chart()->setCurveVisible(kCdfE2e, false);
        QVERIFY(!view.chart()->guidePosition(0));
        view.chart()->setCurveVisible(kCdfE2e, true);
        QVERIFY(view.chart()->guidePosition(0));
    }

    void notMeasuredIsNoCurve()
    {
        auto data = std::make_shared<CdfData>();
        const std::vector<std::int64_t> e2e = {10, 20, 30};
        data->curves[kCdfE2e] = cdfCurveOfSorted(e2e);
        data->requests = 3;
        CdfView view;
        view.setData(data);
        QVERIFY(!view.chart()->isCurveVisible(int(Segment::Network)));
        QVERIFY(view.chart()->curve(int(Segment::Network))->name().contains(QStringLiteral("not measured")));
        view.chart()->setCurveVisible(int(Segment::Network), true); // no samples: still nothing to show
        QVERIFY(!view.chart()->isCurveVisible(int(Segment::Network)));
        QCOMPARE(view.guideSelector()->count(), 1); // only e2e has guides to show
    }

    void logAxisToggle()
    {
        CdfView view;
        view.setData(sampleData());
        QVERIFY(view.chart()->isLogX()); // latencies span decades: the log axis first
        QCOMPARE(view.chart()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(dynamic_cast<LogDurationTicker *>(view.chart()->xAxis->ticker().data()));
        view.logScaleButton()->click();
        QCOMPARE(view.chart()->xAxis->scaleType(), QCPAxis::stLinear);
        QVERIFY(dynamic_cast<DurationTicker *>(view.chart()->xAxis->ticker().data()));
        QCOMPARE(view.chart()->xAxis->range().lower, 0.0);
        // On the log axis a zero sits at the floor, never at a non-positive coordinate.
        view.logScaleButton()->click();
        const QCPGraph *queue = view.chart()->curve(int(Segment::Queue));
        QVERIFY(queue->data()->at(0)->key > 0);
        QVERIFY(view.chart()->xAxis->range().lower <= queue->data()->at(0)->key);
    }

    void comparisonIsDashedAndLabelled()
    {
        CdfView view;
        view.setData(sampleData(), QStringLiteral("all models"));
        QVERIFY(!view.chart()->comparisonCurve(kCdfE2e)->visible());
        const int entries = view.chart()->legend->itemCount();
        view.setComparison(sampleData("llama-3.1-8b-instruct"), QStringLiteral("llama 8b"));
        for (int m = 0; m < kCdfMetricCount; ++m) {
            QCOMPARE(view.chart()->curve(m)->pen().style(), m == kCdfTtft ? Qt::CustomDashLine : Qt::SolidLine);
            QCOMPARE(view.chart()->comparisonCurve(m)->pen().style(), Qt::CustomDashLine);
            QCOMPARE(view.chart()->comparisonCurve(m)->pen().color(), view.chart()->curve(m)->pen().color());
        }
        QVERIFY(view.chart()->comparisonCurve(kCdfE2e)->visible());
        QCOMPARE(view.chart()->comparisonCurve(kCdfE2e)->dataCount(),
                 int(view.chart()->comparison()->curves[kCdfE2e].points.size()));
        QCOMPARE(view.chart()->legend->itemCount(), entries + 2);
        QStringList names;
        for (int i = 0; i < view.chart()->legend->itemCount(); ++i) {
            if (auto *item = qobject_cast<QCPPlottableLegendItem *>(view.chart()->legend->item(i)))
                names << item->plottable()->name();
        }
        QVERIFY2(names.contains(QStringLiteral("llama 8b")) && names.contains(QStringLiteral("all models")), qPrintable(names.join(u',')));
        QVERIFY(view.chart()->guideLabel(1).contains(QStringLiteral(" vs ")));
        view.setComparison(nullptr);
        QVERIFY(!view.chart()->comparisonCurve(kCdfE2e)->visible());
        QCOMPARE(view.chart()->legend->itemCount(), entries);
    }

    void hoverReadsTheNearestCurve()
    {
        ShownView shown;
        const auto data = sampleData();
        shown.view.setData(data);
        QVERIFY(shown.ready());
        CdfChart *chart = shown.view.chart();
        // On the e2e curve at its p90 the nearest curve is e2e, at 90 %.
        const double p90 = data->curves[kCdfE2e].guidesNs[1];
        const QPoint at(qRound(chart->xAxis->coordToPixel(p90)), qRound(chart->yAxis->coordToPixel(0.9)));
        const auto readout = chart->readoutAt(at);
        QVERIFY(readout);
        QCOMPARE(readout->metric, kCdfE2e);
        QVERIFY2(std::abs(readout->fraction - 0.9) < 0.01, qPrintable(QString::number(readout->fraction)));
        QVERIFY2(readout->text.startsWith(QStringLiteral("e2e")) && readout->text.contains(QStringLiteral("p90")),
                 qPrintable(readout->text));
        QTest::mouseMove(chart, at);
        QCOMPARE(chart->readoutText(), readout->text);
        QVERIFY(!chart->readoutAt(QPointF(1, 1))); // outside the plot
    }

    void doubleClickShowsTheWholeRange()
    {
        ShownView shown;
        shown.view.setData(sampleData());
        QVERIFY(shown.ready());
        CdfChart *chart = shown.view.chart();
        const QCPRange whole = chart->xAxis->range();
        chart->xAxis->setRange(whole.lower * 10, whole.upper / 10); // as after zooming in
        QTest::mouseDClick(chart, Qt::LeftButton, {}, chart->axisRect()->rect().center());
        QCOMPARE(chart->xAxis->range().lower, whole.lower);
        QCOMPARE(chart->xAxis->range().upper, whole.upper);
    }

    void exportsAreFiles_data() { lxtest::addExportRows("cdf"); }

    void exportsAreFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        CdfView view;
        view.setData(sampleData());
        lxtest::verifyExport(*view.chart(), name, magic);
    }

    void rendersTheSample_data()
    {
        QTest::addColumn<bool>("comparison");
        QTest::addColumn<bool>("dark");
        QTest::newRow("one data set") << false << false;
        QTest::newRow("with a comparison") << true << false;
        QTest::newRow("dark") << true << true;
    }

    void rendersTheSample()
    {
        // The picture a person looks at: kept in $LX_RENDER_DIR when it is set.
        QFETCH(bool, comparison);
        QFETCH(bool, dark);
        CdfView view;
        if (dark)
            view.setPalette(lxtest::darkPalette(view.palette()));
        view.setData(sampleData(), QStringLiteral("all models"));
        if (comparison)
            view.setComparison(sampleData("qwen2.5-14b-instruct"), QStringLiteral("qwen2.5-14b only"));
        const QString name = QStringLiteral("cdf%1%2").arg(comparison ? QStringLiteral("-ab") : QString(),
                                                          dark ? QStringLiteral("-dark") : QString());
        const int decode = lxtest::renderAndCount(*view.chart(), name, segmentColor(Segment::Decode));
        QVERIFY2(decode > 50, qPrintable(QString::number(decode))); // the decode curve is drawn
    }

    void paletteChangeRecolours()
    {
        CdfView view;
        view.setData(sampleData());
        view.setPalette(lxtest::darkPalette(view.palette()));
        QCOMPARE(view.chart()->curve(kCdfE2e)->pen().color(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(view.chart()->curve(kCdfTtft)->pen().color(), QColor(0xee, 0xee, 0xee));
        QCOMPARE(view.chart()->curve(int(Segment::Queue))->pen().color(), segmentColor(Segment::Queue)); // fixed palette
    }

    void clearedByNull()
    {
        CdfView view;
        view.setData(sampleData());
        view.setData(nullptr);
        for (int m = 0; m < kCdfMetricCount; ++m)
            QVERIFY(!view.chart()->isCurveVisible(m));
        QVERIFY(!view.chart()->guidePosition(0));
        QVERIFY(!view.guideSelector()->isEnabled());
    }
};

QTEST_MAIN(TestCdfView)
#include "tst_cdf_view.moc"
