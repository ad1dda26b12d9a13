// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "waterfall_chart.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QToolButton;

/// \file waterfall_view.h
/// The waterfall timeline view: a small toolbar (sort order, lanes, fit) over the WaterfallChart. The caller
/// reads lx::WaterfallData off the UI thread (lx::loadWaterfall()) and hands it over; the view draws it,
/// says which request the user clicked and which time range they marked.
class WaterfallView : public QWidget {
    Q_OBJECT

public:
    explicit WaterfallView(QWidget *parent = nullptr);

    /// The requests to show (null clears), fitted to the view.
    void setData(std::shared_ptr<const lx::WaterfallData> data);
    WaterfallChart *chart() const { return m_chart; }
    QComboBox *sortSelector() const { return m_sort; }
    QToolButton *lanesButton() const { return m_lanes; }
    QToolButton *fitButton() const { return m_fit; }

    /// The sort orders the selector offers, in its order.
    static std::vector<lx::WaterfallSort> sortChoices();

public slots:
    /// Highlights the request with that row id and scrolls to it (the table selected it).
    void setSelectedRequest(qint64 rowId);

signals:
    /// The user clicked a request in the chart: its requests.id.
    void requestSelected(qint64 rowId);
    /// The user marked [startNs, endNs) on the time axis (Shift+drag): a filter `start >= ... and start < ...`.
    void timeRangeSelected(qint64 startNs, qint64 endNs);

private:
    void updateSummary();

    WaterfallChart *m_chart = nullptr;
    QComboBox *m_sort = nullptr;
    QToolButton *m_lanes = nullptr;
    QToolButton *m_fit = nullptr;
    QLabel *m_summary = nullptr;
};
