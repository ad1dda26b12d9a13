// SPDX-License-Identifier: GPL-3.0-or-later
#include "cdf_chart.h"

#include "chart_tickers.h"
#include "count_text.h"
#include "model/duration_format.h"
#include "plot_frame.h"
#include "segment_colors.h"

#include <QMouseEvent>

#include <cmath>

namespace {

/// How far (in pixels) a press may move and still count as a click on a legend entry.
constexpr double kClickSlop = 4;

QString metricTitle(int metric)
{
    if (metric == lx::kCdfE2e)
        return QStringLiteral("e2e");
    if (metric == lx::kCdfTtft)
        return QStringLiteral("TTFT");
    const std::string_view name = lx::cdfMetricName(metric);
    return QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size()));
}

QString duration(double ns) { return QString::fromStdString(lx::formatDuration(ns)); }

/// "p87.3", with more decimals in the tail where they matter ("p99.95").
QString percentileText(double fraction)
{
    const double p = fraction * 100;
    const int decimals = p >= 99.9 ? 3 : p >= 99 ? 2 : 1;
    return QStringLiteral("p") + QString::number(p, 'f', decimals);
}

const lx::CdfCurve *curveOf(const std::shared_ptr<const lx::CdfData> &data, int metric)
{
    return data ? &data->curves[static_cast<std::size_t>(metric)] : nullptr;
}

} // namespace

CdfChart::CdfChart(QWidget *parent)
    : Chart(parent)
{
    m_title = addPlotTitle(*this);
    placeLegendBeside(*this);
    legend->setIconSize(28, 12);

    xAxis->setLabel(tr("latency"));
    yAxis->setLabel(tr("requests at or below"));
    yAxis->setTicker(QSharedPointer<ShareTicker>::create());
    yAxis->setRange(0, 1.02);
    yAxis->grid()->setSubGridVisible(false);
    xAxis->grid()->setSubGridVisible(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);

    // Drawn in creation order: the comparison under the data set, and e2e on top of its segments.
    for (int m = 0; m < lx::kCdfMetricCount; ++m)
        m_comparisonCurves[static_cast<std::size_t>(m)] = addGraph();
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        const int drawn = m < lx::kSegmentCount ? m : m == lx::kCdfE2e ? lx::kCdfTtft : lx::kCdfE2e;
        m_curves[static_cast<std::size_t>(drawn)] = addGraph();
    }
    for (int m = 0; m < lx::kCdfMetricCount; ++m) { // the legend in pipeline order, e2e and TTFT last
        m_curves[static_cast<std::size_t>(m)]->setName(metricTitle(m));
        m_curves[static_cast<std::size_t>(m)]->addToLegend();
    }
    m_solidKey = addGraph();
    m_dashedKey = addGraph();

    for (std::size_t i = 0; i < m_levels.size(); ++i) {
        m_levels[i] = new QCPItemStraightLine(this);
        m_levels[i]->point1->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_levels[i]->point2->setTypeX(QCPItemPosition::ptAxisRectRatio);
        m_levels[i]->point1->setCoords(0, lx::kCdfGuidePercentiles[i] / 100);
        m_levels[i]->point2->setCoords(1, lx::kCdfGuidePercentiles[i] / 100);
        Guide &g = m_guides[i];
        for (QCPItemLine **drop : {&g.drop, &g.comparisonDrop}) {
            *drop = new QCPItemLine(this);
            (*drop)->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
        }
        g.label = new QCPItemText(this);
        g.label->setPadding(QMargins(5, 2, 5, 2));
        g.label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    }
    m_tracer = new QCPItemTracer(this);
    m_tracer->setStyle(QCPItemTracer::tsCircle);
    m_tracer->setSize(8);
    m_tracer->setVisible(false);
    m_readout = new QCPItemText(this);
    m_readout->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_readout->position->setCoords(0.99, 0.97);
    m_readout->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_readout->setPadding(QMargins(8, 4, 8, 4));
    m_readout->setVisible(false);
    m_message = addCentredMessage(*this);

    connect(this, &QCustomPlot::afterLayout, this, &CdfChart::placeGuideLabels); // in exports too
    setMouseTracking(true);
    rebuildCurves();
    applyPalette();
}

void CdfChart::setData(std::shared_ptr<const lx::CdfData> data, const QString &label)
{
    m_data = std::move(data);
    m_label = label.isEmpty() ? tr("current filter") : label;
    rebuildCurves();
}

void CdfChart::setComparison(std::shared_ptr<const lx::CdfData> data, const QString &label)
{
    m_comparison = std::move(data);
    m_comparisonLabel = label.isEmpty() ? tr("comparison") : label;
    rebuildCurves();
}

void CdfChart::setLogX(bool log)
{
    if (log == m_logX)
        return;
    m_logX = log;
    rebuildCurves(); // values at or below zero sit at the log axis' floor, so the points change
}

void CdfChart::setCurveVisible(int metric, bool visible)
{
    m_hidden[static_cast<std::size_t>(metric)] = !visible;
    styleCurves();
    rescaleX();
    updateGuides();
    replot(rpQueuedReplot);
}

bool CdfChart::isCurveVisible(int metric) const
{
    return curve(metric)->visible();
}

void CdfChart::setGuideMetric(int metric)
{
    m_guideMetric = metric;
    updateGuides();
    replot(rpQueuedReplot);
}

std::optional<double> CdfChart::guidePosition(int i) const
{
    const Guide &g = m_guides[static_cast<std::size_t>(i)];
    if (!g.drop->visible())
        return std::nullopt;
    return g.drop->end->coords().x();
}

QString CdfChart::guideLabel(int i) const
{
    const Guide &g = m_guides[static_cast<std::size_t>(i)];
    return g.label->visible() ? g.label->text() : QString();
}

QCPAbstractLegendItem *CdfChart::legendItem(int metric) const
{
    return legend->itemWithPlottable(curve(metric));
}

QString CdfChart::readoutText() const
{
    return m_readout->visible() ? m_readout->text() : QString();
}

double CdfChart::logFloor() const
{
    // A decade below the smallest positive value of any curve: zeros sit at this floor.
    double smallest = 0;
    for (const auto *set : {&m_data, &m_comparison}) {
        for (int m = 0; m < lx::kCdfMetricCount; ++m) {
            const lx::CdfCurve *c = curveOf(*set, m);
            if (!c)
                continue;
            for (const lx::CdfPoint &p : c->points) {
                if (p.valueNs > 0) {
                    smallest = smallest > 0 ? std::min(smallest, static_cast<double>(p.valueNs)) : static_cast<double>(p.valueNs);
                    break; // points ascend: the first positive one is the curve's smallest
                }
            }
        }
    }
    return smallest > 0 ? std::pow(10.0, std::floor(std::log10(smallest))) : 1000.0;
}

void CdfChart::fillCurve(QCPGraph *graph, const lx::CdfCurve &curve) const
{
    const double floor = m_logX ? logFloor() : -INFINITY;
    QVector<double> keys, values;
    keys.reserve(static_cast<qsizetype>(curve.points.size()));
    values.reserve(static_cast<qsizetype>(curve.points.size()));
    for (const lx::CdfPoint &p : curve.points) {
        keys.push_back(std::max(static_cast<double>(p.valueNs), floor));
        values.push_back(p.fraction);
    }
    graph->setData(keys, values, true);
}

void CdfChart::rebuildCurves()
{
    xAxis->setScaleType(m_logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (m_logX)
        xAxis->setTicker(QSharedPointer<LogDurationTicker>::create());
    else
        xAxis->setTicker(QSharedPointer<DurationTicker>::create());
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        const std::size_t i = static_cast<std::size_t>(m);
        m_curves[i]->data()->clear();
        m_comparisonCurves[i]->data()->clear();
        if (const lx::CdfCurve *c = curveOf(m_data, m))
            fillCurve(m_curves[i], *c);
        if (const lx::CdfCurve *c = curveOf(m_comparison, m))
            fillCurve(m_comparisonCurves[i], *c);
    }
    const bool comparing = m_comparison != nullptr;
    m_solidKey->setName(m_label);
    m_dashedKey->setName(m_comparisonLabel);
    for (QCPGraph *key : {m_solidKey, m_dashedKey}) {
        if (comparing && !legend->hasItemWithPlottable(key))
            key->addToLegend();
        else if (!comparing)
            key->removeFromLegend();
    }
    const QString requests = requestsText(m_data ? m_data->requests : 0);
    m_title->setText(m_data ? tr("Cumulative distribution per segment · %1%2")
                                  .arg(requests, m_data->includeErrors ? tr(" (errors included)") : QString())
                            : tr("Cumulative distribution per segment"));
    // An arrival trace (Mooncake's) has start times and no durations: say so rather than show bare axes.
    bool anyCurve = false;
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        const lx::CdfCurve *c = curveOf(m_data, m);
        anyCurve = anyCurve || (c && c->count > 0);
    }
    m_message->setVisible(m_data && !anyCurve);
    m_message->setText(m_data && m_data->requests > 0
                           ? tr("No time is measured in the %1 that match (an arrival trace?):\nthere is no distribution to draw.").arg(requests)
                           : tr("No requests match the filter."));
    styleCurves();
    rescaleX();
    updateGuides();
    m_readout->setVisible(false);
    m_tracer->setVisible(false);
    replot(rpQueuedReplot);
}

void CdfChart::styleCurves()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor muted = text;
    muted.setAlphaF(0.4);
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        const std::size_t i = static_cast<std::size_t>(m);
        const bool measured = curveOf(m_data, m) && curveOf(m_data, m)->count > 0;
        const bool comparable = curveOf(m_comparison, m) && curveOf(m_comparison, m)->count > 0;
        const QColor colour = m < lx::kSegmentCount ? segmentColor(static_cast<lx::Segment>(m)) : text;
        QPen pen(colour, m == lx::kCdfE2e ? 2.4 : m == lx::kCdfTtft ? 1.6 : 1.8);
        pen.setCapStyle(Qt::FlatCap);
        if (m == lx::kCdfTtft)
            pen.setDashPattern({1.2, 1.6}); // dotted: black/white like e2e, but never mistaken for it
        m_curves[i]->setPen(pen);
        QPen dashed = pen;
        dashed.setDashPattern(m == lx::kCdfTtft ? QList<qreal>{5, 2.5, 1.2, 2.5} : QList<qreal>{5, 3});
        m_comparisonCurves[i]->setPen(dashed);
        m_curves[i]->setVisible(measured && !m_hidden[i]);
        m_comparisonCurves[i]->setVisible(comparable && !m_hidden[i]);
        QString name = metricTitle(m);
        if (m_data && !measured)
            name = tr("%1 (not measured)").arg(name);
        else if (measured && curveOf(m_data, m)->minNs() == 0 && curveOf(m_data, m)->maxNs() == 0)
            name = tr("%1 (always 0)").arg(name); // on the log axis its curve is the axis itself
        m_curves[i]->setName(name);
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legendItem(m)))
            item->setTextColor(measured && !m_hidden[i] ? text : muted);
    }
    m_solidKey->setPen(QPen(text, 1.8));
    QPen dashedKey(text, 1.8);
    dashedKey.setDashPattern({5, 3});
    m_dashedKey->setPen(dashedKey);
}

void CdfChart::rescaleX()
{
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        for (QCPGraph *graph : {curve(m), comparisonCurve(m)}) {
            if (!graph->visible() || graph->data()->isEmpty())
                continue;
            lo = std::min(lo, graph->data()->constBegin()->key);
            hi = std::max(hi, (graph->data()->constEnd() - 1)->key);
        }
    }
    if (!(lo <= hi)) {
        xAxis->setRange(m_logX ? QCPRange(1e3, 1e9) : QCPRange(0, 1e9));
        return;
    }
    if (m_logX) {
        xAxis->setRange(std::pow(10.0, std::floor(std::log10(lo))), std::pow(10.0, std::ceil(std::log10(hi * 1.05))));
    } else {
        lo = std::min(lo, 0.0);
        xAxis->setRange(lo, hi + (hi - lo) * 0.03 + 1);
    }
}

void CdfChart::updateGuides()
{
    const std::size_t metric = static_cast<std::size_t>(m_guideMetric);
    const lx::CdfCurve *a = curveOf(m_data, m_guideMetric);
    const lx::CdfCurve *b = curveOf(m_comparison, m_guideMetric);
    const bool showA = a && a->count > 0 && !m_hidden[metric];
    const bool showB = b && b->count > 0 && !m_hidden[metric];
    const double floor = m_logX ? logFloor() : -INFINITY;
    for (std::size_t i = 0; i < m_guides.size(); ++i) {
        Guide &g = m_guides[i];
        const double level = lx::kCdfGuidePercentiles[i] / 100;
        g.drop->setVisible(showA);
        g.label->setVisible(showA);
        g.comparisonDrop->setVisible(showB);
        if (showA) {
            const double x = std::max(a->guidesNs[i], floor);
            g.drop->start->setCoords(x, 1);
            g.drop->end->setCoords(x, level);
            g.label->position->setCoords(x, level);
            QString text = QStringLiteral("p%1  %2").arg(lx::kCdfGuidePercentiles[i]).arg(duration(a->guidesNs[i]));
            if (showB)
                text += tr("  vs %1").arg(duration(b->guidesNs[i]));
            g.label->setText(text);
        }
        if (showB) {
            const double x = std::max(b->guidesNs[i], floor);
            g.comparisonDrop->start->setCoords(x, 1);
            g.comparisonDrop->end->setCoords(x, level);
        }
    }
    const QColor colour = curve(m_guideMetric)->pen().color();
    QPen drop(colour, 1, Qt::DotLine);
    QPen comparisonDrop(colour, 1, Qt::DashLine);
    for (Guide &g : m_guides) {
        g.drop->setPen(drop);
        g.comparisonDrop->setPen(comparisonDrop);
    }
}

void CdfChart::placeGuideLabels()
{
    // The curve is at or below its point to the left and at or above it to the right: a label hanging
    // below-right of the point, or above-left where that would leave the plot, never crosses its curve.
    const QRect rect = axisRect()->rect();
    for (Guide &g : m_guides) {
        if (!g.label->visible())
            continue;
        const double px = xAxis->coordToPixel(g.label->position->coords().x());
        const QMargins padding = g.label->padding();
        const int width = QFontMetrics(g.label->font()).horizontalAdvance(g.label->text()) + padding.left() + padding.right();
        const bool fitsRight = px + width <= rect.right();
        g.label->setPositionAlignment(fitsRight ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignRight | Qt::AlignBottom);
    }
}

void CdfChart::applyPalette()
{
    Chart::applyPalette();
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor panel = pal.color(QPalette::Base);
    panel.setAlphaF(0.85);
    QColor level = text;
    level.setAlphaF(0.25);
    for (QCPItemStraightLine *line : m_levels)
        line->setPen(QPen(level, 1, Qt::DashLine));
    for (Guide &g : m_guides) {
        g.label->setColor(text);
        g.label->setBrush(panel);
    }
    m_readout->setColor(text);
    m_readout->setBrush(panel);
    m_message->setColor(text);
    m_message->setFont(font());
    QColor frame = text;
    frame.setAlphaF(0.3);
    m_readout->setPen(QPen(frame));
    styleCurves();
    updateGuides();
    replot(rpQueuedReplot);
}

QString CdfChart::message() const { return m_message->visible() ? m_message->text() : QString(); }

std::optional<CdfChart::Readout> CdfChart::readoutAt(const QPointF &pixel) const
{
    if (!axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double value = xAxis->pixelToCoord(pixel.x());
    std::optional<Readout> best;
    double bestDistance = INFINITY;
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        for (const bool comparison : {false, true}) {
            const QCPGraph *graph = comparison ? comparisonCurve(m) : curve(m);
            const lx::CdfCurve *c = curveOf(comparison ? m_comparison : m_data, m);
            if (!c || !graph->visible())
                continue;
            const double fraction = c->fractionAt(value);
            const double distance = std::abs(yAxis->coordToPixel(fraction) - pixel.y());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = Readout{m, comparison, value, fraction, {}};
            }
        }
    }
    if (best) {
        best->text = QStringLiteral("%1%2   %3   %4")
                         .arg(metricTitle(best->metric),
                              m_comparison ? QStringLiteral(" (%1)").arg(best->comparison ? m_comparisonLabel : m_label) : QString(),
                              duration(best->valueNs), percentileText(best->fraction));
    }
    return best;
}

void CdfChart::showReadout(const QPointF &pixel)
{
    const std::optional<Readout> r = readoutAt(pixel);
    m_readout->setVisible(r.has_value());
    m_tracer->setVisible(r.has_value());
    if (r) {
        m_readout->setText(r->text);
        m_tracer->position->setCoords(r->valueNs, r->fraction);
        const QColor colour = (r->comparison ? comparisonCurve(r->metric) : curve(r->metric))->pen().color();
        m_tracer->setPen(QPen(colour, 1.5));
        m_tracer->setBrush(palette().color(QPalette::Base));
    }
    replot(rpQueuedReplot);
}

void CdfChart::mouseMoveEvent(QMouseEvent *event)
{
    Chart::mouseMoveEvent(event);
    if (!(event->buttons() & Qt::LeftButton))
        showReadout(event->position());
}

void CdfChart::mouseReleaseEvent(QMouseEvent *event)
{
    const QPointF press = mMousePressPos;
    Chart::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->position() - press).manhattanLength() > kClickSlop)
        return;
    for (int m = 0; m < lx::kCdfMetricCount; ++m) {
        QCPAbstractLegendItem *item = legendItem(m);
        const lx::CdfCurve *c = curveOf(m_data, m);
        if (item && c && c->count > 0 && item->outerRect().contains(event->position().toPoint())) {
            const bool visible = m_hidden[static_cast<std::size_t>(m)];
            setCurveVisible(m, visible);
            emit curveVisibilityChanged(m, visible);
            return;
        }
    }
}

void CdfChart::mouseDoubleClickEvent(QMouseEvent *event)
{
    Chart::mouseDoubleClickEvent(event);
    if (event->button() == Qt::LeftButton && axisRect()->rect().contains(event->position().toPoint())) {
        rescaleX();
        replot(rpQueuedReplot);
    }
}

void CdfChart::leaveEvent(QEvent *event)
{
    Chart::leaveEvent(event);
    m_readout->setVisible(false);
    m_tracer->setVisible(false);
    replot(rpQueuedReplot);
}
