// SPDX-License-Identifier: GPL-3.0-or-later
// Bad input is refused with its reason while loading goes on: a bad record is rejected (kept in the
// store's `rejected` table with its line and an excerpt) and the good records around it are imported;
// a file that cannot be read says why and costs nothing that was imported before it.

#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <sqlite3.h>

#include <QDir>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using lxtest::describe;
using lxtest::dump;
using lxtest::pathOf;
using lxtest::writeFile;
using lxtest::zstd;

namespace {

/// A good record in the timestamps form.
QByteArray good(const char *id)
{
    return R"({"id":")" + QByteArray(id) + R"(","t_server_recv_ns":100,"t_first_token_ns":150,"t_last_token_ns":200})" "\n";
}

/// A bad line between two good records: it is line 2.
QByteArray between(const char *bad) { return good("r1") + bad + "\n" + good("r3"); }

QByteArray csvBetween(const char *header, const char *bad)
{
    return QByteArray(header) + "\nr1,100,200\n" + bad + "\nr3,100,200\n";
}

/// A thousand records, compressed with a checksum, their stream spread over many blocks by random hex noise.
QByteArray noisyZst(bool *ok)
{
    QRandomGenerator random(7);
    QByteArray text;
    for (int i = 0; i < 1000; ++i) {
        // Random hex noise makes the compressed stream span many blocks, so that the first half decodes.
        QByteArray noise(600, '0');
        for (char &c : noise)
            c = "0123456789abcdef"[random.bounded(16)];
        text += R"({"id":"r)" + QByteArray::number(i) + R"(","t_server_recv_ns":)" + QByteArray::number(1000 * i)
                + R"(,"t_last_token_ns":)" + QByteArray::number(1000 * i + 500) + R"(,"noise":")" + noise + "\"}\n";
    }
    return zstd({ QStringLiteral("-q"), QStringLiteral("-c"), QStringLiteral("--check") }, text, ok);
}

/// The whole lines that the zstd tool itself writes out of a damaged stream before it stops on the damage:
/// the records the importer must keep.
qint64 wholeLinesRecovered(const QByteArray &damaged, bool *ok)
{
    const QByteArray recovered
        = *ok ? zstd({ QStringLiteral("-q"), QStringLiteral("-d"), QStringLiteral("-c") }, damaged, ok) : QByteArray();
    return recovered.count('\n');
}

/// noisyZst() cut in half, with the lines to keep.
QByteArray truncatedZst(qint64 *wholeLines, bool *ok)
{
    const QByteArray compressed = noisyZst(ok);
    const QByteArray cut = compressed.left(compressed.size() / 2);
    *wholeLines = wholeLinesRecovered(cut, ok);
    return cut;
}

/// noisyZst() with bytes overwritten past its middle, with the lines to keep.
QByteArray damagedZst(qint64 *wholeLines, bool *ok)
{
    QByteArray compressed = noisyZst(ok);
    if (!*ok)
        return {};
    compressed.replace(compressed.size() / 2, 8, QByteArray(8, '\xff'));
    *wholeLines = wholeLinesRecovered(compressed, ok);
    return compressed;
}

/// Makes the bad file of a kind; *expectedBefore is the records it still holds before the problem.
std::string makeBadFile(const QTemporaryDir &dir, const QString &kind, qint64 *expectedBefore, bool *needsZstd)
{
    *expectedBefore = 0;
    *needsZstd = false;
    if (kind == QLatin1String("empty"))
        return writeFile(dir, QStringLiteral("empty.jsonl"), {});
    if (kind == QLatin1String("blank"))
        return writeFile(dir, QStringLiteral("blank.jsonl"), "\n  \n\r\n\t\n");
    if (kind == QLatin1String("binary")) {
        QRandomGenerator random(42);
        QByteArray bytes(4096, '\0');
        for (qsizetype i = 1; i < bytes.size(); ++i)
            bytes[i] = i % 97 == 0 ? '\0' : char(random.bounded(256));
        return writeFile(dir, QStringLiteral("random.jsonl"), bytes);
    }
    if (kind == QLatin1String("text"))
        return writeFile(dir, QStringLiteral("notes.txt"), "these are not the traces you are looking for\n");
    if (kind == QLatin1String("corrupt zstd"))
        return writeFile(dir, QStringLiteral("corrupt.jsonl.zst"), QByteArray("\x28\xB5\x2F\xFD", 4) + QByteArray(500, '\x7f'));
    if (kind == QLatin1String("missing"))
        return pathOf(dir.filePath(QStringLiteral("no-such-file.jsonl")));
    if (kind == QLatin1String("directory")) {
        QDir(dir.path()).mkpath(QStringLiteral("a-directory.jsonl"));
        return pathOf(dir.filePath(QStringLiteral("a-directory.jsonl")));
    }
    if (kind == QLatin1String("truncated")) {
        *needsZstd = true;
        bool ok = false;
        const QByteArray cut = truncatedZst(expectedBefore, &ok);
        return ok ? writeFile(dir, QStringLiteral("cut.jsonl.zst"), cut) : std::string();
    }
    if (kind == QLatin1String("damaged zstd")) {
        *needsZstd = true;
        bool ok = false;
        const QByteArray damaged = damagedZst(expectedBefore, &ok);
        return ok ? writeFile(dir, QStringLiteral("damaged.jsonl.zst"), damaged) : std::string();
    }
    if (kind == QLatin1String("pretty JSON"))
        return writeFile(dir, QStringLiteral("pretty.json"), "{\n  \"resourceSpans\": [\n    {\"scopeSpans\": []}\n  ]\n}\n");
    if (kind == QLatin1String("JSON array"))
        return writeFile(dir, QStringLiteral("array.json"), "[{\"id\": \"r1\", \"t_server_recv_ns\": 1}, {\"id\": \"r2\"}]\n");
    if (kind == QLatin1String("csv column twice"))
        return writeFile(dir, QStringLiteral("twice.csv"),
                         "id,t_server_recv_ns,t_last_token_ns,t_server_recv_ns\nr1,100,200,150\n");
    if (kind == QLatin1String("csv attribute twice"))
        return writeFile(dir, QStringLiteral("twice-attr.csv"),
                         "id,region,t_server_recv_ns,t_last_token_ns,region\nr1,eu,100,200,us\n");
    if (kind == QLatin1String("bad records"))
        return writeFile(dir, QStringLiteral("bad-records.jsonl"), "{\"id\":\n{\"id\":\"x\",\"t_sched_ns\":5,\"t_server_recv_ns\":9}\n");
    return {};
}

bool containsAll(const std::string &text, const QStringList &words)
{
    for (const QString &word : words) {
        if (!QString::fromStdString(text).contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

} // namespace

class TestImportBadInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badRecord_data();
    void badRecord();
    void badFile_data();
    void badFile();
    void sameIdInTwoFilesAccepted();
    void readOnlyStoreSaidOnce();
    void earlierFilesKept_data();
    void earlierFilesKept();
    void fullStoreRollsTheFileBack_data();
    void fullStoreRollsTheFileBack();

private:
    QTemporaryDir m_dir;
};

void TestImportBadInput::badRecord_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("accepted");
    QTest::addColumn<int>("rejected");
    QTest::addColumn<int>("line");           // of the first rejection
    QTest::addColumn<QStringList>("reason"); // words the reason must hold
    QTest::addColumn<QString>("stored");     // source ids in the store, in order

    const QString jsonl = QStringLiteral("bad.jsonl");
    const QString around = QStringLiteral("r1,r3");
    const auto words = [](const char *list) { return QString::fromUtf8(list).split(QLatin1Char('|')); };
    const auto row = [&](const char *tag, const char *bad, const char *reason) {
        QTest::newRow(tag) << jsonl << between(bad) << 2 << 1 << 2 << words(reason) << around;
    };
    row("malformed JSON", R"({"id":"r2","t_server_recv_ns":1,)", "malformed JSON");
    row("trailing text after the object", R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":2} extra)", "malformed JSON");
    row("not an object", R"([1,2,3])", "not a JSON object");
    row("string where an integer is expected", R"({"id":"r2","t_server_recv_ns":"soon","t_last_token_ns":5})", "t_server_recv_ns|integer|string");
    row("fraction where an integer is expected", R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":5,"output_tokens":2.5})", "output_tokens|integer");
    row("boolean id", R"({"id":true,"t_server_recv_ns":1,"t_last_token_ns":5})", "id|boolean");
    row("array status", R"({"id":"r2","status":["ok"],"t_server_recv_ns":1,"t_last_token_ns":5})", "status|array");
    row("status other than ok or error", R"({"id":"r2","status":"timeout","t_server_recv_ns":1,"t_last_token_ns":5})", "status|timeout");
    row("a stamp given twice", R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":5,"t_server_recv_ns":2})",
        "t_server_recv_ns|given twice");
    row("a stamp given twice, once null",
        R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":5,"t_server_recv_ns":null})", "t_server_recv_ns|twice");
    row("the id given twice", R"({"id":"r2","id":"r9","t_server_recv_ns":1,"t_last_token_ns":5})", "id is given twice");
    row("an attribute given twice",
        R"({"id":"r2","region":"eu","t_server_recv_ns":1,"t_last_token_ns":5,"region":"us"})", "region is given twice");
    row("an attribute given twice, once escaped",
        R"({"id":"r2","re\u0067ion":"eu","t_server_recv_ns":1,"t_last_token_ns":5,"region":"us"})",
        "region is given twice");
    row("a segment given twice", R"({"id":"r2","start_ns":1,"queue_ms":1,"e2e_ms":3,"queue_ms":2})", "queue_ms|twice");
    row("missing id", R"({"t_server_recv_ns":1,"t_last_token_ns":5})", "missing id");
    row("empty id", R"({"id":"","t_server_recv_ns":1,"t_last_token_ns":5})", "missing id");
    row("no timestamps", R"({"id":"r2","model":"m"})", "no timestamps");
    row("server timestamps out of order", R"({"id":"r2","t_server_recv_ns":100,"t_sched_ns":50,"t_last_token_ns":200})",
        "t_sched_ns|t_server_recv_ns|out of order");
    row("client receive before client send", R"({"id":"r2","t_client_send_ns":100,"t_client_recv_ns":50})", "t_client_recv_ns|t_client_send_ns");
    row("negative token count", R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":5,"output_tokens":-3})", "output_tokens|negative");
    row("token_times_ns out of order", R"({"id":"r2","t_server_recv_ns":1,"token_times_ns":[10,30,20]})", "token_times_ns|order");
    row("token_times_ns not integers", R"({"id":"r2","t_server_recv_ns":1,"token_times_ns":[10,"x"]})", "token_times_ns|integers");
    row("negative duration", R"({"id":"r2","start_ns":1,"queue_ms":-1,"decode_ms":3})", "queue_ms|negative");
    row("e2e_ms below the sum of the segments", R"({"id":"r2","start_ns":1,"queue_ms":5,"prefill_ms":5,"e2e_ms":8})", "e2e_ms|sum");
    row("durations without start_ns", R"({"id":"r2","queue_ms":5})", "start_ns");
    row("a record mixing both forms", R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":3,"start_ns":1,"queue_ms":2})",
        "mixes|timestamps|durations");
    QTest::newRow("duplicate id within a file") << jsonl << good("r1") + good("r1") + good("r3") << 2 << 1 << 2
                                                << words("duplicate|\"r1\"") << around;

    const char *header = "id,t_server_recv_ns,t_last_token_ns";
    const QString csv = QStringLiteral("bad.csv");
    QTest::newRow("csv missing id column") << csv << QByteArray("model,t_server_recv_ns,t_last_token_ns\nm,1,2\nm,3,4\n") << 0 << 2
                                           << 2 << words("missing id|header|column") << QString();
    QTest::newRow("csv ragged row, too many fields") << csv << csvBetween(header, "r2,1,2,3") << 2 << 1 << 3
                                                     << words("ragged|4 fields|3") << around;
    QTest::newRow("csv ragged row, too few fields") << csv << csvBetween(header, "r2,1") << 2 << 1 << 3 << words("ragged|2 fields|3") << around;
    QTest::newRow("csv string where an integer is expected") << csv << csvBetween(header, "r2,soon,200") << 2 << 1 << 3
                                                             << words("t_server_recv_ns|integer|soon") << around;
    QTest::newRow("csv text after a closing quote") << csv << csvBetween(header, "\"r2\"x,1,2") << 2 << 1 << 3
                                                    << words("malformed CSV|quote") << around;
    QTest::newRow("csv negative duration") << csv << QByteArray("id,start_ns,queue_ms\nr1,1,2\nr2,1,-2\nr3,1,2\n") << 2 << 1 << 3
                                           << words("queue_ms|negative") << around;
}

void TestImportBadInput::badRecord()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    QFETCH(int, accepted);
    QFETCH(int, rejected);
    QFETCH(int, line);
    QFETCH(QStringList, reason);
    QFETCH(QString, stored);

    std::string why;
    const std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    const std::string path = writeFile(m_dir, fileName, content);
    const std::vector<lx::FileImport> files = lx::importFiles(*store, {path});
    QCOMPARE(files.size(), std::size_t(1));
    const lx::FileImport &f = files[0];
    // A bad record does not stop the file.
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Complete && !f.failed(), describe(f).constData());
    QCOMPARE(f.path, path);
    QCOMPARE(f.accepted, qint64(accepted));
    QCOMPARE(f.rejected, qint64(rejected));
    QVERIFY2(!f.firstRejections.empty(), describe(f).constData());
    QCOMPARE(f.firstRejections[0].line, qint64(line));
    QVERIFY2(containsAll(f.firstRejections[0].reason, reason), describe(f).constData());

    // The store keeps every rejection with its line, the same reason and the start of the record's text.
    const QString badLine = QString::fromUtf8(content.split('\n').value(line - 1));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM rejected"), QString::number(rejected));
    QCOMPARE(dump(store->db(), "SELECT line, reason, excerpt FROM rejected ORDER BY id LIMIT 1"),
             QString::number(line) + QLatin1Char('|') + QString::fromStdString(f.firstRejections[0].reason) + QLatin1Char('|') + badLine);
    QCOMPARE(dump(store->db(), "SELECT accepted, rejected, outcome FROM import_runs"),
             QStringLiteral("%1|%2|complete").arg(accepted).arg(rejected));
    // The good records around the bad one are there, the first of a repeated id is the one kept.
    QCOMPARE(dump(store->db(), "SELECT group_concat(source_id) FROM (SELECT source_id FROM requests_readable ORDER BY id)"),
             stored.isEmpty() ? QStringLiteral("NULL") : stored);
    if (!stored.isEmpty())
        QCOMPARE(dump(store->db(), "SELECT min(source_line) FROM requests_readable"), QString::number(fileName.endsWith(QLatin1String(".csv")) ? 2 : 1));
}

void TestImportBadInput::badFile_data()
{
    QTest::addColumn<QString>("kind"); // see makeBadFile()
    QTest::addColumn<int>("outcome");
    QTest::addColumn<QStringList>("message"); // words the message must hold

    const auto row = [](const char *tag, const char *kind, lx::FileImport::Outcome outcome, const char *words) {
        QTest::newRow(tag) << QString::fromLatin1(kind) << int(outcome) << QString::fromLatin1(words).split(QLatin1Char('|'));
    };
    using O = lx::FileImport::Outcome;
    row("an empty file", "empty", O::Unreadable, "empty");
    row("only blank lines", "blank", O::Unreadable, "blank");
    row("random bytes with NULs", "binary", O::Unreadable, "binary");
    row("text that is no trace", "text", O::Unreadable, "not a trace format");
    row("corrupt zstd stream", "corrupt zstd", O::Unreadable, "zstd");
    row("a file that does not exist", "missing", O::Unreadable, "no such file");
    row("a directory", "directory", O::Unreadable, "directory");
    row("a truncated .zst", "truncated", O::Truncated, "truncated|kept");
    // The blocks before the damage were lost with it: the records of a file this small, all of them.
    row("a .zst damaged in its middle", "damaged zstd", O::ReadError, "zstd|compressed byte|kept");
    // Were read as JSON lines (or CSV, for an array with commas), each line a malformed record.
    row("a pretty-printed JSON document", "pretty JSON", O::Unreadable, "JSON document|one request per line");
    row("a JSON array", "JSON array", O::Unreadable, "JSON document|array");
    // Each record's value of the name would be one of two: the file is refused, its line and columns named.
    row("a CSV header naming a column twice", "csv column twice", O::Unreadable,
        "line 1|t_server_recv_ns twice|columns 2 and 4");
    row("a CSV header naming an attribute twice", "csv attribute twice", O::Unreadable,
        "line 1|region twice|columns 2 and 5");
}

void TestImportBadInput::badFile()
{
    QFETCH(QString, kind);
    QFETCH(int, outcome);
    QFETCH(QStringList, message);

    qint64 before = 0;
    bool needsZstd = false;
    const std::string path = makeBadFile(m_dir, kind, &before, &needsZstd);
    if (needsZstd && path.empty())
        QSKIP("the zstd command line tool is not installed");
    QVERIFY(!path.empty());
    if (kind == QLatin1String("damaged zstd"))
        QVERIFY2(before > 0, "the zstd tool keeps no record before the damage: the fixture tests nothing");
    std::string why;
    const std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    const std::vector<lx::FileImport> files = lx::importFiles(*store, {path});
    QCOMPARE(files.size(), std::size_t(1));
    const lx::FileImport &f = files[0];
    QVERIFY2(int(f.outcome) == outcome, describe(f).constData());
    QVERIFY(f.failed());
    QCOMPARE(f.path, path);
    QVERIFY2(containsAll(f.message, message), describe(f).constData());
    QCOMPARE(f.accepted, before);
    // The import run is recorded with the same outcome and message, and only the records before the cut.
    QCOMPARE(dump(store->db(), "SELECT path, outcome, message, accepted FROM import_runs"),
             QString::fromStdString(path + "|" + std::string(lx::outcomeName(f.outcome)) + "|" + f.message + "|")
                 + QString::number(before));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM requests"), QString::number(before));
    if (before > 0) {
        QVERIFY2(before < 1000, "the cut should lose records: the fixture is not cut");
        // The records kept are exactly the whole lines before the cut, in order.
        QCOMPARE(dump(store->db(), "SELECT count(*), min(source_line), max(source_line), sum(source_id = 'r' || (source_line - 1))"
                                   " FROM requests_readable"),
                 QStringLiteral("%1|1|%1|%1").arg(before));
        // At most the one line cut in the middle can be refused; nothing before it.
        QVERIFY2(f.rejected <= 1, describe(f).constData());
        if (f.rejected == 1)
            QCOMPARE(f.firstRejections[0].line, before + 1);
    } else {
        QCOMPARE(f.rejected, qint64(0));
    }
}

/// A store SQLite can only read (a read-only mount: the superuser writes through permissions) is refused
/// once, by name, before anything is read. It was opened, each file failed to write, and the join again.
void TestImportBadInput::readOnlyStoreSaidOnce()
{
    lxtest::ScratchDisk disk(QStringLiteral("size=4m"));
    if (!disk.mounted())
        QSKIP("no file system can be mounted here (it takes the superuser)");
    const std::string store = pathOf(disk.path() + QStringLiteral("/inv.lxdb"));
    const std::string first = writeFile(m_dir, QStringLiteral("ro-first.jsonl"), good("r1") + good("r2"));
    const std::string more = writeFile(m_dir, QStringLiteral("ro-more.jsonl"), good("r5"));
    std::string why;
    {
        auto writable = lx::Store::open(store, &why);
        QVERIFY2(writable, why.c_str());
        QVERIFY(writable->isWritable());
        QCOMPARE(lx::importFiles(*writable, { first }).front().accepted, qint64(2));
    }
    QVERIFY(disk.remount(QStringLiteral("remount,ro")));

    // Still shown (the desktop opens a store on a read-only disk), but known to be read-only.
    auto readable = lx::Store::open(store, &why);
    QVERIFY2(readable, why.c_str());
    QVERIFY(!readable->isWritable());
    const std::vector<lx::FileImport> files = lx::importFiles(*readable, { more, first });
    QCOMPARE(files.size(), std::size_t(2));
    for (const lx::FileImport &f : files) {
        QVERIFY2(f.outcome == lx::FileImport::Outcome::StoreError, describe(f).constData());
        QVERIFY2(f.message.find("read-only") != std::string::npos && f.message.find(store) != std::string::npos,
                 f.message.c_str());
        QVERIFY2(f.message.find("join") == std::string::npos, f.message.c_str());
    }
    QCOMPARE(dump(readable->db(), "SELECT count(*) FROM requests"), QStringLiteral("2"));
    readable.reset();
    QVERIFY(!lx::Store::openWritable(store, &why));
    QVERIFY2(why.find("read-only") != std::string::npos, why.c_str());

    const lxtest::CliRun run = lxtest::runCli(QStringLiteral(LX_CLI_PATH),
                                              { QStringLiteral("import"), QStringLiteral("--db"),
                                                QString::fromStdString(store), QString::fromStdString(more) });
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.count("cannot"), qsizetype(1)); // said once: not for each file, nor for the join
    QVERIFY2(run.err.startsWith(QByteArray::fromStdString(store + ": cannot be written")), run.err.constData());
}

void TestImportBadInput::sameIdInTwoFilesAccepted()
{
    const std::string a = writeFile(m_dir, QStringLiteral("first.jsonl"), good("r1") + good("r2"));
    const std::string b = writeFile(m_dir, QStringLiteral("second.jsonl"), good("r1"));
    std::string why;
    const std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    const std::vector<lx::FileImport> files = lx::importFiles(*store, {a, b});
    QCOMPARE(files.size(), std::size_t(2));
    QVERIFY2(files[0].accepted == 2 && files[0].rejected == 0, describe(files[0]).constData());
    QVERIFY2(files[1].accepted == 1 && files[1].rejected == 0, describe(files[1]).constData());
    QCOMPARE(dump(store->db(), "SELECT source_id, source_path FROM requests_readable ORDER BY id"),
             QString::fromStdString("r1|" + a + "\nr2|" + a + "\nr1|" + b));
}

void TestImportBadInput::earlierFilesKept_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("oneCall"); // both files in one importFiles() call, or one call each

    const QStringList kinds = {QStringLiteral("bad records"), QStringLiteral("empty"), QStringLiteral("binary"),
                               QStringLiteral("missing"),     QStringLiteral("directory"), QStringLiteral("truncated")};
    for (const QString &kind : kinds) {
        QTest::addRow("%s, one call", qPrintable(kind)) << kind << true;
        QTest::addRow("%s, two calls", qPrintable(kind)) << kind << false;
    }
}

void TestImportBadInput::earlierFilesKept()
{
    QFETCH(QString, kind);
    QFETCH(bool, oneCall);

    qint64 before = 0;
    bool needsZstd = false;
    const std::string bad = makeBadFile(m_dir, kind, &before, &needsZstd);
    if (needsZstd && bad.empty())
        QSKIP("the zstd command line tool is not installed");
    const std::string first = writeFile(m_dir, QStringLiteral("good.jsonl"), good("g1") + good("g2") + good("g3"));
    std::string why;
    const std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    std::vector<lx::FileImport> files;
    if (oneCall) {
        files = lx::importFiles(*store, {first, bad});
    } else {
        files = lx::importFiles(*store, {first});
        files.push_back(lx::importFiles(*store, {bad}).front());
    }
    QCOMPARE(files.size(), std::size_t(2));
    QVERIFY2(files[0].outcome == lx::FileImport::Outcome::Complete && files[0].accepted == 3, describe(files[0]).constData());
    QCOMPARE(files[1].path, bad);
    // The good file's requests and its run are all still there, whatever the second file did.
    QCOMPARE(dump(store->db(), "SELECT group_concat(source_id) FROM (SELECT source_id FROM requests_readable WHERE run_id = 1 ORDER BY id)"),
             QStringLiteral("g1,g2,g3"));
    QCOMPARE(dump(store->db(), "SELECT accepted, outcome FROM import_runs WHERE id = 1"), QStringLiteral("3|complete"));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM requests"), QString::number(3 + files[1].accepted));
}

void TestImportBadInput::fullStoreRollsTheFileBack_data()
{
    QTest::addColumn<int>("maxPages");
    QTest::addColumn<unsigned>("parsers");
    QTest::addColumn<bool>("heldRows"); // the requests held in memory (a report's store), their labels written
    // A page limit stands for a full disk (SQLite says SQLITE_FULL for both), reached at different places of
    // the import: the rows, or a text written while a batch is bound, each record's own of about a kilobyte
    // so that most pages are theirs: an attribute set, or with held rows a label (the model's name). The
    // failure of such a write once left the writer going on after SQLite had rolled the transaction back:
    // the rows, or the next labels, went in outside it, and the message said the row ids went out of step
    // instead of the disk being full.
    for (int pages : { 60, 90, 130, 200, 300, 450 }) {
        for (unsigned parsers : { 1u, 2u }) {
            QTest::newRow(qPrintable(QStringLiteral("%1 pages, %2 parser threads").arg(pages).arg(parsers)))
                << pages << parsers << false;
        }
    }
    for (int pages : { 30, 60, 200 })
        QTest::newRow(qPrintable(QStringLiteral("%1 pages, rows held").arg(pages))) << pages << 2u << true;
}

void TestImportBadInput::fullStoreRollsTheFileBack()
{
    QFETCH(int, maxPages);
    QFETCH(unsigned, parsers);
    QFETCH(bool, heldRows);

    QByteArray big;
    for (int i = 0; i < 3000; ++i) {
        const QByteArray n = QByteArray::number(i);
        big += R"({"id":"b)" + n + R"(","t_server_recv_ns":)" + QByteArray::number(1000 * i) + R"(,"t_last_token_ns":)"
            + QByteArray::number(1000 * i + 500) + (heldRows ? R"(,"model":")" : R"(,"note":")") + n
            + QByteArray(900, 'x') + "\"}\n";
    }
    const std::string first
        = writeFile(m_dir, QStringLiteral("before-the-full-disk.jsonl"), good("g1") + good("g2") + good("g3"));
    const std::string second = writeFile(m_dir, QStringLiteral("past-the-full-disk-%1.jsonl").arg(heldRows), big);
    const QString storePath
        = m_dir.filePath(QStringLiteral("full-%1-%2-%3.lxdb").arg(maxPages).arg(parsers).arg(heldRows));
    std::string why;
    const std::unique_ptr<lx::Store> store = lx::Store::open(storePath.toStdString(), &why);
    QVERIFY2(store, why.c_str());
    lx::ImportOptions options;
    options.parserThreads = parsers;
    options.holdRows = heldRows; // only into a store without requests: the file before is not imported then
    if (!heldRows) {
        const std::vector<lx::FileImport> before = lx::importFiles(*store, { first }, options);
        QVERIFY2(before.size() == 1 && before[0].accepted == 3, before.empty() ? "" : describe(before[0]).constData());
    }
    const QByteArray limit = "PRAGMA max_page_count=" + QByteArray::number(maxPages);
    QCOMPARE(sqlite3_exec(store->db(), limit.constData(), nullptr, nullptr, nullptr), SQLITE_OK);

    const std::vector<lx::FileImport> files = lx::importFiles(*store, { second }, options);
    QCOMPARE(files.size(), std::size_t(1));
    const lx::FileImport &f = files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::StoreError, describe(f).constData());
    // Why, and which store (for the app's temporary one: on which disk).
    QVERIFY2(f.message.find("full") != std::string::npos && f.message.find("out of step") == std::string::npos
                 && f.message.find(storePath.toStdString()) != std::string::npos,
             describe(f).constData());
    // Nothing of the file is in the store, and everything from before it still is.
    QCOMPARE(dump(store->db(),
                  "SELECT group_concat(source_id) FROM (SELECT source_id FROM request_details ORDER BY request_id)"),
             heldRows ? QStringLiteral("NULL") : QStringLiteral("g1,g2,g3"));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM requests"), heldRows ? QStringLiteral("0") : QStringLiteral("3"));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM attribute_sets"), QStringLiteral("0"));
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM labels"), QStringLiteral("0"));
    QCOMPARE(dump(store->db(), "PRAGMA integrity_check"), QStringLiteral("ok"));
}

QTEST_GUILESS_MAIN(TestImportBadInput)
#include "tst_import_bad_input.moc"
