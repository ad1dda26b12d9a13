// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "main_window.h"

#include <QStringList>

/// `latency-explorer --screenshot OUT.png --view VIEW FILE...`: loads the files, waits until the view shows
/// their data, renders the window at 1600x1000 and writes the PNG. `mapping`: as --mapping (empty:
/// automatic). Returns the process exit status.
int takeScreenshot(const QString &out, MainWindow::View view, const QStringList &files, const QString &filter = {},
                   const QString &mapping = {});
