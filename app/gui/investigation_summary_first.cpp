// SPDX-License-Identifier: GPL-3.0-or-later
// Investigation::startSummaryFirst(): pass 1 of opening one trace file (summary_first.h). Writing every
// request into the investigation's SQLite store is most of an open (2.7 s of 3.5 s for a million requests);
// the summary needs none of it. So the file is read first as `latency-explorer-cli report FILE` reads it,
// into a throw-away store that holds the requests in memory and keeps details only where the client/server
// join needs them, and analysed there: the summary shows in the CLI's time. Then pass 2 (startWriting())
// imports the file into the investigation's store as any open does (importing() stays true until it lands).
//
// Until pass 2 lands, the charts read pass 1's store (Investigation::viewSource()): they follow the summary
// in a second instead of waiting for the store. The request table and the request detail, which page
// through the store's rows and details, wait for it as for any import.
//
// Pass 2 analyses its store again when it lands (finishImport()): the scans read held rows as they read the
// table (request_scan.h), so the figures are the same, and recomputing keeps one path to the report the
// window shows once the store is there, whatever happened in between (a filter typed, a file that changed).
#include "investigation.h"

#include "import_progress_post.h"
#include "ingest/open_inputs.h"
#include "store/store.h"

#include <QPointer>

#include <chrono>

void Investigation::startSummaryFirst(const lx::OpenPlan &plan)
{
    QPointer<Investigation> self(this);
    const auto started = std::chrono::steady_clock::now();
    auto read = [self, plan, started, cancel = m_cancel, mapping = m_spanMapping.toStdString()](const std::atomic<bool> &) {
        SummaryFirst first;
        lx::OpenOptions options;
        options.spanMapping = mapping;
        options.detailRows = lx::DetailRows::JoinCandidates; // nothing filters this store: the join's alone
        options.holdRows = true;
        options.readAgainSoon = true; // pass 2 reads the file again: from the page cache, not the disk
        ImportProgressPost progress(self, started);
        options.progress = [&](const lx::ImportProgress &p) {
            if (progress.due(p.bytesDone >= p.bytesTotal || p.joining)) {
                const double fraction = p.bytesTotal ? double(p.bytesDone) / double(p.bytesTotal) : 0.0;
                const QString stage = p.joining ? Investigation::tr("Joining client and server records")
                                                : Investigation::tr("Reading for the summary");
                progress.post(stage, fraction, p.records, !p.joining);
            }
            return !cancel->load();
        };
        // A new temporary store of its own (OpenOptions::newStorePath empty), gone when this returns.
        lx::OpenedInputs opened = lx::openInputs(plan, options);
        first.imports = opened.filled.imports;
        // Only a file read in full gives the summary pass 2 will: anything else waits for pass 2 and its
        // messages, which say what went wrong in the usual way.
        const bool complete = opened.store && !opened.filled.cancelled && !cancel->load() && first.imports.size() == 1
                              && first.imports.front().outcome == lx::FileImport::Outcome::Complete;
        if (complete) {
            first.report = std::make_shared<lx::Report>(lx::analyze(*opened.store, lx::RequestFilter{}));
            first.store = std::make_shared<const SharedStore>(std::move(opened.store));
        }
        return first;
    };
    const quint64 generation = m_filterGeneration;
    m_summaryFirst.start(read, [this, plan, generation](const SummaryFirst &first) {
        if (m_cancel->load()) {
            // Cancelled while reading: nothing was written to the investigation's store, which closes
            // again as after any import cancelled before a record landed.
            finishImport(ImportOutcome{first.imports, {}}, true);
            return;
        }
        // The summary of the unfiltered view, unless a filter was set meanwhile: that filter is analysed on
        // the requests held for the summary when they can decide it, else once pass 2 lands (analyse()). The
        // charts read those requests until the store lands (viewSource()).
        m_preview = first.store;
        if (first.report && generation == m_filterGeneration) {
            m_report = *first.report;
            m_hasReport = true;
            emit reportChanged();
        }
        startWriting(plan, true);
        if (m_preview) {
            emit previewChanged();
            if (!m_hasReport)
                analyse();
        }
    });
}
