// SPDX-License-Identifier: GPL-3.0-or-later
// The column chunks of `requests` (core/store/request_columns.h): every figure the scans read from them must
// be the one read from the rows; they must follow the rows through appends, joins and merges; and chunks that
// no longer describe the rows must not be read.

#include "analysis/analysis.h"
#include "analysis/diagnosis.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "ingest/importer.h"
#include "ingest/open_inputs.h"
#include "store/column_chunk_codec.h"
#include "store/request_columns.h"
#include "store/request_scan.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

using lxtest::dump;

namespace {

/// Imports `paths` into `store`; false (with a warning) when a file did not complete.
bool importInto(lx::Store &store, const std::vector<std::string> &paths)
{
    for (const lx::FileImport &f : lx::importFiles(store, paths)) {
        if (f.outcome != lx::FileImport::Outcome::Complete || !f.message.empty()) {
            qWarning("%s", lxtest::describe(f).constData());
            return false;
        }
    }
    return true;
}

std::unique_ptr<lx::Store> imported(const std::vector<std::string> &paths)
{
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    return store && importInto(*store, paths) ? std::move(store) : nullptr;
}

bool chunked(const lx::Store &store) { return lx::readableRequestColumns(store.db(), lx::requestIdRange(store.db())); }

std::string everything(const lx::Store &store, const lx::RequestFilter &filter = {}, bool includeErrors = false)
{
    return lxtest::everythingReported(store, filter, includeErrors);
}

/// The same figures read from the rows: of a copy of the store without its chunks (a transaction of the
/// store's own would hide the change from the second connection that reads a scan's upper half).
std::string everythingFromRows(lx::Store &store, const lx::RequestFilter &filter = {}, bool includeErrors = false)
{
    QTemporaryDir dir;
    const std::string copy = dir.filePath(QStringLiteral("rows.lxdb")).toStdString();
    std::string why;
    if (!store.saveAs(copy, &why))
        return "cannot copy the store: " + why;
    std::unique_ptr<lx::Store> rows = lx::Store::open(copy, &why);
    if (!rows || !lx::dropRequestColumns(rows->db(), &why))
        return "cannot drop the chunks: " + why;
    return chunked(*rows) ? std::string("still chunked") : everything(*rows, filter, includeErrors);
}

} // namespace

class TestRequestColumns : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameFiguresAsTheRows_data();
    void sameFiguresAsTheRows();
    void chunksFollowTheRows_data();
    void chunksFollowTheRows();
    void rowsChangedElsewhereAreReadAsRows_data();
    void rowsChangedElsewhereAreReadAsRows();
    void damagedChunkIsNamed();
    void rowsOfASecondScan_data();
    void rowsOfASecondScan();
    void throwAwayStoreIsNotRewritten();
    void storeMadeBeforeTheChunks();

private:
    /// The store of a generated trace of `requests` in `form`, imported once for the rows that read it (a
    /// sanitizer build imports 200,000 requests slowly).
    lx::Store &importedOnce(lx::sim::TraceForm form, int requests);
    /// A writable copy of it, for a row that changes it.
    std::unique_ptr<lx::Store> copyOf(lx::Store &store);

    QTemporaryDir m_dir;
    std::map<std::pair<int, int>, std::unique_ptr<lx::Store>> m_imported;
    int m_copies = 0;
};

lx::Store &TestRequestColumns::importedOnce(lx::sim::TraceForm form, int requests)
{
    std::unique_ptr<lx::Store> &store = m_imported[{static_cast<int>(form), requests}];
    if (!store) {
        const QString name = QStringLiteral("trace-%1-%2").arg(static_cast<int>(form)).arg(requests);
        store = imported({lxtest::writeFile(m_dir, name, lxtest::generatedTrace(form, requests))});
        if (!store)
            qFatal("cannot import the generated trace");
    }
    return *store;
}

std::unique_ptr<lx::Store> TestRequestColumns::copyOf(lx::Store &store)
{
    const std::string path = m_dir.filePath(QStringLiteral("copy-%1.lxdb").arg(++m_copies)).toStdString();
    std::string why;
    if (!store.saveAs(path, &why))
        qFatal("cannot copy the store: %s", why.c_str());
    return lx::Store::open(path, &why);
}

void TestRequestColumns::sameFiguresAsTheRows_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<int>("requests");
    QTest::addColumn<QString>("filter");
    QTest::addColumn<bool>("includeErrors");
    QTest::newRow("timestamps") << int(lx::sim::TraceForm::Timestamps) << 1500 << QString() << false;
    QTest::newRow("timestamps, errors included") << int(lx::sim::TraceForm::Timestamps) << 1500 << QString() << true;
    QTest::newRow("durations") << int(lx::sim::TraceForm::Durations) << 1500 << QString() << false;
    QTest::newRow("csv") << int(lx::sim::TraceForm::Csv) << 1500 << QString() << false;
    QTest::newRow("server spans") << int(lx::sim::TraceForm::Otlp) << 1500 << QString() << false;
    QTest::newRow("filtered by e2e") << int(lx::sim::TraceForm::Timestamps) << 1500 << QStringLiteral("e2e > 2s") << false;
    QTest::newRow("filtered by attribute") << int(lx::sim::TraceForm::Otlp) << 1500 << QStringLiteral("dominant = queue") << true;
    QTest::newRow("filter matching nothing") << int(lx::sim::TraceForm::Timestamps) << 800 << QStringLiteral("e2e > 1000h") << false;
    // Past 65,536 requests a store has more than one chunk; from 200,000 a scan reads two halves on two threads,
    // the upper one starting inside a chunk.
    QTest::newRow("four chunks, two halves") << int(lx::sim::TraceForm::Timestamps) << 200001 << QString() << false;
    QTest::newRow("four chunks, two halves, filtered")
        << int(lx::sim::TraceForm::Timestamps) << 200001 << QStringLiteral("queue > 100ms") << false;
}

void TestRequestColumns::sameFiguresAsTheRows()
{
    QFETCH(int, form);
    QFETCH(int, requests);
    QFETCH(QString, filter);
    QFETCH(bool, includeErrors);
    lx::Store *store = &importedOnce(static_cast<lx::sim::TraceForm>(form), requests);
    QVERIFY(chunked(*store));
    const qsizetype chunks = (requests + static_cast<int>(lx::kRowsPerChunk) - 1) / static_cast<int>(lx::kRowsPerChunk);
    QCOMPARE(dump(store->db(), "SELECT count(*), sum(rows) FROM request_columns"),
             QStringLiteral("%1|%2").arg(chunks).arg(dump(store->db(), "SELECT count(*) FROM requests")));
    const std::optional<lx::RequestFilter> where = lxtest::filterOf(filter);
    QVERIFY(where);
    const std::string fromChunks = everything(*store, *where, includeErrors);
    QCOMPARE(everythingFromRows(*store, *where, includeErrors), fromChunks);
}

void TestRequestColumns::chunksFollowTheRows_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("a second file appended") << QStringLiteral("append");
    QTest::newRow("client and server records joined") << QStringLiteral("join");
    QTest::newRow("a store merged") << QStringLiteral("merge");
    QTest::newRow("a second file cancelled") << QStringLiteral("cancelled");
}

/// After each way the program changes the rows, the chunks describe them again and give the rows' figures.
void TestRequestColumns::chunksFollowTheRows()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    const std::string first = lxtest::writeFile(dir, QStringLiteral("a.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 900));
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    QVERIFY(store);
    if (how == QLatin1String("append")) {
        QVERIFY(importInto(*store, {first}));
        const std::string second = lxtest::writeFile(dir, QStringLiteral("b.csv"), lxtest::generatedTrace(lx::sim::TraceForm::Csv, 700, 9));
        QVERIFY(importInto(*store, {second}));
        QCOMPARE(dump(store->db(), "SELECT first_id, last_id, rows FROM request_columns ORDER BY first_id"),
                 QStringLiteral("1|900|900\n901|1600|700"));
    } else if (how == QLatin1String("join")) {
        // The same requests seen by a client and by the server: every pair joins, the server rows go.
        const std::string client = lxtest::writeFile(dir, QStringLiteral("client.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Client, 600));
        const std::string server = lxtest::writeFile(dir, QStringLiteral("server.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Otlp, 600));
        QVERIFY(importInto(*store, {client, server}));
        QVERIFY(dump(store->db(), "SELECT count(*) FROM request_joins").toInt() > 0);
    } else if (how == QLatin1String("merge")) {
        const QString saved = dir.filePath(QStringLiteral("saved.lxdb"));
        {
            std::unique_ptr<lx::Store> other = lx::Store::open(saved.toStdString(), &why);
            QVERIFY(other && importInto(*other, {lxtest::writeFile(dir, QStringLiteral("c.jsonl"),
                                                                  lxtest::generatedTrace(lx::sim::TraceForm::Durations, 500, 3))}));
        }
        QVERIFY(importInto(*store, {first}));
        lx::OpenPlan plan = lx::planOpenInputs({saved.toStdString()}, true);
        const lx::FillOutcome filled = lx::fillStore(*store, plan, {});
        QCOMPARE(filled.merges.size(), std::size_t{1});
        QVERIFY2(filled.merges.front().merged, filled.merges.front().error.c_str());
        QCOMPARE(dump(store->db(), "SELECT count(*) FROM requests"), QStringLiteral("1400"));
    } else {
        // A cancelled second file leaves the first file's chunks as they were.
        QVERIFY(importInto(*store, {first}));
        const std::string second = lxtest::writeFile(dir, QStringLiteral("b.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 3000, 9));
        lx::ImportOptions options;
        options.batchSize = 100;
        options.progress = [](const lx::ImportProgress &p) { return p.records < 1000; };
        QCOMPARE(lx::importFiles(*store, {second}, options).front().outcome, lx::FileImport::Outcome::Cancelled);
        QCOMPARE(dump(store->db(), "SELECT first_id, last_id, rows FROM request_columns"), QStringLiteral("1|900|900"));
    }
    QVERIFY(chunked(*store));
    QCOMPARE(dump(store->db(), "SELECT sum(rows) FROM request_columns"), dump(store->db(), "SELECT count(*) FROM requests"));
    QCOMPARE(everythingFromRows(*store), everything(*store));
}

void TestRequestColumns::rowsChangedElsewhereAreReadAsRows_data()
{
    QTest::addColumn<QString>("sql");
    QTest::newRow("last row deleted") << QStringLiteral("DELETE FROM requests WHERE id = (SELECT max(id) FROM requests)");
    QTest::newRow("first row deleted") << QStringLiteral("DELETE FROM requests WHERE id = 1");
    QTest::newRow("a row added") << QStringLiteral("INSERT INTO requests (run_id, status, e2e_scope, token_scope, flags, e2e_ns)"
                                                   " VALUES (1, 0, 2, 2, 0, 5)");
    QTest::newRow("a chunk lost") << QStringLiteral("DELETE FROM request_columns WHERE first_id = 1");
    QTest::newRow("a chunk cut short") << QStringLiteral("UPDATE request_columns SET data = substr(data, 1, 100)");
    QTest::newRow("chunks of the first layout, plain int64 arrays")
        << QStringLiteral("UPDATE request_columns SET data = zeroblob(rows * 111)");
    QTest::newRow("a header that promises more bytes than there are") // the id column's width made 8
        << QStringLiteral("UPDATE request_columns SET data = CAST(substr(data, 1, 8) || X'08' || substr(data, 10) AS BLOB)");
    QTest::newRow("chunks overlapping") << QStringLiteral("UPDATE request_columns SET last_id = last_id + 1");
    // One chunk of every row, its size right: more rows than this program puts in a chunk.
    QTest::newRow("a chunk larger than any written")
        << QStringLiteral("DELETE FROM request_columns WHERE first_id > 1;"
                          "UPDATE request_columns SET rows = 70000, last_id = 70000, data = zeroblob(70000 * 111)");
}

/// Rows changed by SQL outside the program (the sqlite3 shell, say) and chunks that do not fit are not
/// read: the figures come from the rows.
void TestRequestColumns::rowsChangedElsewhereAreReadAsRows()
{
    QFETCH(QString, sql);
    const std::unique_ptr<lx::Store> store = copyOf(importedOnce(lx::sim::TraceForm::Timestamps, 70000));
    QVERIFY(store && chunked(*store));
    std::string why;
    QVERIFY2(store->exec(sql.toUtf8().constData(), &why), why.c_str());
    QVERIFY(!chunked(*store));
    // Read from the rows: every request the table holds now, no more, no fewer.
    QCOMPARE(QString::number(lx::analyze(*store, {}).total), dump(store->db(), "SELECT count(*) FROM requests"));
}

/// A chunk whose ids contradict its bounds stops the scan with a message naming it, never wrong figures.
void TestRequestColumns::damagedChunkIsNamed()
{
    QTemporaryDir dir;
    std::unique_ptr<lx::Store> store =
        imported({lxtest::writeFile(dir, QStringLiteral("t.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 300))});
    QVERIFY(store);
    // The codes zeroed after the header: every id reads as missing.
    // (|| makes text of BLOBs, byte for byte: the CAST makes a BLOB of it again.)
    QVERIFY(store->exec(("UPDATE request_columns SET data = CAST(substr(data, 1, " + std::to_string(lx::kChunkHeaderBytes)
                         + ") || zeroblob(length(data) - " + std::to_string(lx::kChunkHeaderBytes) + ") AS BLOB)").c_str()));
    QVERIFY(chunked(*store)); // its bounds, layout and size are right: only its ids are wrong
    try {
        everything(*store);
        QFAIL("a damaged chunk was read");
    } catch (const std::runtime_error &e) {
        QVERIFY2(QByteArray(e.what()).contains("column chunk at request 1 is damaged"), e.what());
    }
}

void TestRequestColumns::rowsOfASecondScan_data()
{
    QTest::addColumn<int>("requests");
    QTest::addColumn<QString>("filter");
    QTest::addColumn<bool>("includeErrors");
    // Without a filter, TTFT and TTLT are read from their columns of the chunks after the one scan.
    QTest::newRow("one half") << 1500 << QString() << false;
    QTest::newRow("one half, errors included") << 1500 << QString() << true;
    QTest::newRow("one half, filtered") << 1500 << QStringLiteral("e2e > 2s") << false;
    QTest::newRow("two halves") << 200001 << QString() << false;
    QTest::newRow("two halves, filtered by what SQL decides") << 200001 << QStringLiteral("dominant = queue") << false;
}

/// The rows a diagnosis collects for many requests (AnalysisOptions::rowsInASecondScanFrom: TTFT and TTLT
/// read from the chunks afterwards, or the rows collected in a second scan) give every figure that the
/// rows of one scan, with those two metrics' values beside them, give.
void TestRequestColumns::rowsOfASecondScan()
{
    QFETCH(int, requests);
    QFETCH(QString, filter);
    QFETCH(bool, includeErrors);
    lx::Store &store = importedOnce(lx::sim::TraceForm::Timestamps, requests);
    const std::optional<lx::RequestFilter> where = lxtest::filterOf(filter);
    QVERIFY(where);
    const auto everything = [&](std::int64_t secondScanFrom) {
        lx::DiagnosisOptions options;
        options.analysis.rowsInASecondScanFrom = secondScanFrom;
        options.analysis.includeErrors = includeErrors;
        const lx::Diagnosis d = lx::diagnose(store, *where, options);
        return lx::reportToJson(d.report) + lx::loadToJson(d.load) + lx::findingsToJson(d.findings);
    };
    const lx::Report report = lx::analyze(store, *where);
    QVERIFY(report.total > requests / 10); // the rows compared are many
    QVERIFY(report.ttft.stat.count > 0 && report.ttlt.stat.count > 0);
    QVERIFY(report.error > 0); // which includeErrors counts in the figures
    QCOMPARE(everything(0), everything(std::numeric_limits<std::int64_t>::max()));
}

/// A report's store, read once, is not given its chunks again after a join (a scan of the rows to save one):
/// the join dropped them, and its figures come from the rows, as those of a kept store with chunks do.
void TestRequestColumns::throwAwayStoreIsNotRewritten()
{
    QTemporaryDir dir;
    const std::vector<std::string> paths = {
        lxtest::writeFile(dir, QStringLiteral("client.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Client, 500)),
        lxtest::writeFile(dir, QStringLiteral("server.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Otlp, 500))};
    std::unique_ptr<lx::Store> kept = imported(paths);
    std::string why;
    std::unique_ptr<lx::Store> once = lx::Store::openTemporary(&why);
    QVERIFY(kept && once);
    lx::ImportOptions options;
    options.rewriteColumnChunks = false;
    for (const lx::FileImport &f : lx::importFiles(*once, paths, options))
        QCOMPARE(f.outcome, lx::FileImport::Outcome::Complete);
    QVERIFY(dump(once->db(), "SELECT count(*) FROM request_joins").toInt() > 0);
    QCOMPARE(dump(once->db(), "SELECT count(*) FROM request_columns"), QStringLiteral("0"));
    QVERIFY(chunked(*kept));
    QCOMPARE(everything(*once), everything(*kept));
}

/// A store made before the chunks: read by rows when opened read-only; given chunks by its next import.
void TestRequestColumns::storeMadeBeforeTheChunks()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("old.lxdb")).toStdString();
    std::string why;
    std::string figures;
    {
        std::unique_ptr<lx::Store> store = lx::Store::open(path, &why);
        QVERIFY(store && importInto(*store, {lxtest::writeFile(dir, QStringLiteral("a.jsonl"),
                                                               lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 400))}));
        figures = everything(*store);
        QVERIFY(store->exec("DROP TABLE request_columns"));
    }
    {
        std::unique_ptr<lx::Store> reader = lx::Store::openReadOnly(path, &why);
        QVERIFY2(reader, why.c_str());
        QVERIFY(!chunked(*reader));
        QCOMPARE(everything(*reader), figures);
    }
    std::unique_ptr<lx::Store> store = lx::Store::open(path, &why);
    QVERIFY2(store, why.c_str());
    QCOMPARE(dump(store->db(), "SELECT count(*) FROM request_columns"), QStringLiteral("0"));
    QVERIFY(importInto(*store, {lxtest::writeFile(dir, QStringLiteral("b.jsonl"), lxtest::generatedTrace(lx::sim::TraceForm::Timestamps, 300, 8))}));
    QVERIFY(chunked(*store));
    QCOMPARE(dump(store->db(), "SELECT first_id, last_id FROM request_columns"), QStringLiteral("1|700"));
    QCOMPARE(everythingFromRows(*store), everything(*store));
}

QTEST_GUILESS_MAIN(TestRequestColumns)
#include "tst_request_columns.moc"
