// SPDX-License-Identifier: GPL-3.0-or-later
#include "investigation.h"

#include "import_progress_post.h"
#include "summary_first.h"

#include "ingest/open_inputs.h"
#include "store/integrity_check.h"
#include "store/request_scan.h"
#include "store/store.h"

#include <QFile>
#include <QFileInfo>
#include <QCoreApplication>
#include <QPointer>

#include <chrono>

Investigation::Investigation(QObject *parent)
    : QObject(parent)
{
}

Investigation::~Investigation()
{
    // A running job holds only its own connection and copies of its inputs; tell it to stop and let it end.
    *m_cancel = true;
}

QString Investigation::title() const
{
    if (!m_store)
        return {};
    if (!m_store->isTemporary())
        return QFileInfo(QString::fromStdString(m_store->fileName())).fileName();
    return tr("%1 (not saved)").arg(QFileInfo(m_firstInput).fileName());
}

bool Investigation::isTemporary() const { return m_store && m_store->isTemporary(); }

void Investigation::close()
{
    if (m_importing)
        return;
    m_analysis.cancel(); // an analysis of the closed store must not land in the next one
    setBusy(m_importing, false);
    m_filter = lx::RequestFilter{}; // the next investigation starts unfiltered, as the filter bar shows
    m_preview.reset();
    m_store.reset();
    m_hasReport = false;
    m_report = lx::Report{};
    m_lastImports.clear();
    emit storeChanged();
    emit reportChanged();
}

void Investigation::open(const QStringList &paths)
{
    if (m_importing || paths.isEmpty())
        return;
    close();
    add(paths);
}

void Investigation::add(const QStringList &paths)
{
    if (m_importing || m_saving || paths.isEmpty())
        return;
    std::vector<std::string> inputs;
    for (const QString &path : paths)
        inputs.push_back(path.toStdString());
    const lx::OpenPlan plan = lx::planOpenInputs(inputs, m_store != nullptr);
    if (plan.target == lx::OpenPlan::Target::ResumeStore) {
        resume(plan, paths.front());
        return;
    }
    if (plan.target != lx::OpenPlan::Target::CurrentStore) {
        // A new store: made here, it is trusted without a check, and creating it takes milliseconds.
        std::string why;
        auto store = lx::openPlanTarget(plan, {}, &why);
        if (!store) {
            emit errorOccurred(tr("Cannot create a store for the investigation: %1").arg(QString::fromStdString(why)));
            return;
        }
        m_store = std::move(store);
        m_firstInput = paths.front();
    }
    startImport(plan);
}

void Investigation::resume(const lx::OpenPlan &plan, const QString &path)
{
    // Opening a saved investigation checks it (store_trust.h): the first `PRAGMA quick_check` of a file reads
    // all of it, 0.4 s for a million requests, so it runs on a worker and the window stays live. The summary's
    // analysis, as long again, runs beside the check on a read-only connection of its own
    // (integrity_check.h); neither the store nor the summary is shown before the check says the file is
    // sound. The import flag holds other opens off until it lands.
    setBusy(true, m_analysing);
    emit resumeStarted(path);
    const auto open = [plan, filter = m_filter, generation = m_filterGeneration](const std::atomic<bool> &) {
        auto resumed = std::make_shared<ResumedStore>();
        resumed->filterGeneration = generation;
        std::string why;
        {
            lx::BackgroundIntegrityCheck check(plan.resumePath);
            if (auto reader = lx::Store::openReadOnly(plan.resumePath, &why, lx::IntegrityCheck::Deferred))
                resumed->report = std::make_shared<lx::Report>(lx::analyze(*reader, filter));
            if (const std::string problem = check.wait(); !problem.empty()) {
                resumed->report.reset();
                resumed->why = QString::fromStdString(problem);
                return resumed;
            }
        }
        resumed->store = lx::openPlanTarget(plan, {}, &why); // checked now: it is not read twice
        resumed->why = QString::fromStdString(why);
        if (!resumed->store)
            resumed->report.reset();
        return resumed;
    };
    m_resume.start(open, [this, path](const std::shared_ptr<ResumedStore> &resumed) {
        setBusy(false, m_analysing);
        if (!resumed->store) {
            emit storeChanged(); // the views say again that nothing is open
            emit errorOccurred(tr("%1: %2").arg(path, resumed->why));
            return;
        }
        // Resume an investigation: nothing to parse, the views read it as it is.
        m_store = std::move(resumed->store);
        m_firstInput = path;
        emit storeChanged();
        if (!resumed->report || resumed->filterGeneration != m_filterGeneration) {
            analyse(); // none, or one of a filter the user has changed since
            return;
        }
        m_report = *resumed->report;
        m_hasReport = true;
        emit reportChanged();
    });
}

void Investigation::startImport(const lx::OpenPlan &plan)
{
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    setBusy(true, m_analysing);
    emit importStarted(int(plan.imports.size() + plan.merges.size()));
    emit storeChanged(); // the views let go of the store while the import writes it
    if (readsSummaryFirst(plan, m_filter))
        startSummaryFirst(plan);
    else
        startWriting(plan, false);
}

void Investigation::startWriting(const lx::OpenPlan &plan, bool afterSummary)
{
    const std::string fileName = m_store->fileName();
    QPointer<Investigation> self(this);
    const auto started = std::chrono::steady_clock::now(); // of this pass: its records/s and time left

    auto job = [self, fileName, plan, started, afterSummary, cancel = m_cancel, mapping = m_spanMapping.toStdString()]() {
        return importOnOwnStore(fileName, [&](lx::Store &store, ImportOutcome &outcome) {
            lx::OpenOptions options;
            options.spanMapping = mapping;
            options.onMerge = [&outcome](const lx::StoreMerge &merge) {
                if (!merge.merged && !merge.alreadyIn) // one given twice is merged once: nothing went wrong
                    outcome.errors << QString::fromStdString(merge.path + ": " + merge.error);
            };
            ImportProgressPost progress(self, started);
            options.progress = [&](const lx::ImportProgress &p) {
                if (progress.due(p.bytesDone >= p.bytesTotal || p.joining)) {
                    const double fraction = p.bytesTotal ? double(p.bytesDone) / double(p.bytesTotal) : 0.0;
                    const QString stage = p.joining ? Investigation::tr("Joining client and server records")
                        : afterSummary              ? Investigation::tr("Writing the investigation")
                        : p.files > 1               ? Investigation::tr("Reading file %1 of %2").arg(p.file + 1).arg(p.files)
                                                    : Investigation::tr("Reading");
                    progress.post(stage, fraction, p.records, !p.joining);
                }
                return !cancel->load();
            };
            outcome.imports = lx::fillStore(store, plan, options).imports;
        });
    };
    // Cancelled by its own flag (cancelImport()), which lets the outcome land: the files before stay.
    const bool newStore = plan.target != lx::OpenPlan::Target::CurrentStore;
    m_import.start([job](const std::atomic<bool> &) { return job(); },
                   [this, newStore](const ImportOutcome &outcome) { finishImport(outcome, newStore); });
}

Investigation::ImportOutcome Investigation::importOnOwnStore(const std::string &fileName,
                                                            const std::function<void(lx::Store &, ImportOutcome &)> &fill)
{
    ImportOutcome outcome;
    std::string why;
    auto store = lx::Store::openExisting(fileName, &why);
    if (!store)
        outcome.errors << QString::fromStdString(why);
    else
        fill(*store, outcome);
    return outcome;
}

void Investigation::finishImport(const ImportOutcome &outcome, bool newStore)
{
    m_lastImports = outcome.imports;
    m_preview.reset(); // the views read the store from now on
    setBusy(false, m_analysing);
    emit importFinished();
    if (newStore && m_cancel->load() && lx::requestIdRange(*m_store).rows() == 0) {
        close();
        emit importCancelledEmpty();
    } else {
        emit storeChanged();
        analyse();
    }
    // Last: an error may open a modal box, and the views should be back before it does.
    if (!outcome.errors.isEmpty())
        emit errorOccurred(outcome.errors.join(QLatin1Char('\n')));
}

void Investigation::setFilter(const lx::RequestFilter &filter)
{
    m_filter = filter;
    ++m_filterGeneration;
    emit filterChanged();
    if (m_importing && m_hasReport) {
        // The summary read ahead of the store (investigation_summary_first.cpp) is of the old filter. This
        // one is analysed on the requests read for it when they can decide it (viewSource()), else once
        // the store is written: until then there is no summary to show.
        m_hasReport = false;
        m_report = lx::Report{};
        emit reportChanged();
    }
    analyse();
}

ViewSource Investigation::viewSource(const lx::RequestFilter &filter) const
{
    if (!m_store)
        return {};
    if (!m_importing)
        return {m_store->fileName(), nullptr};
    if (m_preview && lx::scansDecide(m_preview->unlocked(), lx::toSqlCondition(filter)))
        return {{}, m_preview};
    return {};
}

void Investigation::analyse()
{
    const ViewSource source = viewSource(m_filter);
    if (source.empty())
        return; // the store's analysis follows its import
    setBusy(m_importing, true);
    const auto analyze = [filter = m_filter](const lx::Store &store, const std::atomic<bool> &) {
        return std::make_shared<lx::Report>(lx::analyze(store, filter));
    };
    const auto unreadable = [](const std::string &) { return std::shared_ptr<lx::Report>(); };
    // A newer filter's analysis supersedes this one: its report is dropped.
    const auto work = [&]() -> std::function<std::shared_ptr<lx::Report>(const std::atomic<bool> &)> {
        if (source.shared)
            return onSharedStore(source.shared, analyze);
        return onOwnStore(source.storeFile, analyze, unreadable);
    };
    m_analysis.start(work(), [this](const std::shared_ptr<lx::Report> &report) {
        setBusy(m_importing, false);
        if (!report) {
            emit errorOccurred(tr("Cannot read the investigation's store"));
            return;
        }
        m_report = *report;
        m_hasReport = true;
        emit reportChanged();
    });
}

bool Investigation::saveAs(const QString &path, QString *error)
{
    if (!m_store || m_importing || m_saving) {
        *error = m_saving ? tr("A save is already running") : tr("Nothing to save yet");
        return false;
    }
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(QString::fromStdString(m_store->fileName())).absoluteFilePath()) {
        *error = tr("This investigation is already saved in that file");
        return false;
    }
    const bool wasBusy = busy();
    m_saving = true;
    if (!wasBusy)
        emit busyChanged(true);
    // Copied on a worker with a connection of its own (a million requests take seconds), to a file beside
    // the target, then renamed over it: a failed copy never costs the old file.
    const QString partial = path + QStringLiteral(".partial");
    const auto copy = [partial](lx::Store &store, const std::atomic<bool> &) {
        QFile::remove(partial);
        std::string why;
        return store.saveAs(partial.toStdString(), &why) ? QString() : QString::fromStdString(why);
    };
    const auto unreadable = [](const std::string &why) { return QString::fromStdString(why); };
    m_save.start(onOwnStore(m_store->fileName(), copy, unreadable), [this, path, partial](QString failure) {
        if (failure.isEmpty() && ((QFileInfo::exists(path) && !QFile::remove(path)) || !QFile::rename(partial, path)))
            failure = tr("Cannot replace %1").arg(path);
        if (!failure.isEmpty())
            QFile::remove(partial);
        m_saving = false;
        if (!busy())
            emit busyChanged(false);
        if (failure.isEmpty()) {
            // Go on with the saved file, so that later additions land in it. The views let go of the old
            // connection before it closes.
            std::string why;
            if (auto saved = lx::Store::open(path.toStdString(), &why)) {
                std::unique_ptr<lx::Store> old = std::move(m_store);
                m_store = std::move(saved);
                emit storeChanged();
            }
        }
        emit saveFinished(path, failure);
    });
    return true;
}

void Investigation::setBusy(bool importing, bool analysing)
{
    const bool was = busy();
    m_importing = importing;
    m_analysing = analysing;
    if (was != busy())
        emit busyChanged(busy());
}
