// SPDX-License-Identifier: GPL-3.0-or-later
// Opening inputs as an investigation: the plan (resume one store, else a new store or the open one, the
// stores to merge, the traces to import) and its execution on real files, failures and a cancel included.

#include "ingest/open_inputs.h"
#include "store/sqlite_util.h"
#include "store/stamp_scan.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace lx;
using lxtest::writeFile;

Q_DECLARE_METATYPE(lx::OpenPlan::Target)

namespace {

/// `count` server-side requests with ids `prefix`0, `prefix`1, ...
QByteArray traceLines(int count, const char *prefix)
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        const qint64 t = 1'700'000'000'000'000'000LL + qint64(i) * 1'000'000'000LL;
        out += QByteArray("{\"id\":\"") + prefix + QByteArray::number(i) + "\",\"t_server_recv_ns\":"
            + QByteArray::number(t) + ",\"t_first_token_ns\":" + QByteArray::number(t + 40'000'000)
            + ",\"t_last_token_ns\":" + QByteArray::number(t + 400'000'000) + "}\n";
    }
    return out;
}

qint64 requestCount(const Store &store)
{
    Statement stmt(store.db(), "SELECT count(*) FROM requests");
    return stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

/// File names given as one string, separated by spaces.
QStringList names(const char *spaced)
{
    return QString::fromUtf8(spaced).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

std::vector<std::string> toStd(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &s : list)
        out.push_back(s.toStdString());
    return out;
}

/// The fixture folder: stores a.lxdb (30 requests) and b.lxdb (20), traces t.jsonl (10) and u.jsonl (5),
/// bad.lxdb (an SQLite file that is no investigation) and text.lxdb (a trace with a store's name).
/// missing.jsonl is never written.
class Fixtures {
public:
    Fixtures()
    {
        makeStore(QStringLiteral("a"), 30);
        makeStore(QStringLiteral("b"), 20);
        writeFile(m_dir, QStringLiteral("t.jsonl"), traceLines(10, "t"));
        writeFile(m_dir, QStringLiteral("u.jsonl"), traceLines(5, "u"));
        writeFile(m_dir, QStringLiteral("text.lxdb"), traceLines(3, "x"));
        sqlite3 *db = nullptr;
        if (sqlite3_open(path(QStringLiteral("bad.lxdb")).c_str(), &db) == SQLITE_OK)
            sqlite3_exec(db, "CREATE TABLE something_else (x)", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    std::string path(const QString &name) const { return m_dir.filePath(name).toStdString(); }
    std::vector<std::string> paths(const QStringList &names) const
    {
        std::vector<std::string> out;
        for (const QString &name : names)
            out.push_back(path(name));
        return out;
    }
    std::string write(const QString &name, const QByteArray &bytes) { return writeFile(m_dir, name, bytes); }

private:
    void makeStore(const QString &name, int requests)
    {
        std::string why;
        auto store = Store::open(path(name + QStringLiteral(".lxdb")), &why);
        if (store)
            importFiles(*store,
                        {writeFile(m_dir, name + QStringLiteral(".jsonl"), traceLines(requests, qPrintable(name)))});
    }

    QTemporaryDir m_dir;
};

} // namespace

class TestOpenInputs : public QObject {
    Q_OBJECT

private slots:
    void plansFromThePathsAlone_data()
    {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<bool>("storeOpen");
        QTest::addColumn<OpenPlan::Target>("target");
        QTest::addColumn<QString>("resume");
        QTest::addColumn<QStringList>("merges");
        QTest::addColumn<QStringList>("imports");
        using T = OpenPlan::Target;
        const QStringList none;
        QTest::newRow("one store: resumed as it is")
            << names("a.lxdb") << false << T::ResumeStore << "a.lxdb" << none << none;
        QTest::newRow("one store added to an open one: merged")
            << names("a.lxdb") << true << T::CurrentStore << "" << names("a.lxdb") << none;
        QTest::newRow("a store and traces: new store, merge and import")
            << names("t.jsonl a.lxdb u.jsonl") << false << T::NewStore << "" << names("a.lxdb")
            << names("t.jsonl u.jsonl");
        QTest::newRow("two stores: both merged into a new one")
            << names("b.lxdb a.lxdb") << false << T::NewStore << "" << names("b.lxdb a.lxdb") << none;
        QTest::newRow("only traces: imported into a new store")
            << names("t.jsonl u.jsonl") << false << T::NewStore << "" << none << names("t.jsonl u.jsonl");
        QTest::newRow("traces added to an open store")
            << names("t.jsonl") << true << T::CurrentStore << "" << none << names("t.jsonl");
        QTest::newRow("nothing: an empty new store") << QStringList{} << false << T::NewStore << "" << none << none;
    }

    void plansFromThePathsAlone()
    {
        QFETCH(QStringList, inputs);
        QFETCH(bool, storeOpen);
        QFETCH(OpenPlan::Target, target);
        QFETCH(QString, resume);
        QFETCH(QStringList, merges);
        QFETCH(QStringList, imports);
        // No file exists: the name tells a store here, so that the plan is seen to read nothing else.
        const StoreTest byName = [](const std::string &path) { return path.ends_with(".lxdb"); };
        const OpenPlan plan = planOpenInputs(toStd(inputs), storeOpen, byName);
        QCOMPARE(plan.target, target);
        QCOMPARE(plan.resumePath, resume.toStdString());
        QCOMPARE(plan.merges, toStd(merges));
        QCOMPARE(plan.imports, toStd(imports));
    }

    void tellsStoresByTheirContent_data()
    {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QStringList>("merges");
        QTest::addColumn<QStringList>("imports");
        QTest::newRow("stores and a trace")
            << names("a.lxdb t.jsonl b.lxdb") << names("a.lxdb b.lxdb") << names("t.jsonl");
        QTest::newRow("a trace named .lxdb is a trace")
            << names("text.lxdb a.lxdb") << names("a.lxdb") << names("text.lxdb");
        QTest::newRow("a missing file is a trace (its import says why)")
            << names("missing.jsonl a.lxdb") << names("a.lxdb") << names("missing.jsonl");
    }

    void tellsStoresByTheirContent()
    {
        QFETCH(QStringList, inputs);
        QFETCH(QStringList, merges);
        QFETCH(QStringList, imports);
        const Fixtures files;
        const OpenPlan plan = planOpenInputs(files.paths(inputs));
        QCOMPARE(plan.target, OpenPlan::Target::NewStore);
        QCOMPARE(plan.merges, files.paths(merges));
        QCOMPARE(plan.imports, files.paths(imports));
    }

    void opensTheInputs_data()
    {
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QString>("newStore"); // OpenOptions::newStorePath, a name in the folder; empty: temporary
        QTest::addColumn<bool>("opened");
        QTest::addColumn<bool>("temporary");
        QTest::addColumn<qint64>("requests");
        QTest::addColumn<int>("mergesRefused");
        QTest::addColumn<int>("importsFailed");
        const QString temporary;
        QTest::newRow("one store: resumed, not copied")
            << names("a.lxdb") << temporary << true << false << 30LL << 0 << 0;
        QTest::newRow("a store and traces: merged and imported")
            << names("a.lxdb t.jsonl u.jsonl") << temporary << true << true << 45LL << 0 << 0;
        QTest::newRow("two stores merged") << names("a.lxdb b.lxdb") << temporary << true << true << 50LL << 0 << 0;
        QTest::newRow("only traces") << names("t.jsonl u.jsonl") << temporary << true << true << 15LL << 0 << 0;
        QTest::newRow("a new store where asked")
            << names("b.lxdb t.jsonl") << QStringLiteral("new.lxdb") << true << false << 30LL << 0 << 0;
        QTest::newRow("a missing file: the others imported")
            << names("t.jsonl missing.jsonl") << temporary << true << true << 10LL << 0 << 1;
        QTest::newRow("a bad store among traces: refused, the traces imported")
            << names("bad.lxdb t.jsonl") << temporary << true << true << 10LL << 1 << 0;
        QTest::newRow("a bad store alone: nothing opened")
            << names("bad.lxdb") << temporary << false << false << 0LL << 0 << 0;
    }

    void opensTheInputs()
    {
        QFETCH(QStringList, inputs);
        QFETCH(QString, newStore);
        QFETCH(bool, opened);
        QFETCH(bool, temporary);
        QFETCH(qint64, requests);
        QFETCH(int, mergesRefused);
        QFETCH(int, importsFailed);
        const Fixtures files;
        const OpenPlan plan = planOpenInputs(files.paths(inputs));
        OpenOptions options;
        if (!newStore.isEmpty())
            options.newStorePath = files.path(newStore);
        std::vector<StoreMerge> told;
        options.onMerge = [&](const StoreMerge &merge) { told.push_back(merge); };
        const OpenedInputs result = openInputs(plan, options);

        QCOMPARE(bool(result.store), opened);
        QCOMPARE(result.error.empty(), opened);
        if (!opened)
            return;
        QCOMPARE(result.store->isTemporary(), temporary);
        if (plan.target == OpenPlan::Target::ResumeStore)
            QCOMPARE(result.store->path(), plan.resumePath);
        if (!newStore.isEmpty())
            QCOMPARE(result.store->path(), options.newStorePath);
        QCOMPARE(requestCount(*result.store), requests);

        const FillOutcome &filled = result.filled;
        QCOMPARE(filled.merges.size(), plan.merges.size());
        QCOMPARE(told.size(), plan.merges.size()); // the sink heard of each store, in order
        int refused = 0;
        for (std::size_t i = 0; i < filled.merges.size(); ++i) {
            QCOMPARE(told[i].path, plan.merges[i]);
            QCOMPARE(told[i].merged, filled.merges[i].merged);
            QCOMPARE(filled.merges[i].error.empty(), filled.merges[i].merged);
            refused += filled.merges[i].merged ? 0 : 1;
        }
        QCOMPARE(refused, mergesRefused);
        QCOMPARE(filled.imports.size(), plan.imports.size());
        int failed = 0;
        for (const FileImport &file : filled.imports)
            failed += file.failed() ? 1 : 0;
        QCOMPARE(failed, importsFailed);
        QCOMPARE(filled.anyInputFailed(), mergesRefused + importsFailed > 0);
        QVERIFY(!filled.cancelled);
    }

    void theOpenStoreIsTheCallers()
    {
        const OpenPlan plan = planOpenInputs({}, true);
        std::string why;
        QVERIFY(!openPlanTarget(plan, {}, &why));
        QVERIFY(!why.empty());
    }

    void addsToAnOpenStore()
    {
        const Fixtures files;
        std::string why;
        auto store = Store::open(files.path(QStringLiteral("b.lxdb")), &why);
        QVERIFY2(store, why.c_str());
        const OpenPlan plan = planOpenInputs(files.paths(names("a.lxdb t.jsonl")), true);
        const FillOutcome filled = fillStore(*store, plan, {});
        QVERIFY(!filled.anyInputFailed());
        QCOMPARE(requestCount(*store), qint64(20 + 30 + 10));
    }

    /// A store whose imports the investigation holds already is not merged again, whichever call brings
    /// it: its requests would be counted twice. One that holds only some of them is refused whole.
    void aStoreMergedBeforeIsNotMergedAgain_data()
    {
        QTest::addColumn<QString>("before"); // how the investigation (a temporary store) got its requests
        QTest::addColumn<QString>("mergedNext"); // "a": a.lxdb again; "copy": a copy of the investigation;
                                                 // "grown": a store of a.lxdb merged plus t.jsonl
        QTest::addColumn<bool>("alreadyIn"); // not merged, and no failure
        QTest::addColumn<QString>("said");
        QTest::addColumn<qint64>("requestsAfter");
        QTest::newRow("merged in an earlier call")
            << QStringLiteral("a") << QStringLiteral("a") << true
            << QStringLiteral("already in this investigation (merged before)") << 30LL;
        QTest::newRow("a copy of the investigation itself") << QStringLiteral("a t") << QStringLiteral("copy") << true
                                                            << QStringLiteral("its 2 imports (the first: ") << 40LL;
        QTest::newRow("one holding some of its imports: refused whole")
            << QStringLiteral("a") << QStringLiteral("grown") << false
            << QStringLiteral("this investigation holds 1 of its 2 imports already") << 30LL;
        QTest::newRow("another store: merged")
            << QStringLiteral("a") << QStringLiteral("b") << false << QString() << 50LL;
    }

    void aStoreMergedBeforeIsNotMergedAgain()
    {
        QFETCH(QString, before);
        QFETCH(QString, mergedNext);
        QFETCH(bool, alreadyIn);
        QFETCH(QString, said);
        QFETCH(qint64, requestsAfter);
        const Fixtures files;
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        std::vector<std::string> first;
        for (const QString &name : names(qPrintable(before)))
            first.push_back(
                files.path(name + (name == QStringLiteral("t") ? QStringLiteral(".jsonl") : QStringLiteral(".lxdb"))));
        QVERIFY(!fillStore(*store, planOpenInputs(first, true), {}).anyInputFailed());
        std::string next = files.path(mergedNext + QStringLiteral(".lxdb"));
        if (mergedNext == QStringLiteral("copy")) {
            QVERIFY2(store->saveAs(next, &why), why.c_str());
        } else if (mergedNext == QStringLiteral("grown")) {
            auto grown = Store::open(next, &why);
            QVERIFY2(grown, why.c_str());
            QVERIFY(
                !fillStore(*grown, planOpenInputs(files.paths(names("a.lxdb t.jsonl")), true), {}).anyInputFailed());
        }
        const qint64 requestsBefore = requestCount(*store);
        const FillOutcome filled = fillStore(*store, planOpenInputs({ next }, true), {});
        QCOMPARE(filled.merges.size(), std::size_t(1));
        const StoreMerge &merge = filled.merges.front();
        const bool refused = !said.isEmpty();
        QCOMPARE(merge.merged, !refused);
        QCOMPARE(merge.alreadyIn, alreadyIn);
        QCOMPARE(filled.anyInputFailed(), refused && !alreadyIn);
        QVERIFY2(QString::fromStdString(merge.error).contains(said), merge.error.c_str());
        QCOMPARE(requestCount(*store), requestsAfter);
        if (refused)
            QCOMPARE(requestCount(*store), requestsBefore); // nothing of it came in
    }

    /// A what-if replay (meta `simulated`) is a prediction: observed requests never go into it, and it goes
    /// into nothing, in either direction of a merge.
    void aSimulatedInvestigationIsNeverMixed_data()
    {
        QTest::addColumn<QString>("target");        // the store filled; "sim" is a.lxdb marked simulated
        QTest::addColumn<QStringList>("inputs");
        QTest::addColumn<QString>("refusal");       // what the refused input's message says
        QTest::addColumn<qint64>("requestsAfter");
        QTest::newRow("a trace into a simulated store") << QStringLiteral("sim") << names("t.jsonl")
                                                        << QStringLiteral("not imported: the investigation is simulated") << 30LL;
        QTest::newRow("a store into a simulated store") << QStringLiteral("sim") << names("b.lxdb")
                                                        << QStringLiteral("the investigation is simulated") << 30LL;
        QTest::newRow("a simulated store into an observed one") << QStringLiteral("b") << names("a.lxdb")
                                                                << QStringLiteral("a simulated investigation (a what-if replay) is not merged") << 20LL;
    }

    void aSimulatedInvestigationIsNeverMixed()
    {
        QFETCH(QString, target);
        QFETCH(QStringList, inputs);
        QFETCH(QString, refusal);
        QFETCH(qint64, requestsAfter);
        const Fixtures files;
        std::string why;
        {
            auto simulated = Store::open(files.path(QStringLiteral("a.lxdb")), &why);
            QVERIFY2(simulated, why.c_str());
            QVERIFY2(writeMetaValue(*simulated, kSimulatedMetaKey, "{}", &why), why.c_str());
        }
        auto store = Store::open(files.path((target == QStringLiteral("sim") ? QStringLiteral("a") : target) + QStringLiteral(".lxdb")), &why);
        QVERIFY2(store, why.c_str());
        const FillOutcome filled = fillStore(*store, planOpenInputs(files.paths(inputs), true), {});
        QVERIFY(filled.anyInputFailed());
        const std::string said = filled.imports.empty() ? filled.merges.front().error : filled.imports.front().message;
        QVERIFY2(QString::fromStdString(said).contains(refusal), said.c_str());
        QCOMPARE(requestCount(*store), requestsAfter);
    }

    void cancelKeepsWhatCameBefore_data()
    {
        QTest::addColumn<QStringList>("stores");
        QTest::addColumn<int>("cancelInFile"); // 0-based trace file whose progress callback says stop
        QTest::addColumn<qint64>("kept");
        QTest::newRow("cancel in the first trace: nothing imported") << QStringList{} << 0 << 0LL;
        QTest::newRow("cancel in the second trace: the first kept") << QStringList{} << 1 << 3000LL;
        QTest::newRow("a merged store stays") << names("a.lxdb") << 0 << 30LL;
    }

    void cancelKeepsWhatCameBefore()
    {
        QFETCH(QStringList, stores);
        QFETCH(int, cancelInFile);
        QFETCH(qint64, kept);
        Fixtures files;
        // Big enough that the callback is asked while a file is being read (every 1024 records).
        std::vector<std::string> inputs = files.paths(stores);
        inputs.push_back(files.write(QStringLiteral("big1.jsonl"), traceLines(3000, "p")));
        inputs.push_back(files.write(QStringLiteral("big2.jsonl"), traceLines(3000, "q")));
        OpenOptions options;
        options.progress = [&](const ImportProgress &progress) { return progress.file < std::size_t(cancelInFile); };
        const OpenedInputs result = openInputs(planOpenInputs(inputs), options);
        QVERIFY2(result.store, result.error.c_str());
        QVERIFY(result.filled.cancelled);
        QCOMPARE(result.filled.imports.back().outcome, FileImport::Outcome::Cancelled);
        QCOMPARE(requestCount(*result.store), kept);
    }
};

QTEST_GUILESS_MAIN(TestOpenInputs)
#include "tst_open_inputs.moc"
