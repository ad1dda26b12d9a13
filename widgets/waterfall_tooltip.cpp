// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_tooltip.h"

#include "model/duration_format.h"
#include "segment_colors.h"
#include "segment_text.h"

#include <QCoreApplication>

namespace {

QString tr(const char *text) { return QCoreApplication::translate("WaterfallTooltip", text); }

QString duration(std::int64_t ns)
{
    return lx::isMeasured(ns) ? QString::fromStdString(lx::formatDuration(static_cast<double>(ns)))
                              : QStringLiteral("<i>%1</i>").arg(tr("not measured"));
}

} // namespace

QString waterfallTooltip(const lx::WaterfallData &data, std::size_t i)
{
    const std::int64_t start = data.starts[i];
    const QString when = data.relativeTime
        ? QStringLiteral("+%1").arg(QString::fromStdString(lx::formatDuration(static_cast<double>(start - data.firstStart))))
        : QString::fromStdString(lx::formatTimestamp(start, 6));
    QString html = QStringLiteral("<b>%1 #%2</b><table cellspacing=\"0\" cellpadding=\"1\">")
                       .arg(tr("Request"))
                       .arg(data.ids[i]);
    const auto row = [&](const QString &swatch, const QString &name, const QString &value) {
        html += QStringLiteral("<tr><td>%1</td><td>%2&nbsp;&nbsp;</td><td align=\"right\">%3</td></tr>").arg(swatch, name, value);
    };
    row({}, tr("Start"), when);
    row({}, QStringLiteral("<b>%1</b>").arg(tr("E2E")), QStringLiteral("<b>%1</b>").arg(duration(data.e2e[i])));
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        const auto segment = lx::Segment(s);
        const QString swatch = QStringLiteral("<span style=\"color:%1\">&#9632;</span>").arg(segmentColor(segment).name());
        row(swatch, segmentTitleText(segment), duration(data.segment(i, segment)));
    }
    html += QStringLiteral("</table>");
    if (data.flags[i] & lx::kFlagClockSkew)
        html += QStringLiteral("<br><i>%1</i>").arg(tr("Clock skew: network came out negative"));
    return html;
}
