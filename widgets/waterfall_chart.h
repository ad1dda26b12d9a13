// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "chart.h"
#include "waterfall_plottable.h"

#include <functional>
#include <memory>
#include <optional>

class TimeTicker;

/// \file waterfall_chart.h
/// The waterfall timeline: requests as rows on an absolute time axis, each a stacked bar of its segments,
/// or lanes of concurrent requests. Zoom and pan with the wheel (Ctrl: rows; Shift: scroll rows), by
/// dragging and from the keyboard (arrows, +/-, Ctrl+Up/Down for rows, Home to fit, L for lanes); Shift+drag selects a
/// time range; a click selects a request. The time axis holds seconds since the first start (a double
/// cannot hold epoch nanoseconds exactly), labelled as wall-clock times or offsets.
class WaterfallChart : public Chart {
    Q_OBJECT

public:
    explicit WaterfallChart(QWidget *parent = nullptr);

    /// Shows the requests (null clears), in the current order or lanes, fitted to the view.
    void setData(std::shared_ptr<const lx::WaterfallData> data);
    const std::shared_ptr<const lx::WaterfallData> &data() const { return m_plottable->waterfall(); }
    /// Rows sorted by start, e2e or a segment; ignored in lanes mode until it is left.
    void setSort(const lx::WaterfallSort &sort);
    const lx::WaterfallSort &sort() const { return m_sort; }
    /// Lanes of concurrent requests instead of a row a request.
    void setLanes(bool lanes);
    bool lanes() const { return m_lanes; }
    const lx::WaterfallRows &rows() const { return m_plottable->rows(); }
    /// Rows of at least this many requests are arranged (sorted, packed into lanes, their columns put in
    /// display order: 150-250 ms for a million) on a worker thread, the rows before shown meanwhile; fewer,
    /// at once. SIZE_MAX: always at once, for a chart drawn offscreen straight after its data is set.
    void setArrangeInBackgroundFrom(std::size_t requests) { m_backgroundFrom = requests; }
    /// Rows are being arranged on a worker: rows() are the previous ones (or none after setData()).
    bool arranging() const { return m_arranging; }
    /// Views of at least this many requests are aggregated into their density image on a worker, the last
    /// image shown meanwhile (waterfall_density_frames.h); SIZE_MAX: always at once.
    void setDensityInBackgroundFrom(std::size_t requests) { m_plottable->densityFrames()->setBackgroundFrom(requests); }
    /// What is on screen is not the final picture yet: rows being arranged, or a density image being made.
    bool drawing() const { return m_arranging || m_plottable->densityFrames()->pending(); }

    /// Highlights the request with that row id and scrolls it into view; an unknown id clears the selection.
    void setSelectedRequest(qint64 rowId);
    /// The selected request's row id, or none.
    std::optional<qint64> selectedRequest() const;

    /// The visible time range [from, to) in ns since the epoch, and the visible rows [first, end).
    std::pair<std::int64_t, std::int64_t> timeRange() const;
    std::pair<double, double> rowRange() const;
    /// How the last frame was drawn: bars, or the density when rows outnumber pixels.
    WaterfallLod lod() const { return m_plottable->lastLod(); }
    /// The row id of the request under a widget pixel (give or take 3 pixels in time), or none.
    std::optional<qint64> requestAt(const QPoint &pixel) const;
    /// The widget pixel at the middle of a request's bar, or none when it is not in the data.
    std::optional<QPoint> pixelOf(qint64 rowId) const;
    /// The note in the plot's corner (work under way, requests left out); empty when none shows.
    QString note() const;
    /// The text shown over the plot when there is nothing to place on the time axis; empty otherwise.
    QString message() const;

public slots:
    /// Every request in view.
    void fit();
    /// Zooms time by `factor` (below 1: in) around the middle of the view.
    void zoomTime(double factor);
    /// Moves the time range by `fraction` of its width (negative: earlier).
    void panTime(double fraction);
    void zoomRows(double factor);
    void panRows(double fraction);
    /// Removes the marked time range.
    void clearTimeSelection();

signals:
    /// The user clicked a request: its requests.id.
    void requestClicked(qint64 rowId);
    /// The user marked the time range [startNs, endNs) with Shift+drag.
    void timeRangeSelected(qint64 startNs, qint64 endNs);
    /// The user switched lanes on or off from the keyboard (L).
    void lanesToggled(bool lanes);
    /// The rows of the current data, order and mode are in place (at once or from the worker).
    void rowsArranged();
    /// A density image made on a worker has landed; the chart draws it next.
    void densityReady();

public:
    void applyPalette() override;

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    /// What a new arrangement does to the rows in view once it is in place.
    enum class RowsView { Fit, FromTop, AllRows };
    void arrangeRows(RowsView then);
    void installRows(std::shared_ptr<const lx::WaterfallRows> rows, RowsView then);
    void updateAxes();
    void updateMessage();
    /// Wraps the legend into as few rows as the chart's width holds, so that no label is cut short.
    void fitLegend();
    /// Sets `axis` back within bounds when `range` strays: a size in [least, most], a lower end in the
    /// bounds `lowerBounds` gives for that size.
    void holdRange(QCPAxis *axis, const QCPRange &range, double least, double most,
                   const std::function<std::pair<double, double>(double size)> &lowerBounds);
    void keepTimeInBounds(const QCPRange &range);
    void keepRowsInBounds(const QCPRange &range);
    void scrollTo(std::size_t request);
    std::optional<std::size_t> requestIndexAt(const QPointF &pixel) const;

    WaterfallPlottable *m_plottable = nullptr;
    QSharedPointer<TimeTicker> m_timeTicker;
    QCPItemText *m_message = nullptr;  ///< centred: why nothing is drawn
    QCPItemText *m_note = nullptr;     ///< a corner: requests left out
    QCPItemRect *m_selection = nullptr; ///< the time range being marked
    lx::WaterfallSort m_sort;
    bool m_lanes = false;
    std::size_t m_backgroundFrom = 200'000;
    bool m_arranging = false;
    /// The newest arrangement asked for: a worker's older result is dropped.
    BackgroundJob<std::shared_ptr<lx::WaterfallRows>> m_arrange{this};
    bool m_marking = false; ///< a Shift+drag is under way
    double m_markFrom = 0;  ///< where it began, in time coordinates
    QPoint m_pressPos;
    bool m_clamping = false;
};
