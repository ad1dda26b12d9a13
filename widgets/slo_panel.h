// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/slo.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

/// \file slo_panel.h
/// The service level objectives: the targets as text (`e2e.p95<=2s`, `ttft.p99<500ms where model = "x"`,
/// core's grammar in docs/LOAD.md), each with its verdict (a word and an icon besides the colour), value,
/// margin, threshold and, for a failing one, core's segment budget ("at p95, queue is 61% of e2e"), the
/// verdict's columns first and as narrow as their texts, so that they fit beside the load view. A line
/// adds a target once core's parseSlo() accepts it, else it says why; a button removes the selected ones.
/// The caller keeps the targets (targetsChanged), evaluates them off the UI thread (lx::evaluateSlos())
/// and hands the results back (setResults()).
class SloPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { StatusColumn, TargetColumn, ValueColumn, MarginColumn, ThresholdColumn, BudgetColumn, ColumnCount };

    explicit SloPanel(QWidget *parent = nullptr);

    /// Replaces the targets (e.g. restored from the settings) without emitting targetsChanged; texts that
    /// core does not parse are left out. The results are cleared until setResults().
    void setTargets(const QStringList &texts);
    QStringList targets() const { return m_targets; }
    /// Shows the results of targets in the list, matched by text; targets without one show "not evaluated".
    void setResults(std::vector<lx::SloResult> results);

    /// Adds a target as the editor does: false, with core's reason shown under the editor, when it does not
    /// parse or is already in the list.
    bool addTarget(const QString &text);
    void removeTarget(int row);

    /// The error shown under the editor, empty when none.
    QString errorText() const;
    QTreeWidget *table() const { return m_table; }
    QLineEdit *editor() const { return m_editor; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }

signals:
    /// The targets were added to or removed from by the user.
    void targetsChanged(const QStringList &targets);

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuildRows();
    void fillRow(int row);
    void showError(const QString &text);

    QStringList m_targets;
    std::vector<lx::SloResult> m_results;
    QTreeWidget *m_table = nullptr;
    QLineEdit *m_editor = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_error = nullptr;
};
