// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/findings.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTreeWidget;

/// \file findings_view.h
/// The diagnosis: core's findings (lx::findFindings()) in their rank, most of the tail explained first,
/// with the selected one's evidence, likely fix and filter below the list. A double-click or "Show
/// requests" asks for the finding's filter, which core wrote to select exactly its requests.
class FindingsView : public QWidget {
    Q_OBJECT

public:
    enum Column { RankColumn, TitleColumn, TailColumn, CountColumn, ColumnCount };

    explicit FindingsView(QWidget *parent = nullptr);

    /// Without `latencyMeasured` (a workload trace: arrivals alone) no finding could be looked for, which
    /// the view says rather than "nothing stands out".
    void setFindings(std::vector<lx::Finding> findings, bool latencyMeasured = true);
    const std::vector<lx::Finding> &findings() const { return m_findings; }
    /// Selects a finding (its rank, from 0) and shows its details; -1 selects none.
    void setCurrentFinding(int index);
    int currentFinding() const;
    /// Emits filterRequested with the finding's filter.
    void showRequests(int index);

    QTreeWidget *list() const { return m_list; }
    QPushButton *showRequestsButton() const { return m_show; }
    /// The details shown for the current finding, as plain text.
    QString detailsText() const;

signals:
    /// The filter expression (docs/FILTER.md) of a finding, and its title for people.
    void filterRequested(const QString &expression, const QString &description);

private:
    void updateDetails();

    std::vector<lx::Finding> m_findings;
    bool m_latencyMeasured = true;
    QTreeWidget *m_list = nullptr;
    QLabel *m_details = nullptr;
    QPushButton *m_show = nullptr;
};
