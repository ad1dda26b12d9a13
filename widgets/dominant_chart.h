// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.h"
#include "analysis/dominant_breakdown.h"

#include <array>
#include <memory>
#include <optional>
#include <vector>

/// \file dominant_chart.h
/// The dominant-segment chart: the share of requests each segment dominates, overall (one bar per
/// segment), per e2e latency band or per time window (stacked 100 % bars, network on top, in pipeline
/// order down to unattributed, as the legend lists them). Every number comes from lx::DominantBreakdown;
/// a click on a part of a bar asks for the filter expression that core wrote for exactly those requests.
class DominantChart : public Chart {
    Q_OBJECT

public:
    enum class Grouping { Overall, LatencyBand, TimeWindow };

    explicit DominantChart(QWidget *parent = nullptr);

    void setData(std::shared_ptr<const lx::DominantBreakdown> data);
    const lx::DominantBreakdown *data() const { return m_data.get(); }
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }

    /// The bars of the current grouping (Overall: one, whose segments are drawn side by side).
    int barCount() const { return static_cast<int>(m_shown.size()); }
    const lx::DominantBar &bar(int index) const { return *m_shown[static_cast<std::size_t>(index)]; }
    /// The shares the chart holds for a bar, read back from what it draws, in segment order.
    std::array<double, lx::kSegmentCount> drawnShares(int bar) const;
    QCPBars *segmentBars(int segment) const { return m_bars[static_cast<std::size_t>(segment)]; }

    struct Cell {
        int bar = 0;
        int segment = 0;
    };
    /// The part of a bar under `pixel`, if any.
    std::optional<Cell> cellAt(const QPointF &pixel) const;
    /// The middle of a cell in pixels, nullopt for an empty one: where a click selects it.
    std::optional<QPointF> cellCentre(int bar, int segment) const;

    /// The text shown over the plot when no request has a dominant segment; empty otherwise.
    QString message() const;

    void applyPalette() override;

signals:
    /// A click on a cell: the filter expression selecting exactly its requests, and what they are.
    void filterRequested(const QString &expression, const QString &description);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    void rebuild();
    void layOutOverall();
    void layOutStacked();
    void addCellLabel(double key, double value, const QString &text, Qt::Alignment alignment, const QColor &colour);
    QString titleText() const;
    double keyOf(int bar) const;
    double widthOf(int bar) const;
    QString tooltipFor(const Cell &cell) const;

    std::shared_ptr<const lx::DominantBreakdown> m_data;
    Grouping m_grouping = Grouping::LatencyBand;
    std::vector<const lx::DominantBar *> m_shown;
    std::array<QCPBars *, lx::kSegmentCount> m_bars{};
    QCPGraph *m_volume = nullptr; ///< requests per window, on the right axis (time windows only)
    std::vector<QCPItemText *> m_labels;
    QCPTextElement *m_title = nullptr;
    QCPItemText *m_message = nullptr; ///< centred: why there are no bars
};
