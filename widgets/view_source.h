// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/store.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

/// \file view_source.h
/// What a view's background work reads: the investigation's store, by its file (each job opens a
/// connection of its own, onOwnStore()), or a store that lives only in memory and is shared: the one the
/// window read a trace file into for the summary (app/gui/summary_first.h), whose requests are held rather
/// than written (store/held_rows.h), so that no other connection could read them. The views read it while
/// the investigation's own store is being written, and go back to that store once it has landed.

/// A store that jobs on several workers read in turn. Its SQLite connection is of the NOMUTEX kind, and a
/// store whose held rows met a join keeps them in its tables: one job reads at a time.
class SharedStore {
public:
    explicit SharedStore(std::unique_ptr<lx::Store> store)
        : m_store(std::move(store))
    {
    }
    SharedStore(const SharedStore &) = delete;
    SharedStore &operator=(const SharedStore &) = delete;

    /// compute(store) under the store's lock.
    template<typename Compute>
    auto read(Compute &&compute) const
    {
        const std::lock_guard lock(m_lock);
        return compute(static_cast<const lx::Store &>(*m_store));
    }
    /// For what does not touch the connection (store->heldRows() is set once, before the store is shared).
    const lx::Store &unlocked() const { return *m_store; }

private:
    std::unique_ptr<lx::Store> m_store;
    mutable std::mutex m_lock;
};

/// Where a view reads: the store's file, or a shared store; neither when there is nothing to read yet.
struct ViewSource {
    std::string storeFile;
    std::shared_ptr<const SharedStore> shared;

    bool empty() const { return storeFile.empty() && !shared; }
    bool operator==(const ViewSource &) const = default;
};

/// Work for BackgroundJob::start() that reads `shared` on the worker, under its lock: compute(store, cancel).
template<typename Compute>
auto onSharedStore(std::shared_ptr<const SharedStore> shared, Compute compute)
{
    return [shared = std::move(shared), compute = std::move(compute)](const std::atomic<bool> &cancel) {
        return shared->read([&](const lx::Store &store) { return compute(store, cancel); });
    };
}
