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

private:
    QTimer *m_timer;
    QElapsedTimer m_clock;
    qint64 m_expected = 0;
    std::vector<double> m_delaysMs;
};
