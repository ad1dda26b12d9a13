// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open from Trace Store: the dialog (trace_store_dialog.h), then the pull as a new investigation.
#include "filter_bar.h"
#include "investigation.h"
#include "main_window.h"
#include "span_mapping_menu.h"
#include "trace_store_dialog.h"

#include <QStatusBar>

void MainWindow::openTraceStoreDialog()
{
    if (m_investigation->importing()) {
        statusBar()->showMessage(tr("An import is running; wait for it or cancel it first"), 5000);
        return;
    }
    TraceStoreDialog dialog(m_spanMappingMenu->mapping(), this);
    if (dialog.exec() == QDialog::Accepted)
        pullFromTraceStore(dialog.pull());
}

void MainWindow::pullFromTraceStore(const TraceStorePull &pull)
{
    if (m_investigation->importing())
        return;
    // Pulled when the save has landed: a saved investigation asks nothing.
    if (!settleUnsaved(tr("The investigation open now has not been saved. Save it before opening another?"),
                       [this, pull] { pullFromTraceStore(pull); }))
        return;
    m_filterBar->clear(true); // no analysis of the investigation that is about to close
    m_investigation->pull(pull);
}
