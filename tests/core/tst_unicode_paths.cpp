// SPDX-License-Identifier: GPL-3.0-or-later
// File names beyond ASCII, as the core takes them (UTF-8 std::string, platform/utf8_path.h): a trace named
// trace-é-中.jsonl imports through the Importer and the CLI as its ASCII-named copy does, and stores with
// such names are created, reopened, recognised, saved, merged and removed. On Windows a narrow path would
// be read in the ANSI code page and none of these would open; on Linux they check the bytes go through as
// they are, and that nothing on the way (Qt's conversions, std::filesystem, the temporary folder) mangles them.

#include "ingest/open_inputs.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "store/temporary_files.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString sample(const char *name) { return QStringLiteral(LX_SOURCE_DIR "/sample_traces/") + QLatin1String(name); }

constexpr qint64 kSampleRequests = 1200;     // sample_traces/rising_load.jsonl
constexpr qint64 kCompressedRequests = 3000; // sample_traces/rising_load.jsonl.zst

/// A path as the core takes it: UTF-8, on every system (never QFile::encodeName, which is the ANSI code
/// page on Windows).
std::string utf8(const QString &path) { return path.toStdString(); }

qint64 requestCount(const lx::Store &store)
{
    lx::Statement count(store.db(), "SELECT count(*) FROM requests");
    return count.step() == SQLITE_ROW ? sqlite3_column_int64(count.get(), 0) : -1;
}

QString storedRunPath(const lx::Store &store)
{
    lx::Statement path(store.db(), "SELECT path FROM import_runs ORDER BY id LIMIT 1");
    return path.step() == SQLITE_ROW ? QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(path.get(), 0)))
                                     : QString();
}

/// `sample` copied to `dir`/`relative` (folders made); its path, empty when the copy failed.
QString copySample(const QTemporaryDir &dir, const QString &relative, const char *sampleName)
{
    const QString target = dir.filePath(relative);
    QDir().mkpath(QFileInfo(target).absolutePath());
    QFile in(sample(sampleName));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    return lxtest::writeFile(target, in.readAll()) ? target : QString();
}

/// The `requests.total` and the first input's path of a `report --json`; -1 when it is no such JSON.
qint64 reportedTotal(const QByteArray &json, QString *inputPath = nullptr)
{
    QJsonParseError error;
    const QJsonObject report = QJsonDocument::fromJson(json, &error).object();
    if (error.error != QJsonParseError::NoError)
        return -1;
    if (inputPath)
        *inputPath = report[QLatin1String("inputs")].toArray().first().toObject()[QLatin1String("path")].toString();
    return report[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger(-1);
}

QString cliPath() { return QString::fromUtf8(LX_CLI_PATH); }

} // namespace

class TestUnicodePaths : public QObject {
    Q_OBJECT

private slots:
    void importTrace_data();
    void importTrace();
    void unreadableTrace_data();
    void unreadableTrace();
    void storePaths_data();
    void storePaths();
    void temporaryFolder();
};

void TestUnicodePaths::importTrace_data()
{
    QTest::addColumn<QString>("relative");   // the copy's path in the temporary folder
    QTest::addColumn<QString>("sampleName"); // the sample it is a copy of
    QTest::addColumn<bool>("compressed");
    QTest::addColumn<qint64>("requests");

    QTest::newRow("ASCII, the control") << QStringLiteral("trace.jsonl") << QStringLiteral("rising_load.jsonl") << false << kSampleRequests;
    QTest::newRow("trace-é-中.jsonl") << QStringLiteral("trace-é-中.jsonl") << QStringLiteral("rising_load.jsonl") << false << kSampleRequests;
    QTest::newRow("trace-é-中.jsonl.zst, read by its magic number")
        << QStringLiteral("trace-é-中.jsonl.zst") << QStringLiteral("rising_load.jsonl.zst") << true << kCompressedRequests;
    QTest::newRow("in a folder named dossier-été-数据")
        << QStringLiteral("dossier-été-数据/trace-é-中.jsonl") << QStringLiteral("rising_load.jsonl") << false << kSampleRequests;
    QTest::newRow("beyond the BMP (UTF-16 surrogates on Windows)")
        << QStringLiteral("trace-\U0001F680.jsonl") << QStringLiteral("rising_load.jsonl") << false << kSampleRequests;
    QTest::newRow("decomposed é (e + combining acute), kept as written")
        << QStringLiteral("trace-e\u0301.jsonl") << QStringLiteral("rising_load.jsonl") << false << kSampleRequests;
}

void TestUnicodePaths::importTrace()
{
    QFETCH(QString, relative);
    QFETCH(QString, sampleName);
    QFETCH(bool, compressed);
    QFETCH(qint64, requests);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = copySample(dir, relative, qPrintable(sampleName));
    QVERIFY2(!path.isEmpty(), qPrintable(relative));

    // The Importer: every request, the path recorded as given.
    std::string why;
    auto store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    const auto files = lx::importFiles(*store, {utf8(path)});
    QCOMPARE(files.size(), std::size_t{1});
    QVERIFY2(files[0].outcome == lx::FileImport::Outcome::Complete, lxtest::describe(files[0]).constData());
    QCOMPARE(files[0].compressed, compressed);
    QCOMPARE(files[0].accepted, requests);
    QCOMPARE(requestCount(*store), requests);
    QCOMPARE(storedRunPath(*store), path);

    // The CLI: `report` over the trace, then `import` into a store of a non-ASCII name and `report` over it.
    const lxtest::CliRun report = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), path});
    QVERIFY2(report.exitCode == 0, report.err.constData());
    QString reportedPath;
    QCOMPARE(reportedTotal(report.out, &reportedPath), requests);
    QCOMPARE(reportedPath, path);

    const QString storePath = dir.filePath(QStringLiteral("investigation-é-中.lxdb"));
    const lxtest::CliRun import = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), storePath, path});
    QVERIFY2(import.exitCode == 0, import.err.constData());
    QVERIFY2(QFileInfo::exists(storePath), "the store is created under its own name, not a mangled one");
    const lxtest::CliRun fromStore = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), storePath});
    QVERIFY2(fromStore.exitCode == 0, fromStore.err.constData());
    QCOMPARE(reportedTotal(fromStore.out), requests);
}

void TestUnicodePaths::unreadableTrace_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("makeFolder"); // a folder of that name, else nothing at all
    QTest::addColumn<QString>("message");

    QTest::newRow("missing absent-é-中.jsonl") << QStringLiteral("absent-é-中.jsonl") << false << QStringLiteral("no such file");
    QTest::newRow("a folder named dossier-é-中.jsonl")
        << QStringLiteral("dossier-é-中.jsonl") << true << QStringLiteral("is a directory, not a trace file");
}

void TestUnicodePaths::unreadableTrace()
{
    QFETCH(QString, name);
    QFETCH(bool, makeFolder);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(name);
    if (makeFolder)
        QVERIFY(QDir(dir.path()).mkdir(name));

    std::string why;
    auto store = lx::Store::openTemporary(&why);
    QVERIFY2(store, why.c_str());
    const auto files = lx::importFiles(*store, {utf8(path)});
    QCOMPARE(files.size(), std::size_t{1});
    QVERIFY(files[0].outcome == lx::FileImport::Outcome::Unreadable);
    QCOMPARE(QString::fromStdString(files[0].message), message);

    // The CLI's message names the file as it was given, its UTF-8 intact.
    const lxtest::CliRun report = lxtest::runCli(cliPath(), {QStringLiteral("report"), path});
    QCOMPARE(report.exitCode, 2);
    const QString err = QString::fromUtf8(report.err);
    QVERIFY2(err.contains(path + QStringLiteral(": not imported: ") + message), qPrintable(err));
}

void TestUnicodePaths::storePaths_data()
{
    QTest::addColumn<QString>("relative"); // the store's path in the temporary folder

    QTest::newRow("ASCII, the control") << QStringLiteral("store.lxdb");
    QTest::newRow("store-é-中.lxdb") << QStringLiteral("store-é-中.lxdb");
    QTest::newRow("in a folder named dossier-été-数据") << QStringLiteral("dossier-été-数据/store-中.lxdb");
    QTest::newRow("beyond the BMP") << QStringLiteral("store-\U0001F680.lxdb");
}

void TestUnicodePaths::storePaths()
{
    QFETCH(QString, relative);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(relative);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    std::string why;

    {
        // Created under its own name, filled.
        auto store = lx::Store::open(utf8(path), &why);
        QVERIFY2(store, why.c_str());
        const auto files = lx::importFiles(*store, {utf8(sample("rising_load.jsonl"))});
        QVERIFY2(files.size() == 1 && !files[0].failed(), files.empty() ? "no import" : lxtest::describe(files[0]).constData());
    }
    QVERIFY2(QFileInfo::exists(path), "the store's file has its own name");

    // Recognised as a store by its header, so that opening it alone resumes it.
    QVERIFY(lx::isSqliteFile(utf8(path)));
    const lx::OpenPlan plan = lx::planOpenInputs({utf8(path)});
    QVERIFY(plan.target == lx::OpenPlan::Target::ResumeStore);

    // Reopened for reading and for writing.
    {
        auto readOnly = lx::Store::openReadOnly(utf8(path), &why);
        QVERIFY2(readOnly, why.c_str());
        QCOMPARE(requestCount(*readOnly), kSampleRequests);
    }
    auto existing = lx::Store::openExisting(utf8(path), &why);
    QVERIFY2(existing, why.c_str());

    // Saved as a copy of a non-ASCII name, and merged into a new store from there.
    const QString copy = dir.filePath(QStringLiteral("copie-é-中.lxdb"));
    QVERIFY2(existing->saveAs(utf8(copy), &why), why.c_str());
    QVERIFY(QFileInfo::exists(copy));
    auto merged = lx::Store::openTemporary(&why);
    QVERIFY2(merged, why.c_str());
    QVERIFY2(lx::mergeStore(*merged, utf8(copy), &why), why.c_str());
    QCOMPARE(requestCount(*merged), kSampleRequests);

    // A store that cannot be created (its folder is missing) fails with the reason and leaves nothing.
    const QString nowhere = dir.filePath(QStringLiteral("absent-é/store-中.lxdb"));
    QVERIFY(!lx::Store::open(utf8(nowhere), &why));
    QVERIFY2(QString::fromStdString(why).startsWith(QStringLiteral("cannot open the store: ")), why.c_str());
    QVERIFY(!QFileInfo::exists(nowhere));
}

void TestUnicodePaths::temporaryFolder()
{
    // A temporary folder whose name is not ASCII (a user's profile folder on Windows often is not): the
    // temporary store is made in it and removed from it when closed, by the Store and by the CLI's report.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString tmp = dir.filePath(QStringLiteral("temporär-é-中"));
    QVERIFY(QDir().mkpath(tmp));
    const QByteArray before = qgetenv("TMPDIR");
    const bool hadBefore = qEnvironmentVariableIsSet("TMPDIR");
    qputenv("TMPDIR", tmp.toUtf8());
    std::string why;
    {
        auto store = lx::Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(QDir(tmp).entryList(QDir::Files).size(), 1);
        QVERIFY(lx::importFiles(*store, {utf8(sample("rising_load.jsonl"))}).front().accepted == kSampleRequests);
    }
    lx::temporary_files::waitForRemovals(); // a released file goes on a thread of its own (temporary_files.h)
    const QStringList left = QDir(tmp).entryList(QDir::Files);
    if (hadBefore)
        qputenv("TMPDIR", before);
    else
        qunsetenv("TMPDIR");
    QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));

    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), tmp);
    const lxtest::CliRun report
        = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), sample("rising_load.jsonl")}, environment);
    QVERIFY2(report.exitCode == 0, report.err.constData());
    QCOMPARE(reportedTotal(report.out), kSampleRequests);
    QVERIFY(QDir(tmp).entryList(QDir::Files).isEmpty());
}

QTEST_GUILESS_MAIN(TestUnicodePaths)
#include "tst_unicode_paths.moc"
