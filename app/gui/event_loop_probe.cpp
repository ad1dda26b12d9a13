// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_loop_probe.h"

#include <QTimer>

#include <algorithm>

namespace {
constexpr int kIntervalMs = 10;
}

EventLoopProbe::EventLoopProbe(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setTimerType(Qt::PreciseTimer);
    m_timer->setInterval(kIntervalMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        const qint64 now = m_clock.nsecsElapsed();
        m_delaysMs.push_back(std::max<double>(0.0, double(now - m_expected) / 1e6));
        m_dueMs.push_back(double(m_expected) / 1e6);
        m_expected = now + qint64(kIntervalMs) * 1'000'000;
    });
}

void EventLoopProbe::start()
{
    m_delaysMs.clear();
    m_dueMs.clear();
    m_clock.start();
    m_expected = qint64(kIntervalMs) * 1'000'000;
    m_timer->start();
}

void EventLoopProbe::stop() { m_timer->stop(); }

bool EventLoopProbe::running() const { return m_timer->isActive(); }

double EventLoopProbe::maxDelayMs() const
{
    return m_delaysMs.empty() ? 0.0 : *std::max_element(m_delaysMs.begin(), m_delaysMs.end());
}

std::vector<EventLoopProbe::Stall> EventLoopProbe::stalls(double thresholdMs) const
{
    std::vector<Stall> out;
    for (std::size_t i = 0; i < m_delaysMs.size(); ++i)
        if (m_delaysMs[i] > thresholdMs)
            out.push_back({m_dueMs[i], m_delaysMs[i]});
    return out;
}

QString EventLoopProbe::summary() const
{
    if (m_delaysMs.empty())
        return QStringLiteral("no ticks");
    std::vector<double> sorted = m_delaysMs;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) { return sorted[std::size_t(q * double(sorted.size() - 1))]; };
    return QStringLiteral("%1 ticks of %2 ms: median %3 ms, p99 %4 ms, max %5 ms late")
        .arg(sorted.size()).arg(kIntervalMs).arg(at(0.5), 0, 'f', 2).arg(at(0.99), 0, 'f', 2).arg(sorted.back(), 0, 'f', 2);
}
