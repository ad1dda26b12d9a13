// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

/// The status-bar display of a running import: stage, percentage, records/s, time left, and Cancel.
class ImportProgress : public QWidget {
    Q_OBJECT

public:
    explicit ImportProgress(QWidget *parent = nullptr);
    void start(int files);
    void update(const QString &stage, double fraction, double recordsPerSecond, double secondsLeft);
    void finish();
    QString text() const;

signals:
    void cancelRequested();

private:
    QLabel *m_label;
    QProgressBar *m_bar;
    QPushButton *m_cancel;
};
