// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QLabel;
class QProgressBar;
class QPushButton;

/// What an import that ended says of its files: why a file did not import completely (`problems`, by path)
/// and what a reader remarked of a file read in full (`notices`, by file name: no OTLP span mapping claimed
/// its spans).
struct ImportOutcomeText {
    QStringList problems;
    QStringList notices;
};
ImportOutcomeText importOutcomeText(const std::vector<lx::FileImport> &imports);
/// Shows the notices in a box that does not hold up the window (none under LX_NO_DIALOGS): a notice
/// changes what every figure means (all of it unattributed, for want of a span mapping), so it is said
/// where it cannot be missed.
void showImportNotices(QWidget *parent, const QStringList &notices);

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
