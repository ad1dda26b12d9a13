// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "filter/request_filter.h"
#include "store/store.h"
#include "view_source.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

/// \file background_load.h
/// Computes one view's data on a worker thread, on a store connection of its own (or a shared store, under
/// its lock: view_source.h), and hands the newest
/// result to the view on the UI thread. A view loads lazily: a filter change only marks it stale, and the
/// work runs when the view is shown (a user who never opens the waterfall never pays for it). A newer
/// request cancels and drops an older one (a BackgroundJob).
template<typename Data>
class BackgroundLoad {
public:
    /// Runs on the worker: the data for `filter`, or null when cancelled or unreadable.
    using Compute = std::function<std::shared_ptr<const Data>(const lx::Store &, const lx::RequestFilter &,
                                                              const std::atomic<bool> &cancel)>;
    using Deliver = std::function<void(std::shared_ptr<const Data>)>;

    BackgroundLoad(QObject *owner, Compute compute, Deliver deliver)
        : m_job(owner)
        , m_compute(std::move(compute))
        , m_deliver(std::move(deliver))
    {
    }

    /// Replaces the computation (its parameters changed: a window width, the SLO targets); the next
    /// loadIfStale() uses it. Call invalidate() too.
    void setCompute(Compute compute) { m_compute = std::move(compute); }

    /// The store or the filter changed: what is shown is stale; a running job is cancelled.
    void invalidate(const ViewSource &source, const lx::RequestFilter &filter)
    {
        m_job.cancel();
        m_source = source;
        m_filter = filter;
        m_stale = true;
    }
    /// Starts the computation when the data is stale (call when the view is shown or the filter changed
    /// while it is).
    void loadIfStale()
    {
        if (!m_stale || m_source.empty())
            return;
        m_stale = false;
        const auto compute = [compute = m_compute, filter = m_filter](const lx::Store &store,
                                                                      const std::atomic<bool> &cancel) {
            return cancel.load() ? std::shared_ptr<const Data>() : compute(store, filter, cancel);
        };
        const auto deliver = [this](std::shared_ptr<const Data> data) { m_deliver(std::move(data)); };
        if (m_source.shared) {
            m_job.start(onSharedStore(m_source.shared, compute), deliver);
            return;
        }
        m_job.start(onOwnStore(m_source.storeFile, compute, [](const std::string &) { return std::shared_ptr<const Data>(); }),
                    deliver);
    }
    bool running() const { return m_job.running(); }
    bool stale() const { return m_stale; }

private:
    BackgroundJob<std::shared_ptr<const Data>> m_job;
    Compute m_compute;
    Deliver m_deliver;
    ViewSource m_source;
    lx::RequestFilter m_filter;
    bool m_stale = false;
};
