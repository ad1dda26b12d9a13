// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_plottable.h"

#include "segment_colors.h"

#include "analysis/time_grid.h"
#include "model/time_range.h"

#include <algorithm>
#include <cmath>

namespace {

/// Coordinates further out than this are off any screen; keeping to it keeps rectangles finite.
constexpr double kFarPixels = 1e6;

/// The request's largest part, ties to the earlier segment (as DOMAIN.md's dominant segment).
int largestPart(const lx::WaterfallData &data, std::size_t i)
{
    int best = lx::kSegmentCount - 1;
    std::int64_t most = -1;
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        if (data.part(i, s) > most) {
            most = data.part(i, s);
            best = s;
        }
    }
    return best;
}

bool hasUnmeasuredSegment(const lx::WaterfallData &data, std::size_t i)
{
    for (int s = 0; s < lx::kSegmentCount - 1; ++s) {
        if (!lx::isMeasured(data.segment(i, lx::Segment(s))))
            return true;
    }
    return false;
}

} // namespace

void paintHatch(QPainter *painter, const QRectF &rect, const QColor &colour)
{
    constexpr double kSpacing = 4;
    if (rect.width() < 2 || rect.height() < 2)
        return;
    painter->save();
    painter->setClipRect(rect, Qt::IntersectClip);
    painter->setPen(QPen(colour, 1));
    for (double x = rect.left() - rect.height(); x < rect.right(); x += kSpacing)
        painter->drawLine(QPointF(x, rect.bottom()), QPointF(x + rect.height(), rect.top()));
    painter->restore();
}

WaterfallPlottable::WaterfallPlottable(QCPAxis *timeAxis, QCPAxis *rowAxis)
    : QCPAbstractPlottable(timeAxis, rowAxis)
{
    for (int s = 0; s < lx::kSegmentCount; ++s)
        m_colors[static_cast<std::size_t>(s)] = segmentColor(lx::Segment(s));
    setAntialiased(false); // crisp, abutting rectangles; antialiased edges would blur a million of them
    setSelectable(QCP::stNone);
    setPaletteColors(Qt::black, QColor(0x30, 0x8c, 0xc6));
    m_frames = new WaterfallDensityFrames(m_colors, this);
    connect(m_frames, &WaterfallDensityFrames::frameReady, this, [this] {
        if (mParentPlot)
            mParentPlot->replot(QCustomPlot::rpQueuedReplot);
    });
}

void WaterfallPlottable::setData(std::shared_ptr<const lx::WaterfallData> data, std::shared_ptr<const lx::WaterfallRows> rows)
{
    m_data = std::move(data);
    m_rows = rows ? std::move(rows) : std::make_shared<const lx::WaterfallRows>();
    m_frames->setSource(m_data, m_rows);
}

void WaterfallPlottable::setPaletteColors(const QColor &text, const QColor &highlight)
{
    m_hatch = text;
    m_hatch.setAlphaF(0.55f);
    m_highlight = highlight;
}

std::int64_t WaterfallPlottable::timeAt(double coordinate) const
{
    const std::int64_t origin = m_data ? m_data->firstStart : 0;
    return lx::saturatingAdd(origin, std::llround(std::clamp(coordinate, -1e9, 1e9) * 1e9)); // never past 2262
}

double WaterfallPlottable::coordinateOf(std::int64_t ns) const
{
    const std::int64_t origin = m_data ? m_data->firstStart : 0;
    // Unsigned distances: times from 1677 to 2262 lie more than INT64_MAX ns apart (analysis/time_grid.h).
    return ns >= origin ? static_cast<double>(lx::timeDistance(origin, ns)) / 1e9 : -static_cast<double>(lx::timeDistance(ns, origin)) / 1e9;
}

lx::WaterfallViewport WaterfallPlottable::viewport() const
{
    lx::WaterfallViewport view;
    const QRect rect = mKeyAxis->axisRect()->rect();
    const QCPRange time = mKeyAxis->range(), rows = mValueAxis->range();
    view.fromNs = timeAt(time.lower);
    view.toNs = std::max(timeAt(time.upper), lx::saturatingAdd(view.fromNs, 1));
    const auto rowCount = static_cast<double>(m_rows->rowCount());
    const double first = std::clamp(std::floor(rows.lower), 0.0, rowCount);
    const double end = std::clamp(std::ceil(rows.upper), first, rowCount);
    view.firstRow = static_cast<std::size_t>(first);
    view.rowCount = static_cast<std::size_t>(end - first);
    view.columns = std::max(rect.width(), 1);
    // A band a pixel row, or a band a row when rows are taller than a pixel.
    const double pixelsPerRow = rect.height() / std::max(rows.size(), 1e-9);
    view.bands = static_cast<int>(std::clamp(std::ceil(static_cast<double>(view.rowCount) * std::min(pixelsPerRow, 1.0)),
                                             1.0, static_cast<double>(std::max<std::size_t>(view.rowCount, 1))));
    return view;
}

double WaterfallPlottable::selectTest(const QPointF &, bool, QVariant *) const
{
    return -1; // the chart does its own hit testing (WaterfallRows::requestAt): one in a million, by row
}

QCPRange WaterfallPlottable::getKeyRange(bool &foundRange, QCP::SignDomain) const
{
    foundRange = m_data && !m_data->empty();
    return foundRange ? QCPRange(0, coordinateOf(m_data->lastEnd)) : QCPRange();
}

QCPRange WaterfallPlottable::getValueRange(bool &foundRange, QCP::SignDomain, const QCPRange &) const
{
    foundRange = m_rows->rowCount() > 0;
    return QCPRange(0, static_cast<double>(m_rows->rowCount()));
}

void WaterfallPlottable::drawLegendIcon(QCPPainter *, const QRectF &) const {}

std::pair<double, double> WaterfallPlottable::barExtent(std::size_t row) const
{
    double top = mValueAxis->coordToPixel(static_cast<double>(row));
    double bottom = mValueAxis->coordToPixel(static_cast<double>(row) + 1);
    if (top > bottom)
        std::swap(top, bottom);
    const double height = bottom - top;
    const double gap = height >= 4 ? std::max(1.0, height * 0.2) : 0.0;
    const double bar = std::min(height - gap, kMaxBarHeight);
    const double middle = (top + bottom) / 2;
    return {middle - bar / 2, middle + bar / 2};
}

double WaterfallPlottable::pixelOf(std::int64_t ns, const lx::WaterfallViewport &view, const QRect &rect) const
{
    const double x = rect.left() + static_cast<double>(ns - view.fromNs) * view.columns / static_cast<double>(view.toNs - view.fromNs);
    return std::clamp(x, -kFarPixels, kFarPixels);
}

void WaterfallPlottable::draw(QCPPainter *painter)
{
    m_lastLod = WaterfallLod::None;
    if (!m_data || m_rows->rowCount() == 0)
        return;
    const lx::WaterfallViewport view = viewport();
    if (view.rowCount == 0)
        return;
    applyDefaultAntialiasingHint(painter);
    // Bars while every visible row has a pixel row of its own and they are not too many.
    std::optional<std::vector<lx::WaterfallBar>> bars;
    if (static_cast<std::size_t>(view.bands) >= view.rowCount)
        bars = lx::visibleBars(*m_data, *m_rows, view, kMaxBars);
    const bool exporting = painter->modes().testFlag(QCPPainter::pmNoCaching);
    if (bars) {
        if (!exporting)
            m_frames->skipFrame();
        drawBars(painter, *bars, view);
        m_lastLod = WaterfallLod::Bars;
    } else {
        drawDensity(painter, view, exporting);
        m_lastLod = WaterfallLod::Density;
    }
    drawSelection(painter, view);
}

void WaterfallPlottable::drawBars(QCPPainter *painter, const std::vector<lx::WaterfallBar> &bars,
                                  const lx::WaterfallViewport &view)
{
    painter->setPen(Qt::NoPen);
    for (const lx::WaterfallBar &bar : bars)
        drawBar(painter, bar.request, bar.row, view);
}

void WaterfallPlottable::drawBar(QCPPainter *painter, std::size_t request, std::size_t row, const lx::WaterfallViewport &view)
{
    const QRect rect = mKeyAxis->axisRect()->rect();
    const auto [top, bottom] = barExtent(row);
    const double height = std::max(bottom - top, 1.0);
    const double left = pixelOf(m_data->starts[request], view, rect);
    const double right = pixelOf(m_data->ends[request], view, rect);
    if (right - left < 1.0) { // narrower than a pixel: one pixel in the colour of its largest part
        painter->fillRect(QRectF(left, top, 1.0, height), m_colors[static_cast<std::size_t>(largestPart(*m_data, request))]);
        return;
    }
    // Time in unattributed includes that of the segments not measured: hatched, so that a missing
    // measurement never looks like a short segment.
    const bool hatch = hasUnmeasuredSegment(*m_data, request);
    lx::forEachSegmentSpan(*m_data, request, [&](int s, std::int64_t begin, std::int64_t end) {
        const double x0 = pixelOf(begin, view, rect), x1 = pixelOf(end, view, rect);
        const QRectF r(x0, top, x1 - x0, height);
        painter->fillRect(r, m_colors[static_cast<std::size_t>(s)]);
        if (hatch && s == static_cast<int>(lx::Segment::Unattributed))
            paintHatch(painter, r, m_hatch);
    });
}

void WaterfallPlottable::drawDensity(QCPPainter *painter, const lx::WaterfallViewport &view, bool exporting)
{
    // An export (PNG, SVG, PDF, the clipboard, at any size) is drawn once: it gets its own view's image.
    const WaterfallDensityFrames::Frame *frame = m_frames->frameFor(view, exporting);
    if (!frame || frame->image.isNull())
        return;
    if (frame->view == view) {
        const QRect rect = mKeyAxis->axisRect()->rect();
        double top = mValueAxis->coordToPixel(static_cast<double>(view.firstRow));
        double bottom = mValueAxis->coordToPixel(static_cast<double>(view.firstRow + view.rowCount));
        if (top > bottom)
            std::swap(top, bottom);
        painter->drawImage(QRectF(rect.left(), top, rect.width(), bottom - top), frame->image);
        return;
    }
    drawEarlierFrame(painter, *frame);
}

void WaterfallPlottable::drawEarlierFrame(QCPPainter *painter, const WaterfallDensityFrames::Frame &frame)
{
    // Only the part of the image now in view, worked out in the image's pixels: a view zoomed in far
    // holds a sliver of one of them, and the whole image placed around it would lie millions of pixels out.
    const double width = frame.image.width(), height = frame.image.height();
    const double t0 = coordinateOf(frame.view.fromNs), t1 = coordinateOf(frame.view.toNs);
    const auto r0 = static_cast<double>(frame.view.firstRow), r1 = static_cast<double>(frame.view.firstRow + frame.view.rowCount);
    if (!(t1 > t0) || !(r1 > r0))
        return;
    const QCPRange time = mKeyAxis->range(), rows = mValueAxis->range();
    const double u0 = std::clamp((time.lower - t0) / (t1 - t0) * width, 0.0, width);
    const double u1 = std::clamp((time.upper - t0) / (t1 - t0) * width, 0.0, width);
    const double v0 = std::clamp((rows.lower - r0) / (r1 - r0) * height, 0.0, height);
    const double v1 = std::clamp((rows.upper - r0) / (r1 - r0) * height, 0.0, height);
    if (!(u1 > u0) || !(v1 > v0))
        return;
    const double x0 = mKeyAxis->coordToPixel(t0 + u0 / width * (t1 - t0));
    const double x1 = mKeyAxis->coordToPixel(t0 + u1 / width * (t1 - t0));
    const double y0 = mValueAxis->coordToPixel(r0 + v0 / height * (r1 - r0));
    const double y1 = mValueAxis->coordToPixel(r0 + v1 / height * (r1 - r0));
    const QRectF target = QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized();
    painter->drawImage(target, frame.image, QRectF(u0, v0, u1 - u0, v1 - v0));
}

void WaterfallPlottable::drawSelection(QCPPainter *painter, const lx::WaterfallViewport &view)
{
    if (!m_selected || *m_selected >= m_data->size())
        return;
    const std::size_t request = *m_selected;
    const auto row = m_rows->rowOf(*m_data, request);
    if (!row || *row < view.firstRow || *row >= view.firstRow + view.rowCount)
        return;
    if (!lx::inTime(m_data->starts[request], m_data->ends[request], view.fromNs, view.toNs))
        return;
    const QRect rect = mKeyAxis->axisRect()->rect();
    if (m_lastLod == WaterfallLod::Density) // the bar itself is lost in the density: draw it on top
        drawBar(painter, request, *row, view);
    auto [top, bottom] = barExtent(*row);
    double left = pixelOf(m_data->starts[request], view, rect), right = pixelOf(m_data->ends[request], view, rect);
    const auto widen = [](double &a, double &b, double least) {
        const double missing = least - (b - a);
        if (missing > 0) {
            a -= missing / 2;
            b += missing / 2;
        }
    };
    widen(left, right, 5);
    widen(top, bottom, 7);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(m_highlight, 2));
    painter->drawRect(QRectF(left - 1, top - 1, right - left + 2, bottom - top + 2));
}
