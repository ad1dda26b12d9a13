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
/// 1.0-1.2 s of system time on the machine of docs/ARCHITECTURE.md, 64 KiB at a time 0.39-0.41 s, 1 MiB
/// 1.8-2.4 s (`dd if=/dev/zero of=FILE bs=64k count=32768`, 4 runs each).
constexpr std::size_t kRunBytes = 64 * 1024;

/// Bytes queued at most; the connection waits past it. A bound on the memory, well above what one spill
/// of SQLite's page cache (store.cpp: 16 MiB) hands over at once.
constexpr std::size_t kMostQueuedBytes = 32 << 20;

/// Bytes queued before a sleeping writing thread is woken (a drain wakes it at once): waking it for every
/// run was a system call and two switches of thread per 64 KiB.
constexpr std::size_t kWakeBytes = 1 << 20;

/// Written runs' buffers kept for the next runs.
constexpr std::size_t kSpareRuns = 4;

/// The pages of a run: consecutive bytes from `offset`.
struct Run {
    sqlite3_int64 offset = 0;
    std::vector<char> bytes;

    sqlite3_int64 end() const { return offset + static_cast<sqlite3_int64>(bytes.size()); }
};

/// The writes of one main database not yet in its file, and the thread that puts them there. A write that
/// fails is kept (hasFailed()) until a call that SQLite treats as the end of its transaction returns it
/// (takeFailure()): any other call may be one whose failure SQLite ignores or undoes alone.
class WriteQueue {
public:
    /// Throws std::bad_alloc when there is no memory for it.
    explicit WriteQueue(sqlite3_file *under)
        : m_under(under)
    {
        m_spare.reserve(kSpareRuns);
    }

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

    /// Queues `amount` bytes at `offset` (or writes them, once write-through).
    int write(const void *data, int amount, sqlite3_int64 offset)
    {
        if (m_writeThrough)
            return m_under->pMethods->xWrite(m_under, data, amount, offset);
        const auto bytes = static_cast<std::size_t>(amount);
        if (!m_open.bytes.empty() && (offset != m_open.end() || m_open.bytes.size() + bytes > kRunBytes)) {
            handOver();
            if (m_writeThrough) { // the thread could not be started: the run was written here
                if (const int failed = takeFailure(); failed != SQLITE_OK) // nothing is queued: all returned
                    return failed;
                return write(data, amount, offset);
            }
        }
        try {
            if (m_open.bytes.empty()) {
                m_open.offset = offset;
                m_open.bytes.reserve(std::max(kRunBytes, bytes));
            }
            const char *from = static_cast<const char *>(data);
            m_open.bytes.insert(m_open.bytes.end(), from, from + bytes);
        } catch (const std::bad_alloc &) {
            return SQLITE_IOERR_NOMEM;
        }
        return SQLITE_OK;
    }

    /// Waits until every queued write is in the file.
    void drain()
    {
        if (!m_open.bytes.empty())
            handOver();
        std::unique_lock lock(m_mutex);
        if (!m_queue.empty())
            m_work.notify_one();
        m_done.wait(lock, [&] { return m_queue.empty() && !m_writing; });
    }

    /// Whether a write failed whose failure was not returned yet.
    bool hasFailed() const { return m_failed.load(std::memory_order_acquire); }

    /// The failure of a write not yet returned (SQLITE_OK if none); returned once. Called after drain().
    int takeFailure()
    {
        if (!m_failed.load(std::memory_order_acquire))
            return SQLITE_OK;
        std::lock_guard lock(m_mutex);
        m_failed.store(false, std::memory_order_relaxed);
        return std::exchange(m_error, SQLITE_OK);
    }

    /// From now on every write is in the file when write() returns, its failure returned by it.
    void writeThrough()
    {
        drain();
        m_writeThrough = true;
    }

private:
    /// Queues the open run, waiting for room. The thread is started with the first; where it cannot be,
    /// the run is written here, its failure kept as the thread's would be, and every write after it too.
    void handOver()
    {
        if (!m_thread.joinable()) {
            try {
                m_thread = std::thread([this] { writeQueued(); });
            } catch (...) { // std::system_error, std::bad_alloc: nothing may cross SQLite
                writeOpenRunHere();
                return;
            }
        }
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [&] { return m_queuedBytes < kMostQueuedBytes || (m_queue.empty() && !m_writing); });
        try {
            m_queue.push_back(std::move(m_open));
        } catch (...) {
            lock.unlock();
            Run run = std::exchange(m_open, Run {});
            drain(); // what was queued before it is written first
            m_open = std::move(run);
            writeOpenRunHere();
            return;
        }
        m_queuedBytes += m_queue.back().bytes.size();
        m_open = Run {};
        if (!m_spare.empty()) {
            m_open.bytes = std::move(m_spare.back());
            m_spare.pop_back();
        }
        const bool wake = m_idle && m_queuedBytes >= kWakeBytes;
        lock.unlock();
        if (wake)
            m_work.notify_one();
    }

    /// Writes the open run on this thread, its failure kept as the thread's would be, and every write after
    /// it too: where the thread or the queue cannot be had.
    void writeOpenRunHere()
    {
        m_writeThrough = true;
        const Run run = std::exchange(m_open, Run {});
        keep(m_under->pMethods->xWrite(m_under, run.bytes.data(), static_cast<int>(run.bytes.size()), run.offset));
    }

    /// Keeps `rc` if it is the first failure not returned yet.
    void keep(int rc)
    {
        if (rc == SQLITE_OK)
            return;
        std::lock_guard lock(m_mutex);
        if (!m_failed.load(std::memory_order_relaxed)) {
            m_error = rc;
            m_failed.store(true, std::memory_order_release);
        }
    }

    void writeQueued()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            if (!m_stop && m_queue.empty()) {
                m_idle = true;
                m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
                m_idle = false;
            }
            if (m_queue.empty())
                return; // stopped, with nothing left: the file's close drained it
            Run run = std::move(m_queue.front());
            m_queue.pop_front();
            m_writing = true;
            lock.unlock();
            const int rc
                = m_under->pMethods->xWrite(m_under, run.bytes.data(), static_cast<int>(run.bytes.size()), run.offset);
            keep(rc);
            lock.lock();
            m_writing = false;
            m_queuedBytes -= run.bytes.size();
            run.bytes.clear();
            if (m_spare.size() < kSpareRuns) // within what was reserved: no allocation on this thread
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
    bool m_idle = false; ///< the thread waits for work
    bool m_stop = false;
    int m_error = SQLITE_OK; ///< the first failure not returned yet
    std::atomic<bool> m_failed = false; ///< m_error is set
    std::thread m_thread;
};

/// The VFS, and the one it is in front of.
struct WriteBehindVfs {
    sqlite3_vfs vfs; ///< first: SQLite's pointer to it is one to this
    sqlite3_vfs *under;
};

/// A main database's file: the file under it (allocated in the same block, after this head) and its queue.
struct WriteBehindFile {
    sqlite3_file head;
    sqlite3_file *under;
    WriteQueue *queue;
    /// A chunk size or memory mapping was asked for: the size hint then changes the file (the unix VFS
    /// extends or maps it), so it waits for the queue like any other call.
    bool hintChangesTheFile;
};

constexpr std::size_t kUnderOffset = (sizeof(WriteBehindFile) + 15) / 16 * 16;

WriteBehindFile &own(sqlite3_file *file)
{
    return *reinterpret_cast<WriteBehindFile *>(file);
}
sqlite3_file *under(sqlite3_file *file)
{
    return own(file).under;
}
const sqlite3_io_methods &methodsUnder(sqlite3_file *file)
{
    return *under(file)->pMethods;
}

// How a kept failure is returned. SQLite ends the transaction on a failed write, sync or FCNTL_SYNC
// (which it asks for before every commit ends, and at the end of a rollback), and on a failed size or
// truncation within a commit: those return the failure as it came (SQLITE_FULL says "database or disk is
// full"). Any other call may fail a statement alone: with SQLITE_FULL and a statement journal SQLite rolls
// back that statement and goes on, the failed page written nowhere, so those return it as an I/O error,
// which ends the transaction. A call whose result SQLite ignores (the hints among the file controls, an
// unlock) leaves it for the next.

/// Every queued write in the file first, then `call` on the file under it; a kept failure instead.
template<typename Call> int afterDrain(sqlite3_file *file, bool endsTheTransaction, Call call)
{
    WriteQueue &queue = *own(file).queue;
    queue.drain();
    if (const int failed = queue.takeFailure(); failed != SQLITE_OK)
        return endsTheTransaction ? failed : SQLITE_IOERR_WRITE;
    return call(under(file));
}

/// Every queued write in the file first, then `call`, whatever failed: for the calls that must happen.
template<typename Call> int afterDrainAlways(sqlite3_file *file, Call call)
{
    own(file).queue->drain();
    return call(under(file));
}

int closeFile(sqlite3_file *file)
{
    WriteBehindFile &f = own(file);
    f.queue->drain();
    const int failed = f.queue->takeFailure();
    delete f.queue;
    f.queue = nullptr;
    const int closed = f.under->pMethods->xClose(f.under);
    return failed != SQLITE_OK ? failed : closed;
}

int readFile(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset)
{
    return afterDrain(file, false, [&](sqlite3_file *u) { return u->pMethods->xRead(u, out, amount, offset); });
}

int writeFile(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
{
    // A failure is returned once for every write queued before it is returned: after them, so that the
    // failures of writes of the same transaction still queued are not returned again in the next one.
    WriteQueue &queue = *own(file).queue;
    if (queue.hasFailed()) {
        queue.drain();
        return queue.takeFailure();
    }
    return queue.write(data, amount, offset);
}

int truncateFile(sqlite3_file *file, sqlite3_int64 size)
{
    return afterDrain(file, true, [&](sqlite3_file *u) { return u->pMethods->xTruncate(u, size); });
}

int syncFile(sqlite3_file *file, int flags)
{
    return afterDrain(file, true, [&](sqlite3_file *u) { return u->pMethods->xSync(u, flags); });
}

int fileSize(sqlite3_file *file, sqlite3_int64 *size)
{
    return afterDrain(file, true, [&](sqlite3_file *u) { return u->pMethods->xFileSize(u, size); });
}

int lockFile(sqlite3_file *file, int level)
{
    return afterDrain(file, false, [&](sqlite3_file *u) { return u->pMethods->xLock(u, level); });
}

int unlockFile(sqlite3_file *file, int level)
{
    // Unlocked whatever failed: the lock is not this file's to keep.
    return afterDrainAlways(file, [&](sqlite3_file *u) { return u->pMethods->xUnlock(u, level); });
}

int checkReservedLock(sqlite3_file *file, int *out)
{
    return afterDrain(file, false, [&](sqlite3_file *u) { return u->pMethods->xCheckReservedLock(u, out); });
}

int fileControl(sqlite3_file *file, int op, void *arg)
{
    WriteBehindFile &f = own(file);
    switch (op) {
    case SQLITE_FCNTL_SIZE_HINT:
        // Given at each spill of SQLite's page cache: waiting for the queue there would stop the connection
        // at every spill, and without a chunk size or a mapping the hint changes nothing.
        if (!f.hintChangesTheFile)
            return methodsUnder(file).xFileControl(under(file), op, arg);
        break;
    case SQLITE_FCNTL_CHUNK_SIZE:
        f.hintChangesTheFile = f.hintChangesTheFile || *static_cast<const int *>(arg) > 0;
        break;
    case SQLITE_FCNTL_MMAP_SIZE: // sent with 0 by every open: only a mapping asked for counts
        f.hintChangesTheFile = f.hintChangesTheFile || *static_cast<const sqlite3_int64 *>(arg) > 0;
        break;
    case SQLITE_FCNTL_CKPT_START:
        // A checkpoint of a write-ahead log without shared memory (exclusive locking) ends without a call
        // that returns a failure here: its writes go through.
        f.queue->writeThrough();
        break;
    case SQLITE_FCNTL_SYNC:
        return afterDrain(file, true, [&](sqlite3_file *u) { return u->pMethods->xFileControl(u, op, arg); });
    default:
        break;
    }
    // Any other control may be a hint whose result SQLite ignores: a kept failure stays for the next call.
    return afterDrainAlways(file, [&](sqlite3_file *u) { return u->pMethods->xFileControl(u, op, arg); });
}

// The sector size and the device's characteristics are the file's fixed properties: asked at every
// spill (before the journal is synced), never changed by a write, and read from fields no write touches.
int sectorSize(sqlite3_file *file)
{
    return methodsUnder(file).xSectorSize(under(file));
}
// Never "batch atomic" (F2FS, in SQLite builds that use it): such a commit has no journal to undo a write
// that fails after it returned.
int deviceCharacteristics(sqlite3_file *file)
{
    return methodsUnder(file).xDeviceCharacteristics(under(file)) & ~SQLITE_IOCAP_BATCH_ATOMIC;
}

// A write-ahead log's shared memory and memory-mapped reads: passed on after the queue (the stores use a
// rollback journal and no mapping, but a connection may ask for either).
int shmMap(sqlite3_file *file, int region, int size, int extend, void volatile **out)
{
    // A database in write-ahead-log mode is written only by checkpoints, whose end is marked in the shared
    // memory without a call on this file when nothing is synced: its writes go through at once.
    own(file).queue->writeThrough();
    if (methodsUnder(file).iVersion < 2) // a file beneath swapped for one of fewer methods (macOS's lock proxy)
        return SQLITE_IOERR_SHMMAP;
    return afterDrain(file, false, [&](sqlite3_file *u) { return u->pMethods->xShmMap(u, region, size, extend, out); });
}

int shmLock(sqlite3_file *file, int offset, int n, int flags)
{
    if (methodsUnder(file).iVersion < 2)
        return SQLITE_IOERR_SHMLOCK;
    return afterDrainAlways(file, [&](sqlite3_file *u) { return u->pMethods->xShmLock(u, offset, n, flags); });
}

void shmBarrier(sqlite3_file *file)
{
    if (methodsUnder(file).iVersion >= 2)
        methodsUnder(file).xShmBarrier(under(file)); // writes go through in this mode (shmMap())
}

int shmUnmap(sqlite3_file *file, int deleteFlag)
{
    if (methodsUnder(file).iVersion < 2)
        return SQLITE_OK;
    return afterDrainAlways(file, [&](sqlite3_file *u) { return u->pMethods->xShmUnmap(u, deleteFlag); });
}

int fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out)
{
    *out = nullptr;
    if (methodsUnder(file).iVersion < 3)
        return SQLITE_OK; // no mapping: SQLite reads the page instead
    return afterDrain(file, false, [&](sqlite3_file *u) { return u->pMethods->xFetch(u, offset, amount, out); });
}

int unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page)
{
    if (methodsUnder(file).iVersion < 3)
        return SQLITE_OK;
    return afterDrainAlways(file, [&](sqlite3_file *u) { return u->pMethods->xUnfetch(u, offset, page); });
}

const sqlite3_io_methods kMethods = { 3,
                                      closeFile,
                                      readFile,
                                      writeFile,
                                      truncateFile,
                                      syncFile,
                                      fileSize,
                                      lockFile,
                                      unlockFile,
                                      checkReservedLock,
                                      fileControl,
                                      sectorSize,
                                      deviceCharacteristics,
                                      shmMap,
                                      shmLock,
                                      shmBarrier,
                                      shmUnmap,
                                      fetch,
                                      unfetch };

int openFile(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags)
{
    sqlite3_vfs *underVfs = reinterpret_cast<WriteBehindVfs *>(vfs)->under;
    // Journals, temporary files and read-only opens are the VFS under's files as they are: opened in the
    // same block, with their own methods.
    if (!(flags & SQLITE_OPEN_MAIN_DB) || (flags & SQLITE_OPEN_READONLY))
        return underVfs->xOpen(underVfs, name, file, flags, outFlags);
    WriteBehindFile &f = own(file);
    f.head.pMethods = nullptr; // SQLite closes nothing if the open fails
    f.under = reinterpret_cast<sqlite3_file *>(reinterpret_cast<char *>(file) + kUnderOffset);
    f.under->pMethods = nullptr;
    f.queue = nullptr;
    f.hintChangesTheFile = false;
    const int rc = underVfs->xOpen(underVfs, name, f.under, flags, outFlags);
    if (rc != SQLITE_OK || !f.under->pMethods) {
        if (f.under->pMethods)
            f.under->pMethods->xClose(f.under);
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    // A VFS of fewer methods (an older interface) has no shared memory or mapping to pass on, and where the
    // queue cannot be had the file is the VFS under's as it is.
    try {
        if (f.under->pMethods->iVersion >= 3)
            f.queue = new WriteQueue(f.under);
    } catch (...) { // no memory for it: the file as it is, below
    }
    if (!f.queue) {
        f.under->pMethods->xClose(f.under);
        return underVfs->xOpen(underVfs, name, file, flags, outFlags);
    }
    f.head.pMethods = &kMethods;
    return SQLITE_OK;
}

} // namespace

sqlite3_vfs *makeWriteBehindVfs(sqlite3_vfs *under, const char *name)
{
    if (!under)
        return nullptr;
    // Never freed: a VFS must outlive every connection opened with it.
    auto *made = new WriteBehindVfs { *under, under };
    made->vfs.zName = name;
    made->vfs.szOsFile = static_cast<int>(kUnderOffset) + under->szOsFile;
    made->vfs.xOpen = openFile;
    made->vfs.pNext = nullptr;
    if (sqlite3_vfs_register(&made->vfs, 0) != SQLITE_OK) {
        delete made;
        return nullptr;
    }
    return &made->vfs;
}

const char *writeBehindVfsName()
{
    static sqlite3_vfs *const vfs = makeWriteBehindVfs(sqlite3_vfs_find(nullptr), "lx-write-behind");
    return vfs && sqlite3_vfs_find(nullptr) == vfsUnderWriteBehind(vfs) ? vfs->zName : nullptr;
}

sqlite3_file *fileUnderWriteBehind(sqlite3_file *file)
{
    return file && file->pMethods == &kMethods ? under(file) : file;
}

const sqlite3_vfs *vfsUnderWriteBehind(const sqlite3_vfs *vfs)
{
    return vfs && vfs->xOpen == openFile ? reinterpret_cast<const WriteBehindVfs *>(vfs)->under : vfs;
}

} // namespace lx
