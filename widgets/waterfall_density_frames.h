// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"

#include "analysis/waterfall_density.h"

#include <QColor>
#include <QImage>
#include <QObject>

#include <array>
#include <memory>
#include <optional>

/// \file waterfall_density_frames.h
/// The waterfall's density images, made where they do not stop the window. Aggregating a frame reads every
/// request in view, about 25 ms a million on one core: a view of ten million requests held the UI thread for
/// 0.45 s each time it was drawn. A view of fewer requests than backgroundFrom() is made on the spot, as it
/// is asked for; a bigger one on a worker, one at a time, the newest view asked for meanwhile next. Until it
/// lands the chart draws the last image made, stretched to where its view lies now (as a map does while its
/// tiles load). The last image is kept, so a frame drawn again for the same view (a selection, a tooltip)
/// costs no aggregation.

class WaterfallDensityFrames : public QObject {
    Q_OBJECT

public:
    /// Requests in view from which a frame is made on a worker. Below it a frame takes at most about 50 ms
    /// on two cores (the aggregation shares its bands among threads): it is drawn at once, in step with the
    /// pan or zoom that asked for it.
    static constexpr std::size_t kBackgroundFrom = 2'000'000;

    struct Frame {
        lx::WaterfallViewport view;
        QImage image; ///< view.columns × bands pixels; null when nothing is in the view
    };

    explicit WaterfallDensityFrames(const std::array<QColor, lx::kSegmentCount> &colors, QObject *parent = nullptr);

    /// New requests or rows: the images made so far are dropped, a worker's result too.
    void setSource(std::shared_ptr<const lx::WaterfallData> data, std::shared_ptr<const lx::WaterfallRows> rows);
    /// SIZE_MAX: every frame on the spot (a chart drawn offscreen straight away); 0: every one on a worker.
    void setBackgroundFrom(std::size_t requests) { m_backgroundFrom = requests; }

    /// The image to draw for `view`: its own, or while that is made on a worker the last one made (of
    /// another view: Frame::view says which), or null when none is made yet. `now`: its own, made on the
    /// spot if need be (an export, which is drawn once and must show its own view).
    const Frame *frameFor(const lx::WaterfallViewport &view, bool now = false);
    /// The frame on screen is drawn with bars: no image to wait for, none wanted next.
    void skipFrame()
    {
        m_awaitingFirst = false;
        m_wanted.reset();
    }
    /// A frame of the current view is being made or waits to be: what is on screen is not the final picture.
    bool pending() const { return m_job.running() || m_wanted.has_value() || m_awaitingFirst; }

    /// The requests in the view being made on a worker (0 when none is).
    std::size_t makingRequests() const { return m_making ? m_makingRequests : 0; }

signals:
    /// A worker began a frame (sent from the event loop: it begins while the chart paints).
    void frameStarted();
    /// A frame made on a worker has landed: draw again.
    void frameReady();

private:
    void start(const lx::WaterfallViewport &view);
    /// The worker's image, and the one wished for next, are no longer wanted.
    void dropWorker();
    /// The requests in the display rows [firstRow, endRow): what a frame of them costs.
    std::size_t requestsIn(std::size_t firstRow, std::size_t endRow) const;

    std::array<QColor, lx::kSegmentCount> m_colors;
    std::shared_ptr<const lx::WaterfallData> m_data;
    std::shared_ptr<const lx::WaterfallRows> m_rows;
    std::size_t m_backgroundFrom = kBackgroundFrom;
    std::optional<Frame> m_last;
    std::optional<Frame> m_exported; ///< the image of an export, kept while it is drawn
    std::optional<lx::WaterfallViewport> m_asked;  ///< the view of the last frameFor(): on screen
    std::optional<lx::WaterfallViewport> m_making; ///< the view the worker makes
    std::size_t m_makingRequests = 0;              ///< and how many requests are in it
    /// The view asked for while a worker makes another: made next.
    std::optional<lx::WaterfallViewport> m_wanted;
    /// A large source was set and no frame of it was asked for yet (the chart has not drawn since).
    bool m_awaitingFirst = false;
    BackgroundJob<Frame> m_job{this};
};
