// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "dominant_chart.h"

#include <QWidget>

#include <memory>

class QButtonGroup;
class QLabel;

/// \file dominant_view.h
/// The dominant-segment view: a toolbar choosing overall, per e2e latency band or over time, above the
/// DominantChart. The caller computes lx::DominantBreakdown off the UI thread
/// (lx::computeDominantBreakdown()) and hands it over; a click on a bar asks for a filter.
class DominantView : public QWidget {
    Q_OBJECT

public:
    explicit DominantView(QWidget *parent = nullptr);

    /// Null clears.
    void setData(std::shared_ptr<const lx::DominantBreakdown> data);
    void setGrouping(DominantChart::Grouping grouping);

    DominantChart *chart() const { return m_chart; }
    QButtonGroup *groupingButtons() const { return m_groupings; }

signals:
    /// A click on a part of a bar: the filter expression (docs/FILTER.md) that selects exactly its requests
    /// within the data the breakdown was computed on, and a description for people.
    void filterRequested(const QString &expression, const QString &description);

private:
    void updateNote();

    DominantChart *m_chart = nullptr;
    QButtonGroup *m_groupings = nullptr;
    QLabel *m_note = nullptr;
};
