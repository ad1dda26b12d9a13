// SPDX-License-Identifier: GPL-3.0-or-later
// The dominant-segment view draws core's breakdown: every bar it holds sums to 100 % and equals core's
// shares, a click at a cell's pixel emits the cell's filter expression (which selects exactly the cell's
// requests through core's filter), requests without a start time are said, exports are real files and a
// palette change recolours the bars' outlines.

#include "analysis/analysis.h"
#include "dominant_view.h"
#include "segment_colors.h"
#include "store/store.h"
#include "test_support.h"
#include "chart_checks.h"

#include <QButtonGroup>
#include <QSignalSpy>
#include <QTest>
#include <QAbstractButton>

using namespace lx;
using Grouping = DominantChart::Grouping;

namespace {

const lxtest::Imported &sample() { return lxtest::risingLoadSample(); }

std::shared_ptr<const DominantBreakdown> sampleData()
{
    return sample().store ? std::make_shared<const DominantBreakdown>(computeDominantBreakdown(*sample().store)) : nullptr;
}

using ShownView = lxtest::ShownView<DominantView>;

} // namespace

class TestDominantView : public QObject {
    Q_OBJECT

private slots:
    void barsHoldCoreShares_data()
    {
        QTest::addColumn<int>("grouping");
        QTest::addColumn<int>("bars");
        QTest::newRow("overall") << int(Grouping::Overall) << 1;
        QTest::newRow("latency bands") << int(Grouping::LatencyBand) << kLatencyBandCount;
        QTest::newRow("time windows") << int(Grouping::TimeWindow) << -1;
    }

    void barsHoldCoreShares()
    {
        QFETCH(int, grouping);
        QFETCH(int, bars);
        const auto data = sampleData();
        QVERIFY(data);
        DominantView view;
        view.setData(data);
        view.groupingButtons()->button(grouping)->click();
        QCOMPARE(int(view.chart()->grouping()), grouping);
        const int expected = bars >= 0 ? bars : int(data->windows.size());
        QCOMPARE(view.chart()->barCount(), expected);
        int nonEmpty = 0;
        for (int b = 0; b < view.chart()->barCount(); ++b) {
            const DominantBar &bar = view.chart()->bar(b);
            const auto shares = view.chart()->drawnShares(b);
            double sum = 0;
            for (int s = 0; s < kSegmentCount; ++s) {
                QCOMPARE(shares[std::size_t(s)], bar.share(s));
                sum += shares[std::size_t(s)];
            }
            if (bar.total > 0) {
                QVERIFY2(std::abs(sum - 1.0) < 1e-9, qPrintable(QString::number(sum)));
                ++nonEmpty;
            }
        }
        QVERIFY(nonEmpty > 0);
        if (grouping == int(Grouping::Overall)) {
            const Report report = analyze(*sample().store);
            for (int s = 0; s < kSegmentCount; ++s)
                QCOMPARE(view.chart()->drawnShares(0)[std::size_t(s)], report.dominantShare(s));
        }
    }

    void clickEmitsTheCellsFilter_data()
    {
        QTest::addColumn<int>("grouping");
        QTest::addColumn<int>("bar");
        QTest::addColumn<int>("segment");
        QTest::newRow("overall, decode") << int(Grouping::Overall) << 0 << int(Segment::Decode);
        QTest::newRow("overall, queue") << int(Grouping::Overall) << 0 << int(Segment::Queue);
        QTest::newRow("p99+, queue") << int(Grouping::LatencyBand) << 3 << int(Segment::Queue);
        QTest::newRow("p0-50, decode") << int(Grouping::LatencyBand) << 0 << int(Segment::Decode);
        QTest::newRow("first window, decode") << int(Grouping::TimeWindow) << 0 << int(Segment::Decode);
        QTest::newRow("last window, queue") << int(Grouping::TimeWindow) << -1 << int(Segment::Queue);
    }

    void clickEmitsTheCellsFilter()
    {
        QFETCH(int, grouping);
        QFETCH(int, bar);
        QFETCH(int, segment);
        ShownView shown;
        shown.view.setData(sampleData());
        shown.view.setGrouping(Grouping(grouping));
        QVERIFY(shown.ready());
        DominantChart *chart = shown.view.chart();
        if (bar < 0)
            bar = chart->barCount() - 1;
        const std::optional<QPointF> centre = chart->cellCentre(bar, segment);
        QVERIFY2(centre, "the cell is empty in the sample");
        const auto cell = chart->cellAt(*centre);
        QVERIFY(cell);
        QCOMPARE(cell->bar, bar);
        QCOMPARE(cell->segment, segment);

        QSignalSpy requested(&shown.view, &DominantView::filterRequested);
        QTest::mouseClick(chart, Qt::LeftButton, {}, centre->toPoint());
        QCOMPARE(requested.count(), 1);
        const QString expression = requested.at(0).at(0).toString();
        const DominantBar &clicked = chart->bar(bar);
        QCOMPARE(expression.toStdString(), clicked.expressions[std::size_t(segment)]);
        QVERIFY(!requested.at(0).at(1).toString().isEmpty());

        // The expression selects exactly the requests the cell counts.
        const std::optional<RequestFilter> compiled = lxtest::filterOf(expression);
        QVERIFY(compiled);
        const RequestFilter &filter = *compiled;
        QCOMPARE(analyze(*sample().store, filter).total, clicked.counts[std::size_t(segment)]);
    }

    void clickOutsideBarsEmitsNothing()
    {
        ShownView shown;
        shown.view.setData(sampleData());
        shown.view.setGrouping(Grouping::LatencyBand);
        QVERIFY(shown.ready());
        QSignalSpy requested(&shown.view, &DominantView::filterRequested);
        const QRect plot = shown.view.chart()->axisRect()->rect();
        QTest::mouseClick(shown.view.chart(), Qt::LeftButton, {}, QPoint(plot.left() + 3, plot.top() + 3)); // left of band 1
        QTest::mouseClick(shown.view.chart(), Qt::LeftButton, {}, QPoint(5, 5)); // the title
        QCOMPARE(requested.count(), 0);
    }

    void requestsWithoutStartAreSaid()
    {
        auto data = std::make_shared<DominantBreakdown>();
        data->overall.counts[std::size_t(Segment::Decode)] = data->overall.total = 5;
        data->withoutStart = 3;
        data->windowNs = 1'000'000'000;
        DominantBar window;
        window.fromNs = 0;
        window.toNs = data->windowNs;
        window.counts[std::size_t(Segment::Decode)] = window.total = 2;
        data->windows = {window};
        data->relativeTime = true;
        DominantView view;
        view.setData(data);
        view.setGrouping(Grouping::TimeWindow);
        QCOMPARE(view.chart()->barCount(), 1);
        auto *title = qobject_cast<QCPTextElement *>(view.chart()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(title->text().contains(QStringLiteral("3 requests without a start time")), qPrintable(title->text()));
        QVERIFY(view.chart()->xAxis->label().contains(QStringLiteral("relative")));
    }

    void oneRequestIsSingular() // the bar's label and the title read "1 request", not "1 requests"
    {
        auto data = std::make_shared<DominantBreakdown>();
        data->overall.counts[std::size_t(Segment::Queue)] = data->overall.total = 1;
        data->bands[3] = data->overall; // the p99+ band
        DominantView view;
        view.setData(data);
        view.setGrouping(Grouping::LatencyBand);
        QStringList labels;
        for (int i = 0; i < view.chart()->itemCount(); ++i) {
            if (auto *text = qobject_cast<QCPItemText *>(view.chart()->item(i)))
                labels << text->text();
        }
        QVERIFY2(labels.contains(QStringLiteral("1 request")), qPrintable(labels.join(QLatin1Char('|'))));
        auto *title = qobject_cast<QCPTextElement *>(view.chart()->plotLayout()->element(0, 0));
        QVERIFY(title);
        QVERIFY2(title->text().endsWith(QStringLiteral("· 1 request")), qPrintable(title->text()));
    }

    void saysWhenNothingDominates_data()
    {
        QTest::addColumn<int>("grouping");
        QTest::newRow("overall") << int(Grouping::Overall);
        QTest::newRow("latency bands") << int(Grouping::LatencyBand);
        QTest::newRow("time windows") << int(Grouping::TimeWindow);
    }

    void saysWhenNothingDominates() // an arrival trace: requests, but no measured segment in any
    {
        QFETCH(int, grouping);
        DominantView view;
        view.setData(std::make_shared<DominantBreakdown>());
        view.setGrouping(Grouping(grouping));
        QVERIFY2(view.chart()->message().contains(QLatin1String("nothing to break down")), qPrintable(view.chart()->message()));
        view.setData(sampleData());
        QVERIFY(view.chart()->message().isEmpty());
    }

    void emptyAndCleared()
    {
        DominantView view;
        QCOMPARE(view.chart()->barCount(), 0);
        view.setData(sampleData());
        QVERIFY(view.chart()->barCount() > 0);
        view.setData(nullptr);
        QCOMPARE(view.chart()->barCount(), 0);
        QVERIFY(!view.chart()->cellAt(view.chart()->rect().center()));
    }

    void exportsAreFiles_data() { lxtest::addExportRows("dominant"); }

    void exportsAreFiles()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, magic);
        DominantView view;
        view.setData(sampleData());
        lxtest::verifyExport(*view.chart(), name, magic);
    }

    void rendersTheSample_data()
    {
        QTest::addColumn<int>("grouping");
        QTest::addColumn<bool>("dark");
        QTest::newRow("overall") << int(Grouping::Overall) << false;
        QTest::newRow("bands") << int(Grouping::LatencyBand) << false;
        QTest::newRow("time") << int(Grouping::TimeWindow) << false;
        QTest::newRow("time, dark") << int(Grouping::TimeWindow) << true;
    }

    void rendersTheSample()
    {
        // The picture a person looks at: kept in $LX_RENDER_DIR when it is set.
        QFETCH(int, grouping);
        QFETCH(bool, dark);
        DominantView view;
        if (dark)
            view.setPalette(lxtest::darkPalette(view.palette()));
        view.setData(sampleData());
        view.setGrouping(Grouping(grouping));
        const QString name = QStringLiteral("dominant-%1%2").arg(QString::fromLatin1(QTest::currentDataTag()).section(u',', 0, 0),
                                                                dark ? QStringLiteral("-dark") : QString());
        const int decode = lxtest::renderAndCount(*view.chart(), name, segmentColor(Segment::Decode));
        QVERIFY2(decode > 500, qPrintable(QString::number(decode))); // decode's bars are drawn
    }

    void paletteChangeRecolours()
    {
        DominantView view;
        view.setData(sampleData());
        view.setPalette(lxtest::darkPalette(view.palette()));
        QCOMPARE(view.chart()->segmentBars(int(Segment::Queue))->pen().color(), QColor(0x20, 0x20, 0x20));
        QCOMPARE(view.chart()->yAxis->tickLabelColor(), QColor(0xee, 0xee, 0xee));
    }
};

QTEST_MAIN(TestDominantView)
#include "tst_dominant_view.moc"
