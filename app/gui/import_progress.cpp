// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_progress.h"

#include "model/duration_format.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

ImportProgress::ImportProgress(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    m_bar->setRange(0, 1000);
    m_bar->setFixedWidth(220);
    m_bar->setTextVisible(true);
    layout->addWidget(m_bar);
    m_cancel->setToolTip(tr("Stop the import: the file being read is rolled back, the files before it are kept"));
    layout->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_label->setText(tr("Cancelling…"));
        emit cancelRequested();
    });
    setVisible(false);
}

void ImportProgress::start(int files)
{
    m_label->setText(tr("Importing %n file(s)…", nullptr, files));
    m_bar->setValue(0);
    m_bar->setFormat(QStringLiteral("%p%"));
    m_cancel->setEnabled(true);
    setVisible(true);
}

void ImportProgress::update(const QString &stage, double fraction, double recordsPerSecond, double secondsLeft)
{
    m_bar->setValue(int(fraction * 1000));
    m_bar->setFormat(QStringLiteral("%1%").arg(fraction * 100, 0, 'f', 1));
    QString text = stage + QStringLiteral(" · ") + tr("%L1 records/s").arg(recordsPerSecond, 0, 'f', 0);
    if (secondsLeft >= 0)
        text += QStringLiteral(" · ") + tr("%1 left").arg(QString::fromStdString(lx::formatDuration(secondsLeft * 1e9)));
    m_label->setText(text);
}

void ImportProgress::finish() { setVisible(false); }

QString ImportProgress::text() const { return m_label->text() + QLatin1Char(' ') + m_bar->text(); }

ImportOutcomeText importOutcomeText(const std::vector<lx::FileImport> &imports)
{
    ImportOutcomeText text;
    for (const lx::FileImport &in : imports) {
        const QString path = QString::fromStdString(in.path);
        if (in.outcome == lx::FileImport::Outcome::AlreadyImported) // no fault: told, as a remark is
            text.notices << QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(),
                                                         QString::fromStdString(in.message));
        else if (in.outcome != lx::FileImport::Outcome::Complete)
            text.problems << QStringLiteral("%1: %2").arg(path, QString::fromStdString(in.message));
        if (!in.notice.empty())
            text.notices << QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(in.notice));
    }
    return text;
}

void showImportNotices(QWidget *parent, const QStringList &notices)
{
    if (notices.isEmpty() || qEnvironmentVariableIsSet("LX_NO_DIALOGS"))
        return;
    auto *box = new QMessageBox(QMessageBox::Information, QObject::tr("Latency Explorer"), notices.join(QStringLiteral("\n\n")),
                                QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}
