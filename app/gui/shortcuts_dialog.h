// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>

class QAction;

/// Every action of the window with its keyboard shortcut, read from the actions themselves so that the list
/// cannot go stale.
class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    ShortcutsDialog(const QList<QAction *> &actions, QWidget *parent = nullptr);
};
