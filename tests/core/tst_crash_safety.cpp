// SPDX-License-Identifier: GPL-3.0-or-later
// An import killed with SIGKILL, or stopped by a full disk, never costs the investigation built before it:
// the store opens, passes integrity_check, keeps every earlier import exactly, lists the killed run as
// interrupted and counts its rows truly, so that importing the file again does not double them.

#include "store/import_runs.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

namespace {

QString cliPath() { return QString::fromUtf8(LX_CLI_PATH); }

QString sample(const char *name) { return QStringLiteral(LX_SOURCE_DIR "/sample_traces/") + QLatin1String(name); }

constexpr int kEarlierRequests = 1200; // rising_load.jsonl
constexpr int kBigRequests = 100000;   // long enough an import to be killed in its middle (a 45 MB store)

qint64 scalar(const lx::Store &store, const std::string &sql)
{
    lx::Statement stmt(store.db(), sql);
    return stmt.valid() && stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

QString text(const lx::Store &store, const char *sql)
{
    lx::Statement stmt(store.db(), sql);
    return stmt.valid() && stmt.step() == SQLITE_ROW ? QString::fromStdString(std::string(lx::columnText(stmt.get(), 0))) : QString();
}

/// `report --json` of a store: the parsed document, or an empty one (and the message in *err) when it failed.
QJsonObject reportJson(const QString &store, QByteArray *err = nullptr)
{
    const lxtest::CliRun run = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), store});
    if (err)
        *err = run.err;
    return run.exitCode == 0 ? QJsonDocument::fromJson(run.out).object() : QJsonObject();
}

/// When the killer strikes: after a time, or once the store file has grown by some bytes (its transaction
/// has spilled pages: the import is certainly in the middle of its rows).
struct Moment {
    int afterMs = 0;
    qint64 grownBytes = 0;
};

} // namespace

Q_DECLARE_METATYPE(Moment)

class TestCrashSafety : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_base;           ///< a store holding the earlier import (rising_load.jsonl)
    QString m_big;            ///< the trace whose import is killed
    QJsonObject m_baseReport; ///< report --json of m_base
    int m_killedMidImport = 0;

    /// Checks the earlier import is there exactly, in a store opened for writing (which marks dead runs).
    void checkEarlierImportKept(const lx::Store &store)
    {
        QCOMPARE(text(store, "PRAGMA integrity_check"), QStringLiteral("ok"));
        QCOMPARE(scalar(store, "SELECT count(*) FROM requests WHERE run_id = 1"), qint64(kEarlierRequests));
        const std::vector<lx::ImportRun> runs = lx::listImportRuns(store);
        QVERIFY(!runs.empty());
        QCOMPARE(runs.front().accepted, qint64(kEarlierRequests));
        QCOMPARE(QString::fromStdString(runs.front().outcome), QStringLiteral("complete"));
        for (const lx::ImportRun &run : runs) {
            // Every run says what it holds: no rows under a run that claims none, none claimed that are not there.
            QCOMPARE(run.accepted, scalar(store, "SELECT count(*) FROM requests WHERE run_id = " + std::to_string(run.id)));
            QVERIFY2(run.outcome != "running", run.path.c_str());
        }
    }

    /// Copies the base store to `store` and rewrites its import runs with `sql`: what a kill left behind.
    bool copyBaseAs(const QString &store, const char *sql)
    {
        std::string why;
        if (!QFile::copy(m_base, store))
            return false;
        const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
        return opened && opened->exec(sql);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_base = m_dir.filePath(QStringLiteral("base.lxdb"));
        m_big = m_dir.filePath(QStringLiteral("big.jsonl"));
        lxtest::CliRun run = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), m_base, sample("rising_load.jsonl")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        run = lxtest::runCli(cliPath(), {QStringLiteral("generate"), QStringLiteral("--requests"), QString::number(kBigRequests),
                                         QStringLiteral("--token-times-every"), QStringLiteral("10"), QStringLiteral("-o"), m_big});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        m_baseReport = reportJson(m_base);
        QCOMPARE(m_baseReport.value(QStringLiteral("requests")).toObject().value(QStringLiteral("total")).toInt(), kEarlierRequests);
    }

    void killedImport_data()
    {
        QTest::addColumn<Moment>("moment");
        QTest::addColumn<bool>("importAgain"); // once is enough: the figures of a second import are the same
        QTest::newRow("killed at once") << Moment{0, 0} << false;
        QTest::newRow("killed after 150 ms") << Moment{150, 0} << false;
        QTest::newRow("killed after 600 ms") << Moment{600, 0} << false;
        QTest::newRow("killed as the rows spill to the file (+4 MB)") << Moment{0, 4 << 20} << true;
        QTest::newRow("killed late in the rows (+16 MB)") << Moment{0, 16 << 20} << false;
    }

    void killedImport()
    {
        QFETCH(Moment, moment);
        QFETCH(bool, importAgain);
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("s.lxdb"));
        QVERIFY(QFile::copy(m_base, store));
        const qint64 baseSize = QFileInfo(store).size();

        QProcess importer;
        importer.start(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), store, m_big});
        QVERIFY(importer.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        if (moment.grownBytes > 0) {
            while (importer.state() == QProcess::Running && QFileInfo(store).size() < baseSize + moment.grownBytes
                   && clock.elapsed() < 120000)
                QThread::usleep(200);
        } else {
            importer.waitForFinished(moment.afterMs);
        }
        const bool killedWhileRunning = importer.state() == QProcess::Running;
        importer.kill(); // SIGKILL
        importer.waitForFinished();
        if (moment.grownBytes > 0)
            QVERIFY2(killedWhileRunning, "the import ended before the store grew: make the trace longer");

        // A read-only command first: it plays the journal back, lists the run as interrupted, and writes nothing else.
        QByteArray err;
        const QJsonObject report = reportJson(store, &err);
        QVERIFY2(!report.isEmpty(), err.constData());
        const QJsonArray inputs = report.value(QStringLiteral("inputs")).toArray();
        QVERIFY(!inputs.isEmpty());
        qint64 killedRows = 0;
        if (inputs.size() > 1) {
            const QJsonObject killed = inputs.at(1).toObject();
            const QString outcome = killed.value(QStringLiteral("outcome")).toString();
            // Killed before its COMMIT: interrupted; after it (the join, the summary): complete, all its rows there.
            QVERIFY2(outcome == QLatin1String("interrupted") || outcome == QLatin1String("complete"), qPrintable(outcome));
            killedRows = killed.value(QStringLiteral("accepted")).toInteger();
            if (outcome == QLatin1String("interrupted")) {
                QCOMPARE(killedRows, qint64(0)); // its rows and its counts commit together: none of them
                QVERIFY(killed.value(QStringLiteral("message")).toString().contains(QStringLiteral("none of its records were kept")));
                ++m_killedMidImport;
            }
        }
        if (killedRows == 0) // nothing of the killed file: every figure is the earlier import's
            QCOMPARE(report.value(QStringLiteral("e2e")).toObject(), m_baseReport.value(QStringLiteral("e2e")).toObject());

        std::string why;
        {
            // A writable open marks the dead run in the file itself.
            const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
            QVERIFY2(opened, why.c_str());
            checkEarlierImportKept(*opened);
            if (inputs.size() > 1 && killedRows == 0)
                QCOMPARE(QString::fromStdString(lx::listImportRuns(*opened).at(1).outcome), QStringLiteral("interrupted"));
        }
        if (!importAgain)
            return;
        // Importing the file again adds it once: the killed run's rows are not counted twice.
        const lxtest::CliRun again = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), store, m_big});
        QVERIFY2(again.exitCode == 0, again.err.constData());
        const auto reopened = lx::Store::open(lxtest::pathOf(store), &why);
        QVERIFY2(reopened, why.c_str());
        checkEarlierImportKept(*reopened);
        QCOMPARE(scalar(*reopened, "SELECT count(*) FROM requests"), qint64(kEarlierRequests) + killedRows + kBigRequests);
    }

    void someKillLandedMidImport()
    {
        // The rows above prove something only if a kill came while the rows were being written.
        QVERIFY(m_killedMidImport >= 2);
    }

    void terminatedCommandCleansUp_data()
    {
        QTest::addColumn<bool>("report"); ///< `report FILE` (a temporary store) rather than `import --db`
        QTest::addColumn<int>("afterMs");
        QTest::newRow("report FILE, at once") << true << 0;
        QTest::newRow("report FILE, after 300 ms") << true << 300;
        QTest::newRow("import, at once") << false << 0;
    }

    void terminatedCommandCleansUp()
    {
        // SIGTERM (a supervisor's kill, a CI's timeout) cancels as Ctrl-C does: `report FILE` leaves no
        // temporary store behind, an import rolls its file back and keeps the earlier one.
#if defined(Q_OS_WIN)
        QSKIP("Windows sends no SIGTERM: TerminateProcess cannot be caught");
#else
        QFETCH(bool, report);
        QFETCH(int, afterMs);
        QTemporaryDir dir, temporaries;
        const QString store = dir.filePath(QStringLiteral("s.lxdb"));
        QVERIFY(QFile::copy(m_base, store));
        QProcess command;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TMPDIR"), temporaries.path()); // where `report FILE` makes its store
        command.setProcessEnvironment(env);
        command.start(cliPath(), report ? QStringList{QStringLiteral("report"), QStringLiteral("--json"), m_big}
                                        : QStringList{QStringLiteral("import"), QStringLiteral("--db"), store, m_big});
        QVERIFY(command.waitForStarted());
        // Started: the handler is in place once the first bytes of the trace are read (a store file appears).
        QElapsedTimer clock;
        clock.start();
        const auto started = [&] {
            return report ? !QDir(temporaries.path()).entryList(QDir::Files).isEmpty() : QFileInfo(store).size() > QFileInfo(m_base).size();
        };
        while (command.state() == QProcess::Running && !started() && clock.elapsed() < 60000)
            QThread::usleep(200);
        command.waitForFinished(afterMs);
        const bool terminatedWhileRunning = command.state() == QProcess::Running;
        if (terminatedWhileRunning) {
            command.terminate(); // SIGTERM
            QVERIFY(command.waitForFinished(60000));
            QCOMPARE(command.exitStatus(), QProcess::NormalExit); // not killed by the signal: it cleaned up
            QVERIFY2(command.exitCode() == 130 || command.exitCode() == 0, command.readAllStandardError().constData());
        }
        QCOMPARE(QDir(temporaries.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
        if (!report) {
            std::string why;
            const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
            QVERIFY2(opened, why.c_str());
            checkEarlierImportKept(*opened);
            // The file rolled back, or complete when the signal came after its commit: never a part of it.
            const qint64 rows = scalar(*opened, "SELECT count(*) FROM requests");
            QVERIFY2(rows == kEarlierRequests || rows == kEarlierRequests + kBigRequests, qPrintable(QString::number(rows)));
        }
#endif
    }

    void liveImportLeftRunning()
    {
        // A run is interrupted only when its importer is gone: while another process holds the store's write
        // lock (as an import does from its first row to its commit), a reader and a writer that open the
        // store leave the run `running`, and do not wait for the lock. (A real import is no good holder here:
        // once its rows spill to the file it holds the lock that readers wait for.) SQLite's shell holds it.
        const QString shell = QStandardPaths::findExecutable(QStringLiteral("sqlite3"));
        if (shell.isEmpty())
            QSKIP("no sqlite3 shell to hold the store's write lock from another process");
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("s.lxdb"));
        QVERIFY(copyBaseAs(store, "UPDATE import_runs SET outcome = 'running'"));
        QProcess holder;
        holder.start(shell, {store});
        QVERIFY(holder.waitForStarted());
        holder.write("BEGIN IMMEDIATE;\nSELECT 'locked';\n");
        QElapsedTimer clock;
        clock.start();
        while (!holder.readAllStandardOutput().contains("locked") && clock.elapsed() < 30000)
            holder.waitForReadyRead(100);

        const QJsonObject report = reportJson(store);
        std::string why;
        std::vector<lx::ImportRun> runs;
        {
            const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
            if (opened)
                runs = lx::listImportRuns(*opened);
        }
        holder.closeWriteChannel(); // the shell ends, its transaction rolled back
        holder.waitForFinished();
        QCOMPARE(report.value(QStringLiteral("inputs")).toArray().at(0).toObject().value(QStringLiteral("outcome")).toString(),
                 QStringLiteral("running"));
        QVERIFY2(runs.size() == 1, why.c_str());
        QCOMPARE(QString::fromStdString(runs.at(0).outcome), QStringLiteral("running"));
        // The holder gone, the run is interrupted.
        const auto after = lx::Store::open(lxtest::pathOf(store), &why);
        QVERIFY2(after, why.c_str());
        QCOMPARE(QString::fromStdString(lx::listImportRuns(*after).at(0).outcome), QStringLiteral("interrupted"));
    }

    void runLeftRunningWithItsRows_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::newRow("killed between the rows' COMMIT and the run's count: 0 accepted, rows there") << false;
        QTest::newRow("the same, read by report: listed with its true count, the file unchanged") << true;
    }

    void runLeftRunningWithItsRows()
    {
        // What a version before the single transaction left: the rows committed, the run still `running`
        // with 0 accepted. Its rows are counted truly, so that the list says what a report counts.
        QFETCH(bool, readOnly);
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("s.lxdb"));
        QVERIFY(copyBaseAs(store, "UPDATE import_runs SET outcome = 'running', accepted = 0, rejected = 0, message = NULL"));
        if (readOnly) {
            QFile file(store);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray before = file.readAll();
            file.close();
            const QJsonObject report = reportJson(store);
            const QJsonObject run = report.value(QStringLiteral("inputs")).toArray().at(0).toObject();
            QCOMPARE(run.value(QStringLiteral("outcome")).toString(), QStringLiteral("interrupted"));
            QCOMPARE(run.value(QStringLiteral("accepted")).toInteger(), qint64(kEarlierRequests));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll() == before);
            return;
        }
        std::string why;
        const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
        QVERIFY2(opened, why.c_str());
        const lx::ImportRun run = lx::listImportRuns(*opened).at(0);
        QCOMPARE(QString::fromStdString(run.outcome), QStringLiteral("interrupted"));
        QCOMPARE(run.accepted, qint64(kEarlierRequests));
        QVERIFY2(run.message.find("the 1200 records it had written are kept") != std::string::npos, run.message.c_str());
        // Written in the file, not only listed.
        QCOMPARE(scalar(*opened, "SELECT count(*) FROM import_runs WHERE id = 1 AND outcome = 'interrupted' AND accepted = 1200"), qint64(1));
    }

    void fullDisk()
    {
        lxtest::ScratchDisk scratch(QStringLiteral("size=2m"));
        if (!scratch.mounted())
            QSKIP("a small tmpfs cannot be mounted here (it needs the superuser)");
        const QString disk = scratch.path();

        const QString store = disk + QStringLiteral("/s.lxdb");
        QVERIFY(QFile::copy(m_base, store));
        // The disk fills during the rows: the file's transaction is rolled back, the earlier import stays.
        lxtest::CliRun run = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), store, m_big});
        QVERIFY2(run.exitCode == 2, run.err.constData());
        // Named: which disk is full (with the writes behind, the failure comes at the commit).
        QVERIFY2(
            run.err.contains(QStringLiteral("cannot write the store %1: database or disk is full").arg(store).toUtf8()),
            run.err.constData());
        {
            QByteArray err;
            const QJsonObject report = reportJson(store, &err);
            QVERIFY2(!report.isEmpty(), err.constData());
            QCOMPARE(report.value(QStringLiteral("e2e")).toObject(), m_baseReport.value(QStringLiteral("e2e")).toObject());
            std::string why;
            const auto opened = lx::Store::open(lxtest::pathOf(store), &why);
            QVERIFY2(opened, why.c_str());
            checkEarlierImportKept(*opened);
            QCOMPARE(QString::fromStdString(lx::listImportRuns(*opened).at(1).outcome), QStringLiteral("store-error"));
        }
        const QString older = disk + QStringLiteral("/report.json"); // a report written before the disk filled
        {
            QFile file(older);
            QVERIFY(file.open(QIODevice::WriteOnly) && file.write("older") == 5);
        }
        // A new store on the full disk: refused, and no half-made file is left behind.
        QFile filler(disk + QStringLiteral("/filler"));
        QVERIFY(filler.open(QIODevice::WriteOnly));
        const QByteArray block(64 * 1024, 'x');
        while (filler.write(block) == block.size() && filler.flush()) {
        }
        filler.close();
        const QString fresh = disk + QStringLiteral("/new.lxdb");
        run = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), fresh, sample("rising_load.jsonl")});
        QVERIFY2(run.exitCode == 2, run.err.constData());
        QVERIFY2(!QFile::exists(fresh), run.err.constData());
        QVERIFY(!QFile::exists(fresh + QStringLiteral("-journal")));
        // The earlier store still opens on the full disk.
        run = lxtest::runCli(cliPath(), {QStringLiteral("report"), store});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // A report there once left a half-written file over the one before it, its bytes lost.
        run = lxtest::runCli(
            cliPath(), { QStringLiteral("report"), QStringLiteral("--json"), QStringLiteral("--out"), older, store });
        QVERIFY2(run.exitCode == 2 && run.err.contains("cannot write the report"), run.err.constData());
        QFile kept(older);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("older"));
        QVERIFY(!QFile::exists(older + QStringLiteral(".part")));
        // A chart there: refused, nothing left. SVG and PDF were said to be written, 0 bytes on the disk.
        for (const char *suffix : { "svg", "pdf", "png" }) {
            const QString chart = disk + QStringLiteral("/chart.") + QLatin1String(suffix);
            run = lxtest::runCli(cliPath(),
                                 { QStringLiteral("plot"), QStringLiteral("--chart"), QStringLiteral("cdf"),
                                   QStringLiteral("--out"), chart, store });
            QVERIFY2(run.exitCode == 2 && run.err.contains("could not be written"),
                     (QByteArray(suffix) + ' ' + run.err).constData());
            QVERIFY2(QDir(disk).entryList({ QStringLiteral("chart*") }, QDir::Files).isEmpty(), suffix);
        }
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crash_safety.moc"
