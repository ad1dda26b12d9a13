// SPDX-License-Identifier: GPL-3.0-or-later
// A request's raw timestamps are one packed column of request_details (schema version 3, packed_stamps.h):
// every reader gets back what was imported (the detail view, the what-if's stamps, SQL through the view
// request_timestamps), and a store of version 1 or 2 (stamps in eight columns) is read as it is and
// migrated when opened for writing.
#include "ingest/importer.h"
#include "store/packed_stamps.h"
#include "store/request_lookup.h"
#include "store/sqlite_util.h"
#include "store/stamp_scan.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "older_stores.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace lx;

namespace {

constexpr qint64 kBase = 1'700'000'000'000'000'000LL;

/// Records of every shape of stamps: all eight, the server's only, the client's only, the durations form
/// (its start stands as the server's receipt). Record i is r<i>, i ms after kBase.
QByteArray records(int count, const char *prefix = "r")
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        const QByteArray t = QByteArray::number(kBase + qint64(i) * 1'000'000LL);
        const auto at = [&](qint64 after) { return QByteArray::number(kBase + qint64(i) * 1'000'000LL + after); };
        out += QByteArray("{\"id\":\"") + prefix + QByteArray::number(i) + "\"";
        switch (i % 4) {
        case 0:
            out += ",\"t_client_send_ns\":" + t + ",\"t_server_recv_ns\":" + at(1000) + ",\"t_preprocess_done_ns\":" + at(2000)
                   + ",\"t_sched_ns\":" + at(3000 + i) + ",\"t_first_token_ns\":" + at(50'000) + ",\"t_last_token_ns\":"
                   + at(900'000) + ",\"t_server_send_ns\":" + at(901'000) + ",\"t_client_recv_ns\":" + at(903'000);
            break;
        case 1:
            out += ",\"t_server_recv_ns\":" + t + ",\"t_first_token_ns\":" + at(40'000) + ",\"t_last_token_ns\":" + at(700'000 + i);
            break;
        case 2:
            out += ",\"t_client_send_ns\":" + t + ",\"t_client_recv_ns\":" + at(800'000 + i);
            break;
        default:
            out += ",\"start_ns\":" + t + ",\"prefill_ms\":3.5,\"decode_ms\":20.25,\"e2e_ms\":25.0";
            break;
        }
        out += "}\n";
    }
    return out;
}

/// Every request's stamps by its source id, as the detail view reads them.
std::map<std::string, Stamps> detailStamps(const Store &store)
{
    std::map<std::string, Stamps> out;
    Statement ids(store.db(), "SELECT id FROM requests ORDER BY id");
    while (ids.step() == SQLITE_ROW) {
        RequestDetail detail;
        if (loadRequestDetail(store, sqlite3_column_int64(ids.get(), 0), detail))
            out[detail.sourceId] = detail.stamps;
    }
    return out;
}

/// The same through the what-if's scan, by row id.
std::vector<Stamps> scannedStamps(const Store &store)
{
    std::vector<Stamps> out;
    std::string why;
    if (const auto rows = scanStampRows(store, &why))
        for (const StampRow &row : *rows)
            out.push_back(row.stamps);
    return out;
}

qint64 scalar(const Store &store, const char *sql)
{
    Statement stmt(store.db(), sql);
    return stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

/// Requests, through the SQL view, whose stamps are those records() wrote for their id.
qint64 viewMatchesRecords(const Store &store)
{
    return scalar(store, "SELECT count(*) FROM requests_readable r JOIN request_timestamps t ON t.request_id = r.id"
                         " WHERE CASE CAST(substr(r.source_id, 2) AS INTEGER) % 4"
                         "  WHEN 0 THEN t.t_client_send_ns = 1700000000000000000 + CAST(substr(r.source_id, 2) AS INTEGER) * 1000000"
                         "   AND t.t_sched_ns - t.t_client_send_ns = 3000 + CAST(substr(r.source_id, 2) AS INTEGER)"
                         "   AND t.t_client_recv_ns - t.t_client_send_ns = 903000"
                         "  WHEN 1 THEN t.t_client_send_ns IS NULL AND t.t_sched_ns IS NULL"
                         "   AND t.t_last_token_ns - t.t_server_recv_ns = 700000 + CAST(substr(r.source_id, 2) AS INTEGER)"
                         "  WHEN 2 THEN t.t_server_recv_ns IS NULL AND t.t_client_recv_ns - t.t_client_send_ns"
                         "   = 800000 + CAST(substr(r.source_id, 2) AS INTEGER)"
                         "  ELSE t.t_client_send_ns IS NULL AND t.t_client_recv_ns IS NULL AND t.t_last_token_ns IS NULL END"
                         "  AND r.t_server_recv_ns IS t.t_server_recv_ns AND r.t_last_token_ns IS t.t_last_token_ns");
}

} // namespace

class TestPackedStamps : public QObject {
    Q_OBJECT

private slots:
    /// What was imported comes back the same to each reader.
    void importedStampsReadBack()
    {
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("s.lxdb"), records(40));
        std::string why;
        auto store = Store::openReadOnly(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(40));
        QCOMPARE(viewMatchesRecords(*store), qint64(40));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_details WHERE typeof(stamps) = 'blob' AND length(stamps) = 64"), qint64(40));
        const std::map<std::string, Stamps> details = detailStamps(*store);
        QCOMPARE(details.size(), std::size_t(40));
        const Stamps &full = details.at("r4");
        QCOMPARE(full[0], kBase + 4'000'000);
        QCOMPARE(full[3], kBase + 4'000'000 + 3004);
        QCOMPARE(full[7], kBase + 4'000'000 + 903'000);
        const Stamps &server = details.at("r5");
        QCOMPARE(server[0], kNotMeasured);
        QCOMPARE(server[1], kBase + 5'000'000);
        QCOMPARE(server[5], kBase + 5'000'000 + 700'005);
        QCOMPARE(server[6], kNotMeasured);
        Stamps durations;
        durations.fill(kNotMeasured);
        durations[1] = kBase + 7'000'000;
        QCOMPARE(details.at("r7"), durations);
        const std::vector<Stamps> scanned = scannedStamps(*store);
        QCOMPARE(scanned.size(), std::size_t(40));
        QCOMPARE(scanned[4], full);
        QCOMPARE(scanned[5], server);
    }

    /// Any int64 survives the view's decoding in SQL and the program's, -2^63 (not measured) as NULL.
    void viewDecodesAnyValue_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::newRow("zero") << qint64(0);
        QTest::newRow("one byte") << qint64(255);
        QTest::newRow("past one byte") << qint64(256);
        QTest::newRow("minus one") << qint64(-1);
        QTest::newRow("a timestamp") << qint64(1'764'000'000'000'219'781LL);
        QTest::newRow("a negative offset") << qint64(-5'000'000'123LL);
        QTest::newRow("top byte only") << qint64(1LL << 56);
        QTest::newRow("largest") << std::numeric_limits<qint64>::max();
        QTest::newRow("smallest measured") << std::numeric_limits<qint64>::min() + 1;
        QTest::newRow("not measured") << qint64(kNotMeasured);
    }

    void viewDecodesAnyValue()
    {
        QFETCH(qint64, value);
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        Stamps stamps;
        stamps.fill(kNotMeasured);
        stamps[2] = value; // t_preprocess_done
        stamps[7] = 42;    // so that the BLOB is written even when `value` is not measured
        Statement insert(store->db(), "INSERT INTO request_details (request_id, source_id, id_hash, source_line, stamps)"
                                      " VALUES (1, 'x', 0, 1, ?)");
        sqlite3_bind_blob(insert.get(), 1, stamps.data(), kPackedStampBytes, SQLITE_STATIC);
        QCOMPARE(insert.step(), SQLITE_DONE);
        Statement read(store->db(), "SELECT t_preprocess_done_ns, t_client_recv_ns, t_client_send_ns, s.stamps"
                                    " FROM request_timestamps JOIN request_details s USING (request_id)");
        QCOMPARE(read.step(), SQLITE_ROW);
        QCOMPARE(columnOr(read.get(), 0), value); // NULL reads as kNotMeasured
        QCOMPARE(sqlite3_column_type(read.get(), 0) == SQLITE_NULL, value == kNotMeasured);
        QCOMPARE(sqlite3_column_int64(read.get(), 1), qint64(42));
        QCOMPARE(sqlite3_column_type(read.get(), 2), SQLITE_NULL);
        QCOMPARE(columnStamps(read.get(), 3), stamps);
    }

    /// NULL (a request without a stamp) and a BLOB of another size (which no version writes) read as no
    /// stamp, never as bytes past its end.
    void otherSizesReadAsNone_data()
    {
        QTest::addColumn<int>("bytes"); // -1: NULL
        QTest::newRow("NULL") << -1;
        QTest::newRow("empty") << 0;
        QTest::newRow("one stamp") << 8;
        QTest::newRow("one byte short") << 63;
        QTest::newRow("one stamp more") << 72;
    }

    void otherSizesReadAsNone()
    {
        QFETCH(int, bytes);
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        Statement read(store->db(), "SELECT CASE WHEN ?1 < 0 THEN NULL ELSE zeroblob(?1) END");
        read.bindInt(1, bytes);
        QCOMPARE(read.step(), SQLITE_ROW);
        QVERIFY(!anyStampMeasured(columnStamps(read.get(), 0)));
    }

    /// An older store opened read-only answers as it did, and nothing of it is written.
    void readsOlderAsItIs_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("version 1") << 1;
        QTest::newRow("version 2") << 2;
    }

    void readsOlderAsItIs()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("old.lxdb"), records(40));
        std::string why;
        std::string reported;
        std::map<std::string, Stamps> details;
        std::vector<Stamps> scanned;
        {
            auto store = Store::openReadOnly(path, &why);
            QVERIFY2(store, why.c_str());
            reported = lxtest::everythingReported(*store);
            details = detailStamps(*store);
            scanned = scannedStamps(*store);
        }
        QVERIFY(lxtest::downgradeStore(path, version));
        auto store = Store::openReadOnly(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(lxtest::everythingReported(*store), reported);
        QCOMPARE(detailStamps(*store), details);
        QCOMPARE(scannedStamps(*store), scanned);
        QCOMPARE(viewMatchesRecords(*store), qint64(40)); // request_timestamps stands in
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key = 'schema_version'"), qint64(version));
    }

    /// Opened for writing, an older store becomes one of this version with the same stamps, and takes more.
    void migratesOlderWhenWriting_data() { readsOlderAsItIs_data(); }

    void migratesOlderWhenWriting()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("old.lxdb"), records(40));
        std::string why;
        std::map<std::string, Stamps> details = detailStamps(*Store::openReadOnly(path, &why));
        QVERIFY(lxtest::downgradeStore(path, version));
        {
            // What a user may have made in the sqlite3 shell: views over the table and over a view of ours
            // (which the migration's rename would check and refuse), and the index of the look-ups by id.
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "CREATE VIEW my_ids AS SELECT source_id FROM request_details;"
                                      "CREATE VIEW my_lines AS SELECT source_line FROM requests_readable;"
                                      "CREATE INDEX request_details_by_id_hash ON request_details(id_hash);",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        auto store = Store::open(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key = 'schema_version'"), qint64(kSchemaVersion));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM my_ids"), qint64(40));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM my_lines"), qint64(40));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM sqlite_schema WHERE name = 'request_details_by_id_hash'"), qint64(1));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM pragma_table_info('request_details') WHERE name LIKE 't\\_%' ESCAPE '\\'"), qint64(0));
        QCOMPARE(detailStamps(*store), details);
        QCOMPARE(viewMatchesRecords(*store), qint64(40));
        importFiles(*store, {lxtest::writeFile(dir, QStringLiteral("more.jsonl"), records(8, "s"))});
        QCOMPARE(scalar(*store, "SELECT count(*) FROM requests"), qint64(48));
        QCOMPARE(detailStamps(*store).at("s4"), details.at("r4")); // the same offsets from the same base
        store.reset();
        QVERIFY2(Store::openReadOnly(path, &why), why.c_str()); // a migrated store passes the checks of this version
    }

    /// An older store in a file this process may only read (a read-only mount: the superuser writes through
    /// permissions) opens for writing as it did before the migration existed, read as it is.
    void olderStoreOnAReadOnlyDisk()
    {
        lxtest::ScratchDisk disk(QStringLiteral("size=4m"));
        if (!disk.mounted())
            QSKIP("no file system can be mounted here (it takes the superuser)");
        QTemporaryDir inside(disk.path() + QStringLiteral("/XXXXXX"));
        const std::string path = lxtest::importedStoreFile(inside, QStringLiteral("old.lxdb"), records(40));
        std::string why;
        const std::map<std::string, Stamps> details = detailStamps(*Store::openReadOnly(path, &why));
        QVERIFY(lxtest::downgradeStore(path, 2));
        QVERIFY(disk.remount(QStringLiteral("remount,ro")));
        auto store = Store::open(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(detailStamps(*store), details);
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key = 'schema_version'"), qint64(2));
        store.reset();
        QVERIFY(disk.remount(QStringLiteral("remount,rw"))); // so that the folder inside can go
    }

    /// A merge brings the stamps of a store of either layout.
    void mergesOlderStamps_data()
    {
        QTest::addColumn<int>("version");
        QTest::newRow("version 2 source") << 2;
        QTest::newRow("version 3 source") << 3;
    }

    void mergesOlderStamps()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const std::string first = lxtest::importedStoreFile(dir, QStringLiteral("1.lxdb"), records(12, "a"));
        const std::string second = lxtest::importedStoreFile(dir, QStringLiteral("2.lxdb"), records(12, "b"));
        std::string why;
        const std::map<std::string, Stamps> before = detailStamps(*Store::openReadOnly(second, &why));
        if (version < kSchemaVersion)
            QVERIFY(lxtest::downgradeStore(second, version));
        auto merged = Store::openTemporary(&why);
        QVERIFY2(mergeStore(*merged, first, &why), why.c_str());
        QVERIFY2(mergeStore(*merged, second, &why), why.c_str());
        const std::map<std::string, Stamps> after = detailStamps(*merged);
        QCOMPARE(after.size(), std::size_t(24));
        for (const auto &[id, stamps] : before)
            QCOMPARE(after.at(id), stamps);
    }
};

QTEST_GUILESS_MAIN(TestPackedStamps)
#include "tst_packed_stamps.moc"
