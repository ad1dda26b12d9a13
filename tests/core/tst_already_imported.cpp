// SPDX-License-Identifier: GPL-3.0-or-later
// A file the investigation holds already is not imported into it again (ingest/already_imported.h): not
// when it is given twice in one import, by any path, nor by a later import; a copy, a file that grew since
// and a file that gave no request are read.

#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using lx::FileImport;
using Outcome = lx::FileImport::Outcome;

namespace {

QByteArray records(int count, const char *prefix)
{
    QByteArray text;
    for (int i = 0; i < count; ++i)
        text += R"({"id":")" + QByteArray(prefix) + QByteArray::number(i) + R"(","t_server_recv_ns":)"
            + QByteArray::number(1000 + i) + R"(,"t_first_token_ns":)" + QByteArray::number(1500 + i)
            + R"(,"t_last_token_ns":)" + QByteArray::number(2000 + i) + "}\n";
    return text;
}

QString text(const char *latin1)
{
    return QString::fromLatin1(latin1);
}

QStringList imports(std::initializer_list<const char *> each)
{
    QStringList list;
    for (const char *import : each)
        list << text(import);
    return list;
}

std::int64_t requestCount(lx::Store &store)
{
    sqlite3_stmt *stmt = nullptr;
    sqlite3_prepare_v2(store.db(), "SELECT count(*) FROM requests", -1, &stmt, nullptr);
    const std::int64_t count = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return count;
}

} // namespace

class TestAlreadyImported : public QObject {
    Q_OBJECT

private slots:
    void sameFileOnce_data()
    {
        // Each import is a list of names in the folder (a.jsonl: 3 requests; none.jsonl: 2 records, both
        // rejected); "@" before a name is a step: "@copy" copies a.jsonl to b.jsonl, "@grow" adds a record to
        // a.jsonl, "@link" links l.jsonl to a.jsonl, "@cd" makes the next names relative to the folder.
        QTest::addColumn<QStringList>("imports"); // one import per element, names separated by spaces
        QTest::addColumn<QString>("outcomes"); // of the last import: c complete, a already imported
        QTest::addColumn<qint64>("requests"); // in the store at the end
        QTest::addColumn<QString>("message"); // a part of the last file's message
        QTest::newRow("one file") << imports({ "a.jsonl" }) << text("c") << qint64(3) << text("");
        QTest::newRow("given twice") << imports({ "a.jsonl a.jsonl" }) << text("ca") << qint64(3)
                                     << text("given twice: imported once");
        QTest::newRow("twice by another path")
            << imports({ "a.jsonl sub/../a.jsonl" }) << text("ca") << qint64(3) << text("given twice");
        QTest::newRow("relative and absolute")
            << imports({ "a.jsonl @cd a.jsonl" }) << text("ca") << qint64(3) << text("given twice");
#ifndef Q_OS_WIN
        QTest::newRow("through a link") << imports({ "@link a.jsonl l.jsonl" }) << text("ca") << qint64(3)
                                        << text("given twice");
#endif
        QTest::newRow("imported before") << imports({ "a.jsonl", "a.jsonl" }) << text("a") << qint64(3)
                                         << text("already in this investigation (import 1, 3 requests)");
        QTest::newRow("imported before, with another")
            << imports({ "a.jsonl", "a.jsonl b.jsonl" }) << text("ac") << qint64(5) << text("");
        QTest::newRow("a copy is another file")
            << imports({ "a.jsonl", "@copy b.jsonl" }) << text("c") << qint64(6) << text("");
        // A benchmark run again into the same name: as large, another content.
        QTest::newRow("rewritten at the same size")
            << imports({ "a.jsonl", "@rewrite a.jsonl" }) << text("c") << qint64(6) << text("");
        QTest::newRow("grown since") << imports({ "a.jsonl", "@grow a.jsonl" }) << text("c") << qint64(7) << text("");
        QTest::newRow("gave no request: read again")
            << imports({ "none.jsonl", "none.jsonl" }) << text("c") << qint64(0) << text("");
        QTest::newRow("gave no request, given twice")
            << imports({ "none.jsonl none.jsonl" }) << text("cc") << qint64(0) << text("");
    }

    void sameFileOnce()
    {
        QFETCH(QStringList, imports);
        QFETCH(QString, outcomes);
        QFETCH(qint64, requests);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        const QString a = dir.filePath(QStringLiteral("a.jsonl"));
        QVERIFY(lxtest::writeFile(a, records(3, "a")));
        QVERIFY(lxtest::writeFile(dir.filePath(QStringLiteral("b.jsonl")), records(2, "b")));
        QVERIFY(lxtest::writeFile(dir.filePath(QStringLiteral("none.jsonl")), "{\"id\":\"x\"}\n{\"id\":\"y\"}\n"));
        std::string why;
        auto store = lx::Store::open(dir.filePath(QStringLiteral("inv.lxdb")).toStdString(), &why);
        QVERIFY2(store, why.c_str());
        const QString before = QDir::currentPath();
        std::vector<FileImport> last;
        for (const QString &import : imports) {
            std::vector<std::string> paths;
            bool relative = false;
            for (const QString &name : import.split(QLatin1Char(' '))) {
                if (name == QLatin1String("@cd")) {
                    QVERIFY(QDir::setCurrent(dir.path()));
                    relative = true;
                } else if (name == QLatin1String("@copy")) {
                    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("b.jsonl"))));
                    QVERIFY(QFile::copy(a, dir.filePath(QStringLiteral("b.jsonl"))));
                } else if (name == QLatin1String("@rewrite")) {
                    QTest::qSleep(20); // past the file system's clock step (a few ms on some)
                    QVERIFY(lxtest::writeFile(a, records(3, "z")));
                } else if (name == QLatin1String("@grow")) {
                    QFile file(a);
                    QVERIFY(file.open(QIODevice::Append));
                    file.write(R"({"id":"a9","t_server_recv_ns":1,"t_last_token_ns":2})"
                               "\n");
                } else if (name == QLatin1String("@link")) {
                    QVERIFY(QFile::link(a, dir.filePath(QStringLiteral("l.jsonl"))));
                } else {
                    paths.push_back(relative ? name.toStdString() : dir.filePath(name).toStdString());
                }
            }
            last = lx::importFiles(*store, paths);
        }
        QDir::setCurrent(before);
        QString got;
        for (const FileImport &file : last) {
            got += file.outcome == Outcome::Complete       ? QLatin1Char('c')
                : file.outcome == Outcome::AlreadyImported ? QLatin1Char('a')
                                                           : QLatin1Char('?');
            QVERIFY2(!file.failed(), lxtest::describe(file).constData()); // no input failed: the exit status stays 0
        }
        QCOMPARE(got, outcomes);
        QCOMPARE(requestCount(*store), requests);
        QVERIFY2(QString::fromStdString(last.back().message).contains(message), last.back().message.c_str());
        if (outcomes.endsWith(QLatin1Char('a')))
            QCOMPARE(last.back().accepted, qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestAlreadyImported)
#include "tst_already_imported.moc"
