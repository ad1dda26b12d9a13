// SPDX-License-Identifier: GPL-3.0-or-later
// Investigation::pull(): File ▸ Open from Trace Store's pull, run as a file import is (investigation.cpp).
#include "investigation.h"

#include "import_progress_post.h"
#include "source/clickhouse_pull.h"
#include "store/store.h"
#include "trace_store_pull.h"

#include <QPointer>

#include <algorithm>

#include <chrono>

QString traceStoreTitle(const lx::source::ClickHouseEndpoint &endpoint)
{
    return QObject::tr("%1.%2 on %3:%4")
        .arg(QString::fromStdString(endpoint.database), QString::fromStdString(endpoint.table), QString::fromStdString(endpoint.host))
        .arg(endpoint.port);
}

void Investigation::pull(const TraceStorePull &pull)
{
    if (m_importing || m_saving)
        return;
    close();
    // A temporary store, as for files opened: "Save as" keeps it.
    std::string why;
    auto store = lx::Store::openTemporary(&why);
    if (!store) {
        emit errorOccurred(tr("Cannot create a store for the investigation: %1").arg(QString::fromStdString(why)));
        return;
    }
    m_store = std::move(store);
    m_firstInput = traceStoreTitle(pull.endpoint);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    setBusy(true, m_analysing);
    emit importStarted(1);
    emit storeChanged(); // the views let go of the store while the pull writes it

    QPointer<Investigation> self(this);
    const auto started = std::chrono::steady_clock::now();
    auto job = [self, pull, fileName = m_store->fileName(), started, cancel = m_cancel](const std::atomic<bool> &) {
        return importOnOwnStore(fileName, [&](lx::Store &store, ImportOutcome &outcome) {
            lx::source::PullOptions options;
            options.spanMapping = pull.mapping.toStdString();
            options.request.password = pull.password;
            ImportProgressPost progress(self, started);
            options.progress = [&](const lx::source::PullProgress &p) {
                if (progress.due()) {
                    // The count before the pull says how many spans will come.
                    const double fraction = pull.expectedSpans ? std::min(1.0, double(p.rowsReceived) / double(pull.expectedSpans)) : 0.0;
                    progress.post(Investigation::tr("Pulling: %L1 spans received").arg(p.rowsReceived), fraction, p.records);
                }
                return !cancel->load();
            };
            outcome.imports.push_back(lx::source::pullSpans(store, pull.endpoint, pull.window, options));
            // A failed pull keeps nothing (one transaction): said in a box, not only in the status bar.
            const lx::FileImport &pulled = outcome.imports.back();
            if (pulled.outcome != lx::FileImport::Outcome::Complete && pulled.outcome != lx::FileImport::Outcome::Cancelled)
                outcome.errors << Investigation::tr("The pull failed, nothing was kept: %1").arg(QString::fromStdString(pulled.message));
        });
    };
    m_import.start(job, [this](const ImportOutcome &outcome) { finishImport(outcome, true); });
}
