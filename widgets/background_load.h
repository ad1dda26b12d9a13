// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"
#include "store/store.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

/// \file background_load.h
/// Computes one view's data on a worker thread, on a store connection of its own, and hands the newest
/// result to the view on the UI thread. A view loads lazily: a filter change only marks it stale, and the
/// work runs when the view is shown (a user who never opens the waterfall never pays for it). A newer
/// request cancels and drops an older one.
template<typename Data>
class BackgroundLoad {
public:
    /// Runs on the worker: the data for `filter`, or null when cancelled or unreadable.
    using Compute = std::function<std::shared_ptr<const Data>(const lx::Store &, const lx::RequestFilter &,
                                                              const std::atomic<bool> &cancel)>;
    using Deliver = std::function<void(std::shared_ptr<const Data>)>;

    BackgroundLoad(QObject *owner, Compute compute, Deliver deliver)
        : m_owner(owner)
        , m_compute(std::move(compute))
        , m_deliver(std::move(deliver))
    {
    }
    ~BackgroundLoad() { *m_cancel = true; }

    /// Replaces the computation (its parameters changed: a window width, the SLO targets); the next
    /// loadIfStale() uses it. Call invalidate() too.
    void setCompute(Compute compute) { m_compute = std::move(compute); }

    /// The store or the filter changed: what is shown is stale; a running job is cancelled.
    void invalidate(const std::string &storeFile, const lx::RequestFilter &filter)
    {
        *m_cancel = true;
        m_cancel = std::make_shared<std::atomic<bool>>(false);
        m_storeFile = storeFile;
        m_filter = filter;
        m_stale = true;
        m_running = false;
        ++m_job;
    }
    /// Starts the computation when the data is stale (call when the view is shown or the filter changed
    /// while it is).
    void loadIfStale()
    {
        if (!m_stale || m_storeFile.empty())
            return;
        m_stale = false;
        m_running = true;
        const int job = m_job;
        auto *watcher = new QFutureWatcher<std::shared_ptr<const Data>>(m_owner);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner, [this, watcher, job] {
            const std::shared_ptr<const Data> data = watcher->result();
            watcher->deleteLater();
            if (job != m_job)
                return; // a newer filter's data is on its way
            m_running = false;
            m_deliver(data);
        });
        watcher->setFuture(QtConcurrent::run([compute = m_compute, file = m_storeFile, filter = m_filter,
                                              cancel = m_cancel]() -> std::shared_ptr<const Data> {
            std::string why;
            const auto store = lx::Store::openExisting(file, &why);
            if (!store || *cancel)
                return nullptr;
            return compute(*store, filter, *cancel);
        }));
    }
    bool running() const { return m_running; }
    bool stale() const { return m_stale; }

private:
    QObject *m_owner;
    Compute m_compute;
    Deliver m_deliver;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    std::string m_storeFile;
    lx::RequestFilter m_filter;
    bool m_stale = false;
    bool m_running = false;
    int m_job = 0;
};
