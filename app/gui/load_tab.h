// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_load.h"
#include "analysis/findings.h"
#include "analysis/load_chart_data.h"
#include "analysis/slo.h"

#include <QWidget>

class FilterBar;
class FindingsView;
class Investigation;
class LoadView;
class SloPanel;
class WhatIfPanel;

/// Everything the Load tab shows, from one read of the requests.
struct LoadTabData {
    lx::LoadChartData chart;
    std::vector<lx::Finding> findings;
    bool latencyMeasured = false; ///< some request has an e2e: findings could be looked for
    std::vector<lx::SloResult> slos;
};

/// The Load tab: the decomposition under load with its knee and the load over time (LoadView), the SLO
/// targets with their verdicts (SloPanel), the ranked findings (FindingsView) and "what if" (WhatIfPanel,
/// whose predicted load the LoadView draws dashed until the store or the filter changes). Computed in the
/// background when the tab is shown; the SLO targets are the user's, kept in the settings.
class LoadTab : public QWidget {
    Q_OBJECT

public:
    LoadTab(Investigation *investigation, FilterBar *filterBar, QWidget *parent = nullptr);

    LoadView *loadView() const { return m_load; }
    SloPanel *sloPanel() const { return m_slos; }
    FindingsView *findingsView() const { return m_findings; }
    WhatIfPanel *whatIfPanel() const { return m_whatIf; }
    const LoadTabData *data() const { return m_data.get(); }
    /// The store or the filter changed: what is shown is stale.
    void invalidate();
    /// Computes the data when it is stale (the tab is on screen).
    void loadIfStale() { m_job.loadIfStale(); }
    bool settled() const { return !m_job.running() && !m_job.stale(); }

signals:
    void settledChanged();
    /// A finding narrowed the filter: a message for the status bar.
    void filterNarrowed(const QString &description);

private:
    void updateCompute();

    Investigation *m_investigation;
    FilterBar *m_filterBar;
    LoadView *m_load;
    SloPanel *m_slos;
    FindingsView *m_findings;
    WhatIfPanel *m_whatIf;
    std::shared_ptr<const LoadTabData> m_data;
    BackgroundLoad<LoadTabData> m_job;
};
