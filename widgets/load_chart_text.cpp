// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_chart_text.h"

#include "analysis/knee_text.h"
#include "model/duration_format.h"
#include "chart_tickers.h"
#include "segment_colors.h"
#include "segment_text.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>

namespace loadtext {

QString rough(double value)
{
    return value < 10 ? QString::number(value, 'g', 2) : QString::number(value, 'f', 0);
}

QString count(std::int64_t n) { return QLocale().toString(static_cast<qlonglong>(n)); }

QString windowControl()
{
    return QCoreApplication::translate("LoadView", "the Window box");
}

QString duration(double ns) { return QString::fromStdString(lx::formatDuration(ns)); }

QString roundDuration(double ns) { return durationTickLabel(ns); }

QString percent(double share) { return QString::number(share * 100, 'f', 0) + QLatin1Char('%'); }

QString segmentTitle(int segment) { return segmentNameText(static_cast<lx::Segment>(segment)); }

QString kneeLabel(const lx::Knee &knee, bool twoLines)
{
    return (twoLines ? QCoreApplication::translate("LoadChart", "knee ≈ %1 req/s,\n%2 in flight")
                     : QCoreApplication::translate("LoadChart", "knee ≈ %1 req/s, %2 in flight"))
        .arg(QString::fromStdString(lx::kneeRateText(knee.rateRps)), QString::fromStdString(lx::kneeInFlightText(knee.inFlight)));
}

QString kneeRateLabel(double rps)
{
    return QCoreApplication::translate("LoadChart", "knee ≈ %1 req/s").arg(QString::fromStdString(lx::kneeRateText(rps)));
}

QString loadRange(double lo, double hi, lx::LoadKey key)
{
    const QString unit = key == lx::LoadKey::ArrivalRate ? QCoreApplication::translate("LoadChart", "req/s")
                                                         : QCoreApplication::translate("LoadChart", "in flight");
    return QStringLiteral("%1–%2 %3").arg(rough(lo), rough(hi), unit);
}

QString segmentRows(const std::array<double, lx::kSegmentCount> &meansNs, double of)
{
    QString rows = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    for (int s = 0; s < lx::kSegmentCount; ++s) {
        const double mean = meansNs[static_cast<std::size_t>(s)];
        if (mean == 0)
            continue;
        rows += QStringLiteral("<tr><td><span style=\"color:%1\">■</span> %2</td><td align=right>&nbsp;%3</td>")
                    .arg(segmentColor(static_cast<lx::Segment>(s)).name(), segmentTitle(s), duration(mean));
        if (of > 0)
            rows += QStringLiteral("<td align=right>&nbsp;%1</td>").arg(percent(mean / of));
        rows += QStringLiteral("</tr>");
    }
    return rows + QStringLiteral("</table>");
}

void hoverTip(QWidget *widget, const QMouseEvent *event, const QString &html)
{
    if (event->buttons() != Qt::NoButton)
        return;
    if (html.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), html, widget);
}

QString loadAxisLabel(lx::LoadKey key)
{
    return key == lx::LoadKey::ArrivalRate ? QCoreApplication::translate("LoadChart", "arrival rate of the window (req/s)")
                                           : QCoreApplication::translate("LoadChart", "requests in flight in the window (time average)");
}

} // namespace loadtext
