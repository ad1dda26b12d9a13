// SPDX-License-Identifier: GPL-3.0-or-later
#include "dominant_chart.h"

#include "chart_tickers.h"
#include "count_text.h"
#include "model/duration_format.h"
#include "plot_frame.h"
#include "segment_colors.h"
#include "segment_text.h"

#include <QMouseEvent>
#include <QToolTip>

namespace {

constexpr double kClickSlop = 4;
constexpr double kBandWidth = 0.62;    ///< of a band's slot
constexpr double kWindowFill = 0.92;   ///< of a window's width: a hairline gap between windows
constexpr double kLabelledShare = 0.06; ///< cells at least this tall carry their percentage

QString count(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

QString percent(double share)
{
    return share == 0 ? QStringLiteral("0 %") : QStringLiteral("%1 %").arg(share * 100, 0, 'f', share < 0.1 ? 1 : 0);
}

/// Black or white, whichever reads better on the segment's colour.
QColor textOn(const QColor &fill) { return fill.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white); }

} // namespace

DominantChart::DominantChart(QWidget *parent)
    : Chart(parent)
{
    m_title = addPlotTitle(*this);
    placeLegendBeside(*this);
    for (int s = lx::kSegmentCount - 1; s >= 0; --s) { // bottom of the stack first
        auto *bars = new QCPBars(xAxis, yAxis);
        bars->setName(segmentNameText(static_cast<lx::Segment>(s)));
        bars->setBrush(segmentColor(static_cast<lx::Segment>(s)));
        bars->setWidthType(QCPBars::wtPlotCoords);
        m_bars[static_cast<std::size_t>(s)] = bars;
    }
    for (int s = 0; s < lx::kSegmentCount; ++s) // the legend top-down as the stack: network first
        m_bars[static_cast<std::size_t>(s)]->addToLegend();
    m_volume = addGraph(xAxis, yAxis2);
    m_volume->setName(tr("requests per window"));
    m_volume->setLineStyle(QCPGraph::lsStepCenter);
    legend->setIconSize(14, 14);
    m_message = addCentredMessage(*this);
    m_message->setText(tr("No request here has a measured segment (an arrival trace, or a filter that\n"
                          "leaves none): there is nothing to break down."));
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        // Cell labels depend on pixel heights: once the layout is known, hide those that do not fit.
        for (QCPItemText *label : m_labels) {
            const QVariant share = label->property("share");
            if (share.isValid())
                label->setVisible(std::abs(yAxis->coordToPixel(0) - yAxis->coordToPixel(share.toDouble()))
                                  >= QFontMetrics(label->font()).height() + 2);
        }
    });
    setMouseTracking(true);
    rebuild();
    applyPalette();
}

void DominantChart::setData(std::shared_ptr<const lx::DominantBreakdown> data)
{
    m_data = std::move(data);
    rebuild();
}

void DominantChart::setGrouping(Grouping grouping)
{
    m_grouping = grouping;
    rebuild();
}

std::array<double, lx::kSegmentCount> DominantChart::drawnShares(int bar) const
{
    std::array<double, lx::kSegmentCount> shares{};
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        const auto data = m_bars[static_cast<std::size_t>(s)]->data();
        if (m_grouping == Grouping::Overall)
            shares[static_cast<std::size_t>(s)] = data->isEmpty() ? 0.0 : data->at(0)->value;
        else if (bar < data->size())
            shares[static_cast<std::size_t>(s)] = data->at(bar)->value;
    }
    return shares;
}

double DominantChart::keyOf(int bar) const
{
    if (m_grouping == Grouping::TimeWindow) {
        const lx::DominantBar &first = *m_shown.front();
        const lx::DominantBar &b = *m_shown[static_cast<std::size_t>(bar)];
        return static_cast<double>(b.fromNs - first.fromNs) / 1e9 + static_cast<double>(b.toNs - b.fromNs) / 2e9;
    }
    return bar + 1; // bands; overall's rows are keyed by segment
}

double DominantChart::widthOf(int bar) const
{
    if (m_grouping != Grouping::TimeWindow)
        return kBandWidth;
    const lx::DominantBar &b = *m_shown[static_cast<std::size_t>(bar)];
    return static_cast<double>(b.toNs - b.fromNs) / 1e9 * kWindowFill;
}

void DominantChart::rebuild()
{
    m_shown.clear();
    if (m_data) {
        if (m_grouping == Grouping::Overall)
            m_shown.push_back(&m_data->overall);
        else if (m_grouping == Grouping::LatencyBand)
            for (const lx::DominantBar &b : m_data->bands)
                m_shown.push_back(&b);
        else
            for (const lx::DominantBar &b : m_data->windows)
                m_shown.push_back(&b);
    }
    for (QCPItemText *label : m_labels)
        removeItem(label);
    m_labels.clear();
    for (QCPBars *bars : m_bars)
        bars->data()->clear();
    m_volume->data()->clear();
    if (m_grouping == Grouping::Overall)
        layOutOverall();
    else
        layOutStacked();
    m_title->setText(titleText());
    m_message->setVisible(m_data && m_data->overall.total == 0);
    applyPalette();
}

QString DominantChart::message() const { return m_message->visible() ? m_message->text() : QString(); }

void DominantChart::layOutOverall()
{
    // One row per segment, network at the top: share of requests each dominates, labelled with the count.
    for (int s = 0; s < lx::kSegmentCount; ++s)
        m_bars[static_cast<std::size_t>(s)]->moveAbove(nullptr);
    auto names = QSharedPointer<QCPAxisTickerText>::create();
    for (int s = 0; s < lx::kSegmentCount; ++s)
        names->addTick(lx::kSegmentCount - s, segmentNameText(static_cast<lx::Segment>(s)));
    for (QCPBars *bars : m_bars) {
        bars->setKeyAxis(yAxis);
        bars->setValueAxis(xAxis);
        bars->setWidth(kBandWidth);
    }
    yAxis->setTicker(names);
    yAxis->setRange(0.4, lx::kSegmentCount + 0.6);
    yAxis->setLabel(QString());
    yAxis->grid()->setVisible(false);
    xAxis->setTicker(QSharedPointer<ShareTicker>::create());
    xAxis->setRange(0, 1.18); // room for the labels right of the longest bar
    xAxis->setLabel(tr("share of requests dominated"));
    xAxis->grid()->setVisible(true);
    yAxis2->setVisible(false);
    m_volume->setVisible(false);
    if (legend->hasItemWithPlottable(m_volume))
        m_volume->removeFromLegend();
    if (m_shown.empty())
        return;
    const lx::DominantBar &all = *m_shown.front();
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        const double share = all.share(s);
        m_bars[static_cast<std::size_t>(s)]->addData(lx::kSegmentCount - s, share);
        addCellLabel(lx::kSegmentCount - s, share,
                     QStringLiteral("%1  (%2)").arg(percent(share), count(all.counts[static_cast<std::size_t>(s)])),
                     Qt::AlignLeft | Qt::AlignVCenter, palette().color(QPalette::WindowText));
    }
}

void DominantChart::layOutStacked()
{
    for (int s = lx::kSegmentCount - 2; s >= 0; --s)
        m_bars[static_cast<std::size_t>(s)]->moveAbove(m_bars[static_cast<std::size_t>(s) + 1]);
    for (QCPBars *bars : m_bars) {
        bars->setKeyAxis(xAxis);
        bars->setValueAxis(yAxis);
    }
    yAxis->setTicker(QSharedPointer<ShareTicker>::create());
    yAxis->setLabel(tr("share of requests dominated"));
    yAxis->grid()->setVisible(true);
    xAxis->grid()->setVisible(false);
    const bool time = m_grouping == Grouping::TimeWindow;
    yAxis->setRange(0, time ? 1.0 : 1.09); // bands: room for the count above each bar
    yAxis2->setVisible(time && !m_shown.empty());
    m_volume->setVisible(time && !m_shown.empty());
    if (m_volume->visible() != legend->hasItemWithPlottable(m_volume))
        m_volume->visible() ? (void)m_volume->addToLegend() : (void)m_volume->removeFromLegend();
    if (time) {
        const bool relative = m_data && m_data->relativeTime;
        xAxis->setTicker(QSharedPointer<TimeTicker>::create(m_shown.empty() ? 0 : m_shown.front()->fromNs, relative));
        xAxis->setLabel(relative ? tr("request start (relative to the start of the trace)") : tr("request start (UTC)"));
        yAxis2->setLabel(tr("requests per window"));
        yAxis2->setTickLabels(true);
    } else {
        auto names = QSharedPointer<QCPAxisTickerText>::create();
        for (int b = 0; b < static_cast<int>(m_shown.size()); ++b) {
            const lx::DominantBar &bar = *m_shown[static_cast<std::size_t>(b)];
            QString range;
            if (!lx::isMeasured(bar.fromNs))
                range = tr("below %1").arg(QString::fromStdString(lx::formatDuration(static_cast<double>(bar.toNs))));
            else if (!lx::isMeasured(bar.toNs))
                range = tr("from %1").arg(QString::fromStdString(lx::formatDuration(static_cast<double>(bar.fromNs))));
            else
                range = QStringLiteral("%1 – %2").arg(QString::fromStdString(lx::formatDuration(static_cast<double>(bar.fromNs))),
                                                     QString::fromStdString(lx::formatDuration(static_cast<double>(bar.toNs))));
            names->addTick(keyOf(b), QStringLiteral("%1\n%2").arg(QString::fromStdString(bar.label), range));
        }
        xAxis->setTicker(names);
        xAxis->setLabel(tr("e2e latency band"));
        xAxis->setRange(0.4, static_cast<double>(m_shown.size()) + 0.6);
    }
    std::int64_t busiest = 1;
    for (int b = 0; b < static_cast<int>(m_shown.size()); ++b) {
        const lx::DominantBar &bar = *m_shown[static_cast<std::size_t>(b)];
        const double key = keyOf(b);
        double below = 0;
        for (int s = lx::kSegmentCount - 1; s >= 0; --s) {
            const double share = bar.share(s);
            QCPBars *bars = m_bars[static_cast<std::size_t>(s)];
            bars->setWidth(widthOf(b));
            bars->addData(key, share);
            if (!time && share >= kLabelledShare) {
                const QColor fill = segmentColor(static_cast<lx::Segment>(s));
                addCellLabel(key, below + share / 2, percent(share), Qt::AlignCenter, textOn(fill));
                m_labels.back()->setProperty("share", share);
            }
            below += share;
        }
        if (!time)
            addCellLabel(key, 1.0, requestsText(bar.total), Qt::AlignHCenter | Qt::AlignBottom,
                         palette().color(QPalette::WindowText));
        m_volume->addData(key, static_cast<double>(bar.total));
        busiest = std::max(busiest, bar.total);
    }
    if (time && !m_shown.empty()) {
        const double half = widthOf(0) / kWindowFill / 2;
        xAxis->setRange(keyOf(0) - half, keyOf(static_cast<int>(m_shown.size()) - 1) + half);
        yAxis2->setRange(0, static_cast<double>(busiest) * 1.1);
    }
}

void DominantChart::addCellLabel(double key, double value, const QString &text, Qt::Alignment alignment, const QColor &colour)
{
    auto *label = new QCPItemText(this);
    const bool horizontal = m_grouping == Grouping::Overall; // keys on the y axis
    label->position->setCoords(horizontal ? value : key, horizontal ? key : value);
    label->setText(text);
    label->setPositionAlignment(alignment);
    label->setPadding(QMargins(6, 0, 6, 2));
    label->setColor(colour);
    label->setClipToAxisRect(false);
    m_labels.push_back(label);
}

QString DominantChart::titleText() const
{
    if (!m_data)
        return tr("Dominant segment");
    const QString requests = requestsText(m_data->overall.total);
    switch (m_grouping) {
    case Grouping::Overall:
        return tr("Dominant segment · %1").arg(requests);
    case Grouping::LatencyBand:
        return tr("Dominant segment by e2e latency band · %1").arg(requests);
    case Grouping::TimeWindow:
        break;
    }
    QString title = tr("Dominant segment over time · %1 windows")
                        .arg(QString::fromStdString(lx::formatDuration(static_cast<double>(m_data->windowNs))));
    if (m_data->withoutStart > 0)
        title += tr(" · %1 without a start time not shown").arg(requestsText(m_data->withoutStart));
    return title;
}

std::optional<DominantChart::Cell> DominantChart::cellAt(const QPointF &pixel) const
{
    if (m_shown.empty() || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    if (m_grouping == Grouping::Overall) {
        // A click anywhere on a segment's row picks it: a thin bar is hard to hit.
        const double key = yAxis->pixelToCoord(pixel.y());
        const int s = lx::kSegmentCount - static_cast<int>(std::lround(key));
        if (s < 0 || s >= lx::kSegmentCount || std::abs(key - (lx::kSegmentCount - s)) > kBandWidth / 2
            || m_shown.front()->counts[static_cast<std::size_t>(s)] == 0)
            return std::nullopt;
        return Cell{0, s};
    }
    const double key = xAxis->pixelToCoord(pixel.x());
    const double value = yAxis->pixelToCoord(pixel.y());
    for (int b = 0; b < barCount(); ++b) {
        if (std::abs(key - keyOf(b)) > widthOf(b) / 2)
            continue;
        double below = 0;
        for (int s = lx::kSegmentCount - 1; s >= 0; --s) {
            const double share = m_shown[static_cast<std::size_t>(b)]->share(s);
            if (share > 0 && value >= below && value < below + share)
                return Cell{b, s};
            below += share;
        }
    }
    return std::nullopt;
}

std::optional<QPointF> DominantChart::cellCentre(int bar, int segment) const
{
    const lx::DominantBar &b = *m_shown[static_cast<std::size_t>(bar)];
    const double share = b.share(segment);
    if (share <= 0)
        return std::nullopt;
    if (m_grouping == Grouping::Overall)
        return QPointF(xAxis->coordToPixel(share / 2), yAxis->coordToPixel(lx::kSegmentCount - segment));
    double below = 0;
    for (int s = lx::kSegmentCount - 1; s > segment; --s)
        below += b.share(s);
    return QPointF(xAxis->coordToPixel(keyOf(bar)), yAxis->coordToPixel(below + share / 2));
}

QString DominantChart::tooltipFor(const Cell &cell) const
{
    const lx::DominantBar &b = *m_shown[static_cast<std::size_t>(cell.bar)];
    const std::int64_t n = b.counts[static_cast<std::size_t>(cell.segment)];
    return tr("%1\n%2 of %3 requests (%4)\nClick to filter to them")
        .arg(QString::fromStdString(b.descriptions[static_cast<std::size_t>(cell.segment)]), count(n), count(b.total),
             percent(b.share(cell.segment)));
}

void DominantChart::applyPalette()
{
    Chart::applyPalette();
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    for (QCPBars *bars : m_bars)
        bars->setPen(QPen(pal.color(QPalette::Base), m_grouping == Grouping::TimeWindow ? 0.5 : 1));
    QColor volume = text;
    volume.setAlphaF(0.7);
    m_volume->setPen(QPen(volume, 1.5));
    m_message->setColor(text);
    m_message->setFont(font());
    for (QCPItemText *label : m_labels) {
        if (!label->property("share").isValid()) // labels on a segment's colour keep their contrast colour
            label->setColor(text);
    }
    replot(rpQueuedReplot);
}

void DominantChart::mouseMoveEvent(QMouseEvent *event)
{
    Chart::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const std::optional<Cell> cell = cellAt(event->position());
    setCursor(cell ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (cell)
        QToolTip::showText(event->globalPosition().toPoint(), tooltipFor(*cell), this);
    else
        QToolTip::hideText();
}

void DominantChart::mouseReleaseEvent(QMouseEvent *event)
{
    const QPointF press = mMousePressPos;
    Chart::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->position() - press).manhattanLength() > kClickSlop)
        return;
    if (const std::optional<Cell> cell = cellAt(event->position())) {
        const lx::DominantBar &b = *m_shown[static_cast<std::size_t>(cell->bar)];
        emit filterRequested(QString::fromStdString(b.expressions[static_cast<std::size_t>(cell->segment)]),
                             QString::fromStdString(b.descriptions[static_cast<std::size_t>(cell->segment)]));
    }
}
