// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/write_behind_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace lx {

namespace {

/// Bytes of consecutive pages written at once. The kernel's cost of a buffered write goes by the call and
/// by the page-cache folio more than by the byte: 2 GiB written 8 KiB at a time (a store page) took
/// 1.0-1.2 s of system time here, 64 KiB at a time 0.39-0.41 s, 1 MiB 1.8-2.4 s (dd, 4 runs each).
constexpr std::size_t kRunBytes = 64 * 1024;

/// Bytes queued at most; the connection waits past it. A bound on the memory, well above what one spill
/// of SQLite's page cache (store.cpp: 16 MiB) hands over at once.
constexpr std::size_t kMostQueuedBytes = 32 << 20;

/// The pages of a run: consecutive bytes from `offset`.
struct Run {
    sqlite3_int64 offset = 0;
    std::vector<char> bytes;

    sqlite3_int64 end() const { return offset + static_cast<sqlite3_int64>(bytes.size()); }
};

/// The writes of one main database not yet in its file, and the thread that puts them there.
class WriteQueue {
public:
    explicit WriteQueue(sqlite3_file *under) : m_under(under) {}

    ~WriteQueue()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_work.notify_all();
        if (m_thread.joinable())
            m_thread.join();
    }

    WriteQueue(const WriteQueue &) = delete;
    WriteQueue &operator=(const WriteQueue &) = delete;

    /// Queues `amount` bytes at `offset`; a failure of an earlier write, if any (reported once).
    int write(const void *data, int amount, sqlite3_int64 offset)
    {
        if (m_writeThrough)
            return m_under->pMethods->xWrite(m_under, data, amount, offset);
        const auto bytes = static_cast<std::size_t>(amount);
        if (!m_open.bytes.empty() && (offset != m_open.end() || m_open.bytes.size() + bytes > kRunBytes))
            handOver();
        if (m_open.bytes.empty()) {
            m_open.offset = offset;
            m_open.bytes.reserve(std::max(kRunBytes, bytes));
        }
        const char *from = static_cast<const char *>(data);
        m_open.bytes.insert(m_open.bytes.end(), from, from + bytes);
        if (!m_failed.load(std::memory_order_acquire))
            return SQLITE_OK;
        std::lock_guard lock(m_mutex);
        return takeError();
    }

    /// Waits until every write is in the file; a failure of one, if any (reported once).
    int drain()
    {
        if (!m_open.bytes.empty())
            handOver();
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_queue.empty() && !m_writing; });
        return takeError();
    }

    /// From now on, every write is in the file when write() returns, its failure returned by it.
    void writeThrough() { m_writeThrough = true; }

private:
    /// Queues the open run, waiting for room; the writing thread is started with the first.
    void handOver()
    {
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_queuedBytes < kMostQueuedBytes || (m_queue.empty() && !m_writing); });
        m_queuedBytes += m_open.bytes.size();
        m_queue.push_back(std::move(m_open));
        m_open = Run{};
        if (!m_spare.empty()) {
            m_open.bytes = std::move(m_spare.back());
            m_spare.pop_back();
        }
        if (!m_thread.joinable())
            m_thread = std::thread([this] { writeQueued(); });
        lock.unlock();
        m_work.notify_one();
    }

    int takeError()
    {
        m_failed.store(false, std::memory_order_relaxed);
        return std::exchange(m_error, SQLITE_OK);
    }

    void writeQueued()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                return; // stopped, with nothing left: the file's close drained it
            Run run = std::move(m_queue.front());
            m_queue.pop_front();
            m_writing = true;
            lock.unlock();
            const int rc = m_under->pMethods->xWrite(m_under, run.bytes.data(), static_cast<int>(run.bytes.size()), run.offset);
            lock.lock();
            m_writing = false;
            if (rc != SQLITE_OK && m_error == SQLITE_OK) {
                m_error = rc;
                m_failed.store(true, std::memory_order_release);
            }
            m_queuedBytes -= run.bytes.size();
            run.bytes.clear();
            if (m_spare.size() < 4)
                m_spare.push_back(std::move(run.bytes));
            m_done.notify_all();
        }
    }

    sqlite3_file *const m_under;
    Run m_open; ///< the run being gathered: the connection's thread's alone
    bool m_writeThrough = false; ///< the connection's thread's alone
    std::mutex m_mutex;
    std::condition_variable m_work; ///< a run was queued, or the thread is to stop
    std::condition_variable m_done; ///< a run was written
    std::deque<Run> m_queue;
    std::vector<std::vector<char>> m_spare; ///< written runs' buffers, for the next runs
    std::size_t m_queuedBytes = 0;
    bool m_writing = false;
    bool m_stop = false;
    int m_error = SQLITE_OK; ///< the first failure not reported yet
    std::atomic<bool> m_failed = false; ///< m_error is set: read by write() without the lock
    std::thread m_thread;
};

/// A main database's file: SQLite's file of the default VFS (`under`, allocated in the same block, after
/// this head) and its queue.
struct WriteBehindFile {
    sqlite3_file head;
    sqlite3_file *under;
    WriteQueue *queue;
};

constexpr std::size_t kUnderOffset = (sizeof(WriteBehindFile) + 15) / 16 * 16;

sqlite3_vfs *g_underVfs = nullptr;
sqlite3_vfs g_vfs{};

WriteBehindFile &own(sqlite3_file *file) { return *reinterpret_cast<WriteBehindFile *>(file); }
sqlite3_file *under(sqlite3_file *file) { return own(file).under; }
const sqlite3_io_methods &methodsUnder(sqlite3_file *file) { return *under(file)->pMethods; }

/// Every queued write in the file first: then the call, on the file under it.
template <typename Call>
int afterDrain(sqlite3_file *file, Call call)
{
    const int rc = own(file).queue->drain();
    return rc != SQLITE_OK ? rc : call(under(file));
}

int closeFile(sqlite3_file *file)
{
    WriteBehindFile &f = own(file);
    const int drained = f.queue->drain();
    delete f.queue;
    f.queue = nullptr;
    const int closed = f.under->pMethods->xClose(f.under);
    return drained != SQLITE_OK ? drained : closed;
}

int readFile(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xRead(u, out, amount, offset); });
}

int writeFile(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
{
    return own(file).queue->write(data, amount, offset);
}

int truncateFile(sqlite3_file *file, sqlite3_int64 size)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xTruncate(u, size); });
}

int syncFile(sqlite3_file *file, int flags)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xSync(u, flags); });
}

int fileSize(sqlite3_file *file, sqlite3_int64 *size)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xFileSize(u, size); });
}

int lockFile(sqlite3_file *file, int level)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xLock(u, level); });
}

int unlockFile(sqlite3_file *file, int level)
{
    // Unlocked even when a write failed: the lock is not this file's to keep. The failure is not lost:
    // SQLite has asked for FCNTL_SYNC (and xSync unless told not to) before any unlock that ends a
    // transaction, and those returned it.
    const int drained = own(file).queue->drain();
    const int unlocked = methodsUnder(file).xUnlock(under(file), level);
    return drained != SQLITE_OK ? drained : unlocked;
}

int checkReservedLock(sqlite3_file *file, int *out)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xCheckReservedLock(u, out); });
}

int fileControl(sqlite3_file *file, int op, void *arg)
{
    // A hint of the size the file will grow to, given at each spill of SQLite's page cache: it changes no
    // byte of the file (the default VFS acts on it only when told a chunk size), and waiting for the queue
    // there would stop the connection at every spill.
    if (op == SQLITE_FCNTL_SIZE_HINT)
        return methodsUnder(file).xFileControl(under(file), op, arg);
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xFileControl(u, op, arg); });
}

// The sector size and the device's characteristics are the file's fixed properties: asked at every
// spill (before the journal is synced), never changed by a write.
int sectorSize(sqlite3_file *file) { return methodsUnder(file).xSectorSize(under(file)); }
int deviceCharacteristics(sqlite3_file *file) { return methodsUnder(file).xDeviceCharacteristics(under(file)); }

// A write-ahead log's shared memory and memory-mapped reads: passed on, after the queue (the stores use
// a rollback journal and no mapping, but a connection may ask for either).
int shmMap(sqlite3_file *file, int region, int size, int extend, void volatile **out)
{
    // A database in write-ahead-log mode is written only by checkpoints, whose end is marked in the
    // shared memory without a call on this file when nothing is synced: its writes go through at once.
    own(file).queue->writeThrough();
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xShmMap(u, region, size, extend, out); });
}

int shmLock(sqlite3_file *file, int offset, int n, int flags)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xShmLock(u, offset, n, flags); });
}

void shmBarrier(sqlite3_file *file)
{
    methodsUnder(file).xShmBarrier(under(file)); // writes go through in this mode (shmMap())
}

int shmUnmap(sqlite3_file *file, int deleteFlag)
{
    const int drained = own(file).queue->drain();
    const int unmapped = methodsUnder(file).xShmUnmap(under(file), deleteFlag);
    return drained != SQLITE_OK ? drained : unmapped;
}

int fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out)
{
    *out = nullptr;
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xFetch(u, offset, amount, out); });
}

int unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page)
{
    return afterDrain(file, [&](sqlite3_file *u) { return u->pMethods->xUnfetch(u, offset, page); });
}

const sqlite3_io_methods kMethods = {3,           closeFile,   readFile,  writeFile,          truncateFile,
                                     syncFile,    fileSize,    lockFile,  unlockFile,         checkReservedLock,
                                     fileControl, sectorSize,  deviceCharacteristics, shmMap, shmLock,
                                     shmBarrier,  shmUnmap,    fetch,     unfetch};

int openFile(sqlite3_vfs *, const char *name, sqlite3_file *file, int flags, int *outFlags)
{
    // Journals, temporary files and read-only opens are the default VFS's files as they are: opened in
    // the same block, with their own methods.
    if (!(flags & SQLITE_OPEN_MAIN_DB) || (flags & SQLITE_OPEN_READONLY))
        return g_underVfs->xOpen(g_underVfs, name, file, flags, outFlags);
    WriteBehindFile &f = own(file);
    f.head.pMethods = nullptr; // SQLite closes nothing if the open fails
    f.under = reinterpret_cast<sqlite3_file *>(reinterpret_cast<char *>(file) + kUnderOffset);
    f.under->pMethods = nullptr;
    f.queue = nullptr;
    const int rc = g_underVfs->xOpen(g_underVfs, name, f.under, flags, outFlags);
    if (rc != SQLITE_OK || !f.under->pMethods) {
        if (f.under->pMethods)
            f.under->pMethods->xClose(f.under);
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    // A default VFS of fewer methods (an older interface) has no shared memory or mapping to pass on.
    if (f.under->pMethods->iVersion < 3) {
        f.under->pMethods->xClose(f.under);
        return g_underVfs->xOpen(g_underVfs, name, file, flags, outFlags);
    }
    f.queue = new WriteQueue(f.under);
    f.head.pMethods = &kMethods;
    return SQLITE_OK;
}

sqlite3_vfs *registered()
{
    static sqlite3_vfs *const vfs = [] () -> sqlite3_vfs * {
        g_underVfs = sqlite3_vfs_find(nullptr);
        if (!g_underVfs)
            return nullptr;
        g_vfs = *g_underVfs;
        g_vfs.zName = "lx-write-behind";
        g_vfs.szOsFile = static_cast<int>(kUnderOffset) + g_underVfs->szOsFile;
        g_vfs.xOpen = openFile;
        g_vfs.pNext = nullptr;
        return sqlite3_vfs_register(&g_vfs, 0) == SQLITE_OK ? &g_vfs : nullptr;
    }();
    return vfs;
}

} // namespace

const char *writeBehindVfsName()
{
    const sqlite3_vfs *vfs = registered();
    return vfs && sqlite3_vfs_find(nullptr) == g_underVfs ? vfs->zName : nullptr;
}

sqlite3_file *fileUnderWriteBehind(sqlite3_file *file)
{
    return file && file->pMethods == &kMethods ? under(file) : file;
}

const sqlite3_vfs *vfsUnderWriteBehind(const sqlite3_vfs *vfs) { return vfs == &g_vfs ? g_underVfs : vfs; }

} // namespace lx
