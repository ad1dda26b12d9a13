// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_tabs.h"

#include "cdf_comparison_bar.h"
#include "analysis/cdf_data.h"
#include "cdf_view.h"
#include "analysis/dominant_breakdown.h"
#include "dominant_view.h"
#include "filter_bar.h"
#include "filter/filter_text.h"
#include "investigation.h"
#include "load_tab.h"
#include "analysis/waterfall_data.h"
#include "waterfall_view.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace {

/// `start >= A and start < B` as people write it (filter_text.h): dates, or offsets from 0 when the
/// trace's times are offsets from an unknown origin.
QString timeRangeExpression(qint64 startNs, qint64 endNs, bool relative)
{
    return QString::fromStdString("start >= " + lx::filterInstant(startNs, relative) + " and start < "
                                  + lx::filterInstant(endNs, relative));
}

} // namespace

ChartTabs::ChartTabs(Investigation *investigation, FilterBar *filterBar, QTabWidget *tabs, QObject *parent)
    : QObject(parent)
    , m_investigation(investigation)
    , m_filterBar(filterBar)
    , m_tabs(tabs)
    , m_waterfall(new WaterfallView(tabs))
    , m_cdfPage(new QWidget(tabs))
    , m_cdf(new CdfView(m_cdfPage))
    , m_comparison(new CdfComparisonBar(m_cdfPage))
    , m_dominant(new DominantView(tabs))
    , m_loadTab(new LoadTab(investigation, filterBar, tabs))
    , m_waterfallLoad(
          this,
          [](const lx::Store &store, const lx::RequestFilter &filter, const std::atomic<bool> &cancel) {
              return lx::loadWaterfall(store, filter, &cancel);
          },
          [this](std::shared_ptr<const lx::WaterfallData> data) {
              m_waterfall->setData(std::move(data));
              emit settled();
          })
    , m_cdfLoad(
          this,
          [](const lx::Store &store, const lx::RequestFilter &filter, const std::atomic<bool> &) {
              return std::make_shared<const lx::CdfData>(lx::computeCdfData(store, filter));
          },
          [this](std::shared_ptr<const lx::CdfData> data) {
              m_cdf->setData(std::move(data), tr("A: the filter"));
              emit settled();
          })
    , m_comparisonLoad(
          this,
          [](const lx::Store &store, const lx::RequestFilter &filter, const std::atomic<bool> &) {
              return std::make_shared<const lx::CdfData>(lx::computeCdfData(store, filter));
          },
          [this](std::shared_ptr<const lx::CdfData> data) {
              m_cdf->setComparison(std::move(data), m_comparison->label());
              emit settled();
          })
    , m_dominantLoad(
          this,
          [](const lx::Store &store, const lx::RequestFilter &filter, const std::atomic<bool> &) {
              return std::make_shared<const lx::DominantBreakdown>(lx::computeDominantBreakdown(store, filter));
          },
          [this](std::shared_ptr<const lx::DominantBreakdown> data) {
              m_dominant->setData(std::move(data));
              emit settled();
          })
{
    auto *cdfLayout = new QVBoxLayout(m_cdfPage);
    cdfLayout->setContentsMargins(0, 0, 0, 0);
    cdfLayout->setSpacing(0);
    cdfLayout->addWidget(m_comparison);
    cdfLayout->addWidget(m_cdf, 1);

    m_tabs->addTab(m_waterfall, tr("Waterfall"));
    m_tabs->addTab(m_cdfPage, tr("CDFs"));
    m_tabs->addTab(m_dominant, tr("Dominant Segment"));
    m_tabs->addTab(m_loadTab, tr("Load"));
    connect(m_loadTab, &LoadTab::settledChanged, this, &ChartTabs::settled);
    connect(m_loadTab, &LoadTab::filterNarrowed, this, &ChartTabs::filterNarrowed);

    connect(m_investigation, &Investigation::storeChanged, this, &ChartTabs::invalidate);
    connect(m_investigation, &Investigation::filterChanged, this, &ChartTabs::invalidate);
    connect(m_investigation, &Investigation::previewChanged, this, &ChartTabs::invalidate);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ChartTabs::loadVisible);
    connect(m_comparison, &CdfComparisonBar::comparisonChanged, this, &ChartTabs::loadComparison);

    // The waterfall's picture is final once its rows are arranged and its density image made (both on
    // workers at scale); queued, so that the replot they ask for comes first.
    connect(m_waterfall->chart(), &WaterfallChart::rowsArranged, this, &ChartTabs::settled, Qt::QueuedConnection);
    connect(m_waterfall->chart(), &WaterfallChart::densityReady, this, &ChartTabs::settled, Qt::QueuedConnection);
    connect(m_waterfall, &WaterfallView::requestSelected, this, &ChartTabs::requestSelected);
    connect(m_waterfall, &WaterfallView::timeRangeSelected, this, [this](qint64 startNs, qint64 endNs) {
        const auto &data = m_waterfall->chart()->data();
        m_filterBar->narrow(timeRangeExpression(startNs, endNs, data && data->relativeTime));
        emit filterNarrowed(tr("Filtered to the marked time range"));
    });
    connect(m_dominant, &DominantView::filterRequested, this, [this](const QString &expression, const QString &description) {
        m_filterBar->narrow(expression);
        emit filterNarrowed(description);
    });
}

ChartTabs::~ChartTabs() = default;

bool ChartTabs::currentSettled() const
{
    QWidget *current = m_tabs->currentWidget();
    if (current == m_waterfall)
        return !m_waterfallLoad.running() && !m_waterfallLoad.stale() && !m_waterfall->chart()->drawing();
    if (current == m_cdfPage)
        return !m_cdfLoad.running() && !m_cdfLoad.stale() && !m_comparisonLoad.running();
    if (current == m_dominant)
        return !m_dominantLoad.running() && !m_dominantLoad.stale();
    if (current == m_loadTab)
        return m_loadTab->settled();
    return true; // not a chart
}

bool ChartTabs::busy() const
{
    return m_waterfallLoad.running() || m_cdfLoad.running() || m_comparisonLoad.running() || m_dominantLoad.running() ||
           !m_loadTab->settled();
}

void ChartTabs::selectRequest(qint64 rowId) { m_waterfall->setSelectedRequest(rowId); }

void ChartTabs::invalidate()
{
    // While an open writes the store, the charts may read the requests read for the summary.
    const lx::RequestFilter filter = m_investigation->filter();
    const ViewSource source = m_investigation->viewSource(filter);
    m_waterfallLoad.invalidate(source, filter);
    m_cdfLoad.invalidate(source, filter);
    m_dominantLoad.invalidate(source, filter);
    m_loadTab->invalidate();
    if (source.empty()) {
        m_waterfall->setData(nullptr);
        m_cdf->setData(nullptr);
        m_cdf->setComparison(nullptr);
        m_dominant->setData(nullptr);
    }
    loadComparison(); // B follows A's filter when it has none of its own
    loadVisible();
}

void ChartTabs::loadComparison()
{
    // B reads written stores only: its own filter may be one that held requests cannot decide.
    const bool readable = m_investigation->hasStore() && !m_investigation->importing();
    if (!m_comparison->active() || !readable) {
        m_comparisonLoad.invalidate({}, {});
        m_cdf->setComparison(nullptr);
        return;
    }
    const std::string file = m_comparison->storeFile().isEmpty() ? m_investigation->store()->fileName()
                                                                 : m_comparison->storeFile().toStdString();
    const bool ownFilter = !m_comparison->expression().isEmpty();
    m_comparisonLoad.invalidate({file, nullptr}, ownFilter ? m_comparison->filter() : m_investigation->filter());
    loadVisible();
}

void ChartTabs::loadVisible()
{
    QWidget *current = m_tabs->currentWidget();
    if (current == m_waterfall) {
        m_waterfallLoad.loadIfStale();
    } else if (current == m_cdfPage) {
        m_cdfLoad.loadIfStale();
        m_comparisonLoad.loadIfStale();
    } else if (current == m_dominant) {
        m_dominantLoad.loadIfStale();
    } else if (current == m_loadTab) {
        m_loadTab->loadIfStale();
    }
}
