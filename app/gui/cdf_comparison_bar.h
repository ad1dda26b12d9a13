// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

/// What the CDFs are compared with (A/B): the requests of a second filter, in this investigation or in
/// another saved one. Empty filter text with another investigation: the main filter applies there too.
class CdfComparisonBar : public QWidget {
    Q_OBJECT

public:
    explicit CdfComparisonBar(QWidget *parent = nullptr);

    bool active() const { return m_active; }
    /// The other investigation's .lxdb, empty for this one.
    QString storeFile() const { return m_storeFile; }
    /// B's filter expression as typed (valid whenever active()).
    QString expression() const;
    lx::RequestFilter filter() const { return m_filter; }
    /// The legend's name of B: "B: e2e > 2s", "B: baseline.lxdb".
    QString label() const;

    void setExpression(const QString &text);
    void setStoreFile(const QString &path);
    void clear();

signals:
    /// B changed (or was cleared): the comparison curves are recomputed or removed.
    void comparisonChanged();

private:
    void apply();

    QLineEdit *m_expression;
    QPushButton *m_openStore;
    QPushButton *m_clear;
    QLabel *m_status;
    QString m_storeFile;
    lx::RequestFilter m_filter;
    bool m_active = false;
};
