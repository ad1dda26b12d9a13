// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLineEdit;
class QSpinBox;

/// Asks where to write a chart and at what size; the format follows the file's suffix (.png, .svg, .pdf).
class ChartExportDialog : public QDialog {
    Q_OBJECT

public:
    explicit ChartExportDialog(QSize initialSize, QWidget *parent = nullptr);

    QString path() const;
    QSize exportSize() const;

private:
    void browse();

    QLineEdit *m_path;
    QSpinBox *m_width;
    QSpinBox *m_height;
};
