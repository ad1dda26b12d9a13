// SPDX-License-Identifier: GPL-3.0-or-later
// The load view stays legible at the 1400x900 window: the decomposition's title goes on two
// lines rather than being cut at both ends, its legend lies in rows under the plot, and the knee's labels
// on both charts lie inside their plots. With LX_SCREENSHOT_DIR set, it writes the view's pictures.

#include "chart_checks.h"
#include "count_text.h"
#include "load_decomposition_chart.h"
#include "load_profile_chart.h"
#include "load_view.h"
#include "load_view_fixtures.h"
#include "store/store.h"

#include <QTest>

using namespace lx;
using lxtest::withKnee;
using lxtest::withoutKnee;

class TestLoadViewLegibility : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(withKnee().data, withKnee().imported.error.c_str()); }

    void titleFitsTheWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("twoLines");
        // At 1400x900 "Decomposition under load · … by arrival rate" was cut at both ends ("ecomposition").
        QTest::newRow("narrow: on two lines") << 360 << true;
        QTest::newRow("the issue's 1400x900 window") << 560 << false;
        QTest::newRow("wide") << 1600 << false;
    }
    void titleFitsTheWidth()
    {
        QFETCH(int, width);
        QFETCH(bool, twoLines);
        LoadDecompositionChart decomposition;
        decomposition.resize(width, 450);
        decomposition.setData(withKnee().data);
        decomposition.show();
        QVERIFY(QTest::qWaitForWindowExposed(&decomposition));
        LoadDecompositionChart *chart = &decomposition;
        const QString title = chart->title();
        QCOMPARE(title.contains(QLatin1Char('\n')), twoLines);
        QVERIFY(title.startsWith(QStringLiteral("Decomposition under load")));
        std::int64_t requests = 0;
        for (const LoadBucket &b : withKnee().data->byArrivalRate.buckets)
            requests += b.count;
        QVERIFY2(title.contains(requestsText(requests)), qPrintable(title));
        // Each line fits the plot's column beside the legend.
        const int room = chart->width();
        for (const QString &line : title.split(QLatin1Char('\n')))
            QVERIFY2(QFontMetrics(chart->font()).horizontalAdvance(line) * 1.1 <= room, qPrintable(line));
        // The legend lies under the plot in as many columns as fit: every entry inside the chart.
        chart->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(chart->legend->wrap() >= (width >= 560 ? 3 : 2));
        for (int i = 0; i < chart->legend->elementCount(); ++i)
            if (QCPLayoutElement *item = chart->legend->elementAt(i))
                QVERIFY2(item->outerRect().right() <= chart->width() && item->outerRect().top() >= chart->axisRect()->outerRect().bottom(),
                         qPrintable(QStringLiteral("entry %1 at %2,%3").arg(i).arg(item->outerRect().right()).arg(item->outerRect().top())));
        // The knee's label lies inside the plot, on one line or two ("knee ≈ 9.19 req/s," was cut at its edge).
        chart->replot(QCustomPlot::rpImmediateRefresh);
        const QRect plot = chart->axisRect()->rect();
        QVERIFY(chart->kneeText()->visible());
        const QPointF topLeft = chart->kneeText()->topLeft->pixelPosition();
        const QPointF bottomRight = chart->kneeText()->bottomRight->pixelPosition();
        QVERIFY2(topLeft.x() >= plot.left() - 1 && bottomRight.x() <= plot.right() + 1,
                 qPrintable(QStringLiteral("%1..%2 in %3..%4").arg(topLeft.x()).arg(bottomRight.x()).arg(plot.left()).arg(plot.right())));
    }

    /// A chart without buckets says why in its title: a sentence, wrapped to the chart's width (the reason
    /// was one line, cut at both ends: "ws to look for one: 0 of the 1 windows ... 8 such wi").
    void noBucketReasonWraps_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("the load tab at 1400x900") << 560;
        QTest::newRow("narrow") << 360;
    }
    void noBucketReasonWraps()
    {
        QFETCH(int, width);
        LoadDecompositionChart chart;
        chart.resize(width, 450);
        chart.setData(lxtest::withoutBuckets(*withKnee().data,
                                             "too few windows to look for one: 0 of the 1 windows that hold requests "
                                             "hold at least 3, 8 such windows needed"));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QString title = chart.title();
        QVERIFY2(title.contains(QLatin1Char('\n')), qPrintable(title));
        QString words = title;
        words.replace(QLatin1Char('\n'), QLatin1Char(' '));
        QVERIFY2(words.contains(
                     QStringLiteral("0 of the 1 windows that hold requests hold at least 3, 8 such windows needed")),
                 qPrintable(title));
        for (const QString &line : title.split(QLatin1Char('\n')))
            QVERIFY2(QFontMetrics(chart.font()).horizontalAdvance(line) * 1.1 <= chart.width(), qPrintable(line));
    }

    void profileKneeLabelFits_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("narrow: \"load passes the k\" was cut") << 360;
        QTest::newRow("the issue's 1400x900 window") << 520;
        QTest::newRow("wide") << 1400;
    }
    void profileKneeLabelFits()
    {
        QFETCH(int, width);
        LoadProfileChart chart;
        chart.resize(width, 320);
        chart.setData(withKnee().data);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.replot(QCustomPlot::rpImmediateRefresh);
        QCPItemText *label = chart.kneeTimeText();
        QVERIFY(label->visible());
        const QRect plot = chart.axisRect()->rect();
        const double left = label->topLeft->pixelPosition().x(), right = label->bottomRight->pixelPosition().x();
        QVERIFY2(left >= plot.left() - 1 && right <= plot.right() + 1,
                 qPrintable(QStringLiteral("%1..%2 in %3..%4: %5").arg(left).arg(right).arg(plot.left()).arg(plot.right()).arg(label->text())));
    }

    void screenshots_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("key");
        QTest::addColumn<bool>("shares");
        QTest::newRow("knee") << QStringLiteral("knee") << int(LoadKey::ArrivalRate) << true;
        QTest::newRow("knee, mean times") << QStringLiteral("knee") << int(LoadKey::ArrivalRate) << false;
        QTest::newRow("knee, in flight") << QStringLiteral("knee") << int(LoadKey::InFlight) << true;
        QTest::newRow("no knee") << QStringLiteral("noknee") << int(LoadKey::ArrivalRate) << false;
        QTest::newRow("store") << QStringLiteral("store") << int(LoadKey::ArrivalRate) << true;
        QTest::newRow("store, mean times") << QStringLiteral("store") << int(LoadKey::ArrivalRate) << false;
    }

    /// With LX_SCREENSHOT_DIR set, the whole view at the load tab's size in a 1400x900 window and each
    /// chart as PNG files there, to look at; the "store" rows draw the store LX_SCREENSHOT_STORE names.
    void screenshots()
    {
        QFETCH(QString, trace);
        QFETCH(int, key);
        QFETCH(bool, shares);
        const QString dir = qEnvironmentVariable("LX_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set LX_SCREENSHOT_DIR to write the view's pictures");
        std::shared_ptr<const LoadChartData> data = trace == QLatin1String("knee") ? withKnee().data : withoutKnee().data;
        if (trace == QLatin1String("store")) {
            const QString store = qEnvironmentVariable("LX_SCREENSHOT_STORE");
            if (store.isEmpty())
                QSKIP("set LX_SCREENSHOT_STORE to an investigation to draw");
            std::string error;
            const std::unique_ptr<Store> opened = Store::openExisting(store.toStdString(), &error);
            QVERIFY2(opened, error.c_str());
            data = std::make_shared<const LoadChartData>(computeLoadChartData(*opened, {}));
        }
        LoadView view;
        view.resize(520, 780);
        view.setData(data);
        view.setLoadKey(LoadKey(key));
        view.setShowShares(shares);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.decompositionView()->replot(QCustomPlot::rpImmediateRefresh);
        view.profileView()->replot(QCustomPlot::rpImmediateRefresh);
        const QString base = dir + QStringLiteral("/load_view_") + trace
                             + (LoadKey(key) == LoadKey::InFlight ? QStringLiteral("_inflight") : QString())
                             + (shares ? QStringLiteral("_shares") : QStringLiteral("_means"));
        QVERIFY(view.grab().save(base + QStringLiteral(".png")));
        QString error;
        QVERIFY2(view.decompositionChart()->exportTo(base + QStringLiteral("_decomposition.png"), QSize(1400, 700), &error), qPrintable(error));
        QVERIFY2(view.profileChart()->exportTo(base + QStringLiteral("_profile.png"), QSize(1400, 500), &error), qPrintable(error));
    }
};

QTEST_MAIN(TestLoadViewLegibility)
#include "tst_load_view_legibility.moc"
