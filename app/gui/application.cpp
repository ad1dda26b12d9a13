// SPDX-License-Identifier: GPL-3.0-or-later
#include "application.h"

#include <QFileOpenEvent>

Application::Application(int &argc, char **argv)
    : QApplication(argc, argv)
{
    setApplicationName(QStringLiteral("Latency Explorer"));
    setOrganizationName(QStringLiteral("Latency Explorer"));
    setApplicationVersion(QStringLiteral(LX_VERSION));
}

bool Application::event(QEvent *event)
{
    if (event->type() == QEvent::FileOpen) {
        emit fileOpenRequested(static_cast<QFileOpenEvent *>(event)->file());
        return true;
    }
    return QApplication::event(event);
}
