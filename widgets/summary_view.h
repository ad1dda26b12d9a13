// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "model/duration_format.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

/// The investigation at a glance: the same numbers as `latency-explorer-cli report`, as tables. Each figure
/// says its scope; "—" marks what was not measured.
class SummaryView : public QWidget {
    Q_OBJECT

public:
    explicit SummaryView(QWidget *parent = nullptr);

    void setReport(const lx::Report &report);
    void clear(const QString &message);
    void setDurationUnit(lx::DurationUnit unit);
    /// The statistics table, for tests: rows are the segments, e2e, then TTFT, TPOT, ITL, TTLT.
    const QTableWidget *table() const { return m_table; }

signals:
    void showRejectedRequested();

private:
    void fill();

    lx::Report m_report;
    bool m_hasReport = false;
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    QLabel *m_counts;
    QPushButton *m_rejectedButton;
    QTableWidget *m_table;
    QLabel *m_dominant;
    QTableWidget *m_inputs;
};
