// SPDX-License-Identifier: GPL-3.0-or-later
// The stores remembered sound across sessions (core/store/checked_stores.h), through the CLI as separate
// processes, each a session: a store `import` wrote, or `report` found sound, is not checked again while it is
// unchanged; a copy, a write by anything else or a garbled page is another file, checked as before.

#include "platform/file_identity.h"
#include "store/checked_stores.h"
#include "test_support.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString cliPath() { return QString::fromUtf8(LX_CLI_PATH); }
QString sample(const char *name) { return QStringLiteral(LX_SOURCE_DIR "/sample_traces/") + QLatin1String(name); }

QStringList listed(const QString &list)
{
    QFile file(list);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString identityOf(const QString &path) { return QString::fromStdString(lx::fileIdentity(lxtest::pathOf(path)).value_or("none")); }

/// Seeded garbage over the last page but one of the file (a page of the requests' b-tree or their details).
bool garbleAPage(const QString &path)
{
    QFile file(path);
    constexpr qint64 kPage = 4096;
    if (!file.open(QIODevice::ReadWrite) || file.size() < 4 * kPage || !file.seek(file.size() - 2 * kPage))
        return false;
    QRandomGenerator random(7);
    QByteArray garbage(kPage, '\0');
    for (char &c : garbage)
        c = static_cast<char>(random.bounded(256));
    return file.write(garbage) == kPage;
}

} // namespace

class TestCheckedStores : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_list;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_list = m_dir.filePath(QStringLiteral("checked-stores"));
        qputenv("LX_CHECKED_STORES_FILE", m_list.toUtf8()); // the CLI processes inherit it
        QCOMPARE(QString::fromStdString(lx::checkedStoresFile()), m_list);
    }

    void cases_data()
    {
        QTest::addColumn<QString>("change"); // what happens to the store after `import` wrote it
        QTest::addColumn<bool>("listedAfterImport");
        QTest::addColumn<int>("reportExit");
        QTest::addColumn<QString>("said");
        QTest::newRow("unchanged: trusted as written") << "none" << true << 0 << "";
        QTest::newRow("copied: another file, checked") << "copy" << false << 0 << "";
        QTest::newRow("a page garbled: another identity, damaged") << "garble" << false << 2 << "the store is damaged";
    }
    void cases()
    {
        QFETCH(QString, change);
        QFETCH(bool, listedAfterImport);
        QFETCH(int, reportExit);
        QFETCH(QString, said);
        const QString written = m_dir.filePath(change + QStringLiteral(".lxdb"));
        const lxtest::CliRun import = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), written, sample("rising_load.jsonl")});
        QVERIFY2(import.exitCode == 0, import.err.constData());
        QVERIFY2(listed(m_list).contains(identityOf(written)), qPrintable(listed(m_list).join(QLatin1Char('\n'))));

        QString store = written;
        if (change == QLatin1String("copy")) {
            store = m_dir.filePath(QStringLiteral("copy-of-it.lxdb"));
            QVERIFY(QFile::copy(written, store));
        } else if (change == QLatin1String("garble")) {
            QVERIFY(garbleAPage(store));
        }
        QCOMPARE(listed(m_list).contains(identityOf(store)), listedAfterImport);

        const lxtest::CliRun report = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), store});
        QVERIFY2(report.exitCode == reportExit, report.err.constData());
        QVERIFY2(said.isEmpty() || QString::fromUtf8(report.err).contains(said), report.err.constData());
        // A file found sound is remembered; a damaged one never is.
        QCOMPARE(listed(m_list).contains(identityOf(store)), reportExit == 0);
    }

    /// What the list spares is the read of the whole file: a damaged file whose identity were listed would be
    /// read without a check. Only this application's writes and sound checks put an identity there.
    void listedIsNotChecked()
    {
        const QString store = m_dir.filePath(QStringLiteral("listed-then-garbled.lxdb"));
        QVERIFY(lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), store, sample("rising_load.jsonl")}).exitCode == 0);
        QVERIFY(garbleAPage(store));
        const lxtest::CliRun checked = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), store});
        QCOMPARE(checked.exitCode, 2);
        lx::rememberChecked(lxtest::pathOf(store)); // as if this very file had been found sound before
        const lxtest::CliRun spared = lxtest::runCli(cliPath(), {QStringLiteral("report"), QStringLiteral("--json"), store});
        QVERIFY2(!spared.err.contains("the store is damaged"), spared.err.constData());
    }

    void noListWhenTurnedOff()
    {
        const QString off = m_dir.filePath(QStringLiteral("off"));
        qputenv("LX_CHECKED_STORES_FILE", QByteArray());
        const QString store = m_dir.filePath(QStringLiteral("unlisted.lxdb"));
        const lxtest::CliRun import = lxtest::runCli(cliPath(), {QStringLiteral("import"), QStringLiteral("--db"), store, sample("rising_load.jsonl")});
        qputenv("LX_CHECKED_STORES_FILE", m_list.toUtf8());
        QCOMPARE(import.exitCode, 0);
        QVERIFY(!listed(m_list).contains(identityOf(store)));
        QVERIFY(!QFile::exists(off));
    }

    void cleanupTestCase() { qunsetenv("LX_CHECKED_STORES_FILE"); }
};

QTEST_GUILESS_MAIN(TestCheckedStores)
#include "tst_checked_stores.moc"
