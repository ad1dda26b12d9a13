// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_progress_post.h"

#include "investigation.h"

#include <QCoreApplication>

bool ImportProgressPost::due(bool force)
{
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - m_lastPost < std::chrono::milliseconds(100))
        return false;
    m_lastPost = now;
    return true;
}

void ImportProgressPost::post(const QString &stage, double fraction, std::int64_t records, bool timeLeftKnown) const
{
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
    const double rate = elapsed > 0 ? double(records) / elapsed : 0.0;
    const double left = timeLeftKnown && fraction > 0.02 ? elapsed * (1 - fraction) / fraction : -1.0;
    // qApp as the context: a QPointer may only be read on its own thread, inside the call.
    QMetaObject::invokeMethod(qApp, [self = m_target, stage, fraction, rate, left] {
        if (self)
            emit self->importProgress(stage, fraction, rate, left);
    });
}
