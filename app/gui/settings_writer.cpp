// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings_writer.h"

#include <QSettings>
#include <QThread>

SettingsWriter::SettingsWriter()
{
    m_pool.setMaxThreadCount(1);
}

SettingsWriter::~SettingsWriter() { m_pool.waitForDone(); }

void SettingsWriter::write(Values values)
{
    // QSettings is reentrant: an object of this thread's own, on the same file as the window's reads.
    m_pool.start([this, values = std::move(values)] {
        QSettings settings;
        for (const auto &[key, value] : values)
            settings.setValue(key, value);
        settings.sync();
        m_lastWriter.store(QThread::currentThread());
    });
}

void SettingsWriter::waitForDone() { m_pool.waitForDone(); }
