// SPDX-License-Identifier: GPL-3.0-or-later
// Stores that did not come from this application, or not intact: a planted trigger, a view where a table
// belongs, a wrong-shaped table, a bad schema version, a damaged page. Each is refused by the CLI with exit 2
// and a message that names what is wrong, and the file is not changed by a command that only reads it.

#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <sqlite3.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString cliPath() { return QString::fromUtf8(LX_CLI_PATH); }

QString sample(const char *name) { return QStringLiteral(LX_SOURCE_DIR "/sample_traces/") + QLatin1String(name); }

QByteArray hashOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex();
}

/// Runs SQL on a store as a foreign tool would (no defensive mode): empty when it worked, else SQLite's message.
QString tamper(const QString &path, const QByteArray &sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open(lxtest::pathOf(path).c_str(), &db);
    char *message = nullptr;
    QString why;
    if (sqlite3_exec(db, sql.constData(), nullptr, nullptr, &message) != SQLITE_OK)
        why = QString::fromUtf8(message ? message : "failed");
    sqlite3_free(message);
    sqlite3_close(db);
    return why;
}

/// A value of the store read as a foreign tool would.
qint64 scalar(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    sqlite3_open_v2(lxtest::pathOf(path).c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt *stmt = nullptr;
    qint64 value = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
        value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return value;
}

/// Writes seeded garbage over page `page` (1-based) of the file.
bool garblePage(const QString &path, qint64 page, qint64 pageSize)
{
    QFile file(path);
    if (page < 1 || !file.open(QIODevice::ReadWrite) || !file.seek((page - 1) * pageSize))
        return false;
    QRandomGenerator random(static_cast<quint32>(page));
    QByteArray garbage(static_cast<int>(pageSize), '\0');
    for (char &c : garbage)
        c = static_cast<char>(random.bounded(256));
    return file.write(garbage) == pageSize;
}

/// How a row spoils its copy of a good store.
enum class Damage { None, Sql, EmptyDatabase, GarbleRootOf, GarbleLeafOf };

/// The right-most child of an interior b-tree page (its header's bytes 8-11): a leaf of a table with a few pages.
qint64 rightmostChild(const QString &path, qint64 page, qint64 pageSize)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek((page - 1) * pageSize))
        return 0;
    const QByteArray header = file.read(12);
    if (header.size() < 12 || header.at(0) != 0x05) // 5: an interior table page
        return 0;
    const auto byte = [&](int i) { return qint64(static_cast<unsigned char>(header.at(i))); };
    return (byte(8) << 24) | (byte(9) << 16) | (byte(10) << 8) | byte(11);
}

} // namespace

class TestForeignStore : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_good; ///< a store of rising_load.jsonl, made once

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_good = m_dir.filePath(QStringLiteral("good.lxdb"));
        std::string why;
        auto store = lx::Store::open(lxtest::pathOf(m_good), &why);
        QVERIFY2(store, why.c_str());
        const auto files = lx::importFiles(*store, {lxtest::pathOf(sample("rising_load.jsonl"))});
        QCOMPARE(files.front().accepted, qint64(1200));
    }

    void refusedAndUnchanged_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("damage");
        QTest::addColumn<QByteArray>("detail"); // the SQL, or the table whose root page is garbled
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");

        const int sql = int(Damage::Sql);
        QTest::newRow("intact store: report reads it and writes nothing")
            << "report" << int(Damage::None) << QByteArray() << 0 << QString();
        QTest::newRow("store made before the join tables: read without adding them")
            << "report" << sql << QByteArray("DROP VIEW join_unmatched_readable; DROP TABLE join_unmatched; DROP TABLE request_joins;")
            << 0 << QString();
        QTest::newRow("planted trigger ran during report")
            << "report" << sql
            << QByteArray("CREATE TRIGGER evil AFTER INSERT ON labels BEGIN UPDATE requests SET e2e_ns = 1; END;")
            << 2 << "not a Latency Explorer investigation: it holds a trigger (evil)";
        QTest::newRow("planted trigger: import refuses the store before writing")
            << "import" << sql
            << QByteArray("CREATE TRIGGER evil AFTER INSERT ON requests BEGIN UPDATE requests SET e2e_ns = 1; END;")
            << 2 << "it holds a trigger (evil)";
        QTest::newRow("recursive view named requests hung report")
            << "report" << sql
            << QByteArray("DROP TABLE requests; CREATE VIEW requests AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)"
                          " SELECT x AS id FROM n;")
            << 2 << "requests is a view, not a table";
        QTest::newRow("empty SQLite file got the schema written into it")
            << "report" << int(Damage::EmptyDatabase) << QByteArray() << 2 << "an SQLite database without a single table";
        QTest::newRow("wrong-shaped requests gave 0 requests and exit 0")
            << "report" << sql << QByteArray("DROP TABLE requests; CREATE TABLE requests (id INTEGER PRIMARY KEY, foo TEXT);")
            << 2 << "table requests lacks column run_id";
        QTest::newRow("raw SQLite text leaked: no such column: id")
            << "report" << sql << QByteArray("DROP TABLE requests; CREATE TABLE requests (x);") << 2 << "table requests lacks column id";
        QTest::newRow("extra column in requests")
            << "report" << sql << QByteArray("ALTER TABLE requests ADD COLUMN extra INTEGER;") << 2
            << "table requests has the columns";
        QTest::newRow("generated column in requests")
            << "report" << sql << QByteArray("ALTER TABLE requests ADD COLUMN twice INTEGER GENERATED ALWAYS AS (e2e_ns * 2);") << 2
            << "table requests has the columns";
        QTest::newRow("column of another type")
            << "report" << sql
            << QByteArray("DROP TABLE token_times; CREATE TABLE token_times (request_id INTEGER PRIMARY KEY, times TEXT NOT NULL);")
            << 2 << "column token_times.times is declared 'text'";
        QTest::newRow("schema_version 99999999999999999999 reported as -1")
            << "report" << sql << QByteArray("UPDATE meta SET value = '99999999999999999999' WHERE key = 'schema_version';")
            << 2 << "its schema version '99999999999999999999' is not a version number";
        QTest::newRow("schema_version 1abc read as 1")
            << "report" << sql << QByteArray("UPDATE meta SET value = '1abc' WHERE key = 'schema_version';") << 2
            << "its schema version '1abc' is not a version number";
        QTest::newRow("schema_version -1")
            << "report" << sql << QByteArray("UPDATE meta SET value = '-1' WHERE key = 'schema_version';") << 2
            << "is not a version number";
        QTest::newRow("schema_version 4")
            << "report" << sql << QByteArray("UPDATE meta SET value = '4' WHERE key = 'schema_version';") << 2
            << "investigation has schema version 4, this version reads 1 to 3";
        QTest::newRow("schema_version 1 with version 3's columns")
            << "report" << sql << QByteArray("UPDATE meta SET value = '1' WHERE key = 'schema_version';") << 2
            << "table request_details lacks column t_client_send_ns";
        QTest::newRow("schema_version 2 with version 3's packed stamps")
            << "report" << sql << QByteArray("UPDATE meta SET value = '2' WHERE key = 'schema_version';") << 2
            << "table request_details lacks column t_client_send_ns";
        QTest::newRow("version 3 without its attribute sets")
            << "report" << sql << QByteArray("DROP VIEW requests_readable; DROP VIEW request_attributes; DROP VIEW request_attributes_json;"
                                             " DROP TABLE attribute_sets;") << 2
            << "it has no table attribute_sets";
        QTest::newRow("no meta table")
            << "report" << sql << QByteArray("DROP TABLE meta;") << 2 << "it has no table meta";
        QTest::newRow("corrupted page in requests gave fewer requests and no message")
            << "report" << int(Damage::GarbleRootOf) << QByteArray("requests") << 2 << "the store is damaged";
        QTest::newRow("corrupted leaf page in requests gave fewer requests and no message")
            << "report" << int(Damage::GarbleLeafOf) << QByteArray("requests") << 2 << "the store is damaged";
        QTest::newRow("corrupted leaf page in request_details")
            << "report" << int(Damage::GarbleLeafOf) << QByteArray("request_details") << 2 << "the store is damaged";
        QTest::newRow("corrupted page in token_times read silently")
            << "report" << int(Damage::GarbleRootOf) << QByteArray("token_times") << 2 << "the store is damaged";
        QTest::newRow("corrupted leaf page in token_times")
            << "report" << int(Damage::GarbleLeafOf) << QByteArray("token_times") << 2 << "the store is damaged";
        QTest::newRow("corrupted page in requests: compare says so too")
            << "compare" << int(Damage::GarbleRootOf) << QByteArray("requests") << 2 << "the store is damaged";
        QTest::newRow("corrupted page in requests: a merge refuses the store")
            << "merge" << int(Damage::GarbleRootOf) << QByteArray("requests") << 2 << "the store is damaged";
    }

    void refusedAndUnchanged()
    {
        QFETCH(QString, command);
        QFETCH(int, damage);
        QFETCH(QByteArray, detail);
        QFETCH(int, exitCode);
        QFETCH(QString, message);

        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("store.lxdb"));
        switch (Damage(damage)) {
        case Damage::None:
        case Damage::Sql:
        case Damage::GarbleRootOf:
        case Damage::GarbleLeafOf:
            QVERIFY(QFile::copy(m_good, store));
            break;
        case Damage::EmptyDatabase:
            QVERIFY(tamper(store, "PRAGMA user_version = 7;").isEmpty()); // a header and no table
            break;
        }
        if (Damage(damage) == Damage::Sql)
            QVERIFY(tamper(store, detail).isEmpty());
        if (Damage(damage) == Damage::GarbleRootOf || Damage(damage) == Damage::GarbleLeafOf) {
            const qint64 pageSize = scalar(store, "PRAGMA page_size");
            qint64 page = scalar(store, QByteArray("SELECT rootpage FROM sqlite_schema WHERE name = '" + detail + "'").constData());
            if (Damage(damage) == Damage::GarbleLeafOf)
                page = rightmostChild(store, page, pageSize);
            QVERIFY2(page > 1, "the table has no page of that kind");
            QVERIFY(garblePage(store, page, pageSize));
        }
        const QByteArray before = hashOf(store);
        const QStringList filesBefore = QDir(dir.path()).entryList(QDir::Files);

        QStringList args;
        if (command == QLatin1String("report"))
            args = {QStringLiteral("report"), store};
        else if (command == QLatin1String("compare"))
            args = {QStringLiteral("compare"), m_good, store};
        else if (command == QLatin1String("merge")) // a store among trace files is merged into a new one
            args = {QStringLiteral("report"), store, sample("rising_load_durations.jsonl")};
        else
            args = {QStringLiteral("import"), QStringLiteral("--db"), store, sample("rising_load_durations.jsonl")};
        const lxtest::CliRun run = lxtest::runCli(cliPath(), args);

        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(message.isEmpty() || QString::fromUtf8(run.err).contains(message), run.err.constData());
        if (exitCode == 2 && command != QLatin1String("merge"))
            QVERIFY2(run.err.contains(store.toUtf8()), run.err.constData()); // the message names the file
        // `report STORE` reads the store beside its integrity check: nothing of a damaged one is said. (A
        // merge refuses the damaged store and reports the trace files beside it.)
        if (exitCode == 2 && command != QLatin1String("merge"))
            QVERIFY2(run.out.isEmpty(), run.out.left(300).constData());
        QVERIFY2(!run.err.contains("no such column") && !run.err.contains("no such table"), run.err.constData());
        QCOMPARE(hashOf(store), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), filesBefore); // no journal, no copy left beside it
    }

    void unusableTemporaryFolder_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("read-only TMPDIR said: unable to open database file") << "read-only";
        QTest::newRow("missing TMPDIR") << "missing";
        QTest::newRow("TMPDIR is a file") << "file";
    }

    void unusableTemporaryFolder()
    {
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QString tmp = dir.filePath(QStringLiteral("tmp"));
        bool mounted = false;
        if (kind == QLatin1String("missing")) {
            // nothing made
        } else if (kind == QLatin1String("file")) {
            QVERIFY(lxtest::writeFile(tmp, "not a folder"));
        } else {
            QVERIFY(QDir().mkpath(tmp));
            QFile::setPermissions(tmp, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup);
            if (lxtest::writeFile(tmp + QStringLiteral("/probe"), "x")) {
                // The superuser writes through permissions: a read-only file system, where one can be mounted.
                QFile::remove(tmp + QStringLiteral("/probe"));
                mounted = lxtest::mountTmpfs(tmp, QStringLiteral("ro,size=64k"));
                if (!mounted)
                    QSKIP("a read-only folder cannot be made here (superuser, and no mount)");
            }
        }
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), tmp);
        const QString trace = sample("rising_load.jsonl");
        const QByteArray before = hashOf(trace);
        const lxtest::CliRun run = lxtest::runCli(cliPath(), {QStringLiteral("report"), trace}, environment);
        if (mounted)
            lxtest::unmount(tmp);
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(run.err.contains("temporary folder " + tmp.toUtf8()), run.err.constData());
        QVERIFY2(run.err.contains("set TMPDIR"), run.err.constData());
        QCOMPARE(hashOf(trace), before);
    }
};

QTEST_GUILESS_MAIN(TestForeignStore)
#include "tst_foreign_store.moc"
