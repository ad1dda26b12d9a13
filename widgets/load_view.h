// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_chart_data.h"

#include <QWidget>

#include <memory>
#include <optional>

class Chart;
class LoadDecompositionChart;
class LoadProfileChart;
class QButtonGroup;
class QCPGraph;
class QComboBox;
class QLabel;
class QToolButton;

/// \file load_view.h
/// The load view: core's sentence about the knee ("below the knee decode dominates (97%), above it queue
/// (89%); knee near 9.1 req/s, 26 in flight", or why there is none) above the decomposition under load,
/// and the load over time under it. A toolbar toggles the load axis (arrival rate or requests in flight)
/// and the stack's scale (segment shares or mean times: shares first when the buckets' mean e2e span more
/// than tenfold, until the user chooses, which then holds for the session), and chooses the window width,
/// which the caller recomputes with (computeLoadChartData() off the UI thread) and hands back through
/// setData(). A prediction (a what-if replay's LoadChartData, docs/WHATIF.md) can be overlaid: its e2e p95
/// per load bucket and its throughput and requests in flight over time, dashed beside the observed ones.
class LoadView : public QWidget {
    Q_OBJECT

public:
    explicit LoadView(QWidget *parent = nullptr);

    /// Null clears.
    void setData(std::shared_ptr<const lx::LoadChartData> data);
    const lx::LoadChartData *data() const { return m_data.get(); }
    void setLoadKey(lx::LoadKey key);
    lx::LoadKey loadKey() const;
    /// Shows shares (true) or mean times, as the user's choice: it holds over later data.
    void setShowShares(bool shares);
    bool showsShares() const;
    /// Selects the width in the window combo without emitting windowWidthChanged (0: automatic), e.g. when
    /// the caller restores a setting; a width not in the list is added to it.
    void setWindowWidth(qint64 ns);
    /// The width chosen in the combo, 0 for automatic.
    qint64 windowWidth() const;

    /// Draws a predicted load (a what-if replay's) dashed over the observed one until cleared; null clears.
    /// It stays over later observed data (a new window width): the caller clears it when the store or the
    /// filter changes, since it was predicted from the investigation it was shown with.
    void setPrediction(std::shared_ptr<const lx::LoadChartData> prediction);
    void clearPrediction() { setPrediction(nullptr); }
    const lx::LoadChartData *prediction() const { return m_prediction.get(); }
    /// The dashed graphs of the prediction: the e2e p95 per bucket, the throughput and the requests in flight.
    QCPGraph *predictedP95Line() const { return m_predictedP95; }
    QCPGraph *predictedThroughputLine() const { return m_predictedThroughput; }
    QCPGraph *predictedInFlightLine() const { return m_predictedInFlight; }

    /// The sentence as shown above the charts.
    QString sentence() const;

    LoadDecompositionChart *decompositionView() const { return m_decomposition; }
    LoadProfileChart *profileView() const { return m_profile; }
    Chart *decompositionChart() const;
    Chart *profileChart() const;
    QButtonGroup *loadKeyButtons() const { return m_keys; }
    /// "Shares", checked for shares, unchecked for mean times.
    QToolButton *sharesButton() const { return m_shares; }
    QComboBox *windowSelector() const { return m_window; }

signals:
    /// The user chose another window width (ns; 0 for automatic): recompute and call setData().
    void windowWidthChanged(qint64 ns);

private:
    void updateSentence();
    void updateAutoText();
    /// The scale the user chose, else shares when the buckets span more than tenfold.
    void updateScale();
    /// Fills the prediction's graphs for the current key and scale and widens the axes to hold them; after
    /// every redraw of the charts, which resets their ranges and the decomposition's legend.
    void drawPrediction();
    void drawPredictedDecomposition();
    void drawPredictedProfile();

    std::shared_ptr<const lx::LoadChartData> m_data;
    LoadDecompositionChart *m_decomposition = nullptr;
    LoadProfileChart *m_profile = nullptr;
    QButtonGroup *m_keys = nullptr;
    QToolButton *m_shares = nullptr;
    std::optional<bool> m_chosenShares; ///< the user's choice of scale, for the session
    QComboBox *m_window = nullptr;
    QLabel *m_sentence = nullptr;
    std::shared_ptr<const lx::LoadChartData> m_prediction;
    QCPGraph *m_predictedP95 = nullptr;
    QCPGraph *m_predictedThroughput = nullptr;
    QCPGraph *m_predictedInFlight = nullptr;
};
