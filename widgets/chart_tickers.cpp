// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_tickers.h"

#include "model/duration_format.h"

#include <array>
#include <cmath>

namespace {

QString durationLabel(double ns)
{
    if (std::abs(ns) < 1e-3)
        return QStringLiteral("0");
    return QString::fromStdString(lx::formatDuration(ns));
}

} // namespace

QString DurationTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return durationLabel(tick);
}

double DurationTicker::getTickStep(const QCPRange &range)
{
    const double wanted = range.size() / (tickCount() + 1e-10);
    if (wanted < 1e9)
        return QCPAxisTicker::getTickStep(range); // 1-2-2.5-5 steps of ns, us, ms read well
    // From a second on, "50.0 s, 1 min 40 s" would not: steps of whole seconds, minutes and hours.
    static constexpr std::array<double, 19> kSeconds = {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800,
                                                        3600, 7200, 10800, 21600, 43200};
    for (double step : kSeconds) {
        if (step * 1e9 >= wanted)
            return step * 1e9;
    }
    return std::ceil(wanted / 86400e9) * 86400e9; // whole days
}

QString LogDurationTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return durationLabel(tick);
}

TimeTicker::TimeTicker(std::int64_t originNs, bool relative)
    : m_originNs(originNs)
    , m_relative(relative)
{
}

void TimeTicker::setOrigin(std::int64_t originNs, bool relative)
{
    m_originNs = originNs;
    m_relative = relative;
}

double TimeTicker::getTickStep(const QCPRange &range)
{
    // Steps people count time in: fractions of a second in 1-2-5, then 1, 2, 5, 10, 15, 30 s, minutes,
    // hours, days. Aim at about as many ticks as the base ticker would choose.
    static constexpr std::array<double, 24> kSteps = {1e-6, 1e-5, 1e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05,
        0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600};
    const double wanted = range.size() / (tickCount() + 1e-10);
    m_step = kSteps.back();
    for (double step : kSteps) {
        if (step >= wanted) {
            m_step = step;
            break;
        }
    }
    if (wanted > kSteps.back()) // beyond an hour: whole hours, then days
        m_step = wanted > 43200 ? std::ceil(wanted / 86400) * 86400 : std::ceil(wanted / 3600) * 3600;
    return m_step;
}

QString TimeTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    const auto offsetNs = static_cast<std::int64_t>(std::llround(tick * 1e9));
    if (m_relative)
        return (offsetNs < 0 ? QStringLiteral("-") : QStringLiteral("+")) + durationLabel(std::abs(tick) * 1e9);
    // Show as many decimals of the second as the step needs, and the date only when the step is a day.
    const int digits = m_step >= 1 ? 0 : m_step >= 0.1 ? 1 : m_step >= 0.01 ? 2 : m_step >= 1e-3 ? 3 : 6;
    const QString stamp = QString::fromStdString(lx::formatTimestamp(m_originNs + offsetNs, digits));
    // "2025-01-01T12:00:00.5Z": the time of day, and the date too when ticks are days apart.
    if (m_step >= 86400)
        return stamp.left(10);
    return stamp.mid(11).chopped(1);
}

QString ShareTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return QStringLiteral("%1%").arg(std::round(tick * 1000) / 10);
}
