// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_profile_chart.h"

#include "chart_tickers.h"
#include "count_text.h"
#include "analysis/time_grid.h"
#include "model/duration_format.h"
#include "load_chart_text.h"
#include "legend_below.h"
#include "plot_frame.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>

namespace {

// Okabe-Ito colours the segments do not use, so that a rate is never read as a segment.
const QColor kThroughputColor(0x00, 0x72, 0xB2); // blue
const QColor kInFlightColor(0xE6, 0x9F, 0x00);   // orange, as a light area

} // namespace

LoadProfileChart::LoadProfileChart(QWidget *parent)
    : Chart(parent)
    , m_timeTicker(QSharedPointer<TimeTicker>::create(0, false))
{
    m_title = addPlotTitle(*this);
    placeLegendBelow(*this);
    legend->setIconSize(24, 12);

    m_inFlight = addGraph(xAxis, yAxis2); // first: the area lies under the rate lines
    m_inFlight->setName(tr("requests in flight (right axis)"));
    m_arrivals = addGraph(xAxis, yAxis);
    m_arrivals->setName(tr("arrival rate"));
    m_throughput = addGraph(xAxis, yAxis);
    m_throughput->setName(tr("completion throughput"));
    for (QCPGraph *graph : {m_arrivals, m_throughput, m_inFlight})
        graph->addToLegend();

    m_kneeLine = new QCPItemStraightLine(this);
    m_kneeText = new QCPItemText(this);
    m_kneeText->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_kneeText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_kneeText->setPadding(QMargins(5, 2, 5, 2));

    m_rateLine = new QCPItemStraightLine(this);
    m_rateText = new QCPItemText(this);
    m_rateText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_rateText->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_rateText->setPadding(QMargins(5, 2, 5, 2));

    xAxis->setTicker(m_timeTicker);
    yAxis->setLabel(tr("requests per second"));
    yAxis2->setLabel(tr("requests in flight"));
    yAxis2->setVisible(true);
    xAxis->grid()->setVisible(false);
    setMouseTracking(true);
    connect(this, &QCustomPlot::afterLayout, this, [this] { fitKneeText(); });
    rebuild();
}

void LoadProfileChart::setData(std::shared_ptr<const lx::LoadChartData> data)
{
    m_data = std::move(data);
    rebuild();
}

double LoadProfileChart::keyOf(int window) const
{
    const lx::LoadProfile &p = *profile();
    const lx::LoadWindow &w = p.windows[static_cast<std::size_t>(window)];
    // Unsigned distance: a trace from 1938 to 2262 spans more than INT64_MAX ns (analysis/time_grid.h).
    return static_cast<double>(lx::timeDistance(p.windows.front().startNs, w.startNs)) / 1e9 + static_cast<double>(p.windowNs) / 2e9;
}

QString LoadProfileChart::title() const
{
    return m_title->text();
}

void LoadProfileChart::rebuild()
{
    for (QCPGraph *graph : {m_arrivals, m_throughput, m_inFlight})
        graph->data()->clear();
    m_kneeTime.reset();
    m_kneeRate.reset();
    const lx::LoadProfile *p = profile();
    const bool relative = m_data && m_data->relativeTime;
    xAxis->setLabel(relative ? tr("time from the start of the trace") : tr("time (UTC)"));
    if (!p || p->windows.empty()) {
        // Requests without a start, or none at all to look at (a filter that matches none, say).
        m_title->setText(!m_data                        ? tr("Load over time")
                             : m_data->noArrivalTimes() ? tr("Load over time: no requests with a start time")
                                                        : tr("Load over time: no request to show"));
        m_timeTicker->setOrigin(0, relative);
        xAxis->setRange(0, 1);
        yAxis->setRange(0, 1);
        yAxis2->setRange(0, 1);
    } else {
        const std::int64_t origin = p->windows.front().startNs;
        m_timeTicker->setOrigin(origin, relative);
        double topRate = 0, topInFlight = 0;
        for (int i = 0; i < windowCount(); ++i) {
            const lx::LoadWindow &w = p->windows[static_cast<std::size_t>(i)];
            m_arrivals->addData(keyOf(i), w.arrivalRps);
            m_throughput->addData(keyOf(i), w.throughputRps);
            m_inFlight->addData(keyOf(i), w.meanInFlight);
            topRate = std::max({topRate, w.arrivalRps, w.throughputRps});
            topInFlight = std::max(topInFlight, w.meanInFlight);
        }
        m_title->setText(tr("Load over time · %1 windows of %2")
                             .arg(p->windows.size())
                             .arg(loadtext::roundDuration(static_cast<double>(p->windowNs))));
        xAxis->setRange(0, (static_cast<double>(lx::timeDistance(origin, p->windows.back().startNs)) + static_cast<double>(p->windowNs)) / 1e9);
        yAxis->setRange(0, topRate > 0 ? topRate * 1.12 : 1.0);
        yAxis2->setRange(0, topInFlight > 0 ? topInFlight * 1.12 : 1.0);
        if (const auto &knee = m_data->byArrivalRate.knee) {
            m_kneeTime = static_cast<double>(lx::timeDistance(origin, std::max(knee->timeNs, origin))) / 1e9;
            m_kneeRate = knee->rateRps;
        }
    }
    m_kneeLine->setVisible(m_kneeTime.has_value());
    m_kneeText->setVisible(m_kneeTime.has_value());
    m_rateLine->setVisible(m_kneeRate.has_value());
    m_rateText->setVisible(m_kneeRate.has_value());
    if (m_kneeRate) {
        m_rateLine->point1->setCoords(0, *m_kneeRate);
        m_rateLine->point2->setCoords(1, *m_kneeRate);
        m_rateText->position->setCoords(0.005, *m_kneeRate);
        m_rateText->setText(loadtext::kneeRateLabel(*m_kneeRate));
    }
    if (m_kneeTime) {
        m_kneeLine->point1->setCoords(*m_kneeTime, 0);
        m_kneeLine->point2->setCoords(*m_kneeTime, 1);
        m_kneeText->position->setCoords(*m_kneeTime, 0.01);
        m_kneeText->setText(tr("load passes the knee"));
        fitKneeText();
    }
    applyPalette();
}

QString LoadProfileChart::kneeRateLabel() const { return m_kneeRate ? m_rateText->text() : QString(); }

std::optional<int> LoadProfileChart::windowAt(const QPointF &pixel) const
{
    if (windowCount() == 0 || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double seconds = xAxis->pixelToCoord(pixel.x());
    const auto window = static_cast<int>(std::floor(seconds / (static_cast<double>(profile()->windowNs) / 1e9)));
    if (window < 0 || window >= windowCount())
        return std::nullopt;
    return window;
}

QString LoadProfileChart::tooltipFor(int window) const
{
    const lx::LoadWindow &w = profile()->windows[static_cast<std::size_t>(window)];
    const std::uint64_t offsetNs = lx::timeDistance(profile()->windows.front().startNs, w.startNs);
    const QString when = m_data->relativeTime
                             ? QStringLiteral("+") + loadtext::duration(static_cast<double>(offsetNs))
                             : QString::fromStdString(lx::formatTimestamp(w.startNs, profile()->windowNs < 1'000'000'000 ? 3 : 0));
    QString text = QStringLiteral("<b>%1</b> · %2<br>")
                       .arg(when, tr("%1 window").arg(loadtext::roundDuration(static_cast<double>(profile()->windowNs))));
    text += tr("arrivals %1 (%2 req/s), completions %3 (%4 req/s)<br>%5 in flight on average")
                .arg(loadtext::count(w.arrivals), QString::number(w.arrivalRps, 'f', 2), loadtext::count(w.completions),
                     QString::number(w.throughputRps, 'f', 2), QString::number(w.meanInFlight, 'f', 1));
    if (!w.e2eMeanNs)
        return text;
    text += QStringLiteral("<br>") + tr("%1 started: e2e p95 <b>%2</b>, mean %3")
                                         .arg(requestsText(w.count), loadtext::duration(w.e2eP95Ns.value_or(0.0)),
                                              loadtext::duration(*w.e2eMeanNs));
    return text + loadtext::segmentRows(w.segmentMeanNs, *w.e2eMeanNs);
}

void LoadProfileChart::fitKneeText()
{
    if (!m_kneeTime)
        return;
    // Beside its line on the side with room for it, else on two lines on the wider side: "load passes the
    // k" was cut at the plot's edge. In pixels, once the layout is known.
    const QRect rect = axisRect()->rect();
    const double x = xAxis->coordToPixel(*m_kneeTime);
    const double right = rect.right() - x, left = x - rect.left();
    const QString oneLine = tr("load passes the knee");
    const QMargins pad = m_kneeText->padding();
    const double needed = QFontMetrics(m_kneeText->font()).horizontalAdvance(oneLine) + pad.left() + pad.right() + 2;
    const bool twoLines = needed > right && needed > left;
    const bool onRight = twoLines ? right >= left : needed <= right;
    m_kneeText->setText(twoLines ? tr("load passes\nthe knee") : oneLine);
    m_kneeText->setPositionAlignment((onRight ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
}

void LoadProfileChart::resizeEvent(QResizeEvent *event)
{
    Chart::resizeEvent(event);
    if (fitLegendColumns(*this))
        replot(rpQueuedReplot);
    // A wall-clock label is about 8 characters wide: as many ticks as fit with room between them, so that
    // "12:00:00" and "20:00:00" do not run into one another on a narrow chart.
    const int plotWidth = width() - 140;
    const int labelWidth = QFontMetrics(xAxis->tickLabelFont()).horizontalAdvance(QStringLiteral("00:00:00")) * 8 / 5;
    m_timeTicker->setTickCount(std::clamp(plotWidth / std::max(labelWidth, 1), 2, 8));
}

void LoadProfileChart::applyPalette()
{
    Chart::applyPalette();
    if (!m_arrivals) // the base's constructor: nothing of ours to colour yet
        return;
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    m_arrivals->setPen(QPen(text, 1.8));
    m_throughput->setPen(QPen(kThroughputColor, 1.8));
    QColor fill = kInFlightColor;
    fill.setAlphaF(0.2);
    m_inFlight->setPen(QPen(kInFlightColor, 1));
    m_inFlight->setBrush(fill);
    m_kneeLine->setPen(QPen(text, 1.5, Qt::DashLine));
    m_rateLine->setPen(QPen(text, 1, Qt::DotLine));
    QColor plate = pal.color(QPalette::Base);
    plate.setAlphaF(0.85);
    for (QCPItemText *label : {m_kneeText, m_rateText}) {
        label->setColor(text);
        label->setBrush(plate);
    }
    replot(rpQueuedReplot);
}

void LoadProfileChart::mouseMoveEvent(QMouseEvent *event)
{
    Chart::mouseMoveEvent(event);
    const std::optional<int> window = windowAt(event->position());
    loadtext::hoverTip(this, event, window ? tooltipFor(*window) : QString());
}
