// SPDX-License-Identifier: GPL-3.0-or-later
// The waterfall view, offscreen: the chart holds core's rows in core's order; a click on a bar emits its
// row id; the keyboard zooms and pans; Shift+drag marks a time range; a selection from the table scrolls
// into view; rows that outnumber the pixels turn into the density; requests without a start are said to
// be unplaceable; exports are real files; a palette change recolours.

#include "test_support.h"
#include "waterfall_fixtures.h"
#include "analysis/waterfall_data.h"
#include "segment_colors.h"
#include "waterfall_shading.h"
#include "waterfall_view.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace lx;
using lxtest::loadWaterfallOf;
using lxtest::waterfallTrace;

namespace {

constexpr qint64 MS = lxtest::kMs;

/// A shown view with data, laid out, its first frame drawn.
struct Shown {
    explicit Shown(const QByteArray &lines, QSize size = {900, 600})
        : fixture(lines)
    {
        data = loadWaterfallOf(*fixture.store);
        view.resize(size);
        view.show();
        view.setData(data);
        redraw();
    }
    void redraw() { view.chart()->replot(QCustomPlot::rpImmediateRefresh); }

    lxtest::StoreFixture fixture;
    std::shared_ptr<const WaterfallData> data;
    WaterfallView view;
};

std::vector<std::uint32_t> asVector(std::span<const std::uint32_t> s) { return {s.begin(), s.end()}; }

} // namespace

class TestWaterfallView : public QObject {
    Q_OBJECT

private slots:
    void holdsCoreRows();
    void arrangesOnAWorker_data();
    void arrangesOnAWorker();
    void clickSelects_data();
    void clickSelects();
    void keyboard_data();
    void keyboard();
    void lanesKey();
    void marksTimeRange();
    void selectionScrollsIntoView();
    void densityWhenRowsOutnumberPixels();
    void noStartTime();
    void startsOnly_data();
    void startsOnly();
    void exports_data();
    void exports();
    void paletteChangeRecolours();
    void legendLabelsWhole_data();
    void legendLabelsWhole();
    void densityShading_data();
    void densityShading();
};

void TestWaterfallView::holdsCoreRows()
{
    Shown s(waterfallTrace(60, 40));
    QVERIFY(s.data);
    WaterfallChart *chart = s.view.chart();
    QCOMPARE(chart->data(), s.data);
    QCOMPARE(asVector(chart->rows().requests()), asVector(WaterfallRows::sorted(*s.data, {}).requests()));
    QCOMPARE(chart->lod(), WaterfallLod::Bars);

    const auto choices = WaterfallView::sortChoices();
    for (int i = 0; i < int(choices.size()); ++i) {
        s.view.sortSelector()->setCurrentIndex(i);
        QCOMPARE(chart->sort(), choices[std::size_t(i)]);
        QCOMPARE(asVector(chart->rows().requests()), asVector(WaterfallRows::sorted(*s.data, choices[std::size_t(i)]).requests()));
    }
    s.view.lanesButton()->setChecked(true);
    QVERIFY(chart->rows().isLanes());
    QCOMPARE(chart->rows().rowCount(), std::size_t(s.data->laneCount));
    QVERIFY(s.data->laneCount > 1);
    QVERIFY(!s.view.sortSelector()->isEnabled());
    for (std::size_t i = 0; i < s.data->size(); ++i)
        QCOMPARE(chart->rows().rowOf(*s.data, i), std::optional<std::size_t>(s.data->lanes[i]));
    s.view.setData(nullptr);
    QCOMPARE(chart->rows().rowCount(), std::size_t(0));
}

void TestWaterfallView::arrangesOnAWorker_data()
{
    QTest::addColumn<QByteArray>("change"); // what is asked for while the worker runs
    QTest::newRow("a sort") << QByteArray("sort");
    QTest::newRow("two sorts, the second wins") << QByteArray("sorts");
    QTest::newRow("lanes") << QByteArray("lanes");
    QTest::newRow("lanes, then back to rows") << QByteArray("lanes and back");
    QTest::newRow("new data while the old is sorted") << QByteArray("data");
}

void TestWaterfallView::arrangesOnAWorker()
{
    QFETCH(QByteArray, change);
    Shown s(waterfallTrace(300, 15));
    WaterfallChart *chart = s.view.chart();
    chart->setArrangeInBackgroundFrom(1); // as a million requests would be
    const std::vector<std::uint32_t> before = asVector(chart->rows().requests());
    QSignalSpy arranged(chart, &WaterfallChart::rowsArranged);
    const auto choices = WaterfallView::sortChoices();
    lx::WaterfallSort expectedSort;
    bool expectLanes = false;
    std::shared_ptr<const WaterfallData> expectedData = s.data;
    if (change == "sort" || change == "sorts") {
        s.view.sortSelector()->setCurrentIndex(1);
        expectedSort = choices[1];
        if (change == "sorts") {
            s.view.sortSelector()->setCurrentIndex(4);
            expectedSort = choices[4];
        }
    } else if (change.startsWith("lanes")) {
        s.view.lanesButton()->setChecked(true);
        expectLanes = true;
        if (change == "lanes and back") {
            s.view.lanesButton()->setChecked(false);
            expectLanes = false;
        }
    } else {
        s.view.sortSelector()->setCurrentIndex(2);
        expectedSort = choices[2];
        lxtest::StoreFixture other(waterfallTrace(120, 30));
        expectedData = loadWaterfallOf(*other.store);
        s.view.setData(expectedData);
        QCOMPARE(chart->rows().rowCount(), std::size_t(0)); // the old rows do not fit the new data
    }
    // Until the worker is done the window goes on showing the rows it had, and says what is under way.
    QVERIFY(chart->arranging());
    if (change != "data")
        QCOMPARE(asVector(chart->rows().requests()), before);
    s.redraw();
    QVERIFY(arranged.wait(10000));
    QTest::qWait(50); // a superseded job's result would arrive now: it must be dropped
    QCOMPARE(arranged.size(), 1);
    QVERIFY(!chart->arranging());
    QCOMPARE(chart->data(), expectedData);
    const WaterfallRows expected = expectLanes ? WaterfallRows::lanes(*expectedData) : WaterfallRows::sorted(*expectedData, expectedSort);
    QCOMPARE(chart->rows().isLanes(), expectLanes);
    QCOMPARE(asVector(chart->rows().requests()), asVector(expected.requests()));
    s.redraw();
    QVERIFY(chart->lod() != WaterfallLod::None);
}

void TestWaterfallView::clickSelects_data()
{
    QTest::addColumn<bool>("lanes");
    QTest::addColumn<int>("request");
    QTest::newRow("rows, first") << false << 0;
    QTest::newRow("rows, middle") << false << 17;
    QTest::newRow("lanes, last") << true << 39;
}

void TestWaterfallView::clickSelects()
{
    QFETCH(bool, lanes);
    QFETCH(int, request);
    Shown s(waterfallTrace(40, 60));
    s.view.lanesButton()->setChecked(lanes);
    s.redraw();
    const qint64 id = s.data->ids[std::size_t(request)];
    const auto pixel = s.view.chart()->pixelOf(id);
    QVERIFY(pixel);
    QCOMPARE(s.view.chart()->requestAt(*pixel), std::optional<qint64>(id));
    QSignalSpy selected(&s.view, &WaterfallView::requestSelected);
    QTest::mouseClick(s.view.chart(), Qt::LeftButton, {}, *pixel);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toLongLong(), id);
    QCOMPARE(s.view.chart()->selectedRequest(), std::optional<qint64>(id));

    // A click where there is no bar (below the last row) selects nothing new.
    const QRect plot = s.view.chart()->axisRect()->rect();
    QTest::mouseClick(s.view.chart(), Qt::LeftButton, {}, QPoint(plot.left() + 2, plot.bottom() - 2));
    QCOMPARE(selected.count(), 1);
}

void TestWaterfallView::keyboard_data()
{
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::addColumn<int>("timeWidth"); // -1 narrower, 0 the same, +1 wider
    QTest::addColumn<int>("timeMove");  // -1 earlier, 0 still, +1 later
    QTest::addColumn<int>("rowHeight"); // -1 fewer rows, 0 the same
    QTest::newRow("+ zooms in") << int(Qt::Key_Plus) << 0 << -1 << 0 << 0;
    QTest::newRow("= zooms in") << int(Qt::Key_Equal) << 0 << -1 << 0 << 0;
    QTest::newRow("- zooms out") << int(Qt::Key_Minus) << 0 << +1 << 0 << 0;
    QTest::newRow("left pans earlier") << int(Qt::Key_Left) << 0 << 0 << -1 << 0;
    QTest::newRow("right pans later") << int(Qt::Key_Right) << 0 << 0 << +1 << 0;
    QTest::newRow("ctrl+up zooms the rows") << int(Qt::Key_Up) << int(Qt::ControlModifier) << 0 << 0 << -1;
}

void TestWaterfallView::keyboard()
{
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QFETCH(int, timeWidth);
    QFETCH(int, timeMove);
    QFETCH(int, rowHeight);
    Shown s(waterfallTrace(300, 20));
    WaterfallChart *chart = s.view.chart();
    chart->zoomTime(0.5); // room to pan either way
    const auto [from, to] = chart->timeRange();
    const auto [top, bottom] = chart->rowRange();
    QTest::keyClick(chart, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
    const auto [from2, to2] = chart->timeRange();
    const auto [top2, bottom2] = chart->rowRange();
    const auto sign = [](double v) { return std::abs(v) < 1e-6 ? 0 : v < 0 ? -1 : 1; };
    QCOMPARE(sign(double((to2 - from2) - (to - from)) / double(to - from)), timeWidth);
    QCOMPARE(sign(double(from2 + to2 - from - to) / double(to - from)), timeWidth ? 0 : timeMove);
    QCOMPARE(sign((bottom2 - top2) - (bottom - top)), rowHeight);

    QTest::keyClick(chart, Qt::Key_Home); // fit: everything again
    const auto [fitFrom, fitTo] = chart->timeRange();
    QVERIFY(fitFrom <= s.data->firstStart && fitTo >= s.data->lastEnd);
    QCOMPARE(chart->rowRange().first, 0.0);
    QVERIFY(chart->rowRange().second >= double(s.data->size()));
}

void TestWaterfallView::lanesKey()
{
    Shown s(waterfallTrace(300, 20));
    WaterfallChart *chart = s.view.chart();
    QTest::keyClick(chart, Qt::Key_L);
    QVERIFY(chart->lanes());
    QVERIFY(chart->rows().isLanes());
    QVERIFY(s.view.lanesButton()->isChecked()); // the toolbar follows
    QVERIFY(!s.view.sortSelector()->isEnabled());
    QTest::keyClick(chart, Qt::Key_L, Qt::ControlModifier); // not ours
    QVERIFY(chart->lanes());
    QTest::keyClick(chart, Qt::Key_L);
    QVERIFY(!chart->lanes());
    QVERIFY(!s.view.lanesButton()->isChecked());
    QVERIFY(s.view.sortSelector()->isEnabled());
}

void TestWaterfallView::marksTimeRange()
{
    Shown s(waterfallTrace(50, 40));
    WaterfallChart *chart = s.view.chart();
    QSignalSpy marked(&s.view, &WaterfallView::timeRangeSelected);
    const QRect plot = chart->axisRect()->rect();
    const QPoint a(plot.left() + plot.width() / 4, plot.center().y()), b(plot.left() + plot.width() / 2, plot.center().y());
    const auto timeAt = [&](int x) {
        return chart->timeRange().first
            + qint64(double(chart->timeRange().second - chart->timeRange().first) * (x - plot.left()) / plot.width());
    };
    QTest::mousePress(chart, Qt::LeftButton, Qt::ShiftModifier, b); // right to left: still [earlier, later)
    QTest::mouseMove(chart, a);
    QTest::mouseRelease(chart, Qt::LeftButton, Qt::ShiftModifier, a);
    QCOMPARE(marked.count(), 1);
    const qint64 start = marked.at(0).at(0).toLongLong(), end = marked.at(0).at(1).toLongLong();
    const qint64 pixelNs = (chart->timeRange().second - chart->timeRange().first) / plot.width();
    QVERIFY2(std::abs(start - timeAt(a.x())) <= 2 * pixelNs, qPrintable(QString::number(start - timeAt(a.x()))));
    QVERIFY(std::abs(end - timeAt(b.x())) <= 2 * pixelNs);
    QVERIFY(start < end);
    // Rounded within half a pixel, so that the filter it becomes reads whole ms: a pixel spans ms here.
    QVERIFY(pixelNs >= MS);
    QCOMPARE(start % MS, qint64(0));
    QCOMPARE(end % MS, qint64(0));
    QVERIFY(chart->selectedRequest() == std::nullopt); // marking is no click

    // A Shift+click without a drag marks nothing.
    QTest::mouseClick(chart, Qt::LeftButton, Qt::ShiftModifier, a);
    QCOMPARE(marked.count(), 1);
}

void TestWaterfallView::selectionScrollsIntoView()
{
    Shown s(waterfallTrace(400, 25));
    WaterfallChart *chart = s.view.chart();
    chart->zoomTime(0.05);
    chart->zoomRows(0.05);
    chart->panTime(-10); // to the first requests
    const qint64 last = s.data->ids.back();
    s.view.setSelectedRequest(last);
    QCOMPARE(chart->selectedRequest(), std::optional<qint64>(last));
    const std::size_t row = *chart->rows().rowOf(*s.data, s.data->size() - 1);
    QVERIFY(chart->rowRange().first <= double(row) && chart->rowRange().second >= double(row + 1));
    QVERIFY(chart->timeRange().first <= s.data->starts.back() && chart->timeRange().second >= s.data->ends.back());
    s.view.setSelectedRequest(-1); // not in the data: no selection
    QCOMPARE(chart->selectedRequest(), std::nullopt);
}

void TestWaterfallView::densityWhenRowsOutnumberPixels()
{
    Shown s(waterfallTrace(3000, 2), QSize(800, 400));
    WaterfallChart *chart = s.view.chart();
    QCOMPARE(chart->lod(), WaterfallLod::Density);
    // Density or not, a click lands on a request whose bar is under the mouse.
    const qint64 id = s.data->ids[1500];
    const auto pixel = chart->pixelOf(id);
    QVERIFY(pixel);
    const auto hit = chart->requestAt(*pixel);
    QVERIFY(hit);
    const std::size_t i = *s.data->indexOf(*hit);
    const qint64 pixelNs = (chart->timeRange().second - chart->timeRange().first) / chart->axisRect()->width();
    const qint64 t = s.data->starts[1500] + (s.data->ends[1500] - s.data->starts[1500]) / 2;
    QVERIFY(s.data->starts[i] - 4 * pixelNs <= t && t <= s.data->ends[i] + 4 * pixelNs);
    chart->zoomRows(0.02); // 60 rows: a bar each
    s.redraw();
    QCOMPARE(chart->lod(), WaterfallLod::Bars);
}

void TestWaterfallView::noStartTime()
{
    const QByteArray vllm = R"({"backend": "vllm", "input_lens": [10, 20], "output_lens": [3, 1], "ttfts": [0.1, 0.25],)"
                            R"( "itls": [[0.02, 0.03], []], "errors": ["", ""]})";
    Shown s(vllm);
    QVERIFY(s.data);
    QCOMPARE(s.data->withoutStart, std::int64_t(2));
    QVERIFY2(s.view.chart()->message().contains(QLatin1String("no start time")), qPrintable(s.view.chart()->message()));
    QCOMPARE(s.view.chart()->lod(), WaterfallLod::None);

    Shown withStarts(waterfallTrace(5, 10));
    QVERIFY(withStarts.view.chart()->message().isEmpty());
}

void TestWaterfallView::startsOnly_data()
{
    QTest::addColumn<QByteArray>("lines");
    QTest::addColumn<qint64>("withoutTime");
    QTest::addColumn<bool>("said"); // "a start time only": nothing can be drawn
    QByteArray arrivals; // Mooncake's form: arrival times (ms) and lengths, no durations
    for (int i = 0; i < 4; ++i)
        arrivals += "{\"timestamp\": " + QByteArray::number(i * 10) + ", \"input_length\": 10, \"output_length\": 5}\n";
    QTest::newRow("an arrival trace") << arrivals << qint64(4) << true;
    QTest::newRow("measured requests") << waterfallTrace(4, 10) << qint64(0) << false;
}

void TestWaterfallView::startsOnly()
{
    QFETCH(QByteArray, lines);
    QFETCH(qint64, withoutTime);
    QFETCH(bool, said);
    Shown s(lines);
    QVERIFY(s.data);
    QCOMPARE(s.data->size(), std::size_t(4));
    QCOMPARE(s.data->withoutTime, withoutTime);
    const QString message = s.view.chart()->message();
    QCOMPARE(message.contains(QLatin1String("a start time only")), said);
    if (said)
        QVERIFY2(message.startsWith(QLatin1String("The 4 requests that match")), qPrintable(message));
}

void TestWaterfallView::exports_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("lanes");
    QTest::newRow("png") << "waterfall.png" << false;
    QTest::newRow("svg") << "waterfall.svg" << false;
    QTest::newRow("pdf") << "waterfall.pdf" << true;
}

void TestWaterfallView::exports()
{
    QFETCH(QString, name);
    QFETCH(bool, lanes);
    Shown s(waterfallTrace(200, 15));
    s.view.lanesButton()->setChecked(lanes);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QString error;
    QVERIFY2(s.view.chart()->exportTo(path, QSize(1200, 700), &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    if (name.endsWith(QLatin1String(".png"))) {
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1200, 700));
        // Some pixels carry segment colours: the bars were drawn.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3)
                coloured += image.pixelColor(x, y).saturation() > 80 ? 1 : 0;
        }
        QVERIFY2(coloured > 500, qPrintable(QString::number(coloured)));
    } else if (name.endsWith(QLatin1String(".svg"))) {
        QVERIFY(QSvgRenderer(path).isValid());
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    }
}

void TestWaterfallView::paletteChangeRecolours()
{
    Shown s(waterfallTrace(30, 40));
    WaterfallChart *chart = s.view.chart();
    QSignalSpy applied(chart, &Chart::paletteApplied);
    QPalette dark = chart->palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Window, QColor(0x25, 0x25, 0x25));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Highlight, QColor(0xff, 0x80, 0x00));
    s.view.setPalette(dark);
    QVERIFY(applied.count() >= 1);
    QCOMPARE(chart->xAxis->tickLabelColor(), QColor(0xee, 0xee, 0xee));
    QCOMPARE(chart->legend->textColor(), QColor(0xee, 0xee, 0xee));
    const QImage image = chart->toPixmap(600, 400).toImage();
    QCOMPARE(image.pixelColor(2, 2), QColor(0x1e, 0x1e, 0x1e));
    // The selection outline takes the new highlight colour.
    s.view.setSelectedRequest(s.data->ids[3]);
    const QImage selected = chart->toPixmap(600, 400).toImage();
    int orange = 0;
    for (int y = 0; y < selected.height(); ++y) {
        for (int x = 0; x < selected.width(); ++x)
            orange += selected.pixelColor(x, y) == QColor(0xff, 0x80, 0x00) ? 1 : 0;
    }
    QVERIFY2(orange > 10, qPrintable(QString::number(orange)));
}

void TestWaterfallView::legendLabelsWhole_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("exportWidth"); // 0: on screen
    QTest::addColumn<int>("rows");        // of the legend; negative: at least that many
    QTest::newRow("wide: one row") << 1600 << 0 << 1;
    // The window's default 1400 px less the detail dock: the labels were cut ("Unattributec").
    QTest::newRow("the window's default beside the dock") << 900 << 0 << 2;
    QTest::newRow("an export narrower than the screen") << 1600 << 420 << -3;
}

void TestWaterfallView::legendLabelsWhole()
{
    QFETCH(int, width);
    QFETCH(int, exportWidth);
    QFETCH(int, rows);
    Shown s(waterfallTrace(30, 40), QSize(width, 600));
    WaterfallChart *chart = s.view.chart();
    s.redraw();
    if (exportWidth > 0) // the layout stays as the export left it until the next frame
        QVERIFY(!chart->toPixmap(exportWidth, 400).isNull());
    const int drawnWidth = exportWidth > 0 ? exportWidth : chart->width();
    QCPLegend *legend = chart->legend;
    int items = 0;
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QCPAbstractLegendItem *item = legend->item(i);
        if (!item)
            continue;
        ++items;
        // Every label as wide as its text needs, and inside the chart.
        QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                 qPrintable(QStringLiteral("item %1: %2 < %3").arg(i).arg(item->outerRect().width()).arg(item->minimumOuterSizeHint().width())));
        QVERIFY2(item->outerRect().right() <= drawnWidth, qPrintable(QString::number(item->outerRect().right())));
    }
    QCOMPARE(items, lx::kSegmentCount + 1);
    int used = 0;
    for (int r = 0; r < legend->rowCount(); ++r) {
        bool any = false;
        for (int c = 0; c < legend->columnCount(); ++c)
            any = any || legend->hasElement(r, c);
        used += any ? 1 : 0;
    }
    QVERIFY2(rows > 0 ? used == rows : used >= -rows, qPrintable(QStringLiteral("%1 rows at a chart %2 px wide").arg(used).arg(drawnWidth)));
    // The plot still starts below the legend.
    QVERIFY(chart->axisRect()->outerRect().top() >= legend->outerRect().bottom());
}

void TestWaterfallView::densityShading_data()
{
    QTest::addColumn<QList<float>>("fills");   // a band of cells
    QTest::addColumn<QList<int>>("segments");  // each cell's dominant segment, -1 empty
    QTest::addColumn<QList<int>>("alphas");    // expected opacity of each pixel, 0..255
    QTest::addColumn<int>("columns");          // cells a band: the lists hold the bands one after another

    const int faintest = int(kFaintestAlpha * 255 + 0.5);
    const auto between = [](double share) { return int((kFaintestAlpha + (1 - kFaintestAlpha) * std::sqrt(share)) * 255 + 0.5); };
    QTest::newRow("empty cells are transparent") << QList<float>{0, 0} << QList<int>{-1, -1} << QList<int>{0, 0} << 2;
    // At Fit on a million requests decode filled 0.002 of its cells at most: drawn against a full cell it
    // was a faint hairline; its densest cells are now the swatch's colour.
    QTest::newRow("a sparse segment's densest cells at full strength") << QList<float>{0.002f, 0.0005f, 0.002f}
        << QList<int>{int(lx::Segment::Decode), int(lx::Segment::Decode), int(lx::Segment::Decode)}
        << QList<int>{255, between(0.25), 255} << 3;
    QTest::newRow("each segment against its own densest cell") << QList<float>{1.0f, 0.01f, 0.25f}
        << QList<int>{int(lx::Segment::Queue), int(lx::Segment::Decode), int(lx::Segment::Queue)}
        << QList<int>{255, 255, between(0.25)} << 3;
    QTest::newRow("a nearly empty cell stays in sight") << QList<float>{1.0f, 0.0f}
        << QList<int>{int(lx::Segment::Prefill), int(lx::Segment::Prefill)} << QList<int>{255, faintest} << 2;
    // A frame's grid of 1600x900 cells is shaded by bands on several threads: each band as on one.
    QList<float> fills;
    QList<int> segments, alphas;
    std::array<float, lx::kSegmentCount> densest{};
    const int columns = 800, bands = 700; // two threads from 2 x 2^18 cells
    for (int i = 0; i < columns * bands; ++i) {
        const int s = int(std::int64_t(i) * 7919 / 13 % (lx::kSegmentCount + 1)) - 1;
        const float fill = s < 0 ? 0.0f : float(std::int64_t(i) * 104729 % 1000) / 1000.0f;
        fills << fill;
        segments << s;
        if (s >= 0)
            densest[std::size_t(s)] = std::max(densest[std::size_t(s)], fill);
    }
    for (int i = 0; i < columns * bands; ++i) {
        const int s = segments[i];
        alphas << (s < 0 ? 0 : densest[std::size_t(s)] > 0 ? between(double(fills[i]) / densest[std::size_t(s)]) : 255);
    }
    QTest::newRow("a frame's grid, bands on several threads") << fills << segments << alphas << columns;
}

void TestWaterfallView::densityShading()
{
    QFETCH(QList<float>, fills);
    QFETCH(QList<int>, segments);
    QFETCH(QList<int>, alphas);
    QFETCH(int, columns);
    lx::WaterfallDensity density;
    density.columns = columns;
    density.bands = int(fills.size()) / columns;
    density.fill.assign(fills.begin(), fills.end());
    for (int s : segments)
        density.dominant.push_back(std::int8_t(s));
    std::array<QColor, lx::kSegmentCount> colors;
    for (int s = 0; s < lx::kSegmentCount; ++s)
        colors[std::size_t(s)] = segmentColor(lx::Segment(s));
    const QImage image = waterfallDensityImage(density, colors);
    QCOMPARE(image.size(), QSize(density.columns, density.bands));
    for (int i = 0; i < int(fills.size()); ++i) {
        const QColor pixel = image.pixelColor(i % columns, i / columns);
        if (std::abs(pixel.alpha() - alphas[i]) > 1) // QVERIFY2 on every pixel would build a message for each
            QFAIL(qPrintable(QStringLiteral("cell %1: alpha %2, not %3").arg(i).arg(pixel.alpha()).arg(alphas[i])));
        if (alphas[i] == 255 && pixel.rgb() != segmentColor(lx::Segment(segments[i])).rgb()) // the swatch's colour exactly
            QFAIL(qPrintable(QStringLiteral("cell %1: not the swatch's colour").arg(i)));
    }
}

QTEST_MAIN(TestWaterfallView)
#include "tst_waterfall_view.moc"
