// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QApplication>
#include <QIcon>

/// The application's icon at every size of the hicolor theme (16 to 512 px), from the Qt resource
/// (resources/latency_explorer.qrc): the window, the About box and the task bar show it.
QIcon applicationIcon();

/// The application object: turns macOS's file-open events (a file dropped on the Dock icon, "Open With")
/// into a signal the main window handles like any other open.
class Application : public QApplication {
    Q_OBJECT

public:
    Application(int &argc, char **argv);

signals:
    void fileOpenRequested(const QString &path);

protected:
    bool event(QEvent *event) override;
};
