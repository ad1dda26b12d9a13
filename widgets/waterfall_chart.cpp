// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_chart.h"

#include "chart_tickers.h"
#include "count_text.h"
#include "plot_frame.h"
#include "segment_colors.h"
#include "segment_text.h"
#include "waterfall_tooltip.h"
#include "filter/filter_text.h"

#include <QKeyEvent>
#include <QToolTip>

#include <cmath>

namespace {

constexpr double kFewestRows = 4;  ///< the closest the rows zoom in
constexpr double kFitRows = 24;    ///< a fitted view shows at least this many rows, so few requests stay bars
constexpr double kShortestRange = 1e-6; ///< s: the closest time zooms in (1 µs)
constexpr int kClickSlop = 3;      ///< px a press may move and still be a click

/// Whole row numbers, with digit grouping.
class RowTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange &range) override { return std::max(1.0, std::ceil(QCPAxisTicker::getTickStep(range))); }
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return QLocale().toString(static_cast<qint64>(std::llround(tick)));
    }
};

/// The legend's swatch for time no segment was measured in: hatched, as in the bars.
class HatchSwatch : public QCPBars {
public:
    using QCPBars::QCPBars;
    QColor colour;

protected:
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override
    {
        painter->fillRect(rect, segmentColor(lx::Segment::Unattributed));
        paintHatch(painter, rect, colour);
    }
};

/// The legend's row. Before each layout, on screen or at an export's size, it has the legend wrapped to
/// the width (`beforeLayout`), which is known by then: the plot's viewport.
class LegendRow : public QCPLayoutGrid {
public:
    explicit LegendRow(std::function<void()> beforeLayout) : m_beforeLayout(std::move(beforeLayout)) {}

    void update(UpdatePhase phase) override
    {
        if (phase == upPreparation)
            m_beforeLayout();
        QCPLayoutGrid::update(phase);
    }

private:
    std::function<void()> m_beforeLayout;
};

} // namespace

WaterfallChart::WaterfallChart(QWidget *parent)
    : Chart(parent)
{
    m_plottable = new WaterfallPlottable(xAxis, yAxis);
    connect(m_plottable->densityFrames(), &WaterfallDensityFrames::frameReady, this, [this] {
        updateMessage(); // the replot the plottable asked for shows it
        emit densityReady();
    });
    connect(m_plottable->densityFrames(), &WaterfallDensityFrames::frameStarted, this, [this] {
        updateMessage();
        replot(rpQueuedReplot);
    });
    m_timeTicker = QSharedPointer<TimeTicker>::create(0, false);
    xAxis->setTicker(m_timeTicker);
    yAxis->setTicker(QSharedPointer<RowTicker>::create());
    yAxis->setRangeReversed(true); // the first row at the top, as in a table
    yAxis->grid()->setVisible(false);

    // The legend: a row above the plot, a swatch per segment and one for time no segment was measured in.
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        auto *swatch = new QCPBars(xAxis, yAxis);
        swatch->setName(segmentTitleText(lx::Segment(s)));
        swatch->setBrush(segmentColor(lx::Segment(s)));
        swatch->setPen(Qt::NoPen);
        swatch->addToLegend();
    }
    auto *unmeasured = new HatchSwatch(xAxis, yAxis);
    unmeasured->setName(tr("Not measured (within unattributed)"));
    unmeasured->addToLegend();
    // Left-aligned and no wider than its swatches: an empty element beside it takes the rest of the row.
    plotLayout()->insertRow(0);
    auto *legendRow = new LegendRow([this] { fitLegend(); });
    plotLayout()->addElement(0, 0, legendRow);
    plotLayout()->setRowStretchFactor(0, 0.001);
    axisRect()->insetLayout()->take(legend);
    legendRow->addElement(0, 0, legend);
    legendRow->addElement(0, 1, new QCPLayoutElement(this));
    legendRow->setColumnStretchFactor(0, 0.001);
    auto *alignLeft = new QCPMarginGroup(this); // the legend starts where the plot does
    axisRect()->setMarginGroup(QCP::msLeft, alignLeft);
    legendRow->setMarginGroup(QCP::msLeft, alignLeft);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setVisible(true);
    legend->setIconSize(14, 10);
    legend->setColumnSpacing(14);
    legend->setMargins(QMargins(4, 2, 4, 2));

    m_message = addCentredMessage(*this);
    m_note = new QCPItemText(this);
    m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_note->position->setCoords(1, 0);
    m_note->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_note->setPadding(QMargins(4, 4, 6, 4));
    m_note->setVisible(false);
    m_selection = new QCPItemRect(this);
    m_selection->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_selection->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_selection->setVisible(false);

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeZoomFactor(0.85);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    connect(xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &WaterfallChart::keepTimeInBounds);
    connect(yAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, &WaterfallChart::keepRowsInBounds);
    updateAxes();
    applyPalette();
}

void WaterfallChart::applyPalette()
{
    Chart::applyPalette();
    if (!m_plottable)
        return; // the base class' constructor: nothing of ours yet
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor highlight = pal.color(QPalette::Highlight);
    m_plottable->setPaletteColors(text, highlight);
    legend->setBorderPen(Qt::NoPen);
    if (auto *unmeasured = dynamic_cast<HatchSwatch *>(plottable(plottableCount() - 1))) {
        unmeasured->colour = text;
        unmeasured->colour.setAlphaF(0.55f);
    }
    m_message->setColor(text);
    m_message->setFont(font());
    QColor muted = text;
    muted.setAlphaF(0.7f);
    m_note->setColor(muted);
    QColor band = highlight;
    band.setAlphaF(0.18f);
    m_selection->setBrush(band);
    m_selection->setPen(QPen(highlight, 1));
    replot(rpQueuedReplot);
}

void WaterfallChart::fitLegend()
{
    // The legend row starts where the plot does (its margin group): it has the width right of that.
    const QMargins around = legend->margins();
    const int available = viewport().width() - axisRect()->margins().left() - around.left() - around.right();
    // The items, in order: the legend's grid counts its empty cells too once it wraps.
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem *item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    }
    const int count = static_cast<int>(widths.size());
    if (count == 0)
        return;
    // As few rows as fit; over several rows the items go down the columns (pipeline order reads down and
    // across), so that the long last label sits in the last column and opens no gap in the others.
    int rows = 1;
    for (; rows < count; ++rows) {
        int width = 0;
        for (int first = 0; first < count; first += rows) {
            width += (first > 0 ? legend->columnSpacing() : 0)
                     + *std::max_element(widths.begin() + first, widths.begin() + std::min(first + rows, count));
        }
        if (width <= available)
            break;
    }
    const QCPLayoutGrid::FillOrder order = rows == 1 ? QCPLayoutGrid::foColumnsFirst : QCPLayoutGrid::foRowsFirst;
    const int wrap = rows == 1 ? 0 : rows;
    if (legend->fillOrder() == order && legend->wrap() == wrap)
        return;
    legend->setWrap(wrap);
    legend->setFillOrder(order, true); // moves the items into their new cells
}

void WaterfallChart::setData(std::shared_ptr<const lx::WaterfallData> data)
{
    m_plottable->setSelected(std::nullopt);
    m_plottable->setData(std::move(data), {});
    m_selection->setVisible(false);
    m_marking = false;
    const auto &d = m_plottable->waterfall();
    m_timeTicker->setOrigin(d ? d->firstStart : 0, d && d->relativeTime);
    fit(); // the time axis now; the rows when they are arranged
    arrangeRows(RowsView::Fit);
}

void WaterfallChart::setSort(const lx::WaterfallSort &sort)
{
    if (sort == m_sort)
        return;
    m_sort = sort;
    if (!m_lanes)
        arrangeRows(RowsView::FromTop); // a new order: from its top
}

void WaterfallChart::setLanes(bool lanes)
{
    if (lanes == m_lanes)
        return;
    m_lanes = lanes;
    arrangeRows(RowsView::AllRows);
}

void WaterfallChart::arrangeRows(RowsView then)
{
    auto data = m_plottable->waterfall();
    const auto arrange = [data, lanes = m_lanes, sort = m_sort] {
        auto rows = std::make_shared<lx::WaterfallRows>();
        if (data)
            *rows = lanes ? lx::WaterfallRows::lanes(*data) : lx::WaterfallRows::sorted(*data, sort);
        return rows;
    };
    updateAxes();
    if (!data || data->size() < m_backgroundFrom) {
        m_arrange.cancel(); // an older arrangement still on a worker must not land over this one
        m_arranging = false;
        installRows(arrange(), then);
        return;
    }
    m_arranging = true;
    updateMessage();
    replot(rpQueuedReplot);
    // Newer data, order or mode asked for since supersedes this arrangement: its rows are dropped.
    m_arrange.start([arrange](const std::atomic<bool> &) { return arrange(); },
                    [this, then](const std::shared_ptr<lx::WaterfallRows> &rows) {
                        m_arranging = false;
                        installRows(rows, then);
                    });
}

void WaterfallChart::installRows(std::shared_ptr<const lx::WaterfallRows> rows, RowsView then)
{
    const std::optional<std::size_t> selected = m_plottable->selected();
    m_plottable->setData(m_plottable->waterfall(), std::move(rows));
    m_plottable->setSelected(selected);
    updateMessage();
    switch (then) {
    case RowsView::Fit: fit(); break;
    case RowsView::FromTop: yAxis->setRange(0, yAxis->range().size()); break;
    case RowsView::AllRows: yAxis->setRange(0, std::max(static_cast<double>(this->rows().rowCount()), kFitRows)); break;
    }
    replot(rpQueuedReplot);
    emit rowsArranged();
}

void WaterfallChart::updateAxes()
{
    const auto &data = m_plottable->waterfall();
    xAxis->setLabel(data && data->relativeTime ? tr("Time from the first request") : tr("Time (UTC)"));
    if (m_lanes) {
        yAxis->setLabel(tr("Lane (concurrent requests)"));
        return;
    }
    const QString key = m_sort.key == lx::WaterfallSort::Key::Start ? tr("start")
        : m_sort.key == lx::WaterfallSort::Key::E2e                 ? tr("E2E")
                                                                    : segmentNameText(m_sort.segment);
    yAxis->setLabel(m_sort.descending && m_sort.key != lx::WaterfallSort::Key::Start ? tr("Requests by %1, longest first").arg(key)
                                                                                     : tr("Requests by %1").arg(key));
}

void WaterfallChart::updateMessage()
{
    const auto &data = m_plottable->waterfall();
    const QLocale locale;
    const bool nothingToDraw = data && (data->empty() || data->withoutTime == static_cast<std::int64_t>(data->size()));
    m_message->setVisible(nothingToDraw);
    const std::size_t drawing = m_plottable->densityFrames()->makingRequests();
    m_note->setVisible(data && !data->empty() && (data->withoutStart > 0 || m_arranging || drawing > 0));
    if (!data)
        return;
    if (m_arranging && !data->empty()) {
        m_note->setText(m_lanes ? tr("Packing %1 requests into lanes…").arg(locale.toString(static_cast<qint64>(data->size())))
                                : tr("Sorting %1 requests…").arg(locale.toString(static_cast<qint64>(data->size()))));
        return;
    }
    if (drawing > 0) {
        m_note->setText(tr("Drawing %1…").arg(requestsText(static_cast<std::int64_t>(drawing))));
        return;
    }
    if (!data->empty() && nothingToDraw) {
        m_message->setText(tr("The %1 that match have a start time only, no measured duration (an arrival trace):\n"
                              "there are no bars to draw. The load chart shows how they arrived.")
                               .arg(requestsText(static_cast<std::int64_t>(data->size()))));
    } else if (data->empty()) {
        m_message->setText(data->withoutStart > 0
                               ? tr("The %1 requests that match have no start time (a benchmark client's results carry durations only):\n"
                                    "they cannot be placed on a time axis.").arg(locale.toString(data->withoutStart))
                               : tr("No requests match the filter."));
    } else if (data->withoutStart > 0) {
        m_note->setText(tr("%1 without a start time not shown").arg(requestsText(data->withoutStart)));
    }
}

QString WaterfallChart::message() const { return m_message->visible() ? m_message->text() : QString(); }

QString WaterfallChart::note() const { return m_note->visible() ? m_note->text() : QString(); }

std::optional<qint64> WaterfallChart::selectedRequest() const
{
    const auto selected = m_plottable->selected();
    if (!selected)
        return std::nullopt;
    return data()->ids[*selected];
}

std::pair<std::int64_t, std::int64_t> WaterfallChart::timeRange() const
{
    return {m_plottable->timeAt(xAxis->range().lower), m_plottable->timeAt(xAxis->range().upper)};
}

std::pair<double, double> WaterfallChart::rowRange() const { return {yAxis->range().lower, yAxis->range().upper}; }

void WaterfallChart::fit()
{
    const auto &data = m_plottable->waterfall();
    const double span = data && !data->empty() ? m_plottable->coordinateOf(data->lastEnd) : 0.0;
    const double pad = std::max(span * 0.02, 1e-4);
    xAxis->setRange(-pad, span + pad);
    yAxis->setRange(0, std::max(static_cast<double>(rows().rowCount()), kFitRows));
    replot(rpQueuedReplot);
}

void WaterfallChart::zoomTime(double factor)
{
    xAxis->scaleRange(factor, xAxis->range().center());
    replot(rpQueuedReplot);
}

void WaterfallChart::panTime(double fraction)
{
    xAxis->moveRange(fraction * xAxis->range().size());
    replot(rpQueuedReplot);
}

void WaterfallChart::zoomRows(double factor)
{
    yAxis->scaleRange(factor, yAxis->range().center());
    replot(rpQueuedReplot);
}

void WaterfallChart::panRows(double fraction)
{
    yAxis->moveRange(fraction * yAxis->range().size());
    replot(rpQueuedReplot);
}

void WaterfallChart::clearTimeSelection()
{
    m_marking = false;
    m_selection->setVisible(false);
    replot(rpQueuedReplot);
}

void WaterfallChart::holdRange(QCPAxis *axis, const QCPRange &range, double least, double most,
                               const std::function<std::pair<double, double>(double size)> &lowerBounds)
{
    if (m_clamping)
        return;
    const double size = std::clamp(range.size(), least, std::max(least, most));
    const auto [lowest, highest] = lowerBounds(size);
    const double lower = std::clamp(size == range.size() ? range.lower : range.center() - size / 2, lowest, std::max(lowest, highest));
    if (lower == range.lower && lower + size == range.upper)
        return;
    m_clamping = true;
    axis->setRange(lower, lower + size);
    m_clamping = false;
}

void WaterfallChart::keepTimeInBounds(const QCPRange &range)
{
    const auto &data = m_plottable->waterfall();
    if (!data || data->empty())
        return;
    // Zoom out to three times the data at most, in to a microsecond; keep a tenth of the view on the data.
    const double span = std::max(m_plottable->coordinateOf(data->lastEnd), kShortestRange);
    holdRange(xAxis, range, kShortestRange, span * 3, [span](double size) { return std::pair(-0.9 * size, span - 0.1 * size); });
}

void WaterfallChart::keepRowsInBounds(const QCPRange &range)
{
    // The rows from the top: never above the first, never past the last (or the few a fitted view shows).
    const double most = std::max(static_cast<double>(rows().rowCount()), kFitRows);
    holdRange(yAxis, range, kFewestRows, most, [most](double size) { return std::pair(0.0, most - size); });
}

void WaterfallChart::setSelectedRequest(qint64 rowId)
{
    const auto &data = m_plottable->waterfall();
    const std::optional<std::size_t> request = data ? data->indexOf(rowId) : std::nullopt;
    m_plottable->setSelected(request);
    if (request)
        scrollTo(*request);
    replot(rpQueuedReplot);
}

void WaterfallChart::scrollTo(std::size_t request)
{
    const auto &data = *m_plottable->waterfall();
    if (const auto row = rows().rowOf(data, request)) {
        const QCPRange y = yAxis->range();
        if (static_cast<double>(*row) < y.lower || static_cast<double>(*row) + 1 > y.upper)
            yAxis->setRange(static_cast<double>(*row) + 0.5 - y.size() / 2, static_cast<double>(*row) + 0.5 + y.size() / 2);
    }
    const double a = m_plottable->coordinateOf(data.starts[request]);
    const double b = m_plottable->coordinateOf(data.ends[request]);
    const QCPRange x = xAxis->range();
    if (b - a > x.size())
        xAxis->setRange(a - 0.1 * (b - a), b + 0.1 * (b - a));
    else if (a < x.lower || b > x.upper)
        xAxis->setRange((a + b - x.size()) / 2, (a + b + x.size()) / 2);
}

std::optional<std::size_t> WaterfallChart::requestIndexAt(const QPointF &pixel) const
{
    const auto &data = m_plottable->waterfall();
    if (!data || data->empty() || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const auto [fromNs, toNs] = timeRange();
    const auto slack = static_cast<std::int64_t>(kClickSlop * static_cast<double>(toNs - fromNs) / std::max(axisRect()->width(), 1));
    const std::int64_t t = m_plottable->timeAt(xAxis->pixelToCoord(pixel.x()));
    // The rows under this pixel row: one, or thousands when the rows are denser than the pixels.
    const double rowA = yAxis->pixelToCoord(pixel.y() - 0.5), rowB = yAxis->pixelToCoord(pixel.y() + 0.5);
    const double rowCount = static_cast<double>(rows().rowCount());
    const double first = std::clamp(std::floor(std::min(rowA, rowB)), 0.0, rowCount);
    const double end = std::clamp(std::floor(std::max(rowA, rowB)) + 1, first, rowCount);
    return rows().requestAt(*data, static_cast<std::size_t>(first), static_cast<std::size_t>(end), t, slack,
                            yAxis->pixelToCoord(pixel.y()));
}

std::optional<qint64> WaterfallChart::requestAt(const QPoint &pixel) const
{
    const auto request = requestIndexAt(pixel);
    if (!request)
        return std::nullopt;
    return data()->ids[*request];
}

std::optional<QPoint> WaterfallChart::pixelOf(qint64 rowId) const
{
    const auto &d = m_plottable->waterfall();
    const auto request = d ? d->indexOf(rowId) : std::nullopt;
    const auto row = request ? rows().rowOf(*d, *request) : std::nullopt;
    if (!row)
        return std::nullopt;
    const std::int64_t middle = d->starts[*request] + (d->ends[*request] - d->starts[*request]) / 2;
    return QPointF(xAxis->coordToPixel(m_plottable->coordinateOf(middle)), yAxis->coordToPixel(static_cast<double>(*row) + 0.5))
        .toPoint();
}

void WaterfallChart::keyPressEvent(QKeyEvent *event)
{
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const bool control = event->modifiers() & Qt::ControlModifier;
    switch (event->key()) {
    case Qt::Key_Left: panTime(shift ? -0.5 : -0.1); break;
    case Qt::Key_Right: panTime(shift ? 0.5 : 0.1); break;
    case Qt::Key_Up: control ? zoomRows(0.8) : panRows(-0.1); break;
    case Qt::Key_Down: control ? zoomRows(1.25) : panRows(0.1); break;
    case Qt::Key_PageUp: panRows(-0.9); break;
    case Qt::Key_PageDown: panRows(0.9); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomTime(0.8); break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore: zoomTime(1.25); break;
    case Qt::Key_Home: fit(); break;
    case Qt::Key_Escape: clearTimeSelection(); break;
    case Qt::Key_L:
        if (event->modifiers() & ~Qt::KeypadModifier) {
            Chart::keyPressEvent(event);
            return;
        }
        setLanes(!m_lanes);
        emit lanesToggled(m_lanes);
        break;
    default: Chart::keyPressEvent(event); return;
    }
    event->accept();
}

void WaterfallChart::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ShiftModifier) { // scroll the rows (some platforms turn Shift+wheel horizontal)
        const QPoint delta = event->angleDelta();
        panRows(-(delta.y() != 0 ? delta.y() : delta.x()) / 120.0 * 0.1);
        event->accept();
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) {
        axisRect()->setRangeZoom(Qt::Vertical);
        Chart::wheelEvent(event);
        axisRect()->setRangeZoom(Qt::Horizontal);
        return;
    }
    Chart::wheelEvent(event);
}

void WaterfallChart::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) && data() && !data()->empty()) {
        m_marking = true;
        m_markFrom = xAxis->pixelToCoord(event->position().x());
        m_selection->topLeft->setCoords(m_markFrom, 0);
        m_selection->bottomRight->setCoords(m_markFrom, 1);
        m_selection->setVisible(true);
        replot(rpQueuedReplot);
        event->accept();
        return;
    }
    Chart::mousePressEvent(event);
}

void WaterfallChart::mouseMoveEvent(QMouseEvent *event)
{
    if (m_marking) {
        m_selection->bottomRight->setCoords(xAxis->pixelToCoord(event->position().x()), 1);
        replot(rpQueuedReplot);
        event->accept();
        return;
    }
    Chart::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    if (const auto request = requestIndexAt(event->position()))
        QToolTip::showText(event->globalPosition().toPoint(), waterfallTooltip(*data(), *request), this);
    else
        QToolTip::hideText();
}

void WaterfallChart::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_marking) {
        m_marking = false;
        const double to = xAxis->pixelToCoord(event->position().x());
        if (std::abs(event->pos().x() - m_pressPos.x()) < kClickSlop) {
            clearTimeSelection();
        } else {
            m_selection->bottomRight->setCoords(to, 1);
            replot(rpQueuedReplot);
            // Rounded to whole ms or µs when that moves a mark less than half a pixel: the filter it
            // becomes reads `start >= 2025-01-01T12:01:01.328Z`, not `...01.328771391Z`, and marks the same.
            const double halfPixelNs = std::abs(xAxis->pixelToCoord(1) - xAxis->pixelToCoord(0)) * 0.5e9;
            const auto markedTime = [&](double coordinate) {
                const std::int64_t ns = m_plottable->timeAt(coordinate);
                const auto slack = static_cast<std::int64_t>(std::min(halfPixelNs, 1e15));
                return lx::roundedWithin(ns, ns - slack, ns + slack);
            };
            emit timeRangeSelected(markedTime(std::min(m_markFrom, to)), markedTime(std::max(m_markFrom, to)));
        }
        event->accept();
        return;
    }
    const bool click = event->button() == Qt::LeftButton && (event->pos() - m_pressPos).manhattanLength() <= kClickSlop;
    Chart::mouseReleaseEvent(event);
    if (!click)
        return;
    if (const auto request = requestIndexAt(event->position())) {
        m_plottable->setSelected(request);
        replot(rpQueuedReplot);
        emit requestClicked(data()->ids[*request]);
    }
}
