// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "analysis/load_chart_data.h"
#include "whatif/whatif_run.h"

#include <QStringList>
#include <QWidget>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace lx {
class Store;
}

/// What a run of the panel leaves: core's outcome, the one sentence, the predicted load for the load view's
/// overlay, and the simulated investigation it was read from (a temporary store, kept while it is shown).
struct WhatIfPanelResult {
    lx::whatif::WhatIfOutcome outcome;
    std::string summary;                                 ///< whatif_text.h's sentence; empty without a prediction
    bool fittedToTheFilter = false; ///< "Only the filtered requests" was ticked (a caution is said)
    std::shared_ptr<const lx::LoadChartData> predictedLoad; ///< null without a prediction
    std::shared_ptr<lx::Store> simulated;                ///< the replay's temporary store
    std::string error;                                   ///< a store that could not be opened or made
};

/// \file whatif_panel.h
/// "What if" on the Load tab (docs/WHATIF.md): the changes as controls (replicas and their router, the
/// arrivals scaled, the concurrency limit, a cap on the prompts, a faster postprocess), a Run button (and
/// Enter), Cancel (and Esc) with a progress bar while core's runWhatIf() fits and replays on a worker (a
/// BackgroundJob on a connection of its own, into a temporary store), and the result: core's sentence
/// ("with 2 replicas (rr) p99 e2e 41 s → 6.2 s; queue no longer dominates most requests"), observed and predicted p50
/// and p99 of e2e, TTFT, queue and decode side by side, the SLO targets' verdicts on both sides, or core's reason for
/// refusing. The predicted load goes to whoever draws it (predictionChanged): the Load tab's LoadView, dashed beside
/// the observed.
class WhatIfPanel : public QWidget {
    Q_OBJECT

public:
    /// The rows of the result table, in this order.
    enum Row { E2eRow, TtftRow, QueueRow, DecodeRow, RowCount };
    /// Its columns after the metric's name.
    enum Column { MetricColumn, ObservedP50Column, PredictedP50Column, ObservedP99Column, PredictedP99Column, ColumnCount };

    explicit WhatIfPanel(QWidget *parent = nullptr);

    /// The observed investigation's file (a store the worker opens on its own connection); empty for none.
    /// A different file clears the result, and a run in progress is cancelled.
    void setStoreFile(const std::string &file);
    const std::string &storeFile() const { return m_storeFile; }
    /// The window width the predicted load is computed with (the load view's; 0: automatic).
    void setWindowWidth(qint64 ns) { m_windowNs = ns; }
    /// The view's filter and its words ("" for none): the model is fitted to the filtered requests only when
    /// the "only the filtered requests" box is ticked (a fit needs the load of the whole server, so not by
    /// default: the requests the filter hides held slots too).
    void setFilter(const lx::RequestFilter &filter, const QString &text);
    /// The SLO targets (core's grammar) evaluated on both sides of the next run; unparsable ones are left out.
    void setSloTargets(const QStringList &texts);

    /// The changes as the controls say them.
    lx::whatif::ReplayChanges changes() const;

    /// Starts a run with the controls' changes (a run in progress is superseded); nothing without a store.
    void run();
    /// Stops the run in progress: nothing of it is shown.
    void cancel();
    /// Lets the result go (the load view's overlay with it, by predictionChanged) and its temporary store.
    void clearResult();
    bool running() const { return m_job.running(); }

    /// The result shown, null without one (none yet, cancelled, cleared).
    const WhatIfPanelResult *result() const { return m_result.get(); }
    /// The sentence or the reason shown under the controls.
    QString message() const;

    QSpinBox *replicasBox() const { return m_replicas; }
    QComboBox *routerBox() const { return m_router; }
    QDoubleSpinBox *arrivalsBox() const { return m_arrivals; }
    QSpinBox *limitBox() const { return m_limit; }
    QSpinBox *inputCapBox() const { return m_inputCap; }
    QDoubleSpinBox *postprocessBox() const { return m_postprocess; }
    QCheckBox *onlyFilteredBox() const { return m_onlyFiltered; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QTableWidget *resultTable() const { return m_table; }

signals:
    /// The predicted load to draw dashed over the observed one; null when there is none any more.
    void predictionChanged(std::shared_ptr<const lx::LoadChartData> prediction);
    /// A run ended: its result, its refusal or its error shown, or it was cancelled.
    void finished();

protected:
    /// Enter runs, Esc cancels: the keys the spin boxes and buttons pass on.
    void keyPressEvent(QKeyEvent *event) override;

private:
    void showResult(std::shared_ptr<WhatIfPanelResult> result);
    void fillTable(const lx::whatif::Side &observed, const lx::whatif::Side &predicted);
    void setRunning(bool running);
    void setMessage(const QString &text);

    std::string m_storeFile;
    qint64 m_windowNs = 0;
    lx::RequestFilter m_filter;
    QString m_filterText;
    std::vector<lx::SloTarget> m_sloTargets;
    QSpinBox *m_replicas = nullptr;
    QComboBox *m_router = nullptr;
    QDoubleSpinBox *m_arrivals = nullptr;
    QSpinBox *m_limit = nullptr;
    QSpinBox *m_inputCap = nullptr;
    QDoubleSpinBox *m_postprocess = nullptr;
    QCheckBox *m_onlyFiltered = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_message = nullptr;
    QTableWidget *m_table = nullptr;
    QTimer *m_progressPoll = nullptr;
    /// The running replay's progress, written by the worker and read by m_progressPoll on the UI thread.
    struct Progress {
        std::atomic<std::int64_t> done{0}, total{0};
    };
    std::shared_ptr<Progress> m_runProgress;
    std::shared_ptr<WhatIfPanelResult> m_result;
    BackgroundJob<std::shared_ptr<WhatIfPanelResult>> m_job{this};
};
