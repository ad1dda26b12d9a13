// SPDX-License-Identifier: GPL-3.0-or-later
// The write-behind VFS (write_behind_vfs.h) changes when a writing connection's pages reach the file, never
// what the file holds or what any connection reads: the same statements leave the same bytes as with the
// default VFS, in every journal mode, with spills, reads of spilled pages, rollbacks and a VACUUM; a
// commit is in the file for the next connection; a write that fails (a full disk) fails its transaction,
// which rolls back to a sound file.
#include "store/early_writeback.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "store/write_behind_vfs.h"
#include "sync_counter.h"
#include "test_support.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

using namespace lx;

namespace {

/// Rows of values from 100 to 3099 bytes: many pages, and overflow pages for the larger ones.
QByteArray insertRows(int from, int to)
{
    return QByteArrayLiteral("WITH RECURSIVE c(i) AS (SELECT ") + QByteArray::number(from)
        + " UNION ALL SELECT i + 1 FROM c WHERE i < " + QByteArray::number(to)
        + ") INSERT INTO t SELECT i, printf('%.*c', 100 + (i * 7919) % 3000, char(65 + i % 26)) FROM c;";
}

/// What a query of the table gives: rows, their keys' sum and their values' bytes.
QByteArray summary(sqlite3 *db)
{
    lx::Statement s(db, "SELECT count(*), coalesce(sum(k), 0), coalesce(sum(length(v)), 0) FROM t");
    if (!s.valid() || s.step() != SQLITE_ROW)
        return QByteArray("error: ") + sqlite3_errmsg(db);
    return QByteArray::number(sqlite3_column_int64(s.get(), 0)) + ' '
        + QByteArray::number(sqlite3_column_int64(s.get(), 1)) + ' '
        + QByteArray::number(sqlite3_column_int64(s.get(), 2));
}

/// The first line of PRAGMA integrity_check: "ok" for a sound file.
QByteArray integrityOf(sqlite3 *db)
{
    lx::Statement check(db, "PRAGMA integrity_check");
    if (!check.valid() || check.step() != SQLITE_ROW)
        return QByteArray("error: ") + sqlite3_errmsg(db);
    return reinterpret_cast<const char *>(sqlite3_column_text(check.get(), 0));
}

/// The summary of the database at `path` reopened read-only on the default VFS, and its integrity check's
/// first line in brackets.
QByteArray reopened(const QByteArray &path)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return "cannot open";
    }
    const QByteArray state = summary(db) + " (" + integrityOf(db) + ')';
    sqlite3_close(db);
    return state;
}

struct Outcome {
    QByteArray summaries; ///< the summary after each step, in order
    QByteArray fileHash; ///< of the database file once closed
    QByteArray integrity;
};

/// Runs `steps` (SQL, one per entry; "?" asks for a summary instead) on a new database at `path` opened
/// with `vfs` (nullptr: the default).
Outcome run(const QString &path, const char *vfs, const QList<QByteArray> &steps)
{
    Outcome out;
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) != SQLITE_OK) {
        out.summaries = "cannot open";
        sqlite3_close(db);
        return out;
    }
    for (const QByteArray &step : steps) {
        if (step == "?") {
            out.summaries += summary(db) + ';';
            continue;
        }
        char *error = nullptr;
        if (sqlite3_exec(db, step.constData(), nullptr, nullptr, &error) != SQLITE_OK) {
            out.summaries += QByteArray("error: ") + error + ';';
            sqlite3_free(error);
        }
    }
    out.integrity = integrityOf(db);
    sqlite3_close(db);
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        out.fileHash = QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
    return out;
}

/// The name of the VFS a connection's main database was opened with.
QByteArray vfsOf(sqlite3 *db)
{
    sqlite3_vfs *vfs = nullptr;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) != SQLITE_OK || !vfs)
        return {};
    return vfs->zName;
}

/// A VFS in front of the default one whose main databases' writes can be made to fail with SQLITE_FULL (a
/// full disk) from the n-th on, once or for good; it counts them and keeps the largest.
class FaultyVfs {
public:
    static FaultyVfs &instance()
    {
        static FaultyVfs faulty;
        return faulty;
    }
    sqlite3_vfs *vfs() { return &m_vfs; }
    /// The write-behind VFS in front of this one.
    const char *writeBehindName()
    {
        static sqlite3_vfs *const behind = lx::makeWriteBehindVfs(&m_vfs, "lx-write-behind-over-faults");
        return behind ? behind->zName : nullptr;
    }
    /// From now on: writes counted from 1, the `failing`-th failing (0: none), and every one after it too
    /// when `persistent`.
    void arm(int failing, bool persistent)
    {
        m_writes = 0;
        m_failing = failing;
        m_persistent = persistent;
        m_largest = 0;
    }
    int writes() const { return m_writes; }
    int largestWrite() const { return m_largest; }
    /// The next write waits, inside the VFS, until release() (or 10 s): what the connection does meanwhile
    /// shows whether it waits for the file.
    void holdNext()
    {
        std::lock_guard lock(m_holdMutex);
        m_holdNext = true;
        m_released = false;
    }
    void release()
    {
        {
            std::lock_guard lock(m_holdMutex);
            m_released = true;
        }
        m_holdChanged.notify_all();
    }
    /// Waits up to 10 s for a write to be held; whether one is.
    bool waitUntilHeld()
    {
        std::unique_lock lock(m_holdMutex);
        return m_holdChanged.wait_for(lock, std::chrono::seconds(10), [&] { return m_holding; });
    }
    bool holding()
    {
        std::lock_guard lock(m_holdMutex);
        return m_holding;
    }

private:
    FaultyVfs()
    {
        m_real = sqlite3_vfs_find(nullptr);
        m_vfs = *m_real;
        m_vfs.zName = "lx-faulty";
        m_vfs.xOpen = &open;
        m_vfs.pNext = nullptr;
        sqlite3_vfs_register(&m_vfs, 0);
    }
    static int open(sqlite3_vfs *, const char *name, sqlite3_file *file, int flags, int *outFlags)
    {
        FaultyVfs &self = instance();
        const int rc = self.m_real->xOpen(self.m_real, name, file, flags, outFlags);
        if (rc != SQLITE_OK || !file->pMethods || !(flags & SQLITE_OPEN_MAIN_DB))
            return rc;
        if (!self.m_realMethods) {
            self.m_realMethods = file->pMethods;
            self.m_methods = *file->pMethods;
            self.m_methods.xWrite = &write;
        }
        file->pMethods = &self.m_methods;
        return rc;
    }
    static int write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset)
    {
        FaultyVfs &self = instance();
        const int n = ++self.m_writes;
        self.m_largest = std::max(self.m_largest.load(), amount);
        {
            std::unique_lock lock(self.m_holdMutex);
            if (std::exchange(self.m_holdNext, false)) {
                self.m_holding = true;
                self.m_holdChanged.notify_all();
                self.m_holdChanged.wait_for(lock, std::chrono::seconds(10), [&] { return self.m_released; });
                self.m_holding = false;
            }
        }
        if (self.m_failing > 0 && (n == self.m_failing || (self.m_persistent && n > self.m_failing)))
            return SQLITE_FULL;
        return self.m_realMethods->xWrite(file, data, amount, offset);
    }

    sqlite3_vfs *m_real = nullptr;
    sqlite3_vfs m_vfs {};
    const sqlite3_io_methods *m_realMethods = nullptr;
    sqlite3_io_methods m_methods {};
    std::atomic<int> m_writes = 0; // written by the write-behind thread, read by the test's
    std::atomic<int> m_failing = 0;
    std::atomic<bool> m_persistent = false;
    std::atomic<int> m_largest = 0;
    std::mutex m_holdMutex;
    std::condition_variable m_holdChanged;
    bool m_holdNext = false;
    bool m_holding = false;
    bool m_released = false;
};

/// The transaction whose writes a fault lands in: many spills of an 8-page cache, a statement that reads
/// spilled pages back (with a statement journal), a commit.
const QList<QByteArray> &faultedTransaction()
{
    static const QList<QByteArray> steps { "BEGIN", insertRows(101, 6000),
                                           "UPDATE t SET v = v || 'more' WHERE k % 7 = 0",
                                           "DELETE FROM t WHERE k % 11 = 0", "COMMIT" };
    return steps;
}

/// A database at `path` through `vfs` with 100 rows committed, its page cache `cacheSize` (PRAGMA
/// cache_size: pages, or KiB when negative); nullptr if it failed.
sqlite3 *committedHundred(const QByteArray &path, const char *vfs, int cacheSize = 8)
{
    sqlite3 *db = nullptr;
    // The CHECK makes every statement one that may fail halfway, with a statement journal to undo it alone.
    const QByteArray setup = "PRAGMA cache_size=" + QByteArray::number(cacheSize)
        + "; CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT CHECK (length(v) > 0));" + insertRows(1, 100);
    if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs) != SQLITE_OK
        || sqlite3_exec(db, setup.constData(), nullptr, nullptr, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return nullptr;
    }
    return db;
}

} // namespace

class TestWriteBehindVfs : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(writeBehindVfsName() != nullptr); }

    void sameFileAsTheDefaultVfs_data()
    {
        QTest::addColumn<QList<QByteArray>>("steps");
        const QByteArray create = "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);";
        QTest::newRow("inserts, a transaction each")
            << QList<QByteArray> { create, insertRows(1, 3000), "?", insertRows(3001, 6000), "?" };
        QTest::newRow("one large transaction")
            << QList<QByteArray> { create, "BEGIN", insertRows(1, 20000), "COMMIT", "?" };
        // A cache of 8 pages spills to the file all the time, and reads the spilled pages back.
        QTest::newRow("an 8-page cache: spills read back")
            << QList<QByteArray> { "PRAGMA cache_size=8",
                                   create,
                                   "BEGIN",
                                   insertRows(1, 8000),
                                   "?",
                                   "UPDATE t SET v = v || 'more' WHERE k % 3 = 0",
                                   "?",
                                   "DELETE FROM t WHERE k % 5 = 0",
                                   "?",
                                   "COMMIT",
                                   "?" };
        QTest::newRow("rolled back after spills") << QList<QByteArray> { "PRAGMA cache_size=8",
                                                                         create,
                                                                         insertRows(1, 2000),
                                                                         "BEGIN",
                                                                         insertRows(2001, 9000),
                                                                         "UPDATE t SET v = 'x' WHERE k < 1000",
                                                                         "?",
                                                                         "ROLLBACK",
                                                                         "?" };
        QTest::newRow("a VACUUM shrinks the file")
            << QList<QByteArray> { create, insertRows(1, 6000), "DELETE FROM t WHERE k > 1000", "VACUUM", "?" };
        QTest::newRow("8 KiB pages") << QList<QByteArray> { "PRAGMA page_size=8192", create, insertRows(1, 6000), "?" };
        QTest::newRow("journal in memory, no sync (a temporary store)")
            << QList<QByteArray> { "PRAGMA journal_mode=MEMORY",
                                   "PRAGMA synchronous=OFF",
                                   "PRAGMA cache_size=8",
                                   create,
                                   "BEGIN",
                                   insertRows(1, 6000),
                                   "COMMIT",
                                   "?" };
        QTest::newRow("write-ahead log") << QList<QByteArray> {
            "PRAGMA journal_mode=WAL", create, insertRows(1, 4000), "?", "PRAGMA wal_checkpoint(TRUNCATE)",
            insertRows(4001, 5000),    "?"
        };
    }

    void sameFileAsTheDefaultVfs()
    {
        QFETCH(QList<QByteArray>, steps);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Outcome behind = run(dir.filePath(QStringLiteral("behind.db")), writeBehindVfsName(), steps);
        const Outcome plain = run(dir.filePath(QStringLiteral("plain.db")), nullptr, steps);
        QVERIFY2(!behind.summaries.contains("error"), behind.summaries.constData());
        QCOMPARE(behind.summaries, plain.summaries);
        QCOMPARE(behind.integrity, QByteArray("ok"));
        QVERIFY(!behind.fileHash.isEmpty());
        QCOMPARE(behind.fileHash, plain.fileHash);
    }

    void commitIsInTheFileForTheNextConnection()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray path = dir.filePath(QStringLiteral("shared.db")).toUtf8();
        sqlite3 *writer = nullptr;
        QCOMPARE(sqlite3_open_v2(path.constData(), &writer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                 writeBehindVfsName()),
                 SQLITE_OK);
        QCOMPARE(vfsOf(writer), QByteArray(writeBehindVfsName()));
        QCOMPARE(sqlite3_exec(writer, "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3 *reader = nullptr;
        QCOMPARE(sqlite3_open_v2(path.constData(), &reader, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        for (int round = 0; round < 5; ++round) {
            const QByteArray insert = insertRows(round * 1000 + 1, round * 1000 + 1000);
            QCOMPARE(sqlite3_exec(writer, insert.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
            // Read at once, the writer's connection still open, on the default VFS.
            QCOMPARE(summary(reader), summary(writer));
            QVERIFY(summary(reader).startsWith(QByteArray::number((round + 1) * 1000) + ' '));
        }
        sqlite3_close(reader);
        sqlite3_close(writer);
    }

    void writableStoresWriteBehindReadOnlyOnesDoNot()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("store.lxdb")).toStdString();
        std::string error;
        {
            auto store = Store::open(path, &error);
            QVERIFY2(store, error.c_str());
            QCOMPARE(vfsOf(store->db()), QByteArray(writeBehindVfsName()));
#if defined(__linux__)
            // The early writeback finds SQLite's own descriptor beneath it.
            QVERIFY(EarlyWriteback(store->db()).active());
#endif
        }
        auto readOnly = Store::openReadOnly(path, &error);
        QVERIFY2(readOnly, error.c_str());
        QVERIFY(vfsOf(readOnly->db()) != QByteArray(writeBehindVfsName()));
    }

    void anotherDefaultVfsIsLeftAlone()
    {
        // A test's VFS put in front of the default (sync_counter.h) is what connections open with then:
        // this VFS, made in front of the earlier default, stands aside and the syncs are still counted.
        lxtest::SyncCounter syncs;
        QCOMPARE(writeBehindVfsName(), nullptr);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string error;
        auto store = Store::open(dir.filePath(QStringLiteral("counted.lxdb")).toStdString(), &error);
        QVERIFY2(store, error.c_str());
        QCOMPARE(vfsOf(store->db()), QByteArray("lx-sync-counter"));
        QVERIFY(syncs.syncs() > 0);
    }

    void writesReachTheFileInRuns()
    {
        FaultyVfs &faulty = FaultyVfs::instance();
        QVERIFY(faulty.writeBehindName());
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        faulty.arm(0, false);
        sqlite3 *db = committedHundred(dir.filePath(QStringLiteral("runs.db")).toUtf8(), faulty.writeBehindName());
        QVERIFY(db);
        for (const QByteArray &step : faultedTransaction())
            QCOMPARE(sqlite3_exec(db, step.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        // Consecutive pages of 4 KiB went to the file as one write: through the queue, not page by page.
        QVERIFY2(faulty.largestWrite() > 4096, QByteArray::number(faulty.largestWrite()).constData());
    }

    /// A write that fails wherever it lands in a transaction (the first or last write of a statement that
    /// spills, of one that reads spilled pages back with a statement journal, of the commit), once or for
    /// good: the transaction fails whole, and the file holds what was committed before it, sound. The last
    /// write of a statement fails only after it returned: the next statement's first read finds it. Without
    /// a mount or the superuser: the failure comes from a VFS under this one.
    void failedWriteEndsItsTransaction_data()
    {
        QTest::addColumn<int>("cacheSize");
        QTest::addColumn<int>("step");
        QTest::addColumn<bool>("last");
        QTest::addColumn<bool>("persistent");
        const QList<QByteArray> names { "", "the insert", "the update", "the delete", "the commit" };
        // An 8-page cache spills a few pages at a time; one of 4 MiB spills more than the 1 MiB that wakes
        // the writing thread, which then writes while the statement goes on.
        for (const int cacheSize : { 8, -4096 }) {
            for (const bool persistent : { false, true }) {
                for (int step = 1; step < names.size(); ++step) {
                    for (const bool last : { false, true }) {
                        const QByteArray name = (last ? "last write of " : "first write of ") + names[step]
                            + (persistent ? ", for good" : ", once")
                            + (cacheSize > 0 ? ", 8-page cache" : ", 4 MiB cache");
                        QTest::newRow(name.constData()) << cacheSize << step << last << persistent;
                    }
                }
            }
        }
    }

    void failedWriteEndsItsTransaction()
    {
        QFETCH(int, cacheSize);
        QFETCH(int, step);
        QFETCH(bool, last);
        QFETCH(bool, persistent);
        FaultyVfs &faulty = FaultyVfs::instance();
        QVERIFY(faulty.writeBehindName());
        faulty.arm(0, false);
        const auto disarm = qScopeGuard([&] { faulty.arm(0, false); }); // for the next rows, whatever failed here
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A file control waits for the queue (and returns nothing of a failure): after each step, so that
        // the writes are counted where their step ends, in both runs alike.
        const auto stepAndDrain = [](sqlite3 *db, const QByteArray &sql) {
            const int rc = sqlite3_exec(db, sql.constData(), nullptr, nullptr, nullptr);
            int unused = 0;
            sqlite3_file_control(db, "main", SQLITE_FCNTL_LOCKSTATE, &unused);
            return rc;
        };
        // The same transaction without a fault: the writes under the queue at the end of each step.
        sqlite3 *db
            = committedHundred(dir.filePath(QStringLiteral("count.db")).toUtf8(), faulty.writeBehindName(), cacheSize);
        QVERIFY(db);
        faulty.arm(0, false);
        QList<int> writesAfter;
        for (const QByteArray &sql : faultedTransaction()) {
            QCOMPARE(stepAndDrain(db, sql), SQLITE_OK);
            writesAfter << faulty.writes();
        }
        sqlite3_close(db);
        if (writesAfter[step] == writesAfter[step - 1])
            QSKIP("this step writes nothing with this cache: it stays in the cache until the commit");

        const QByteArray path = dir.filePath(QStringLiteral("faulted.db")).toUtf8();
        db = committedHundred(path, faulty.writeBehindName(), cacheSize);
        QVERIFY(db);
        const QByteArray before = summary(db);
        faulty.arm(last ? writesAfter[step] : writesAfter[step - 1] + 1, persistent);
        // As an import does: the first failure ends it.
        int failed = SQLITE_OK;
        for (const QByteArray &sql : faultedTransaction()) {
            failed = stepAndDrain(db, sql);
            if (failed != SQLITE_OK)
                break;
        }
        QVERIFY2((failed & 0xff) == SQLITE_FULL || (failed & 0xff) == SQLITE_IOERR, sqlite3_errmsg(db));
        // No transaction is left open: not one statement undone alone and the rest still to commit.
        QCOMPARE(sqlite3_get_autocommit(db), 1);
        // The disk has room again: the same connection writes (as an import then records its outcome), with
        // no failure of the last transaction's writes returned a second time.
        faulty.arm(0, false);
        QCOMPARE(stepAndDrain(db, "INSERT INTO t VALUES (1000000, 'after the failure')"), SQLITE_OK);
        const QByteArray after = summary(db);
        QVERIFY2(after.startsWith("101 "), after.constData());
        sqlite3_close(db);
        QCOMPARE(sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
        QCOMPARE(summary(db), after);
        QVERIFY(sqlite3_exec(db, "DELETE FROM t WHERE k = 1000000", nullptr, nullptr, nullptr) == SQLITE_OK);
        QCOMPARE(summary(db), before);
        const QByteArray integrity = integrityOf(db);
        sqlite3_close(db);
        QCOMPARE(integrity, QByteArray("ok"));
    }

    /// The connection goes on while a write waits for the file: a flush of its cache and the size hint
    /// SQLite gives at every spill return with a write still held in the VFS beneath; a sync waits for it.
    /// (The hint waited for the queue at every spill, the mapping size of 0 every open sends being taken for
    /// a mapping.)
    void writesDoNotWaitForTheFile()
    {
        FaultyVfs &faulty = FaultyVfs::instance();
        QVERIFY(faulty.writeBehindName());
        faulty.arm(0, false);
        const auto releaseLater = qScopeGuard([&] { faulty.release(); });
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        sqlite3 *db
            = committedHundred(dir.filePath(QStringLiteral("held.db")).toUtf8(), faulty.writeBehindName(), -16384);
        QVERIFY(db);
        const QByteArray many = "BEGIN;" + insertRows(101, 3000);
        QCOMPARE(sqlite3_exec(db, many.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        faulty.holdNext();
        QCOMPARE(sqlite3_db_cacheflush(db), SQLITE_OK); // some 5 MB of pages: the writing thread is woken
        QVERIFY(faulty.waitUntilHeld());
        sqlite3_int64 size = 64 << 20;
        QCOMPARE(sqlite3_file_control(db, "main", SQLITE_FCNTL_SIZE_HINT, &size), SQLITE_OK);
        QVERIFY(faulty.holding()); // the hint did not wait for the held write
        faulty.release();
        QCOMPARE(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
        QVERIFY(summary(db).startsWith("3000 "));
        QCOMPARE(integrityOf(db), QByteArray("ok"));
        sqlite3_close(db);
    }

    /// A write that fails after the connection went on (it was held, then failed): the commit returns the
    /// failure, the transaction goes whole, the file is what was committed before.
    void writeFailingAfterTheConnectionWentOn()
    {
        FaultyVfs &faulty = FaultyVfs::instance();
        QVERIFY(faulty.writeBehindName());
        faulty.arm(0, false);
        const auto disarm = qScopeGuard([&] {
            faulty.release();
            faulty.arm(0, false);
        });
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray path = dir.filePath(QStringLiteral("late.db")).toUtf8();
        sqlite3 *db = committedHundred(path, faulty.writeBehindName(), -16384);
        QVERIFY(db);
        const QByteArray before = summary(db);
        const QByteArray many = "BEGIN;" + insertRows(101, 3000);
        QCOMPARE(sqlite3_exec(db, many.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        faulty.arm(1, false);
        faulty.holdNext();
        QCOMPARE(sqlite3_db_cacheflush(db), SQLITE_OK);
        QVERIFY(faulty.waitUntilHeld());
        const QByteArray more = insertRows(3001, 3500);
        QCOMPARE(sqlite3_exec(db, more.constData(), nullptr, nullptr, nullptr), SQLITE_OK); // nothing known yet
        faulty.release();
        const int rc = sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        QCOMPARE(rc & 0xff, SQLITE_FULL);
        QCOMPARE(sqlite3_get_autocommit(db), 1);
        QCOMPARE(summary(db), before);
        sqlite3_close(db);
        QCOMPARE(reopened(path), before + " (ok)");
    }

    void failedWriteFailsItsTransaction()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString disk = dir.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(disk));
        if (!lxtest::mountTmpfs(disk, QStringLiteral("size=1m")))
            QSKIP("a small tmpfs cannot be mounted here (it needs the superuser)");
        const auto unmountLater = qScopeGuard([&] { lxtest::unmount(disk); });
        const QByteArray path = QDir(disk).filePath(QStringLiteral("full.db")).toUtf8();
        sqlite3 *db = nullptr;
        QCOMPARE(
            sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, writeBehindVfsName()),
            SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)", nullptr, nullptr, nullptr),
                 SQLITE_OK);
        const QByteArray some = insertRows(1, 100);
        QCOMPARE(sqlite3_exec(db, some.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
        const QByteArray before = summary(db);
        // Far more than the disk holds, with a small cache: the pages go to the file during the transaction.
        QCOMPARE(sqlite3_exec(db, "PRAGMA cache_size=8", nullptr, nullptr, nullptr), SQLITE_OK);
        const QByteArray tooMuch = "BEGIN;" + insertRows(101, 5000) + "COMMIT;";
        const int rc = sqlite3_exec(db, tooMuch.constData(), nullptr, nullptr, nullptr);
        QCOMPARE(rc & 0xff, SQLITE_FULL);
        QCOMPARE(sqlite3_get_autocommit(db), 1); // the transaction went whole
        QCOMPARE(summary(db), before);
        sqlite3_close(db);
        // Reopened, on the default VFS: the file is what was committed before, and sound.
        QCOMPARE(reopened(path), before + " (ok)");
    }
};

QTEST_GUILESS_MAIN(TestWriteBehindVfs)
#include "tst_write_behind_vfs.moc"
