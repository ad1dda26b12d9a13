// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "view_source.h"
#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "filter/request_filter.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace lx {
class Store;
struct OpenPlan;
}
struct TraceStorePull;

/// The investigation open in a window: its store, the filter every view follows, and the background jobs
/// that import files and compute the report. Heavy work runs on worker threads with their own SQLite
/// connections (BackgroundJob); results come back on this object's thread, and stale ones are dropped.
class Investigation : public QObject {
    Q_OBJECT

public:
    explicit Investigation(QObject *parent = nullptr);
    ~Investigation() override;

    bool hasStore() const { return m_store != nullptr; }
    /// The UI thread's connection, for the views' small look-ups. Null before anything is opened.
    const lx::Store *store() const { return m_store.get(); }
    /// A name for the title bar: the store's file, or the first imported file for a new investigation.
    QString title() const;
    bool isTemporary() const;

    /// Opens files as a new investigation, in the background: a single .lxdb is resumed as it is; trace files
    /// (and several stores) are imported into a new temporary store, which "Save as" keeps.
    void open(const QStringList &paths);
    /// Adds trace files and .lxdb stores to the current investigation (a new one when none is open).
    void add(const QStringList &paths);
    /// Pulls spans from a trace store (ClickHouse) as a new investigation in a temporary store, in the
    /// background, with the import's progress and cancel (investigation_pull.cpp).
    void pull(const TraceStorePull &pull);
    /// Starts over with nothing open.
    void close();
    bool busy() const { return m_importing || m_analysing || m_saving; }
    /// True until an import has written the store and let go of it: the views must not read the store
    /// meanwhile. A summary read ahead of the store may already be there (hasReport(), reportChanged()).
    bool importing() const { return m_importing; }
    void cancelImport() { *m_cancel = true; }
    /// Writes the investigation to a .lxdb file in the background; saveFinished() follows. False (with the
    /// reason) when it cannot start: nothing open, an import running, or `path` is the open file.
    bool saveAs(const QString &path, QString *error);

    /// How OTLP spans become requests in the imports from now on (lx::ImportOptions::spanMapping).
    void setSpanMapping(const QString &mapping) { m_spanMapping = mapping; }
    const QString &spanMapping() const { return m_spanMapping; }

    /// Where the views read `filter`: the store, by its file, once it is written; while an open writes it,
    /// the requests read for the summary ahead of it (summary_first.h) when they can decide `filter` (a
    /// condition on a request's statistics, not its model or attributes); nothing otherwise.
    ViewSource viewSource(const lx::RequestFilter &filter) const;

    const lx::RequestFilter &filter() const { return m_filter; }
    void setFilter(const lx::RequestFilter &filter);
    bool hasReport() const { return m_hasReport; }
    const lx::Report &report() const { return m_report; }
    const std::vector<lx::FileImport> &lastImports() const { return m_lastImports; }

signals:
    void importStarted(int files);
    /// Stage text ("reading trace.jsonl (2 of 3)"), fraction 0..1, records/s and seconds left (-1: unknown).
    void importProgress(const QString &stage, double fraction, double recordsPerSecond, double secondsLeft);
    void importFinished();
    /// The import of a new investigation was cancelled before anything landed: it is closed again, so that
    /// no empty store titles the window or makes every view say it has no request.
    void importCancelledEmpty();
    /// The store or its contents changed: views re-query.
    void storeChanged();
    void reportChanged();
    void filterChanged();
    /// The requests read for the summary came (the views can read them while the store is written) or
    /// went: what viewSource() answers changed without a storeChanged().
    void previewChanged();
    void busyChanged(bool busy);
    void errorOccurred(const QString &message);
    /// A save ended: `error` is empty on success.
    void saveFinished(const QString &path, const QString &error);
    /// A saved investigation is being opened in the background (its check can take seconds): `path`.
    void resumeStarted(const QString &path);

private:
    void startImport(const lx::OpenPlan &plan);
    /// Pass 2 of an open, or the only one: the plan imported into the investigation's store, on a worker.
    /// `afterSummary` when pass 1 read the file already (the progress says the store is being written).
    void startWriting(const lx::OpenPlan &plan, bool afterSummary);
    /// Pass 1 of opening one trace file (summary_first.h, investigation_summary_first.cpp): the file read
    /// into a throw-away store that holds its requests in memory and analysed there; the summary lands
    /// while startWriting() fills the investigation's store.
    void startSummaryFirst(const lx::OpenPlan &plan);
    void resume(const lx::OpenPlan &plan, const QString &path);
    void analyse();
    void setBusy(bool importing, bool analysing);

    std::unique_ptr<lx::Store> m_store;
    /// Pass 1's store, holding the file's requests, while pass 2 writes m_store (summary_first.h).
    std::shared_ptr<const SharedStore> m_preview;
    QString m_firstInput;
    QString m_spanMapping;
    lx::RequestFilter m_filter;
    lx::Report m_report;
    bool m_hasReport = false;
    quint64 m_filterGeneration = 0; ///< counts setFilter(): a summary of an older filter is not shown
    std::vector<lx::FileImport> m_lastImports;
    bool m_importing = false;
    bool m_analysing = false;
    bool m_saving = false;
    /// Shared with the running import, which may outlive this object by the time it notices.
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    /// What a background import hands back.
    struct ImportOutcome {
        std::vector<lx::FileImport> imports;
        QStringList errors;
    };
    /// On a worker: opens a connection of its own to the store `fileName` and runs fill(store, outcome).
    static ImportOutcome importOnOwnStore(const std::string &fileName, const std::function<void(lx::Store &, ImportOutcome &)> &fill);
    /// Back on this thread: the import's outcome shown, the store analysed (or closed again when a new one
    /// was cancelled empty).
    void finishImport(const ImportOutcome &outcome, bool newStore);
    BackgroundJob<ImportOutcome> m_import{this};
    /// What pass 1 hands back: the summary (null when the read did not complete) and the file's import.
    struct SummaryFirst {
        std::shared_ptr<lx::Report> report;
        std::shared_ptr<const SharedStore> store; ///< the store it was read into, when it was read in full
        std::vector<lx::FileImport> imports;
    };
    BackgroundJob<SummaryFirst> m_summaryFirst{this};
    /// A store opened on a worker (its schema and integrity checks read the whole file), or why it was not.
    struct ResumedStore {
        std::unique_ptr<lx::Store> store;
        std::shared_ptr<lx::Report> report; ///< the summary, computed beside the store's check
        quint64 filterGeneration = 0;        ///< of the filter it was computed with
        QString why;
    };
    BackgroundJob<std::shared_ptr<ResumedStore>> m_resume{this};
    BackgroundJob<std::shared_ptr<lx::Report>> m_analysis{this}; ///< a newer filter's analysis drops an older one
    BackgroundJob<QString> m_save{this};                          ///< the reason a save failed; empty when it did not
};
