// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

/// \file sync_counter.h
/// Counts the times SQLite asks the disk to sync (xSync: fsync or fdatasync) on any connection opened while
/// a SyncCounter lives (one at a time): it puts a VFS in front of the default one that forwards every call
/// and counts xSync. A sync waits for the disk, which on a busy machine takes a tenth of a second and more, so the
/// tests hold the stores that should never wait for it to that.

namespace lxtest {

class SyncCounter {
public:
    SyncCounter()
    {
        const std::lock_guard lock(mutex());
        if (!real()) { // the first counter: the VFS put in front stays, never freed under a connection
            real() = sqlite3_vfs_find(nullptr);
            vfs() = *real();
            vfs().zName = "lx-sync-counter";
            vfs().xOpen = &open;
        }
        count() = 0;
        sqlite3_vfs_register(&vfs(), 1);
    }
    /// The default VFS is the real one again; connections opened meanwhile keep counting.
    ~SyncCounter() { sqlite3_vfs_register(real(), 1); }
    SyncCounter(const SyncCounter &) = delete;
    SyncCounter &operator=(const SyncCounter &) = delete;

    /// Syncs asked for since this counter was made.
    int syncs() const { return count().load(); }

private:
    static sqlite3_vfs &vfs()
    {
        static sqlite3_vfs value{};
        return value;
    }
    static std::atomic<int> &count()
    {
        static std::atomic<int> value{0};
        return value;
    }
    static sqlite3_vfs *&real()
    {
        static sqlite3_vfs *vfs = nullptr;
        return vfs;
    }
    static std::mutex &mutex()
    {
        static std::mutex m;
        return m;
    }
    /// The real VFS's methods of a file, each table once with xSync counted (key: the real table).
    static std::map<const sqlite3_io_methods *, std::unique_ptr<sqlite3_io_methods>> &counted()
    {
        static std::map<const sqlite3_io_methods *, std::unique_ptr<sqlite3_io_methods>> tables;
        return tables;
    }
    static const sqlite3_io_methods *realOf(const sqlite3_io_methods *countedTable)
    {
        const std::lock_guard lock(mutex());
        for (const auto &[realTable, table] : counted()) {
            if (table.get() == countedTable)
                return realTable;
        }
        return nullptr;
    }
    static int sync(sqlite3_file *file, int flags)
    {
        ++count();
        return realOf(file->pMethods)->xSync(file, flags);
    }
    /// The real open, then the file's methods swapped for the counted copy: the file stays the real
    /// VFS's, whose other methods see nothing changed.
    static int open(sqlite3_vfs *, const char *name, // sqlite3_filename from 3.41 on: the same type
                     sqlite3_file *file, int flags, int *outFlags)
    {
        const int rc = real()->xOpen(real(), name, file, flags, outFlags);
        if (rc != SQLITE_OK || !file->pMethods)
            return rc;
        const std::lock_guard lock(mutex());
        auto &table = counted()[file->pMethods];
        if (!table) {
            table = std::make_unique<sqlite3_io_methods>(*file->pMethods);
            table->xSync = &sync;
        }
        file->pMethods = table.get();
        return rc;
    }
};

} // namespace lxtest
