// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.h"
#include "analysis/load_chart_data.h"

#include <array>
#include <memory>
#include <optional>

/// \file load_decomposition_chart.h
/// The decomposition under load, the product's headline chart: per load bucket (arrival rate or requests
/// in flight of the windows) each segment stacked, network on top down to unattributed as the legend
/// lists them, either as mean times, with the e2e p95 of the bucket as a line over the bars on the same
/// duration axis, or as shares of the bucket's mean e2e (100%-stacked: hour-long queues past the knee
/// would flatten the buckets below it to nothing), with the p95 on the right axis. The right axis, a
/// logarithmic duration one, also carries each bucket's mean TTFT and TPOT: TTFT takes the queue on, TPOT
/// barely changes. The knee is marked by a vertical line with its figures and a light shade over the load
/// past it. Every number comes from core (lx::LoadChartData); hovering a bucket shows its figures.
class LoadDecompositionChart : public Chart {
    Q_OBJECT

public:
    explicit LoadDecompositionChart(QWidget *parent = nullptr);

    /// Null clears.
    void setData(std::shared_ptr<const lx::LoadChartData> data);
    void setLoadKey(lx::LoadKey key);
    lx::LoadKey loadKey() const { return m_key; }
    /// Segment shares of each bucket's mean e2e (true) or mean times (false).
    void setShowShares(bool shares);
    bool showsShares() const { return m_shares; }
    /// The analysis drawn (of the current key), null without data.
    const lx::LoadAnalysis *analysis() const;

    int bucketCount() const;
    /// Read back from what is drawn: the height of a segment's part of a bucket's bar, in ns.
    double drawnSegmentMean(int bucket, int segment) const;
    /// The p95 line's value at a bucket, nullopt where the line has a gap (a bucket without requests).
    std::optional<double> drawnP95(int bucket) const;
    /// The mean TTFT and TPOT lines' values at a bucket, nullopt where they have a gap.
    std::optional<double> drawnTtft(int bucket) const;
    std::optional<double> drawnTpot(int bucket) const;
    /// Where the knee line stands on the load axis, nullopt when there is no knee.
    std::optional<double> kneePosition() const;
    /// The knee line's label as drawn (on two lines when one fits neither side of the line), empty without a knee.
    QString kneeLabel() const;

    /// The bucket whose load range is under `pixel` (in the plot), if any.
    std::optional<int> bucketAt(const QPointF &pixel) const;
    /// The middle of a bucket's bar in pixels.
    QPointF bucketCentre(int bucket) const;
    /// The hover readout of a bucket: its load range, count, e2e p95 and mean, each segment's mean.
    QString tooltipFor(int bucket) const;

    QCPBars *segmentBars(int segment) const { return m_bars[static_cast<std::size_t>(segment)]; }
    QCPGraph *p95Line() const { return m_p95; }
    QCPGraph *ttftLine() const { return m_ttft; }
    QCPGraph *tpotLine() const { return m_tpot; }
    QCPItemText *kneeText() const { return m_kneeText; }
    /// The title as drawn: on two lines when one would not fit the plot's width.
    QString title() const;

    void applyPalette() override;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void fitTitle();
    void fitKneeLabel();
    void fitLegend();
    void rangeTokenAxis(double lo, double hi);
    void useLogAxis(bool log);
    void placeKnee(double lo, double hi);
    double keyOf(const lx::LoadBucket &bucket) const;

    std::shared_ptr<const lx::LoadChartData> m_data;
    lx::LoadKey m_key = lx::LoadKey::ArrivalRate;
    std::array<QCPBars *, lx::kSegmentCount> m_bars{};
    QCPGraph *m_p95 = nullptr;
    QCPGraph *m_ttft = nullptr;
    QCPGraph *m_tpot = nullptr;
    bool m_shares = false;
    QSharedPointer<QCPAxisTicker> m_durationTicker;
    QSharedPointer<QCPAxisTicker> m_shareTicker;
    QString m_titleHead, m_titleDetail;
    QCPItemStraightLine *m_kneeLine = nullptr;
    QCPItemRect *m_pastKnee = nullptr;
    QCPItemText *m_kneeText = nullptr;
    bool m_logAxis = false; ///< the load axis is logarithmic (geometric buckets)
    std::optional<double> m_kneeX;
    QCPTextElement *m_title = nullptr;
};
