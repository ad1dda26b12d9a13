// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_pool.h"
#include "store/store.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <string>
#include <utility>

/// \file background_job.h
/// The one way the widgets run work off the UI thread. A job copies its inputs in, runs on a worker of the
/// global thread pool (reading on a store connection of its own: onOwnStore(), or a ReadConnection moved in),
/// and its result lands on the receiver's thread. Starting a job supersedes the one before: that one's cancel
/// flag is set and its result dropped (a generation counter), so a view only ever shows the newest.
///
/// Delivery goes through a QFutureWatcher rather than QFuture::then(receiver, ...): in Qt 6.4 a continuation
/// whose context died while the job ran trips an assertion. The watchers belong to the job and are
/// connected with the receiver as context, so nothing is delivered once either of them is gone; the worker
/// finishes on its own, holding only its copies (and its cancel flag, set by then).
///
/// start(), cancel(), deliverLater() and the delivery all run on the receiver's thread.
template<typename Result>
class BackgroundJob {
public:
    explicit BackgroundJob(QObject *receiver)
        : m_receiver(receiver)
        , m_watchers(std::make_unique<QObject>())
    {
    }
    /// Cancels the running job; its result is never delivered.
    ~BackgroundJob() { m_cancel->store(true); }
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    /// Runs work(cancel) on a worker and calls deliver(result) on the receiver's thread, unless a newer job
    /// was started, cancel() was called or the receiver is gone by then. `work` must own what it reads (it
    /// may outlive the receiver) and should give up early once `cancel` is true.
    template<typename Work, typename Deliver>
    void start(Work work, Deliver deliver)
    {
        const int generation = supersede();
        auto *watcher = new QFutureWatcher<Result>(m_watchers.get());
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_receiver,
                         [this, watcher, generation, deliver = std::move(deliver)]() mutable {
                             watcher->deleteLater();
                             if (land(generation))
                                 deliver(watcher->result());
                         });
        // Not on Qt's global pool, which the painter needs free (background_pool.h).
        watcher->setFuture(QtConcurrent::run(&backgroundPool(),
            [work = std::move(work), cancel = m_cancel]() mutable -> Result { return work(std::as_const(*cancel)); }));
    }

    /// Delivers a result computed on the spot as if a job had returned it: later, from the event loop, and
    /// only if no newer job was started by then. The running job is superseded.
    template<typename Deliver>
    void deliverLater(Result result, Deliver deliver)
    {
        const int generation = supersede();
        QMetaObject::invokeMethod(
            m_receiver,
            [this, generation, result = std::move(result), deliver = std::move(deliver)]() mutable {
                if (land(generation))
                    deliver(std::move(result));
            },
            Qt::QueuedConnection);
    }

    /// Stops waiting for the running job: its cancel flag is set and its result dropped.
    void cancel()
    {
        supersede();
        m_running = false;
    }
    /// A job was started and its result has not landed (nor was it cancelled).
    bool running() const { return m_running; }

private:
    /// Cancels the job before and opens a new generation; returns it.
    int supersede()
    {
        m_cancel->store(true);
        m_cancel = std::make_shared<std::atomic<bool>>(false);
        m_running = true;
        return ++m_generation;
    }
    /// Whether the result of `generation` is the one awaited; if so, nothing runs any more.
    bool land(int generation)
    {
        if (generation != m_generation)
            return false;
        m_running = false;
        return true;
    }

    QObject *m_receiver;
    /// Parent of the pending jobs' watchers: they go with this object, and nothing is delivered after it.
    std::unique_ptr<QObject> m_watchers;
    /// The running job's flag, shared with its worker (which may outlive this object).
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    int m_generation = 0;
    bool m_running = false;
};

/// Work for BackgroundJob::start() that opens the investigation in `storeFile` on the worker (a connection
/// of the job's own; the store's file must exist) and returns compute(store, cancel), or fail(why) when
/// the file cannot be opened. The store is the job's alone: compute may take it as `lx::Store &`.
template<typename Compute, typename Fail>
auto onOwnStore(std::string storeFile, Compute compute, Fail fail)
{
    return [file = std::move(storeFile), compute = std::move(compute), fail = std::move(fail)](const std::atomic<bool> &cancel) {
        std::string why;
        const std::unique_ptr<lx::Store> store = lx::Store::openExisting(file, &why);
        return store ? compute(*store, cancel) : fail(why);
    };
}
