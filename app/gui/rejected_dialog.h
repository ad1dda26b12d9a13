// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

namespace lx {
class Store;
}

/// The records refused at import, each with its file, line, reason and the start of its text.
class RejectedDialog : public QDialog {
    Q_OBJECT

public:
    RejectedDialog(const lx::Store &store, QWidget *parent = nullptr);
};
