// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_tickers.h"

#include "model/duration_format.h"
#include "model/time_range.h"

#include <array>
#include <cmath>

namespace {

/// "1.50 s" -> "1.5 s", "10.0 s" -> "10 s": the zeros after the point of the formatter's number.
QString withoutTrailingZeros(QString text)
{
    const qsizetype point = text.indexOf(QLatin1Char('.'));
    if (point < 0)
        return text;
    qsizetype end = point + 1;
    while (end < text.size() && text.at(end).isDigit())
        ++end;
    qsizetype keep = end;
    while (keep > point + 1 && text.at(keep - 1) == QLatin1Char('0'))
        --keep;
    if (keep == point + 1)
        keep = point; // no decimals left: no point either
    return text.left(keep) + text.mid(end);
}

} // namespace

QString durationTickLabel(double ns)
{
    if (std::abs(ns) < 1e-3)
        return QStringLiteral("0");
    if (std::abs(ns) < 59.5e9) // the formatter's seconds round to a minute from here
        return withoutTrailingZeros(QString::fromStdString(lx::formatDuration(ns)));
    // From a minute on the formatter writes every unit ("40 min 0 s"); a tick says the ones it has.
    const long long total = std::llround(std::abs(ns) / 1e9);
    const long long hours = total / 3600, minutes = total / 60 % 60, seconds = total % 60;
    QStringList parts;
    if (hours > 0)
        parts << QStringLiteral("%1 h").arg(hours);
    if (minutes > 0)
        parts << QStringLiteral("%1 min").arg(minutes);
    if (seconds > 0)
        parts << QStringLiteral("%1 s").arg(seconds);
    return (ns < 0 ? QStringLiteral("-") : QString()) + parts.join(QLatin1Char(' '));
}

QString DurationTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return durationTickLabel(tick);
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
    return durationTickLabel(tick);
}

const std::vector<double> &LogDurationTicker::ladder()
{
    static const std::vector<double> steps = [] {
        std::vector<double> out;
        for (double ns = 1; ns <= 10e9; ns *= 10)
            out.push_back(ns);
        for (double seconds : {60.0, 600.0, 3600.0, 36000.0, 86400.0, 864000.0, 8640000.0, 86400000.0})
            out.push_back(seconds * 1e9);
        return out;
    }();
    return steps;
}

QVector<double> LogDurationTicker::createTickVector(double, const QCPRange &range)
{
    // The ladder's steps in the range and one beyond either end (the base trims them), every other one or
    // sparser when more than the wanted count would crowd the axis.
    const std::vector<double> &steps = ladder();
    std::size_t first = 0, last = steps.size() - 1;
    while (first + 1 < steps.size() && steps[first + 1] <= range.lower)
        ++first;
    while (last > first && steps[last - 1] >= range.upper)
        --last;
    const std::size_t count = last - first + 1;
    const std::size_t wanted = static_cast<std::size_t>(std::max(tickCount(), 2)) + 2;
    const std::size_t stride = (count + wanted - 1) / wanted;
    QVector<double> ticks;
    for (std::size_t i = first; i <= last; i += stride)
        ticks.append(steps[i]);
    return ticks;
}

QVector<double> LogDurationTicker::createSubTickVector(int, const QVector<double> &ticks)
{
    // 2, 3, ... 9 of a decade, 20, 30, 40, 50 s below a minute, 2 ... 9 min below 10 min: the multiples of
    // a tick below the next, where there are a few (ticks a hundredfold apart get none).
    QVector<double> sub;
    for (qsizetype i = 0; i + 1 < ticks.size(); ++i) {
        const double lo = ticks.at(i), hi = ticks.at(i + 1);
        if (hi / lo > 12.5)
            continue;
        for (int k = 2; k * lo < hi * (1 - 1e-9); ++k)
            sub.append(k * lo);
    }
    return sub;
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
    // Beyond an hour: hours that divide a day (not "8 h" from 12:00 to 20:00 to 04:00), then whole days.
    static constexpr std::array<double, 5> kHours = {2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400};
    if (wanted > kSteps.back()) {
        m_step = std::ceil(wanted / 86400) * 86400;
        for (double step : kHours) {
            if (step >= wanted) {
                m_step = step;
                break;
            }
        }
    }
    return m_step;
}

QVector<double> TimeTicker::createTickVector(double tickStep, const QCPRange &range)
{
    const auto stepNs = static_cast<std::int64_t>(std::llround(tickStep * 1e9));
    if (m_relative || stepNs <= 0 || !(range.size() / tickStep < 10'000))
        return QCPAxisTicker::createTickVector(tickStep, range);
    // The first whole step at or after the origin, in seconds from it: the axis counts from the origin.
    std::int64_t intoStep = m_originNs % stepNs;
    if (intoStep < 0)
        intoStep += stepNs;
    const double phase = intoStep == 0 ? 0.0 : static_cast<double>(stepNs - intoStep) / 1e9;
    QVector<double> ticks;
    for (double k = std::floor((range.lower - phase) / tickStep);; ++k) {
        const double tick = phase + k * tickStep;
        if (tick > range.upper + tickStep * 1e-9)
            break;
        ticks.push_back(tick);
    }
    return ticks;
}

QString TimeTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    // Checked: an axis over a trace from 1938 to 2262 has ticks past INT64_MAX ns from its origin.
    const std::int64_t offsetNs = lx::scaledToNs(tick, 1e9).value_or(tick < 0 ? lx::kEarliestTimeNs : lx::kLatestTimeNs);
    if (m_relative)
        return (offsetNs < 0 ? QStringLiteral("-") : QStringLiteral("+")) + durationTickLabel(std::abs(tick) * 1e9);
    // Show as many decimals of the second as the step needs, and the date only when the step is a day.
    const int digits = m_step >= 1 ? 0 : m_step >= 0.1 ? 1 : m_step >= 0.01 ? 2 : m_step >= 1e-3 ? 3 : 6;
    const QString stamp = QString::fromStdString(lx::formatTimestamp(lx::saturatingAdd(m_originNs, offsetNs), digits));
    // "2025-01-01T12:00:00.5Z": the time of day, and the date too when ticks are days apart.
    if (m_step >= 86400)
        return stamp.left(10);
    return stamp.mid(11).chopped(1);
}

QString ShareTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return QStringLiteral("%1%").arg(std::round(tick * 1000) / 10);
}
