// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.h"
#include "analysis/load_chart_data.h"

#include <array>
#include <memory>
#include <optional>

/// \file load_decomposition_chart.h
/// The decomposition under load, the product's headline chart: per load bucket (arrival rate or requests
/// in flight of the windows) the mean time of each segment stacked, network on top down to unattributed as
/// the legend lists them, with the e2e p95 of the bucket as a line over the bars on the same duration axis,
/// and the knee marked by a vertical line with its figures and a light shade over the load past it. Every
/// number comes from core's lx::LoadAnalysis; hovering a bucket shows its figures.
class LoadDecompositionChart : public Chart {
    Q_OBJECT

public:
    explicit LoadDecompositionChart(QWidget *parent = nullptr);

    /// Null clears.
    void setData(std::shared_ptr<const lx::LoadChartData> data);
    void setLoadKey(lx::LoadKey key);
    lx::LoadKey loadKey() const { return m_key; }
    /// The analysis drawn (of the current key), null without data.
    const lx::LoadAnalysis *analysis() const;

    int bucketCount() const;
    /// Read back from what is drawn: the height of a segment's part of a bucket's bar, in ns.
    double drawnSegmentMean(int bucket, int segment) const;
    /// The p95 line's value at a bucket, nullopt where the line has a gap (a bucket without requests).
    std::optional<double> drawnP95(int bucket) const;
    /// Where the knee line stands on the load axis, nullopt when there is no knee.
    std::optional<double> kneePosition() const;
    /// The knee line's label as drawn, empty without a knee.
    QString kneeLabel() const;

    /// The bucket whose load range is under `pixel` (in the plot), if any.
    std::optional<int> bucketAt(const QPointF &pixel) const;
    /// The middle of a bucket's bar in pixels.
    QPointF bucketCentre(int bucket) const;
    /// The hover readout of a bucket: its load range, count, e2e p95 and mean, each segment's mean.
    QString tooltipFor(int bucket) const;

    QCPBars *segmentBars(int segment) const { return m_bars[static_cast<std::size_t>(segment)]; }
    QCPGraph *p95Line() const { return m_p95; }

    void applyPalette() override;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void rebuild();
    void useLogAxis(bool log);
    void placeKnee(double lo, double hi);
    double keyOf(const lx::LoadBucket &bucket) const;

    std::shared_ptr<const lx::LoadChartData> m_data;
    lx::LoadKey m_key = lx::LoadKey::ArrivalRate;
    std::array<QCPBars *, lx::kSegmentCount> m_bars{};
    QCPGraph *m_p95 = nullptr;
    QCPItemStraightLine *m_kneeLine = nullptr;
    QCPItemRect *m_pastKnee = nullptr;
    QCPItemText *m_kneeText = nullptr;
    bool m_logAxis = false; ///< the load axis is logarithmic (geometric buckets)
    std::optional<double> m_kneeX;
    QCPTextElement *m_title = nullptr;
};
