// SPDX-License-Identifier: GPL-3.0-or-later
// The investigation file: created with its schema, reopened without re-parsing, refused when foreign.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "store/early_writeback.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "store/store_trust.h"
#include "store/temporary_files.h"
#include "sync_counter.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#ifndef _WIN32
#include <sys/stat.h>
#endif

using namespace lx;
using lxtest::writeFile;

namespace {

QByteArray sampleLines(int count, const char *prefix)
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        const qint64 t = 1'700'000'000'000'000'000LL + qint64(i) * 1'000'000'000LL;
        out += QByteArray("{\"id\":\"") + prefix + QByteArray::number(i) + "\",\"model\":\"m" + QByteArray::number(i % 2)
               + "\",\"t_server_recv_ns\":" + QByteArray::number(t) + ",\"t_sched_ns\":" + QByteArray::number(t + 5'000'000)
               + ",\"t_first_token_ns\":" + QByteArray::number(t + 50'000'000) + ",\"t_last_token_ns\":"
               + QByteArray::number(t + 500'000'000 + i * 1000) + ",\"token_times_ns\":[" + QByteArray::number(t + 50'000'000)
               + "," + QByteArray::number(t + 500'000'000 + i * 1000) + "],\"zone\":\"z" + QByteArray::number(i % 3) + "\"}\n";
    }
    return out;
}

qint64 scalar(const Store &store, const char *sql)
{
    Statement stmt(store.db(), sql);
    return stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT

private slots:
    void createsSchemaWithVersion()
    {
        QTemporaryDir dir;
        std::string why;
        auto store = Store::open(dir.filePath(QStringLiteral("new.lxdb")).toStdString(), &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key='schema_version'"), qint64(kSchemaVersion));
        for (const char *table : {"requests", "request_details", "token_times", "import_runs", "rejected", "labels", "segments"}) {
            Statement stmt(store->db(), std::string("SELECT count(*) FROM ") + table);
            QVERIFY2(stmt.step() == SQLITE_ROW, table);
        }
    }

    void reopensWithoutReparsing()
    {
        QTemporaryDir dir;
        const std::string trace = writeFile(dir, QStringLiteral("t.jsonl"), sampleLines(50, "r"));
        const std::string db = dir.filePath(QStringLiteral("inv.lxdb")).toStdString();
        std::string why;
        std::string before;
        {
            auto store = Store::open(db, &why);
            QVERIFY(store);
            const auto imports = importFiles(*store, {trace});
            QCOMPARE(imports.front().accepted, qint64(50));
            before = std::to_string(analyze(*store).e2e.stat.percentilesNs[0].value());
        }
        QVERIFY(QFile::remove(QFile::decodeName(trace.c_str()))); // the source is gone: a reopened store must not need it
        auto reopened = Store::open(db, &why);
        QVERIFY2(reopened, why.c_str());
        const Report report = analyze(*reopened);
        QCOMPARE(report.total, qint64(50));
        QCOMPARE(std::to_string(report.e2e.stat.percentilesNs[0].value()), before);
        QCOMPARE(report.itl.stat.count, qint64(50));
        QCOMPARE(scalar(*reopened, "SELECT count(*) FROM request_attributes WHERE key='zone'"), qint64(50));
    }

    // The writer inserts as many rows a statement as the connection takes parameters for (store_writer.cpp):
    // a lower limit (SQLite before 3.32 had 999) writes the same rows, the batches' ends included.
    void sameRowsWhateverTheParameterLimit_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("this SQLite's limit") << 0;
        QTest::newRow("999, as before SQLite 3.32") << 999;
        QTest::newRow("3 rows of details, 2 of requests") << 50;
        QTest::newRow("a request's columns: one row a statement") << 23;
    }

    void sameRowsWhateverTheParameterLimit()
    {
        QFETCH(int, limit);
        QTemporaryDir dir;
        const std::string trace = writeFile(dir, QStringLiteral("t.jsonl"), sampleLines(4096 + 700, "r"));
        const auto stored = [&](int parameters, const QString &name) {
            std::string why;
            auto store = Store::open(dir.filePath(name).toStdString(), &why);
            if (parameters > 0)
                sqlite3_limit(store->db(), SQLITE_LIMIT_VARIABLE_NUMBER, parameters);
            importFiles(*store, {trace});
            return lxtest::dump(store->db(), "SELECT * FROM requests ORDER BY id")
                   + lxtest::dump(store->db(), "SELECT * FROM request_details ORDER BY request_id");
        };
        const QString expected = stored(0, QStringLiteral("reference.lxdb"));
        QCOMPARE(expected.count(QStringLiteral("|r4795|")), 1);
        QCOMPARE(stored(limit, QStringLiteral("limited.lxdb")), expected);
    }

    // An import has the system write the store as it goes (early_writeback.h), through SQLite's own
    // descriptor of the file, found by the layout of SQLite's unix file and checked against the file: on
    // Linux it must be found for a store's file (else the import waits at its commit again), and never for
    // what is not one.
    void writebackFindsSQLitesDescriptor_data()
    {
        QTest::addColumn<bool>("file");
        QTest::newRow("a store's file") << true;
        QTest::newRow("an in-memory database") << false;
    }

    void writebackFindsSQLitesDescriptor()
    {
        QFETCH(bool, file);
#if !defined(__linux__)
        QSKIP("only Linux has sync_file_range: the writeback does nothing elsewhere");
#endif
        QTemporaryDir dir;
        std::string why;
        sqlite3 *memory = nullptr;
        auto store = file ? Store::open(dir.filePath(QStringLiteral("w.lxdb")).toStdString(), &why) : nullptr;
        if (!file)
            QCOMPARE(sqlite3_open(":memory:", &memory), SQLITE_OK);
        const EarlyWriteback writeback(file ? store->db() : memory);
        QCOMPARE(writeback.active(), file);
        writeback.start();
        if (store)
            QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(0));
        sqlite3_close(memory);
    }

    void appendsRuns()
    {
        QTemporaryDir dir;
        const std::string a = writeFile(dir, QStringLiteral("a.jsonl"), sampleLines(10, "a"));
        const std::string b = writeFile(dir, QStringLiteral("b.jsonl"), sampleLines(10, "a")); // same ids, other file: fine
        std::string why;
        auto store = Store::open(dir.filePath(QStringLiteral("inv.lxdb")).toStdString(), &why);
        importFiles(*store, {a});
        importFiles(*store, {b});
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(20));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM import_runs"), qint64(2));
        QCOMPARE(scalar(*store, "SELECT count(DISTINCT run_id) FROM requests"), qint64(2));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM labels"), qint64(2)); // m0, m1 stored once
    }

    void refusesForeignFiles_data()
    {
        QTest::addColumn<QByteArray>("setupSql");
        QTest::addColumn<QString>("reason");
        QTest::newRow("another SQLite database") << QByteArray("CREATE TABLE t(x);") << QStringLiteral("not a Latency Explorer investigation");
        QTest::newRow("another schema version") << QByteArray("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); "
                                                              "INSERT INTO meta VALUES ('schema_version','999');")
                                                << QStringLiteral("schema version 999");
    }

    void refusesForeignFiles()
    {
        QFETCH(QByteArray, setupSql);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("other.db")).toStdString();
        sqlite3 *db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_exec(db, setupSql.constData(), nullptr, nullptr, nullptr);
        sqlite3_close(db);
        std::string why;
        QVERIFY(!Store::open(path, &why));
        QVERIFY2(QString::fromStdString(why).contains(reason), why.c_str());
    }

    void parsesSchemaVersionStrictly_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("version"); // -1: refused
        QTest::newRow("1") << QByteArray("1") << 1;
        QTest::newRow("0") << QByteArray("0") << 0;
        QTest::newRow("largest int") << QByteArray("2147483647") << 2147483647;
        QTest::newRow("99999999999999999999 was reported as -1") << QByteArray("99999999999999999999") << -1;
        QTest::newRow("2147483648 does not fit") << QByteArray("2147483648") << -1;
        QTest::newRow("1abc was read as 1") << QByteArray("1abc") << -1;
        QTest::newRow("-1") << QByteArray("-1") << -1;
        QTest::newRow("+1") << QByteArray("+1") << -1;
        QTest::newRow("leading space") << QByteArray(" 1") << -1;
        QTest::newRow("1.0") << QByteArray("1.0") << -1;
        QTest::newRow("1e0") << QByteArray("1e0") << -1;
        QTest::newRow("empty") << QByteArray("") << -1;
    }

    void parsesSchemaVersionStrictly()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, version);
        const std::optional<int> parsed = parseSchemaVersion(std::string_view(text.constData(), std::size_t(text.size())));
        QCOMPARE(parsed.value_or(-1), version);
    }

    void readOnlyOpenWritesNothing()
    {
        QTemporaryDir dir;
        const std::string trace = writeFile(dir, QStringLiteral("t.jsonl"), sampleLines(20, "r"));
        const std::string db = dir.filePath(QStringLiteral("inv.lxdb")).toStdString();
        std::string why;
        {
            auto store = Store::open(db, &why);
            QVERIFY2(store, why.c_str());
            importFiles(*store, {trace});
        }
        auto store = Store::openReadOnly(db, &why);
        QVERIFY2(store, why.c_str());
        QVERIFY(store->isReadOnly());
        QCOMPARE(analyze(*store).total, qint64(20));
        QVERIFY(!store->exec("DELETE FROM requests")); // the connection itself refuses
        const std::string another = writeFile(dir, QStringLiteral("u.jsonl"), sampleLines(5, "u"));
        QVERIFY(importFiles(*store, { another }).front().failed());
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(20));
        QVERIFY(!Store::openReadOnly(dir.filePath(QStringLiteral("missing.lxdb")).toStdString(), &why));
        QVERIFY2(why.find("no such file") != std::string::npos, why.c_str());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("missing.lxdb"))));
    }

    void refusesTextFile()
    {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, QStringLiteral("trace.jsonl"), sampleLines(2, "r"));
        std::string why;
        QVERIFY(!Store::open(path, &why));
        QVERIFY(!why.empty());
        QVERIFY(!isSqliteFile(path));
    }

    void sniffLeavesAFifoAlone()
    {
#ifdef _WIN32
        QSKIP("no FIFOs in the file system here");
#else
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("fifo")).toStdString();
        QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
        // Telling a FIFO from a store once opened it: the open waited for a writer, and what it read was lost
        // to the import that opened it next (`report <(cat trace.jsonl)` was read from its 8,192nd byte).
        auto sniff = std::async(std::launch::async, [&path] { return isSqliteFile(path); });
        if (sniff.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
            {
                std::ofstream unblock(path); // a writer come and gone, so that the blocked open and read return
            }
            sniff.wait();
            QFAIL("telling a FIFO from a store waited for a writer");
        }
        QVERIFY(!sniff.get());
#endif
    }

    void mergesStores()
    {
        QTemporaryDir dir;
        std::string why;
        const std::string first = dir.filePath(QStringLiteral("1.lxdb")).toStdString();
        const std::string second = dir.filePath(QStringLiteral("2.lxdb")).toStdString();
        {
            auto a = Store::open(first, &why);
            importFiles(*a, {writeFile(dir, QStringLiteral("a.jsonl"), sampleLines(30, "a"))});
            auto b = Store::open(second, &why);
            importFiles(*b, {writeFile(dir, QStringLiteral("b.jsonl"), sampleLines(20, "b"))});
        }
        QVERIFY(isSqliteFile(first));
        auto merged = Store::openTemporary(&why);
        QVERIFY2(mergeStore(*merged, first, &why), why.c_str());
        QVERIFY2(mergeStore(*merged, second, &why), why.c_str());
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM requests"), qint64(50));
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM request_details"), qint64(50));
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM token_times"), qint64(50));
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM import_runs"), qint64(2));
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM requests_readable WHERE model = 'm1'"), qint64(25));
        RequestFilter onlyM0;
        onlyM0.models = {"m0"};
        QCOMPARE(analyze(*merged, onlyM0).total, qint64(25));
    }

    void temporaryStoreRemovesItsFile_data()
    {
        QTest::addColumn<QString>("outliving"); // a connection of its own still open when the store goes
        QTest::newRow("none") << QString();
        QTest::newRow("a reader") << QStringLiteral("reader");
        QTest::newRow("a store opened by the file's name") << QStringLiteral("store");
    }

    void temporaryStoreRemovesItsFile()
    {
        // Removed only once no connection has it open: the last close of a removed file frees it inside
        // SQLite's process-wide mutex, which stalled the window's next open (temporary_files.h).
        QFETCH(QString, outliving);
        std::string why;
        std::string file;
        ReadConnection reader;
        std::unique_ptr<Store> byName;
        {
            auto store = Store::openTemporary(&why);
            QVERIFY2(store, why.c_str());
            file = store->fileName();
            QVERIFY(QFile::exists(QString::fromStdString(file)));
            if (outliving == QLatin1String("reader"))
                reader = store->openReader();
            else if (outliving == QLatin1String("store"))
                byName = Store::openExisting(file, &why);
            QVERIFY(outliving.isEmpty() || reader.valid() || byName);
        }
        temporary_files::waitForRemovals();
        QCOMPARE(QFile::exists(QString::fromStdString(file)), !outliving.isEmpty());
        if (!outliving.isEmpty()) {
            QCOMPARE(scalar(byName ? *byName : *Store::openExisting(file, &why), "SELECT count(*) FROM requests"), qint64(0));
            reader = ReadConnection();
            byName.reset();
            temporary_files::waitForRemovals();
            QVERIFY(!QFile::exists(QString::fromStdString(file)));
            QVERIFY(!QFile::exists(QString::fromStdString(file + "-journal")));
        }
    }

    void syncsOnlyWhereTheStoreOutlivesTheProcess_data()
    {
        QTest::addColumn<bool>("temporary");
        QTest::addColumn<bool>("byName"); // imported through a second connection, opened by the file's name
        QTest::addColumn<bool>("syncs");
        // A temporary store (the app's new investigation, `report FILE`) is made on the UI thread: a sync
        // there, while the last investigation's store was being written out, stalled the window 150 ms.
        QTest::newRow("temporary store: made and imported into without a sync") << true << false << false;
        // The app imports on a worker, through a connection of its own to the temporary store's file.
        QTest::newRow("temporary store: imported into by its name without a sync") << true << true << false;
        QTest::newRow("store file: its commits reach the disk") << false << false << true;
        QTest::newRow("store file: imported into by its name, the commits reach the disk") << false << true << true;
    }

    void syncsOnlyWhereTheStoreOutlivesTheProcess()
    {
        QFETCH(bool, temporary);
        QFETCH(bool, byName);
        QFETCH(bool, syncs);
        QTemporaryDir dir;
        const std::string trace = writeFile(dir, QStringLiteral("t.jsonl"), sampleLines(50, "s"));
        const lxtest::SyncCounter counter;
        std::string why;
        auto store = temporary ? Store::openTemporary(&why) : Store::open(dir.filePath(QStringLiteral("s.lxdb")).toStdString(), &why);
        QVERIFY2(store, why.c_str());
        const int syncsToMakeIt = counter.syncs();
        auto writer = byName ? Store::openExisting(store->fileName(), &why) : nullptr;
        QVERIFY2(!byName || writer, why.c_str());
        const auto imports = importFiles(writer ? *writer : *store, {trace});
        QCOMPARE(int(imports.at(0).outcome), int(FileImport::Outcome::Complete));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(50));
        if (temporary)
            QCOMPARE(syncsToMakeIt, 0);
        QCOMPARE(counter.syncs() > syncsToMakeIt, syncs);
    }

    void cancelRollsBackTheFileInProgress_data()
    {
        QTest::addColumn<int>("cancelInFile"); // 0-based file whose progress callback says stop
        QTest::addColumn<qint64>("kept");
        QTest::newRow("cancel in the first file: nothing kept") << 0 << qint64(0);
        QTest::newRow("cancel in the second file: the first kept") << 1 << qint64(3000);
    }

    void cancelRollsBackTheFileInProgress()
    {
        QFETCH(int, cancelInFile);
        QFETCH(qint64, kept);
        QTemporaryDir dir;
        // Big enough that the callback is asked while a file is being read (every 1024 records).
        const std::string first = writeFile(dir, QStringLiteral("1.jsonl"), sampleLines(3000, "a"));
        const std::string second = writeFile(dir, QStringLiteral("2.jsonl"), sampleLines(3000, "b"));
        const std::string third = writeFile(dir, QStringLiteral("3.jsonl"), sampleLines(3000, "c"));
        const auto firstSize = std::filesystem::file_size(first);
        std::string why;
        auto store = Store::open(dir.filePath(QStringLiteral("inv.lxdb")).toStdString(), &why);
        ImportOptions options;
        options.progress = [&](const ImportProgress &progress) {
            const std::uint64_t done = progress.bytesDone;
            const bool inCancelledFile = cancelInFile == 0 ? done <= firstSize : done > firstSize;
            return !inCancelledFile;
        };
        const auto imports = importFiles(*store, {first, second, third}, options);
        QCOMPARE(imports.size(), std::size_t(3));
        QCOMPARE(int(imports[std::size_t(cancelInFile)].outcome), int(FileImport::Outcome::Cancelled));
        QCOMPARE(int(imports[2].outcome), int(FileImport::Outcome::Cancelled)); // never started
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), kept);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_details"), kept);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM token_times"), kept);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM import_runs WHERE outcome = 'cancelled'"), qint64(1));
        Statement check(store->db(), "PRAGMA integrity_check");
        QCOMPARE(check.step(), SQLITE_ROW);
        QCOMPARE(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(check.get(), 0))), QStringLiteral("ok"));
    }

    void importWaitsForAReaderToFinish()
    {
        // Regression: with no busy timeout a COMMIT failed with "database is locked" while another connection
        // read, and the import silently lost its rows.
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("inv.lxdb")).toStdString();
        const std::string trace = writeFile(dir, QStringLiteral("t.jsonl"), sampleLines(2000, "r"));
        std::string why;
        auto store = Store::open(db, &why);
        QVERIFY(store);
        const ReadConnection connection = store->openReader();
        QVERIFY(connection.valid());
        sqlite3 *reader = connection.db();
        sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM requests;", nullptr, nullptr, nullptr); // holds a read lock
        std::thread release([reader] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            sqlite3_exec(reader, "COMMIT", nullptr, nullptr, nullptr);
        });
        const auto imports = importFiles(*store, {trace});
        release.join();
        QCOMPARE(int(imports.front().outcome), int(FileImport::Outcome::Complete));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(2000));
    }

    void indexesOnDemand()
    {
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY(store->ensureIndexes(&why));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM sqlite_master WHERE type='index' AND name='request_details_by_id_hash'"), qint64(1));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
