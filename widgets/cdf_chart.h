// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/cdf_data.h"
#include "chart.h"

#include <array>
#include <memory>
#include <optional>

/// \file cdf_chart.h
/// The per-segment CDF chart: one curve per segment, e2e and TTFT from lx::CdfData (core computes every
/// number; this draws them), toggled by clicking their legend entry; a linear or logarithmic duration
/// axis; p50/p90/p99 guides of one metric labelled with their values; a hover readout of the nearest
/// curve; and a second data set (A/B) overlaid in dashed lines.
class CdfChart : public Chart {
    Q_OBJECT

public:
    explicit CdfChart(QWidget *parent = nullptr);
    /// The text shown over the plot when no curve can be drawn (nothing measured); empty otherwise.
    QString message() const;

    /// The data set drawn in solid lines, called `label` where a comparison needs the distinction. Null clears.
    void setData(std::shared_ptr<const lx::CdfData> data, const QString &label = {});
    /// A second data set drawn dashed over the first, called `label` in the legend; null removes it.
    void setComparison(std::shared_ptr<const lx::CdfData> data, const QString &label);
    const lx::CdfData *data() const { return m_data.get(); }
    const lx::CdfData *comparison() const { return m_comparison.get(); }

    void setLogX(bool log);
    bool isLogX() const { return m_logX; }

    /// Shows or hides a metric's curves (both data sets), as a click on its legend entry does.
    void setCurveVisible(int metric, bool visible);
    /// Shown, and measured in the data set: a metric without samples has no curve to show.
    bool isCurveVisible(int metric) const;
    /// The metric whose p50/p90/p99 the guides mark (e2e at first).
    void setGuideMetric(int metric);
    int guideMetric() const { return m_guideMetric; }
    /// Where guide `i` (of lx::kCdfGuidePercentiles) is drawn on the x axis, in ns; nullopt when not drawn.
    std::optional<double> guidePosition(int i) const;
    /// The guide's label as drawn ("p50 1.23 s").
    QString guideLabel(int i) const;

    QCPGraph *curve(int metric) const { return m_curves[static_cast<std::size_t>(metric)]; }
    QCPGraph *comparisonCurve(int metric) const { return m_comparisonCurves[static_cast<std::size_t>(metric)]; }
    /// The legend entry of a metric, for clicks.
    QCPAbstractLegendItem *legendItem(int metric) const;

    /// What the readout says for the pointer at `pixel`: the curve nearest to it and that curve's
    /// percentile at the pointer's value; nullopt outside the plot or when no curve is shown.
    struct Readout {
        int metric = 0;
        bool comparison = false;
        double valueNs = 0;
        double fraction = 0;
        QString text;
    };
    std::optional<Readout> readoutAt(const QPointF &pixel) const;
    /// The readout's text as shown, empty when hidden.
    QString readoutText() const;

    void applyPalette() override;

signals:
    /// A legend click showed or hid a metric's curves.
    void curveVisibilityChanged(int metric, bool visible);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    /// Back to the whole range after zooming with the wheel or dragging.
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void rebuildCurves();
    void fillCurve(QCPGraph *graph, const lx::CdfCurve &curve) const;
    void styleCurves();
    void updateGuides();
    void placeGuideLabels();
    void rescaleX();
    double logFloor() const;
    void showReadout(const QPointF &pixel);

    std::shared_ptr<const lx::CdfData> m_data;
    std::shared_ptr<const lx::CdfData> m_comparison;
    QString m_label;
    QString m_comparisonLabel;
    bool m_logX = true;
    int m_guideMetric = lx::kCdfE2e;
    std::array<bool, lx::kCdfMetricCount> m_hidden{};
    std::array<QCPGraph *, lx::kCdfMetricCount> m_curves{};
    std::array<QCPGraph *, lx::kCdfMetricCount> m_comparisonCurves{};
    QCPGraph *m_solidKey = nullptr;  ///< legend entry saying what the solid lines are (with a comparison)
    QCPGraph *m_dashedKey = nullptr; ///< and the dashed ones
    struct Guide {
        QCPItemLine *drop = nullptr;           ///< from the x axis up to the curve
        QCPItemLine *comparisonDrop = nullptr; ///< the same for the comparison's value
        QCPItemText *label = nullptr;
    };
    std::array<Guide, lx::kCdfGuidePercentiles.size()> m_guides;
    std::array<QCPItemStraightLine *, lx::kCdfGuidePercentiles.size()> m_levels{}; ///< faint lines at 50, 90, 99 %
    QCPItemTracer *m_tracer = nullptr;
    QCPItemText *m_readout = nullptr;
    QCPItemText *m_message = nullptr; ///< centred: why there is no curve
    QCPTextElement *m_title = nullptr;
};
