// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall's density images made on a worker (waterfall_density_frames.h), offscreen: the picture
// that lands is the one a frame made at once draws, whatever was asked for while it was made; meanwhile the
// last image is drawn where its view lies now; a frame drawn again for the same view makes nothing anew.

#include "test_support.h"
#include "waterfall_fixtures.h"
#include "analysis/waterfall_data.h"
#include "waterfall_density_frames.h"
#include "waterfall_view.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace lx;
using lxtest::loadWaterfallOf;
using lxtest::waterfallTrace;

namespace {

/// A shown view whose density images are made on a worker (`background`: from 0 requests in view, or from
/// `from`) or at once.
struct Shown {
    Shown(std::shared_ptr<const WaterfallData> data, bool background, std::size_t from = 0)
    {
        view.chart()->setDensityInBackgroundFrom(background ? from : SIZE_MAX);
        view.resize(800, 400);
        view.show();
        view.setData(std::move(data));
        redraw();
    }
    WaterfallChart *chart() const { return view.chart(); }
    void redraw() { view.chart()->replot(QCustomPlot::rpImmediateRefresh); }
    /// Draws again once the image being made has landed; false when it never does.
    bool settle()
    {
        QSignalSpy ready(chart(), &WaterfallChart::densityReady);
        while (chart()->drawing()) {
            if (!ready.wait(10000))
                return false;
        }
        redraw();
        return true;
    }
    /// The plot's pixels (the axis rect) as on screen: grabbed, not exported (an export makes its own image).
    QImage plot() const { return view.chart()->grab().toImage().copy(chart()->axisRect()->rect()); }

    WaterfallView view;
};

/// Pixels of `image` within columns [from, to) in a segment's colour: grid lines and the background are grey.
int colouredPixels(const QImage &image, int from, int to)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = from; x < to; ++x)
            n += QColor(image.pixel(x, y)).hsvSaturation() > 60;
    }
    return n;
}

} // namespace

class TestWaterfallDensityFrames : public QObject {
    Q_OBJECT

private slots:
    void landsAsMadeAtOnce_data();
    void landsAsMadeAtOnce();
    void lastImageWhereItsViewLies();
    void sameViewMakesNothingAnew();
    void exportDrawsItsOwnView();
    void fewerRequestsThanTheThreshold();
};

void TestWaterfallDensityFrames::landsAsMadeAtOnce_data()
{
    QTest::addColumn<QByteArray>("change"); // what is asked for while the worker makes the first frame
    QTest::newRow("nothing") << QByteArray();
    QTest::newRow("a zoom") << QByteArray("zoom");
    QTest::newRow("a zoom, then a pan, each drawn: the newest view wins") << QByteArray("zoom and pan");
    QTest::newRow("a zoom far in: a sliver of the last image") << QByteArray("far");
    QTest::newRow("lanes, drawn as bars") << QByteArray("lanes");
    QTest::newRow("other data: the old frame is dropped") << QByteArray("data");
}

void TestWaterfallDensityFrames::landsAsMadeAtOnce()
{
    QFETCH(QByteArray, change);
    lxtest::StoreFixture fixture(waterfallTrace(4000, 3)), other(waterfallTrace(2500, 7));
    const auto data = loadWaterfallOf(*fixture.store), otherData = loadWaterfallOf(*other.store);
    QVERIFY(data && otherData);
    Shown background(data, true), atOnce(data, false);
    QVERIFY(background.chart()->drawing()); // the first frame is being made
    QVERIFY(!atOnce.chart()->drawing());
    QCOMPARE(background.chart()->lod(), WaterfallLod::Density);
    const auto apply = [&](Shown &s) {
        if (change.startsWith("zoom"))
            s.chart()->zoomTime(0.5);
        if (change == "zoom and pan") {
            s.redraw(); // the zoomed view is asked for, then the panned one replaces it
            s.chart()->panTime(0.3);
        }
        if (change == "far")
            s.chart()->zoomTime(1e-4);
        if (change == "lanes")
            s.view.chart()->setLanes(true);
        if (change == "data")
            s.view.setData(otherData);
        s.redraw();
    };
    apply(background);
    apply(atOnce);
    QVERIFY(background.settle());
    QVERIFY(!background.chart()->drawing());
    // Lanes are few enough for bars: the frame that was being made must not land over them.
    QCOMPARE(background.chart()->lod(), change == "lanes" ? WaterfallLod::Bars : WaterfallLod::Density);
    const QImage made = background.plot(), expected = atOnce.plot();
    QCOMPARE(made.size(), expected.size());
    QVERIFY(colouredPixels(expected, 0, expected.width()) > 1000);
    QVERIFY(made == expected);
}

void TestWaterfallDensityFrames::lastImageWhereItsViewLies()
{
    lxtest::StoreFixture fixture(waterfallTrace(4000, 3));
    const auto data = loadWaterfallOf(*fixture.store);
    Shown s(data, true);
    QVERIFY(s.settle());
    s.chart()->zoomTime(0.5); // the middle half of the time
    s.redraw();
    QVERIFY(s.settle());
    const int width = s.chart()->axisRect()->width();
    QVERIFY(colouredPixels(s.plot(), width / 2 + 20, width) > 500);
    QCOMPARE(s.chart()->note(), QString());
    // What the corner says once a worker begins (the chart hears of it first), however soon it lands.
    QString said;
    auto *frames = s.chart()->findChild<WaterfallDensityFrames *>();
    QVERIFY(frames);
    connect(frames, &WaterfallDensityFrames::frameStarted, s.chart(), [&] { said = s.chart()->note(); });
    // Half a view later: the image of the view before is drawn over the left half, where its time now
    // lies, and the right half stays empty until the new one lands.
    s.chart()->panTime(0.5);
    s.redraw();
    QVERIFY(s.chart()->drawing());
    const QImage meanwhile = s.plot();
    QVERIFY(colouredPixels(meanwhile, 0, width / 2 - 20) > 500);
    QCOMPARE(colouredPixels(meanwhile, width / 2 + 20, width), 0);
    QTRY_VERIFY(!said.isEmpty());
    QVERIFY2(said.startsWith(QLatin1String("Drawing ")) && said.contains(QLatin1String("requests")), qPrintable(said));
    QVERIFY(s.settle());
    QVERIFY(colouredPixels(s.plot(), width / 2 + 20, width) > 500);
    QCOMPARE(s.chart()->note(), QString());
}

void TestWaterfallDensityFrames::sameViewMakesNothingAnew()
{
    lxtest::StoreFixture fixture(waterfallTrace(4000, 3));
    Shown s(loadWaterfallOf(*fixture.store), true);
    QVERIFY(s.settle());
    const QImage before = s.plot();
    QSignalSpy ready(s.chart(), &WaterfallChart::densityReady);
    s.redraw(); // as a selection or a tooltip would
    QVERIFY(!s.chart()->drawing());
    QVERIFY(!ready.wait(300));
    QVERIFY(s.plot() == before);
}

void TestWaterfallDensityFrames::exportDrawsItsOwnView()
{
    lxtest::StoreFixture fixture(waterfallTrace(4000, 3));
    const auto data = loadWaterfallOf(*fixture.store);
    Shown background(data, true), atOnce(data, false);
    QVERIFY(background.chart()->drawing()); // the screen's first image is still being made
    const QSize size(640, 360);              // another size than the screen's: another view
    const QImage exported = background.chart()->toPixmap(size.width(), size.height()).toImage();
    const QImage expected = atOnce.chart()->toPixmap(size.width(), size.height()).toImage();
    QVERIFY(colouredPixels(expected, 0, expected.width()) > 1000);
    QVERIFY(exported == expected);
    // The screen still gets its own image.
    QVERIFY(background.chart()->drawing());
    QVERIFY(background.settle());
    QVERIFY(background.plot() == atOnce.plot());
}

void TestWaterfallDensityFrames::fewerRequestsThanTheThreshold()
{
    lxtest::StoreFixture fixture(waterfallTrace(4000, 3));
    const auto data = loadWaterfallOf(*fixture.store);
    Shown s(data, true, 2000), atOnce(data, false); // all 4000 on a worker; a quarter of the rows at once
    QVERIFY(s.chart()->drawing());
    QSignalSpy ready(s.chart(), &WaterfallChart::densityReady);
    s.chart()->zoomRows(0.25);
    atOnce.chart()->zoomRows(0.25);
    s.redraw();
    atOnce.redraw();
    // Made on the spot; the worker's image is dropped, and the chart is told (a tab waits for it).
    QVERIFY(!s.chart()->drawing());
    QVERIFY(ready.wait(5000));
    QCOMPARE(s.chart()->lod(), WaterfallLod::Density);
    QVERIFY(s.plot() == atOnce.plot());
}

QTEST_MAIN(TestWaterfallDensityFrames)
#include "tst_waterfall_density_frames.moc"
