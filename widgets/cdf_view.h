// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cdf_chart.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QToolButton;

/// \file cdf_view.h
/// The per-segment CDF view: a small toolbar (log or linear x axis, the metric the p50/p90/p99 guides
/// mark) over the CdfChart. The caller computes lx::CdfData off the UI thread (lx::computeCdfData()) and
/// hands it over; the view draws it.
class CdfView : public QWidget {
    Q_OBJECT

public:
    explicit CdfView(QWidget *parent = nullptr);

    /// The data set drawn in solid lines (null clears); `label` names it once a comparison is shown.
    void setData(std::shared_ptr<const lx::CdfData> data, const QString &label = {});
    /// A second data set (another filter, another investigation) drawn dashed and labelled; null removes it.
    void setComparison(std::shared_ptr<const lx::CdfData> data, const QString &label = {});

    CdfChart *chart() const { return m_chart; }
    QToolButton *logScaleButton() const { return m_logScale; }
    QComboBox *guideSelector() const { return m_guideMetric; }

private:
    void updateGuideChoices();

    CdfChart *m_chart = nullptr;
    QToolButton *m_logScale = nullptr;
    QComboBox *m_guideMetric = nullptr;
};
