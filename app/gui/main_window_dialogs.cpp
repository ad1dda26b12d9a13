// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's dialogs: opening, saving, exporting, the rejected records, About, and the question asked
// before an unsaved investigation is closed (main_window.cpp holds the window's composition).
#include "main_window.h"

#include "application.h"
#include "chart_tabs.h"
#include "filter_bar.h"
#include "incident_export.h"
#include "investigation.h"
#include "load_tab.h"
#include "model/segments.h"
#include "open_file_filter.h"
#include "rejected_dialog.h"
#include "requests_view.h"
#include "slo_panel.h"
#include "store/store.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QStatusBar>

#include <utility>

void MainWindow::openDialog(bool add)
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, add ? tr("Add traces or investigations") : tr("Open traces or an investigation"), QString(),
        openFileFilter());
    openFiles(paths, add);
}

bool MainWindow::settleUnsaved(const QString &question, std::function<void()> afterSave)
{
    if (!m_investigation->isTemporary())
        return true;
    const UnsavedAnswer answer = askAboutUnsaved(question);
    if (answer.choice == UnsavedChoice::Discard)
        return true;
    if (answer.choice == UnsavedChoice::Cancel)
        return false;
    QString error;
    if (!m_investigation->saveAs(answer.savePath, &error)) {
        statusBar()->showMessage(tr("Cannot save %1: %2").arg(answer.savePath, error), 15000);
        return false;
    }
    m_afterSave = std::move(afterSave);
    statusBar()->showMessage(tr("Saving to %1…").arg(answer.savePath));
    return false;
}

MainWindow::UnsavedAnswer MainWindow::askAboutUnsaved(const QString &question)
{
    if (m_unsavedPrompt)
        return m_unsavedPrompt();
    if (qEnvironmentVariableIsSet("LX_NO_DIALOGS"))
        return {UnsavedChoice::Discard, {}};
    const auto button = QMessageBox::question(this, tr("Unsaved investigation"), question,
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (button == QMessageBox::Discard)
        return {UnsavedChoice::Discard, {}};
    const QString path = button == QMessageBox::Save ? askSavePath() : QString();
    return path.isEmpty() ? UnsavedAnswer{} : UnsavedAnswer{UnsavedChoice::Save, path};
}

QString MainWindow::askSavePath()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save investigation as"), QString(), tr("Investigations (*.lxdb)"));
    if (!path.isEmpty() && !path.endsWith(QLatin1String(".lxdb")))
        path += QStringLiteral(".lxdb");
    return path;
}

void MainWindow::saveAsDialog()
{
    const QString path = askSavePath();
    if (path.isEmpty())
        return;
    QString error;
    if (!m_investigation->saveAs(path, &error))
        QMessageBox::warning(this, tr("Save investigation"), tr("Cannot save %1: %2").arg(path, error));
    else
        statusBar()->showMessage(tr("Saving to %1…").arg(path));
}

void MainWindow::exportCsvDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the filtered requests"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    m_requests->exportCsv(path);
}

void MainWindow::exportReportDialog()
{
    if (!m_investigation->hasStore() || m_investigation->importing())
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the incident report"), QString(),
                                                      tr("HTML, self-contained (*.html);;Markdown, charts beside it (*.md)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_incidentExport->start(m_investigation->store()->fileName(), m_investigation->filter(),
                                 m_filterBar->statement(), m_charts->loadTab()->sloPanel()->targets(), path, &error)) {
        QMessageBox::warning(this, tr("Export the incident report"), error);
        return;
    }
    m_reportAction->setEnabled(false);
    statusBar()->showMessage(tr("Writing the incident report to %1…").arg(path));
}

void MainWindow::showRejected()
{
    if (m_investigation->importing()) {
        // The summary of a file can show before its store is written (summary first): the rejected
        // records are in that store.
        statusBar()->showMessage(tr("The rejected records can be listed once the import has landed"), 5000);
        return;
    }
    if (!m_investigation->store())
        return;
    RejectedDialog(*m_investigation->store(), this).exec();
}

void MainWindow::showAbout()
{
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("aboutBox"));
    box.setWindowTitle(tr("About Latency Explorer"));
    box.setText(tr("<h3>Latency Explorer %1</h3><p>Where the time of slow LLM requests went: every request's "
                   "end-to-end latency decomposed into %3 time.</p><p>Free software under the GNU GPL, "
                   "version 3 or later. Built with Qt %2 and SQLite.</p>")
                    .arg(QStringLiteral(LX_VERSION), QString::fromLatin1(qVersion()),
                         QString::fromStdString(lx::joinSegmentNames(", ", " and "))));
    // The application's icon, not the message box's "information" sign (QMessageBox::about would fall back
    // to that where the window has no icon of its own).
    box.setIconPixmap(applicationIcon().pixmap(QSize(64, 64), devicePixelRatio()));
    box.exec();
}
