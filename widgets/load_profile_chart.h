// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.h"
#include "analysis/load_chart_data.h"

#include <memory>
#include <optional>

class TimeTicker;

/// \file load_profile_chart.h
/// The load over time, per window of core's load profile: arrival rate and completion throughput in
/// req/s on the left axis, the time-average of the requests in flight as a shaded area on the right one,
/// the moment the load first passed the knee as a vertical line and the knee's rate (what the server
/// completes once past it) as a horizontal one, where the throughput levels off. Times are seconds since the first
/// window's start, labelled as UTC times or, for relative traces, as offsets. Hovering a window shows its
/// figures, segment means and p95 included.
class LoadProfileChart : public Chart {
    Q_OBJECT

public:
    explicit LoadProfileChart(QWidget *parent = nullptr);

    /// Null clears.
    void setData(std::shared_ptr<const lx::LoadChartData> data);
    const lx::LoadProfile *profile() const { return m_data ? &m_data->overTime : nullptr; }

    /// The title as drawn: it says why the chart is empty when it is.
    QString title() const;
    int windowCount() const { return profile() ? static_cast<int>(profile()->windows.size()) : 0; }
    QCPGraph *arrivalLine() const { return m_arrivals; }
    QCPGraph *throughputLine() const { return m_throughput; }
    QCPGraph *inFlightArea() const { return m_inFlight; }
    /// Where the knee's time stands on the time axis (s since the first window), nullopt without a knee.
    std::optional<double> kneeTime() const { return m_kneeTime; }
    /// Where the knee's rate stands on the req/s axis, nullopt without a knee.
    std::optional<double> kneeRate() const { return m_kneeRate; }
    /// The knee rate line's label as drawn, empty without a knee.
    QString kneeRateLabel() const;
    QCPItemText *kneeTimeText() const { return m_kneeText; }
    /// Seconds since the first window's start of a window's middle, where its points are drawn.
    double keyOf(int window) const;

    /// The window under `pixel` (in the plot), if any.
    std::optional<int> windowAt(const QPointF &pixel) const;
    /// The hover readout of a window.
    QString tooltipFor(int window) const;

    void applyPalette() override;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void fitKneeText();

    std::shared_ptr<const lx::LoadChartData> m_data;
    QCPGraph *m_arrivals = nullptr;
    QCPGraph *m_throughput = nullptr;
    QCPGraph *m_inFlight = nullptr;
    QCPItemStraightLine *m_kneeLine = nullptr;
    QCPItemText *m_kneeText = nullptr;
    std::optional<double> m_kneeTime;
    QCPItemStraightLine *m_rateLine = nullptr;
    QCPItemText *m_rateText = nullptr;
    std::optional<double> m_kneeRate;
    QSharedPointer<TimeTicker> m_timeTicker;
    QCPTextElement *m_title = nullptr;
};
