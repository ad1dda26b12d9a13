// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_view.h"

#include "load_chart_text.h"
#include "load_decomposition_chart.h"
#include "load_profile_chart.h"
#include "plot_frame.h"

#include <qcustomplot.h>

#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

constexpr qint64 kSecond = 1'000'000'000;

// The prediction's colours: its p95 in one no segment or observed line uses (a prediction is never read as
// observed), its throughput and requests in flight in the observed ones' colours, dashed (load_profile_chart.cpp).
const QColor kPredictedP95Color(0xC2, 0x18, 0x5B);
const QColor kPredictedThroughputColor(0x00, 0x72, 0xB2);
const QColor kPredictedInFlightColor(0xB0, 0x74, 0x00); // the observed area's orange, darker: a line, not a fill

double nan() { return std::numeric_limits<double>::quiet_NaN(); }

/// Where the decomposition chart draws a bucket on its load axis (LoadDecompositionChart::keyOf): the
/// geometric middle on a logarithmic axis, else the middle (a bucket over one load gets a nominal width).
double bucketKey(const lx::LoadBucket &bucket, bool logAxis)
{
    if (logAxis)
        return std::sqrt(bucket.loadLo * bucket.loadHi);
    const double span = bucket.loadHi - bucket.loadLo;
    return bucket.loadLo + (span > 0 ? span : std::max(std::abs(bucket.loadLo) * 0.2, 1.0)) / 2;
}

/// Widens an axis to hold [lo, hi] with a margin of `factor` (a logarithmic axis) or `share` of the range.
void widen(QCPAxis *axis, double lo, double hi, double share)
{
    if (!(hi >= lo) || !std::isfinite(lo) || !std::isfinite(hi))
        return;
    QCPRange range = axis->range();
    if (axis->scaleType() == QCPAxis::stLogarithmic) {
        if (lo <= 0)
            return;
        if (lo < range.lower)
            range.lower = lo / (1 + share * 4);
        if (hi > range.upper)
            range.upper = hi * (1 + share * 4);
    } else {
        const double margin = (std::max(hi, range.upper) - std::min(lo, range.lower)) * share;
        if (lo < range.lower)
            range.lower = std::max(0.0, lo - margin);
        if (hi > range.upper)
            range.upper = hi + margin;
    }
    axis->setRange(range);
}

} // namespace

LoadView::LoadView(QWidget *parent)
    : QWidget(parent)
    , m_decomposition(new LoadDecompositionChart(this))
    , m_profile(new LoadProfileChart(this))
    , m_keys(new QButtonGroup(this))
    , m_shares(new QToolButton(this))
    , m_window(new QComboBox(this))
    , m_sentence(new QLabel(this))
{
    auto *splitter = new QSplitter(Qt::Vertical, this);
    auto *top = new QWidget(splitter);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    m_sentence->setWordWrap(true);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sentence->setContentsMargins(8, 4, 8, 2);
    QFont larger = m_sentence->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.15);
    m_sentence->setFont(larger);
    topLayout->addWidget(m_sentence);
    topLayout->addWidget(m_decomposition, 1);
    splitter->addWidget(top);
    splitter->addWidget(m_profile);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    QHBoxLayout *bar = addToolbarAbove(*this, splitter);
    bar->setSpacing(0);
    bar->addWidget(new QLabel(tr("By "), this));
    const struct {
        lx::LoadKey key;
        QString text;
        QString tip;
    } keys[] = {
        {lx::LoadKey::ArrivalRate, tr("&Arrival rate"), tr("Group the windows by the rate at which requests arrived in them")},
        {lx::LoadKey::InFlight, tr("Requests in &flight"), tr("Group the windows by the mean number of requests in flight in them")},
    };
    for (const auto &choice : keys) {
        auto *button = new QToolButton(this);
        button->setText(choice.text);
        button->setToolTip(choice.tip);
        button->setCheckable(true);
        button->setChecked(choice.key == lx::LoadKey::ArrivalRate);
        m_keys->addButton(button, static_cast<int>(choice.key));
        bar->addWidget(button);
    }
    connect(m_keys, &QButtonGroup::idClicked, this, [this](int id) { setLoadKey(static_cast<lx::LoadKey>(id)); });

    bar->addSpacing(16);
    // One checkable button rather than a pair: the toolbar has to fit beside the SLO panel at 1400x900.
    m_shares->setText(tr("&Shares"));
    m_shares->setCheckable(true);
    m_shares->setToolTip(tr("Checked: stack each segment's share of the bucket's mean time per request, every bucket as "
                            "legible as the next however long the queues past the knee. Unchecked: the mean times on "
                            "one duration axis"));
    bar->addWidget(m_shares);
    connect(m_shares, &QToolButton::clicked, this, [this](bool checked) { setShowShares(checked); });

    bar->addSpacing(16);
    auto *windowLabel = new QLabel(tr("&Window "), this);
    windowLabel->setBuddy(m_window);
    bar->addWidget(windowLabel);
    m_window->setToolTip(tr("The width of the load profile's time windows; automatic gives 100 to 200 of them"));
    m_window->addItem(tr("auto"), qint64(0));
    for (const qint64 seconds : {1, 5, 10, 30, 60, 300})
        m_window->addItem(loadtext::roundDuration(static_cast<double>(seconds * kSecond)), seconds * kSecond);
    m_window->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_window->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed); // "auto (15 min)" whole, not "auto (1"
    connect(m_window, &QComboBox::activated, this, [this] { emit windowWidthChanged(windowWidth()); });
    bar->addWidget(m_window);
    bar->addStretch(1);

    m_predictedP95 = m_decomposition->addGraph(m_decomposition->xAxis, m_decomposition->yAxis);
    m_predictedP95->setName(tr("e2e p95, predicted"));
    m_predictedP95->setPen(QPen(kPredictedP95Color, 2, Qt::DashLine));
    m_predictedP95->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kPredictedP95Color, 1.5), Qt::NoBrush, 7));
    m_predictedThroughput = m_profile->addGraph(m_profile->xAxis, m_profile->yAxis);
    m_predictedThroughput->setName(tr("completion throughput, predicted"));
    m_predictedThroughput->setPen(QPen(kPredictedThroughputColor, 2, Qt::DashLine));
    m_predictedInFlight = m_profile->addGraph(m_profile->xAxis, m_profile->yAxis2);
    m_predictedInFlight->setName(tr("requests in flight, predicted (right axis)"));
    m_predictedInFlight->setPen(QPen(kPredictedInFlightColor, 1.5, Qt::DashLine));
    setData(nullptr);
}

void LoadView::setData(std::shared_ptr<const lx::LoadChartData> data)
{
    m_data = std::move(data);
    m_decomposition->setData(m_data);
    m_profile->setData(m_data);
    // Without arrival times the charts would be empty axes: the sentence says why instead.
    const bool drawable = !m_data || !m_data->noArrivalTimes();
    m_decomposition->setVisible(drawable);
    m_profile->setVisible(drawable);
    updateSentence();
    updateAutoText();
    updateScale();
    drawPrediction();
}

void LoadView::setLoadKey(lx::LoadKey key)
{
    m_keys->button(static_cast<int>(key))->setChecked(true);
    m_decomposition->setLoadKey(key);
    updateScale();
    drawPrediction();
}

lx::LoadKey LoadView::loadKey() const { return m_decomposition->loadKey(); }

void LoadView::setShowShares(bool shares)
{
    m_chosenShares = shares;
    updateScale();
    drawPrediction();
}

bool LoadView::showsShares() const { return m_decomposition->showsShares(); }

void LoadView::updateScale()
{
    const bool shares = m_chosenShares.value_or(m_data && lx::bucketsSpanTenfold(m_data->analysis(loadKey())));
    m_shares->setChecked(shares);
    m_decomposition->setShowShares(shares);
}

void LoadView::setWindowWidth(qint64 ns)
{
    int index = m_window->findData(ns);
    if (index < 0) {
        m_window->addItem(loadtext::roundDuration(static_cast<double>(ns)), ns);
        index = m_window->count() - 1;
    }
    m_window->setCurrentIndex(index);
}

qint64 LoadView::windowWidth() const { return m_window->currentData().toLongLong(); }

QString LoadView::sentence() const { return m_sentence->text(); }

Chart *LoadView::decompositionChart() const { return m_decomposition; }

Chart *LoadView::profileChart() const { return m_profile; }

void LoadView::updateSentence()
{
    if (!m_data) {
        m_sentence->setText(tr("No load data yet."));
        return;
    }
    // Core's sentence, whole: the knee's figures and the dominant segments on both sides, or why there is none.
    const QString text
        = QString::fromStdString(m_data->byArrivalRate.sentence(loadtext::windowControl().toStdString()));
    m_sentence->setText(text.isEmpty() ? text : text.left(1).toUpper() + text.mid(1) + QLatin1Char('.'));
}

void LoadView::updateAutoText()
{
    // "auto (10 s)": what the automatic choice came to on the data shown.
    const bool automatic = windowWidth() == 0;
    const qint64 width = m_data ? m_data->byArrivalRate.profile.windowNs : 0;
    m_window->setItemText(0, automatic && width > 0 ? tr("auto (%1)").arg(loadtext::roundDuration(static_cast<double>(width))) : tr("auto"));
}

void LoadView::setPrediction(std::shared_ptr<const lx::LoadChartData> prediction)
{
    m_prediction = std::move(prediction);
    drawPrediction();
}

void LoadView::drawPrediction()
{
    if (!m_predictedP95) // the constructor's first setData(): the graphs come after it
        return;
    drawPredictedDecomposition();
    drawPredictedProfile();
    m_decomposition->replot(QCustomPlot::rpQueuedReplot);
    m_profile->replot(QCustomPlot::rpQueuedReplot);
}

void LoadView::drawPredictedDecomposition()
{
    m_predictedP95->data()->clear();
    const lx::LoadAnalysis *load = m_prediction ? &m_prediction->analysis(loadKey()) : nullptr;
    const bool shown = load && m_data && !load->buckets.empty();
    m_predictedP95->setVisible(shown);
    m_predictedP95->removeFromLegend();
    if (!shown)
        return;
    // On the observed p95's axis: the duration axis, or the right one in shares.
    m_predictedP95->setValueAxis(m_decomposition->p95Line()->valueAxis());
    const bool logAxis = m_decomposition->xAxis->scaleType() == QCPAxis::stLogarithmic;
    double keyLo = INFINITY, keyHi = -INFINITY, valueLo = INFINITY, valueHi = -INFINITY;
    for (const lx::LoadBucket &bucket : load->buckets) {
        const double key = bucketKey(bucket, logAxis);
        m_predictedP95->addData(key, bucket.e2eP95Ns.value_or(nan()));
        keyLo = std::min(keyLo, key);
        keyHi = std::max(keyHi, key);
        if (bucket.e2eP95Ns && *bucket.e2eP95Ns > 0) {
            valueLo = std::min(valueLo, *bucket.e2eP95Ns);
            valueHi = std::max(valueHi, *bucket.e2eP95Ns);
        }
    }
    m_predictedP95->addToLegend();
    widen(m_decomposition->xAxis, keyLo, keyHi, 0.05);
    widen(m_predictedP95->valueAxis(), valueLo, valueHi, 0.12);
}

void LoadView::drawPredictedProfile()
{
    m_predictedThroughput->data()->clear();
    m_predictedInFlight->data()->clear();
    const lx::LoadProfile *predicted = m_prediction ? &m_prediction->overTime : nullptr;
    const lx::LoadProfile *observed = m_profile->profile();
    const bool shown = predicted && observed && !predicted->windows.empty() && !observed->windows.empty();
    for (QCPGraph *graph : {m_predictedThroughput, m_predictedInFlight}) {
        graph->setVisible(shown);
        if (shown)
            graph->addToLegend(); // false when it is there already
        else
            graph->removeFromLegend();
    }
    if (!shown)
        return;
    // On the observed chart's time axis (seconds since its first window); a replay keeps the observed
    // arrival times, so the two line up, and scaled arrivals stay within the same span.
    const double origin = static_cast<double>(observed->windows.front().startNs);
    double keyLo = INFINITY, keyHi = -INFINITY, rateHi = 0, inFlightHi = 0;
    for (const lx::LoadWindow &w : predicted->windows) {
        const double key = (static_cast<double>(w.startNs) - origin + static_cast<double>(predicted->windowNs) / 2) / 1e9;
        m_predictedThroughput->addData(key, w.throughputRps);
        m_predictedInFlight->addData(key, w.meanInFlight);
        keyLo = std::min(keyLo, key);
        keyHi = std::max(keyHi, key);
        rateHi = std::max(rateHi, w.throughputRps);
        inFlightHi = std::max(inFlightHi, w.meanInFlight);
    }
    widen(m_profile->xAxis, keyLo, keyHi, 0.02);
    widen(m_profile->yAxis, 0, rateHi, 0.12);
    widen(m_profile->yAxis2, 0, inFlightHi, 0.12);
}
