// SPDX-License-Identifier: GPL-3.0-or-later
#include "application.h"

#include <QFileOpenEvent>

QIcon applicationIcon()
{
    // lxgui is a static library: naming its resource here keeps the linker from dropping it.
    Q_INIT_RESOURCE(latency_explorer);
    QIcon icon;
    for (const int size : {16, 24, 32, 48, 64, 128, 256, 512})
        icon.addFile(QStringLiteral(":/icons/%1.png").arg(size), QSize(size, size));
    return icon;
}

Application::Application(int &argc, char **argv)
    : QApplication(argc, argv)
{
    setApplicationName(QStringLiteral("Latency Explorer"));
    setOrganizationName(QStringLiteral("Latency Explorer"));
    setApplicationVersion(QStringLiteral(LX_VERSION));
    // Every window's icon; on Wayland the desktop file names the window's icon and groups it in the dock.
    setWindowIcon(applicationIcon());
    setDesktopFileName(QStringLiteral(LX_APP_ID));
}

bool Application::event(QEvent *event)
{
    if (event->type() == QEvent::FileOpen) {
        emit fileOpenRequested(static_cast<QFileOpenEvent *>(event)->file());
        return true;
    }
    return QApplication::event(event);
}
