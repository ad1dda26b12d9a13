// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_density_frames.h"

#include "waterfall_shading.h"

namespace {

/// The image of `view`; an empty one once `cancel` is set (a worker's view no longer wanted).
WaterfallDensityFrames::Frame makeFrame(const lx::WaterfallData &data, const lx::WaterfallRows &rows,
                                        const lx::WaterfallViewport &view, const std::array<QColor, lx::kSegmentCount> &colors,
                                        const std::atomic<bool> *cancel = nullptr)
{
    const lx::WaterfallDensity density = lx::aggregateWaterfall(data, rows, view, 0, cancel);
    if (density.bands == 0 || (cancel && cancel->load()))
        return {view, QImage()};
    return {view, waterfallDensityImage(density, colors)};
}

} // namespace

WaterfallDensityFrames::WaterfallDensityFrames(const std::array<QColor, lx::kSegmentCount> &colors, QObject *parent)
    : QObject(parent)
    , m_colors(colors)
{
}

void WaterfallDensityFrames::setSource(std::shared_ptr<const lx::WaterfallData> data, std::shared_ptr<const lx::WaterfallRows> rows)
{
    dropWorker();
    m_last.reset();
    m_asked.reset();
    m_data = std::move(data);
    m_rows = std::move(rows);
    m_awaitingFirst = m_data && m_rows && m_rows->rowCount() > 0 && requestsIn(0, m_rows->rowCount()) >= m_backgroundFrom;
}

const WaterfallDensityFrames::Frame *WaterfallDensityFrames::frameFor(const lx::WaterfallViewport &view, bool now)
{
    if (!m_data || !m_rows)
        return nullptr;
    if (now) { // an export: drawn once, apart from what the screen shows and waits for
        if (m_last && m_last->view == view)
            return &*m_last;
        m_exported = makeFrame(*m_data, *m_rows, view, m_colors);
        return &*m_exported;
    }
    m_exported.reset();
    m_awaitingFirst = false;
    m_asked = view;
    if (m_last && m_last->view == view) {
        if (m_making != view)
            m_wanted.reset(); // back at the view on screen: what the worker makes is only a later image
        return &*m_last;
    }
    if (requestsIn(view.firstRow, view.firstRow + view.rowCount) < m_backgroundFrom) {
        if (m_job.running()) // nothing will land: say so (later: this runs while the chart paints)
            QMetaObject::invokeMethod(this, &WaterfallDensityFrames::frameReady, Qt::QueuedConnection);
        dropWorker();
        m_last = makeFrame(*m_data, *m_rows, view, m_colors);
        return &*m_last;
    }
    if (!m_job.running())
        start(view);
    else if (m_making != view)
        m_wanted = view; // replaces an older wish: only the newest view is worth making
    else
        m_wanted.reset();
    return m_last ? &*m_last : nullptr;
}

std::size_t WaterfallDensityFrames::requestsIn(std::size_t firstRow, std::size_t endRow) const
{
    return m_rows->requestsOf(firstRow, endRow).size();
}

void WaterfallDensityFrames::dropWorker()
{
    m_job.cancel();
    m_making.reset();
    m_wanted.reset();
}

void WaterfallDensityFrames::start(const lx::WaterfallViewport &view)
{
    m_making = view;
    m_makingRequests = requestsIn(view.firstRow, view.firstRow + view.rowCount);
    QMetaObject::invokeMethod(this, &WaterfallDensityFrames::frameStarted, Qt::QueuedConnection);
    m_job.start(
        [data = m_data, rows = m_rows, colors = m_colors, view](const std::atomic<bool> &cancel) {
            return makeFrame(*data, *rows, view, colors, &cancel);
        },
        [this](Frame frame) {
            m_making.reset();
            // The view on screen may have its own image already (the user came back to it): keep that.
            if (!m_last || m_last->view != m_asked)
                m_last = std::move(frame);
            if (m_wanted) {
                const lx::WaterfallViewport next = *m_wanted;
                m_wanted.reset();
                start(next);
            }
            emit frameReady();
        });
}
