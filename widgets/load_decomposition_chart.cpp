// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_decomposition_chart.h"

#include "chart_tickers.h"
#include "count_text.h"
#include "load_chart_text.h"
#include "legend_below.h"
#include "plot_frame.h"
#include "segment_colors.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QResizeEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

constexpr double kBarFill = 0.86;  ///< of a bucket's load range: a gap between neighbouring bars
constexpr double kHeadroom = 1.16; ///< of the tallest value: room for the knee's label above the data

/// A bucket's width on the load axis; a single bucket over one load has none, so it gets a nominal one.
double spanOf(const lx::LoadBucket &bucket)
{
    const double span = bucket.loadHi - bucket.loadLo;
    return span > 0 ? span : std::max(std::abs(bucket.loadLo) * 0.2, 1.0);
}

// Colours no segment uses: the token metrics are read as request times, not as parts of the stack.
const QColor kTpotColor(0x5E, 0x3C, 0x99); // dark purple: the pace of decoding, the line that stays flat

/// Shares from 0% to 100%, no tick in the headroom above (which holds the knee's label).
class StackShareTicker : public ShareTicker {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override
    {
        QVector<double> ticks = ShareTicker::createTickVector(tickStep, range);
        ticks.removeIf([](double t) { return t > 1 + 1e-9; });
        return ticks;
    }
};

double orNan(const std::optional<double> &value) { return value ? *value : std::numeric_limits<double>::quiet_NaN(); }

std::optional<double> drawnAt(const QCPGraph *graph, int bucket)
{
    const auto data = graph->data();
    if (bucket >= data->size() || std::isnan(data->at(bucket)->value))
        return std::nullopt;
    return data->at(bucket)->value;
}

} // namespace

LoadDecompositionChart::LoadDecompositionChart(QWidget *parent)
    : Chart(parent)
{
    m_title = addPlotTitle(*this);
    // The legend in rows under the plot rather than in a column beside it: its nine entries beside a plot
    // with an axis either side left the bars a third of the width at 1400x900.
    placeLegendBelow(*this);
    legend->setIconSize(14, 14);

    // The shade past the knee lies under the data; the line and its label over it.
    m_pastKnee = new QCPItemRect(this);
    m_pastKnee->setLayer(QStringLiteral("background"));
    m_pastKnee->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_pastKnee->bottomRight->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_pastKnee->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_pastKnee->bottomRight->setCoords(1, 1);

    for (int s = lx::kSegmentCount - 1; s >= 0; --s) { // bottom of the stack first
        auto *bars = new QCPBars(xAxis, yAxis);
        bars->setName(loadtext::segmentTitle(s));
        bars->setBrush(segmentColor(static_cast<lx::Segment>(s)));
        bars->setWidthType(QCPBars::wtPlotCoords);
        m_bars[static_cast<std::size_t>(s)] = bars;
    }
    for (int s = lx::kSegmentCount - 2; s >= 0; --s)
        m_bars[static_cast<std::size_t>(s)]->moveAbove(m_bars[static_cast<std::size_t>(s) + 1]);
    m_p95 = addGraph(xAxis, yAxis);
    m_p95->setName(tr("e2e p95"));
    m_p95->setLineStyle(QCPGraph::lsLine);
    m_ttft = addGraph(xAxis, yAxis2);
    m_ttft->setName(tr("TTFT mean"));
    m_tpot = addGraph(xAxis, yAxis2);
    m_tpot->setName(tr("TPOT mean"));
    yAxis2->setScaleType(QCPAxis::stLogarithmic);
    yAxis2->setTicker(QSharedPointer<LogDurationTicker>::create());

    m_kneeLine = new QCPItemStraightLine(this);
    m_kneeText = new QCPItemText(this);
    m_kneeText->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_kneeText->setPadding(QMargins(5, 2, 5, 2));
    m_kneeText->setClipToAxisRect(true);
    QFont bold = font();
    bold.setBold(true);
    m_kneeText->setFont(bold);

    m_durationTicker = QSharedPointer<DurationTicker>::create();
    m_durationTicker->setTickCount(6); // the base's 5 leaves three labels on a tall chart
    m_shareTicker = QSharedPointer<StackShareTicker>::create();
    yAxis->setTicker(m_durationTicker);
    xAxis->grid()->setVisible(false);
    setMouseTracking(true);
    // The label's room beside the knee line is known in pixels once the layout is.
    connect(this, &QCustomPlot::afterLayout, this, [this] { fitKneeLabel(); });
    rebuild();
}

void LoadDecompositionChart::fitKneeLabel()
{
    const lx::LoadAnalysis *load = analysis();
    if (!m_kneeX || !load || !load->knee)
        return;
    // On the side of the line with room for it, else on two lines on the wider side ("knee ≈ 9.19 req/s, 1…"
    // was cut at the plot's edge).
    const QRect rect = axisRect()->rect();
    const double x = xAxis->coordToPixel(*m_kneeX);
    const double right = rect.right() - x, left = x - rect.left();
    const QString oneLine = loadtext::kneeLabel(*load->knee);
    const QMargins pad = m_kneeText->padding();
    const double needed = QFontMetrics(m_kneeText->font()).horizontalAdvance(oneLine) + pad.left() + pad.right() + 2;
    const bool twoLines = needed > right && needed > left;
    const bool onRight = twoLines ? right >= left : needed <= right;
    const QString text = loadtext::kneeLabel(*load->knee, twoLines);
    m_kneeText->setText(text);
    m_kneeText->setPositionAlignment((onRight ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    // Still wider than its side on two lines (a narrow chart): slide it inside the plot, over the line.
    const double width = QFontMetrics(m_kneeText->font()).boundingRect(QRect(), 0, text).width() + pad.left() + pad.right() + 2;
    double anchor = x;
    if (onRight && width > right)
        anchor = std::max<double>(rect.left(), rect.right() - width);
    else if (!onRight && width > left)
        anchor = std::min<double>(rect.right(), rect.left() + width);
    m_kneeText->position->setCoords(xAxis->pixelToCoord(anchor), m_kneeText->position->coords().y());
}

void LoadDecompositionChart::setData(std::shared_ptr<const lx::LoadChartData> data)
{
    m_data = std::move(data);
    rebuild();
}

void LoadDecompositionChart::setLoadKey(lx::LoadKey key)
{
    m_key = key;
    rebuild();
}

const lx::LoadAnalysis *LoadDecompositionChart::analysis() const
{
    return m_data ? &m_data->analysis(m_key) : nullptr;
}

int LoadDecompositionChart::bucketCount() const
{
    return analysis() ? static_cast<int>(analysis()->buckets.size()) : 0;
}

double LoadDecompositionChart::keyOf(const lx::LoadBucket &bucket) const
{
    return m_logAxis ? std::sqrt(bucket.loadLo * bucket.loadHi) : bucket.loadLo + spanOf(bucket) / 2;
}

double LoadDecompositionChart::drawnSegmentMean(int bucket, int segment) const
{
    const auto data = m_bars[static_cast<std::size_t>(segment)]->data();
    return bucket < data->size() ? data->at(bucket)->value : 0.0;
}

std::optional<double> LoadDecompositionChart::drawnP95(int bucket) const { return drawnAt(m_p95, bucket); }

std::optional<double> LoadDecompositionChart::drawnTtft(int bucket) const { return drawnAt(m_ttft, bucket); }

std::optional<double> LoadDecompositionChart::drawnTpot(int bucket) const { return drawnAt(m_tpot, bucket); }

void LoadDecompositionChart::setShowShares(bool shares)
{
    if (shares == m_shares)
        return;
    m_shares = shares;
    rebuild();
}

QString LoadDecompositionChart::title() const { return m_title->text(); }

namespace {

/// `text` broken at spaces into lines of at most `room` pixels (a word longer than that keeps a line).
QString wrapped(const QString &text, const QFontMetrics &metrics, int room)
{
    QString out, line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > room) {
            out += (out.isEmpty() ? QString() : QStringLiteral("\n")) + line;
            line = word;
        } else {
            line = longer;
        }
    }
    return line.isEmpty() ? out : out + (out.isEmpty() ? QString() : QStringLiteral("\n")) + line;
}

} // namespace

void LoadDecompositionChart::fitTitle()
{
    // The title row is as wide as the plot beside the legend: centred text wider than that is cut at both
    // ends ("ecomposition under load · … by arrival rat"), so the details go on lines of their own then,
    // as many as they need (a reason there is no chart, "too few windows ...", is a sentence).
    const QString oneLine = m_titleDetail.isEmpty() ? m_titleHead : m_titleHead + QStringLiteral(" · ") + m_titleDetail;
    const int room = width() - 16;
    const QFontMetrics metrics(m_title->font());
    const bool fits = metrics.horizontalAdvance(oneLine) <= room;
    const QString text = fits || m_titleDetail.isEmpty()
        ? oneLine
        : m_titleHead + QLatin1Char('\n') + wrapped(m_titleDetail, metrics, room);
    if (text != m_title->text()) {
        m_title->setText(text);
        replot(rpQueuedReplot);
    }
}

void LoadDecompositionChart::fitLegend()
{
    if (fitLegendColumns(*this))
        replot(rpQueuedReplot);
}

void LoadDecompositionChart::resizeEvent(QResizeEvent *event)
{
    Chart::resizeEvent(event);
    fitTitle();
    fitLegend();
}

void LoadDecompositionChart::rangeTokenAxis(double lo, double hi)
{
    // A logarithmic range around the lines with a little room, and at least a decade, so that a flat TPOT
    // reads as flat rather than as noise blown up.
    if (!(lo > 0 && hi >= lo)) {
        yAxis2->setRange(1e6, 1e9);
        return;
    }
    lo /= 1.6;
    hi *= 1.6;
    if (hi / lo < 10) {
        const double mid = std::sqrt(lo * hi);
        lo = mid / std::sqrt(10.0);
        hi = mid * std::sqrt(10.0);
    }
    // The top eighth of the plot is the knee label's: the lines' highest points stay below it, where the
    // label would otherwise cover them (the bars stop at 100% or at their own maximum, below it too).
    constexpr double kLabelBand = 0.125;
    hi = lo * std::pow(hi / lo, 1.0 / (1.0 - kLabelBand));
    yAxis2->setRange(lo, hi);
}

std::optional<double> LoadDecompositionChart::kneePosition() const { return m_kneeX; }

QString LoadDecompositionChart::kneeLabel() const { return m_kneeX ? m_kneeText->text() : QString(); }

void LoadDecompositionChart::rebuild()
{
    for (QCPBars *bars : m_bars)
        bars->data()->clear();
    for (QCPGraph *graph : {m_p95, m_ttft, m_tpot})
        graph->data()->clear();
    const lx::LoadAnalysis *load = analysis();
    const std::vector<lx::LoadBucketDetail> *details = m_data ? &m_data->details(m_key) : nullptr;
    xAxis->setLabel(loadtext::loadAxisLabel(m_key));
    useLogAxis(load && !load->buckets.empty() && load->geometricBuckets);
    // In shares the e2e p95 is a duration among fractions: it moves to the right axis with TTFT and TPOT.
    m_p95->setValueAxis(m_shares ? yAxis2 : yAxis);
    // Short legend entries (three columns fit at 1400x900); the right axis names the lines it carries.
    yAxis2->setLabel(m_shares ? tr("e2e p95; TTFT and TPOT means") : tr("TTFT and TPOT means"));
    yAxis->setTicker(m_shares ? m_shareTicker : m_durationTicker);
    yAxis->setLabel(m_shares ? tr("share of the mean time per request, by segment") : tr("mean time per request, stacked by segment"));
    std::int64_t requests = 0;
    double top = 0;
    double tokenLo = INFINITY, tokenHi = 0;
    const auto onTokenAxis = [&](const std::optional<double> &v) {
        if (v && *v > 0) {
            tokenLo = std::min(tokenLo, *v);
            tokenHi = std::max(tokenHi, *v);
        }
    };
    std::array<bool, lx::kSegmentCount> used{};
    bool anyTtft = false, anyTpot = false;
    if (load) {
        for (std::size_t b = 0; b < load->buckets.size(); ++b) {
            const lx::LoadBucket &bucket = load->buckets[b];
            const lx::LoadBucketDetail *detail = details && b < details->size() ? &(*details)[b] : nullptr;
            const double key = keyOf(bucket);
            double stacked = 0;
            for (int s = 0; s < lx::kSegmentCount; ++s) {
                const double mean = bucket.segmentMeanNs[static_cast<std::size_t>(s)];
                const double share = detail ? detail->segmentShare[static_cast<std::size_t>(s)] : 0.0;
                QCPBars *bars = m_bars[static_cast<std::size_t>(s)];
                bars->setWidthType(m_logAxis ? QCPBars::wtAxisRectRatio : QCPBars::wtPlotCoords);
                bars->setWidth(spanOf(bucket) * kBarFill); // on a logarithmic axis: set with the range below
                bars->addData(key, m_shares ? share : mean);
                stacked += m_shares ? share : mean;
                used[static_cast<std::size_t>(s)] = used[static_cast<std::size_t>(s)] || mean != 0;
            }
            m_p95->addData(key, orNan(bucket.e2eP95Ns));
            const std::optional<double> ttft = detail ? detail->ttft.meanNs : std::nullopt;
            const std::optional<double> tpot = detail ? detail->tpot.meanNs : std::nullopt;
            m_ttft->addData(key, orNan(ttft));
            m_tpot->addData(key, orNan(tpot));
            anyTtft = anyTtft || ttft;
            anyTpot = anyTpot || tpot;
            onTokenAxis(ttft);
            onTokenAxis(tpot);
            if (m_shares)
                onTokenAxis(bucket.e2eP95Ns);
            top = std::max({top, stacked, m_shares ? 0.0 : bucket.e2eP95Ns.value_or(0.0)});
            requests += bucket.count;
        }
    }
    // The legend lists the segments that have time in some bucket, top-down as the stack, then the lines.
    legend->clearItems();
    for (int s = 0; s < lx::kSegmentCount; ++s)
        if (used[static_cast<std::size_t>(s)])
            m_bars[static_cast<std::size_t>(s)]->addToLegend();
    m_p95->addToLegend();
    m_ttft->setVisible(anyTtft);
    m_tpot->setVisible(anyTpot);
    if (anyTtft)
        m_ttft->addToLegend();
    if (anyTpot)
        m_tpot->addToLegend();
    fitLegend();
    yAxis2->setVisible(anyTtft || anyTpot || m_shares);
    rangeTokenAxis(tokenLo, tokenHi);

    m_titleHead = tr("Decomposition under load");
    if (!load || load->buckets.empty()) {
        // The analysis says what is short (no request with a measured e2e, too few per window), and names
        // the window box where wider windows would help.
        const QString why = load && load->noArrivalTimes ? QString::fromUtf8(lx::kNoArrivalTimes)
            : load && !load->noKneeReason.empty()
            ? QString::fromStdString(load->noKneeText(loadtext::windowControl().toStdString()))
            : tr("no window holds enough requests to form a bucket");
        m_titleDetail = load ? why : QString();
        fitTitle();
        xAxis->setRange(0, 1);
        yAxis->setRange(0, 1);
        placeKnee(0, 1);
        applyPalette();
        return;
    }
    m_titleDetail = tr("%1 in %2 buckets by %3")
                        .arg(requestsText(requests))
                        .arg(load->buckets.size())
                        .arg(m_key == lx::LoadKey::ArrivalRate ? tr("arrival rate") : tr("requests in flight"));
    fitTitle();
    const lx::LoadBucket &first = load->buckets.front();
    const lx::LoadBucket &last = load->buckets.back();
    const double kneeLoad = load->knee ? (m_key == lx::LoadKey::ArrivalRate ? load->knee->rateRps : load->knee->inFlight) : 0.0;
    double lo, hi;
    if (load->geometricBuckets) {
        // 0.6 of a bucket either side, as on the linear axis: a bucket spans the same factor each.
        const double margin = std::pow(last.loadHi / first.loadLo, 0.6 / static_cast<double>(load->buckets.size()));
        lo = first.loadLo / margin;
        hi = std::max(last.loadHi, kneeLoad) * margin;
    } else {
        const double margin = spanOf(first) * 0.6;
        lo = std::max(0.0, first.loadLo - margin);
        hi = std::max(last.loadLo + spanOf(last) + margin, load->knee ? kneeLoad + margin : 0.0);
    }
    xAxis->setRange(lo, hi);
    if (m_logAxis) { // every bucket spans the same factor, so the same share of the axis
        const double share = std::log(last.loadHi / first.loadLo) / static_cast<double>(load->buckets.size()) / std::log(hi / lo);
        for (QCPBars *bars : m_bars)
            bars->setWidth(share * kBarFill);
    }
    yAxis->setRange(0, top > 0 ? top * kHeadroom : 1.0);
    placeKnee(lo, hi);
    applyPalette();
}

void LoadDecompositionChart::useLogAxis(bool log)
{
    // Buckets whose widths grow by a factor sit on a logarithmic axis, where they are equally wide.
    if (log == m_logAxis)
        return;
    m_logAxis = log;
    xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

void LoadDecompositionChart::placeKnee(double lo, double hi)
{
    const lx::LoadAnalysis *load = analysis();
    m_kneeX.reset();
    if (load && load->knee && !load->buckets.empty())
        m_kneeX = m_key == lx::LoadKey::ArrivalRate ? load->knee->rateRps : load->knee->inFlight;
    m_kneeLine->setVisible(m_kneeX.has_value());
    m_kneeText->setVisible(m_kneeX.has_value());
    m_pastKnee->setVisible(m_kneeX.has_value());
    if (!m_kneeX)
        return;
    m_kneeLine->point1->setCoords(*m_kneeX, 0);
    m_kneeLine->point2->setCoords(*m_kneeX, 1);
    m_pastKnee->topLeft->setCoords(*m_kneeX, 0);
    m_kneeText->setText(loadtext::kneeLabel(*load->knee));
    // The label beside the line at the top, on the side with more room.
    const bool roomRight = (*m_kneeX - lo) / (hi - lo) < 0.6;
    m_kneeText->position->setCoords(*m_kneeX, 0.01);
    m_kneeText->setPositionAlignment((roomRight ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
}

std::optional<int> LoadDecompositionChart::bucketAt(const QPointF &pixel) const
{
    const lx::LoadAnalysis *load = analysis();
    if (!load || !axisRect()->rect().contains(pixel.toPoint()))
        return std::nullopt;
    const double x = xAxis->pixelToCoord(pixel.x());
    for (int b = 0; b < static_cast<int>(load->buckets.size()); ++b) {
        const lx::LoadBucket &bucket = load->buckets[static_cast<std::size_t>(b)];
        if (m_logAxis ? x >= bucket.loadLo && x <= bucket.loadHi : std::abs(x - keyOf(bucket)) <= spanOf(bucket) / 2)
            return b;
    }
    return std::nullopt;
}

QPointF LoadDecompositionChart::bucketCentre(int bucket) const
{
    const lx::LoadBucket &b = analysis()->buckets[static_cast<std::size_t>(bucket)];
    return {xAxis->coordToPixel(keyOf(b)), yAxis->coordToPixel(m_shares ? 0.5 : b.e2eMeanNs.value_or(0.0) / 2)};
}

QString LoadDecompositionChart::tooltipFor(int bucket) const
{
    const lx::LoadBucket &b = analysis()->buckets[static_cast<std::size_t>(bucket)];
    QString text = QStringLiteral("<b>%1</b><br>").arg(loadtext::loadRange(b.loadLo, b.loadHi, m_key).toHtmlEscaped());
    text += tr("%1 in %2 windows").arg(requestsText(b.count), loadtext::count(b.windows));
    if (b.count == 0)
        return text;
    text += QStringLiteral("<br>") + tr("e2e p95 <b>%1</b>, mean %2").arg(loadtext::duration(*b.e2eP95Ns), loadtext::duration(*b.e2eMeanNs));
    const std::vector<lx::LoadBucketDetail> &details = m_data->details(m_key);
    if (bucket < static_cast<int>(details.size())) {
        const lx::LoadBucketDetail &d = details[static_cast<std::size_t>(bucket)];
        for (const auto &[name, stat] : {std::pair{tr("TTFT"), &d.ttft}, std::pair{tr("TPOT"), &d.tpot}}) {
            if (stat->meanNs)
                text += QStringLiteral("<br>") + tr("%1 mean %2, p50 %3, p95 %4")
                                                     .arg(name, loadtext::duration(*stat->meanNs),
                                                          loadtext::duration(stat->percentilesNs[0].value_or(0.0)),
                                                          loadtext::duration(stat->percentilesNs[1].value_or(0.0)));
        }
    }
    return text + loadtext::segmentRows(b.segmentMeanNs, *b.e2eMeanNs);
}

void LoadDecompositionChart::applyPalette()
{
    Chart::applyPalette();
    if (!m_p95) // the base's constructor: nothing of ours to colour yet
        return;
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor base = pal.color(QPalette::Base);
    for (QCPBars *bars : m_bars)
        bars->setPen(QPen(base, 0.8));
    m_p95->setPen(QPen(text, 2));
    m_p95->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.5), base, 7));
    m_ttft->setPen(QPen(text, 1.5, Qt::DashLine));
    m_ttft->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(text, 1.5), base, 6));
    m_tpot->setPen(QPen(kTpotColor.lighter(pal.color(QPalette::Base).lightness() < 128 ? 170 : 100), 2));
    m_tpot->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(m_tpot->pen().color(), 1.5), m_tpot->pen().color(), 8));
    m_kneeLine->setPen(QPen(text, 1.5, Qt::DashLine));
    QColor shade = text;
    shade.setAlphaF(0.06);
    m_pastKnee->setPen(Qt::NoPen);
    m_pastKnee->setBrush(shade);
    QColor plate = base;
    plate.setAlphaF(0.85);
    m_kneeText->setColor(text);
    m_kneeText->setBrush(plate);
    replot(rpQueuedReplot);
}

void LoadDecompositionChart::mouseMoveEvent(QMouseEvent *event)
{
    Chart::mouseMoveEvent(event);
    const std::optional<int> bucket = bucketAt(event->position());
    loadtext::hoverTip(this, event, bucket ? tooltipFor(*bucket) : QString());
}
