// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_load.h"

#include <QObject>
#include <QString>

#include <memory>

class CdfComparisonBar;
class CdfView;
class DominantView;
class FilterBar;
class Investigation;
class LoadTab;
class QTabWidget;
class QWidget;
class WaterfallView;

namespace lx {
struct CdfData;
struct DominantBreakdown;
struct WaterfallData;
} // namespace lx

/// The chart tabs of a window and what links them: each chart's data is computed in the background when
/// its tab is shown (a filter change only marks the hidden ones stale); a click in a chart selects the
/// request everywhere, or narrows the filter every view follows (Back undoes it).
class ChartTabs : public QObject {
    Q_OBJECT

public:
    ChartTabs(Investigation *investigation, FilterBar *filterBar, QTabWidget *tabs, QObject *parent = nullptr);
    ~ChartTabs() override;

    WaterfallView *waterfall() const { return m_waterfall; }
    CdfView *cdf() const { return m_cdf; }
    DominantView *dominant() const { return m_dominant; }
    CdfComparisonBar *comparisonBar() const { return m_comparison; }
    LoadTab *loadTab() const { return m_loadTab; }
    QWidget *cdfPage() const { return m_cdfPage; }
    /// A chart's data is being computed.
    bool busy() const;
    /// The tab on screen, if it is a chart, shows the current filter's data.
    bool currentSettled() const;

public slots:
    /// The request selected elsewhere (the table): highlighted in the waterfall.
    void selectRequest(qint64 rowId);

signals:
    void requestSelected(qint64 rowId);
    /// A chart narrowed the filter: a message for the status bar.
    void filterNarrowed(const QString &description);
    /// The chart on screen shows the current filter's data.
    void settled();

private:
    void invalidate();
    void loadVisible();
    void loadComparison();

    Investigation *m_investigation;
    FilterBar *m_filterBar;
    QTabWidget *m_tabs;
    WaterfallView *m_waterfall;
    QWidget *m_cdfPage;
    CdfView *m_cdf;
    CdfComparisonBar *m_comparison;
    DominantView *m_dominant;
    LoadTab *m_loadTab;
    BackgroundLoad<lx::WaterfallData> m_waterfallLoad;
    BackgroundLoad<lx::CdfData> m_cdfLoad;
    BackgroundLoad<lx::CdfData> m_comparisonLoad;
    BackgroundLoad<lx::DominantBreakdown> m_dominantLoad;
};
