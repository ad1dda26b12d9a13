// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QThreadPool>
#include <QVariant>

#include <atomic>
#include <utility>

class QThread;

/// \file settings_writer.h
/// The window's settings written off its thread. QSettings writes its file under a lock file that it syncs
/// to the disk; each file opened adds to the recent files, so every open wrote the settings, and while the
/// last investigation's store was still being written out that sync held the window 120-165 ms
/// (`bench-gui`, the second file opened in a session). The values are read on the window's thread (the
/// geometry is the window's to say) and written by one thread of this writer's, in the order given.

class SettingsWriter {
public:
    using Values = QList<std::pair<QString, QVariant>>;

    SettingsWriter();
    /// Waits for the writes under way: the settings are on the disk when the window is gone.
    ~SettingsWriter();
    SettingsWriter(const SettingsWriter &) = delete;
    SettingsWriter &operator=(const SettingsWriter &) = delete;

    /// Sets each key to its value in the application's QSettings, on this writer's thread; returns at once.
    void write(Values values);
    /// Returns once every write asked for has landed.
    void waitForDone();
    /// The thread that made the last write (tests: never the caller's).
    QThread *lastWriter() const { return m_lastWriter.load(); }

private:
    QThreadPool m_pool; ///< one thread: the writes land in the order they were asked for
    std::atomic<QThread *> m_lastWriter{nullptr};
};
