// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_export_dialog.h"

#include "chart.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

ChartExportDialog::ChartExportDialog(QSize initialSize, QWidget *parent)
    : QDialog(parent)
    , m_path(new QLineEdit(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
{
    setWindowTitle(tr("Export Chart"));
    m_path->setText(QDir::home().filePath(QStringLiteral("chart.png")));
    m_path->setToolTip(tr("The suffix chooses the format: .png, .svg or .pdf"));
    for (QSpinBox *box : {m_width, m_height}) {
        box->setRange(100, 16000);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(initialSize.width());
    m_height->setValue(initialSize.height());

    auto *browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, &ChartExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_path, &QLineEdit::textChanged, this, [this, buttons] {
        const QString suffix = QFileInfo(path()).suffix().toLower();
        buttons->button(QDialogButtonBox::Ok)->setEnabled(Chart::exportSuffixes().contains(suffix));
    });

    auto *form = new QFormLayout(this);
    form->addRow(tr("File:"), pathRow);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    form->addRow(buttons);
}

QString ChartExportDialog::path() const { return m_path->text().trimmed(); }

QSize ChartExportDialog::exportSize() const { return {m_width->value(), m_height->value()}; }

void ChartExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Chart"), path(),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}
