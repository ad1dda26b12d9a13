// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QString>

#include <chrono>
#include <cstdint>

class Investigation;

/// An import's progress posted from its worker to Investigation::importProgress() on the investigation's
/// thread, for the status bar (ImportProgress): records/s and the time left worked out from the start.
/// Made on the worker for one import (a file import or a trace store pull).
class ImportProgressPost {
public:
    ImportProgressPost(QPointer<Investigation> target, std::chrono::steady_clock::time_point started)
        : m_target(std::move(target))
        , m_started(started)
    {
    }
    /// Whether to post now: ten updates a second are plenty for a progress bar, and keep the event queue
    /// short; `force` (the end of a stage) posts whatever the time.
    bool due(bool force = false);
    /// `fraction` done (0..1), `records` so far; `timeLeftKnown` false when the fraction says nothing of it.
    void post(const QString &stage, double fraction, std::int64_t records, bool timeLeftKnown = true) const;

private:
    QPointer<Investigation> m_target;
    std::chrono::steady_clock::time_point m_started;
    std::chrono::steady_clock::time_point m_lastPost{};
};
