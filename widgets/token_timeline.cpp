// SPDX-License-Identifier: GPL-3.0-or-later
#include "token_timeline.h"

#include "model/duration_format.h"
#include "model/segments.h"
#include "segment_colors.h"

#include <QPainter>

#include <algorithm>

TokenTimeline::TokenTimeline(QWidget *parent)
    : QWidget(parent)
{
    setMinimumHeight(80);
}

void TokenTimeline::setRequest(const lx::RequestDetail &request)
{
    m_request = request;
    m_valid = true;
    update();
}

void TokenTimeline::clear()
{
    m_valid = false;
    update();
}

void TokenTimeline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QRect area = rect().adjusted(8, 8, -8, -24);
    if (!m_valid) {
        p.drawText(rect(), Qt::AlignCenter, tr("Select a request"));
        return;
    }
    std::int64_t first = INT64_MAX;
    std::int64_t last = INT64_MIN;
    for (std::int64_t t : m_request.stamps) {
        if (lx::isMeasured(t)) {
            first = std::min(first, t);
            last = std::max(last, t);
        }
    }
    for (std::int64_t t : m_request.tokenTimes) {
        first = std::min(first, t);
        last = std::max(last, t);
    }
    if (first >= last) {
        p.drawText(rect(), Qt::AlignCenter, tr("No time span to draw"));
        return;
    }
    const double span = double(last - first);
    const auto x = [&](std::int64_t t) { return area.left() + int(double(t - first) / span * area.width()); };
    const auto stamp = [&](lx::Stamp s) { return m_request.stamps[static_cast<int>(s)]; };

    const int bandTop = area.top();
    const int bandHeight = area.height() / 2;
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(QRect(area.left(), bandTop, area.width(), bandHeight));
    // The server's segments, each between the stamps that bound it (model/segments.h). Network is two
    // stretches at either end of the request, so it is not drawn.
    for (const lx::SegmentDefinition &segment : lx::kSegments) {
        if (segment.segment == lx::Segment::Network)
            continue;
        for (const lx::StampInterval &interval : segment.bounds()) {
            const std::int64_t from = stamp(lx::intervalStart(interval, m_request.stamps));
            const std::int64_t to = stamp(interval.to);
            if (!lx::isMeasured(from) || !lx::isMeasured(to))
                continue; // not measured: left blank
            p.fillRect(QRect(QPoint(x(from), bandTop + 1), QPoint(std::max(x(to), x(from) + 1), bandTop + bandHeight - 1)),
                       segmentColor(segment.segment));
        }
    }
    // A tick per output token.
    p.setPen(palette().color(QPalette::WindowText));
    const int tickTop = bandTop + bandHeight + 4;
    for (std::int64_t t : m_request.tokenTimes)
        p.drawLine(x(t), tickTop, x(t), tickTop + 10);
    const QString caption = m_request.tokenTimes.empty()
                                ? tr("no token times in the source")
                                : tr("%1 tokens").arg(m_request.tokenTimes.size());
    p.drawText(QRect(area.left(), area.bottom() + 4, area.width(), 18), Qt::AlignLeft | Qt::AlignVCenter, caption);
    p.drawText(QRect(area.left(), area.bottom() + 4, area.width(), 18), Qt::AlignRight | Qt::AlignVCenter,
               QString::fromStdString(lx::formatDuration(span)));
}
