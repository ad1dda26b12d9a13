// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>

#include <vector>

class QTimer;

/// Measures how late the event loop runs a 10 ms timer: the delay a user feels as a frozen window. Used to
/// check that imports never block the UI thread.
class EventLoopProbe : public QObject {
    Q_OBJECT

public:
    explicit EventLoopProbe(QObject *parent = nullptr);
    void start();
    void stop();
    bool running() const;
    /// "N ticks, median X ms, p99 Y ms, max Z ms late".
    QString summary() const;
    double maxDelayMs() const;
    /// The ticks later than `thresholdMs`: when each was due (ms since start()) and how late it ran, so that
    /// a stall can be matched with what the window was doing then.
    struct Stall {
        double atMs, lateMs;
    };
    std::vector<Stall> stalls(double thresholdMs) const;

private:
    QTimer *m_timer;
    QElapsedTimer m_clock;
    qint64 m_expected = 0;
    std::vector<double> m_delaysMs;
    std::vector<double> m_dueMs; ///< when each tick of m_delaysMs was due
};
