// SPDX-License-Identifier: GPL-3.0-or-later
// A report's throw-away store may hold the requests of its one file in memory instead of in the `requests`
// table (core/store/held_rows.h, ImportOptions::holdRows): every figure read from the held rows must be the
// one read from the table, and an import that meets a record the join may take must write what it held,
// leaving the tables as an import that never held anything.

#include "analysis/analysis.h"
#include "analysis/waterfall_data.h"
#include "ingest/importer.h"
#include "report/report_format.h"
#include "simulation/trace_writers.h"
#include "store/held_rows.h"
#include "store/latency_rows.h"
#include "store/request_scan.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using lxtest::dump;

namespace {

QByteArray generated(lx::sim::TraceForm form, int requests) { return lxtest::generatedTrace(form, requests); }

/// The store of importing `paths` as a report does (holdRows, details for the join only) or as an
/// investigation kept does; null when an import did not complete.
std::unique_ptr<lx::Store> imported(const std::vector<std::string> &paths, bool hold, std::size_t batchSize = 4096)
{
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    lx::ImportOptions options;
    options.holdRows = hold;
    options.detailRows = hold ? lx::DetailRows::JoinCandidates : lx::DetailRows::All;
    options.batchSize = batchSize;
    for (const lx::FileImport &f : lx::importFiles(*store, paths, options)) {
        if (f.outcome != lx::FileImport::Outcome::Complete) {
            qWarning("%s", lxtest::describe(f).constData());
            return nullptr;
        }
    }
    return store;
}

std::string everything(const lx::Store &store, bool includeErrors) { return lxtest::everythingReported(store, {}, includeErrors); }
std::string everything(const lx::Store &store, const lx::RequestFilter &filter) { return lxtest::everythingReported(store, filter); }

/// One generated trace of `requests` imported twice: into the table, and held as a report holds it.
struct BothWays {
    explicit BothWays(int requests)
    {
        const std::vector<std::string> paths = {
            lxtest::writeFile(dir, QStringLiteral("t.jsonl"), generated(lx::sim::TraceForm::Timestamps, requests))};
        table = imported(paths, false);
        memory = imported(paths, true);
    }
    QTemporaryDir dir;
    std::unique_ptr<lx::Store> table, memory;
};

constexpr const char *kTables = "SELECT * FROM requests ORDER BY id";
constexpr const char *kTokenTimes = "SELECT request_id, hex(times) FROM token_times ORDER BY request_id";

} // namespace

class TestHeldRows : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameFiguresAsTheTable_data();
    void sameFiguresAsTheTable();
    void joinableRecordWritesWhatWasHeld_data();
    void joinableRecordWritesWhatWasHeld();
    void capWritesWhatWasHeld_data();
    void capWritesWhatWasHeld();
    void heldOnlyWhenSafe_data();
    void heldOnlyWhenSafe();
    void conditionsTheirStatisticsDecide_data();
    void conditionsTheirStatisticsDecide();
    void waterfallOfHeldRows_data();
    void waterfallOfHeldRows();
    void reportBorrowsTheHeldRows();
};

void TestHeldRows::sameFiguresAsTheTable_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<bool>("held"); ///< no record of the form can be joined: the rows stay in memory
    QTest::addColumn<bool>("includeErrors");
    QTest::addColumn<int>("requests");
    const auto row = [](const char *name, lx::sim::TraceForm form, bool held) {
        QTest::newRow(name) << static_cast<int>(form) << held << false << 1200;
        QTest::newRow((std::string(name) + ", errors included").c_str()) << static_cast<int>(form) << held << true << 1200;
    };
    row("timestamps", lx::sim::TraceForm::Timestamps, true);
    row("durations", lx::sim::TraceForm::Durations, true);
    row("csv", lx::sim::TraceForm::Csv, true);
    row("client records", lx::sim::TraceForm::Client, false);
    row("server spans", lx::sim::TraceForm::Otlp, false);
    // From 200,000 rows on, a scan reads two halves on two threads (request_scan.h).
    QTest::newRow("timestamps, two halves") << static_cast<int>(lx::sim::TraceForm::Timestamps) << true << false << 200000;
}

/// The generator's forms carry the scopes, token times, errors and skewed clocks the held rows must keep.
void TestHeldRows::sameFiguresAsTheTable()
{
    QFETCH(int, form);
    QFETCH(bool, held);
    QFETCH(bool, includeErrors);
    QFETCH(int, requests);
    QTemporaryDir dir;
    const std::vector<std::string> paths = {
        lxtest::writeFile(dir, QStringLiteral("trace"), generated(static_cast<lx::sim::TraceForm>(form), requests))};
    const std::unique_ptr<lx::Store> table = imported(paths, false);
    const std::unique_ptr<lx::Store> memory = imported(paths, true, 100);
    QVERIFY(table && memory);
    QCOMPARE(memory->heldRows() != nullptr, held);
    if (held) {
        QCOMPARE(memory->heldRows()->size(), static_cast<std::size_t>(requests));
        QCOMPARE(dump(memory->db(), "SELECT count(*) FROM requests"), QStringLiteral("0"));
    }
    QCOMPARE(everything(*memory, includeErrors), everything(*table, includeErrors));
    // The plain report too, which collects no rows and reads the held ones' statistics from them.
    lx::AnalysisOptions plain;
    plain.includeErrors = includeErrors;
    QCOMPARE(lx::reportToJson(lx::analyze(*memory, {}, plain)), lx::reportToJson(lx::analyze(*table, {}, plain)));
}

void TestHeldRows::joinableRecordWritesWhatWasHeld_data()
{
    QTest::addColumn<int>("joinableAt"); ///< the line of the first client-only record
    QTest::addColumn<int>("batchSize");
    QTest::newRow("in the first batch") << 1 << 64;
    QTest::newRow("after three batches") << 200 << 64;
    QTest::newRow("in the last record") << 400 << 64;
    QTest::newRow("one record a batch") << 37 << 1;
}

/// Requests measured at both ends, then one measured by a client alone (a join may take it): what was held
/// is written with the ids it was given, and the tables are those of an import that never held anything.
void TestHeldRows::joinableRecordWritesWhatWasHeld()
{
    QFETCH(int, joinableAt);
    QFETCH(int, batchSize);
    QByteArray text;
    const QList<QByteArray> lines = generated(lx::sim::TraceForm::Timestamps, 400).split('\n');
    for (int i = 0; i < 400; ++i) {
        if (i + 1 == joinableAt)
            text += QStringLiteral("{\"id\":\"client-only\",\"t_client_send_ns\":1735732800000000000,"
                                   "\"t_client_recv_ns\":1735732800500000000,\"output_tokens\":3}\n").toUtf8();
        text += lines[i] + '\n';
    }
    QTemporaryDir dir;
    const std::vector<std::string> paths = {lxtest::writeFile(dir, QStringLiteral("mixed.jsonl"), text)};
    const std::unique_ptr<lx::Store> table = imported(paths, false);
    const std::unique_ptr<lx::Store> memory = imported(paths, true, static_cast<std::size_t>(batchSize));
    QVERIFY(table && memory);
    QVERIFY(!memory->heldRows());
    QCOMPARE(dump(memory->db(), "SELECT count(*) FROM requests"), QStringLiteral("401"));
    QCOMPARE(dump(memory->db(), kTables), dump(table->db(), kTables));
    QCOMPARE(dump(memory->db(), kTokenTimes), dump(table->db(), kTokenTimes));
    QCOMPARE(everything(*memory, false), everything(*table, false));
    // Only the client-only record can be joined: its details are the only ones a report's store keeps.
    QCOMPARE(dump(memory->db(), "SELECT source_id FROM request_details"), QStringLiteral("client-only"));
}

void TestHeldRows::capWritesWhatWasHeld_data()
{
    QTest::addColumn<int>("cap");
    QTest::addColumn<bool>("held");
    QTest::newRow("under the cap") << 500 << true;
    QTest::newRow("at the cap") << 400 << true;
    QTest::newRow("past it in the last batch") << 399 << false;
    QTest::newRow("past it in the first batch") << 10 << false;
}

/// Memory stays bounded: past the cap of held requests, what was held is written with the ids it was
/// given and the rest follows, as an import that never held anything.
void TestHeldRows::capWritesWhatWasHeld()
{
    QFETCH(int, cap);
    QFETCH(bool, held);
    QTemporaryDir dir;
    const std::vector<std::string> paths = {
        lxtest::writeFile(dir, QStringLiteral("t.jsonl"), generated(lx::sim::TraceForm::Timestamps, 400))};
    const std::unique_ptr<lx::Store> table = imported(paths, false);
    std::string why;
    std::unique_ptr<lx::Store> memory = lx::Store::openTemporary(&why);
    QVERIFY(table && memory);
    lx::ImportOptions options;
    options.holdRows = true;
    options.detailRows = lx::DetailRows::JoinCandidates;
    options.batchSize = 64;
    options.maxHeldRequests = static_cast<std::size_t>(cap);
    QCOMPARE(lx::importFiles(*memory, paths, options).front().outcome, lx::FileImport::Outcome::Complete);
    QCOMPARE(memory->heldRows() != nullptr, held);
    QCOMPARE(dump(memory->db(), "SELECT count(*) FROM requests"), held ? QStringLiteral("0") : QStringLiteral("400"));
    if (!held) {
        QCOMPARE(dump(memory->db(), kTables), dump(table->db(), kTables));
        QCOMPARE(dump(memory->db(), kTokenTimes), dump(table->db(), kTokenTimes));
    }
    QCOMPARE(everything(*memory, true), everything(*table, true));
}

void TestHeldRows::heldOnlyWhenSafe_data()
{
    QTest::addColumn<int>("files");
    QTest::addColumn<bool>("cancel");
    QTest::addColumn<bool>("held");
    QTest::newRow("one file") << 1 << false << true;
    QTest::newRow("two files") << 2 << false << false; // the rows of one would have to outlive the other's rollback
    QTest::newRow("cancelled") << 1 << true << false;
}

void TestHeldRows::heldOnlyWhenSafe()
{
    QFETCH(int, files);
    QFETCH(bool, cancel);
    QFETCH(bool, held);
    QTemporaryDir dir;
    std::vector<std::string> paths;
    for (int i = 0; i < files; ++i)
        paths.push_back(lxtest::writeFile(dir, QStringLiteral("t%1.jsonl").arg(i), generated(lx::sim::TraceForm::Timestamps, 500)));
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    lx::ImportOptions options;
    options.holdRows = true;
    options.batchSize = 50;
    if (cancel)
        options.progress = [](const lx::ImportProgress &p) { return p.records < 100; };
    const std::vector<lx::FileImport> results = lx::importFiles(*store, paths, options);
    QCOMPARE(results.front().outcome, cancel ? lx::FileImport::Outcome::Cancelled : lx::FileImport::Outcome::Complete);
    QCOMPARE(store->heldRows() != nullptr, held);
    QCOMPARE(lx::analyze(*store).total, cancel ? 0 : 500 * files);
}

void TestHeldRows::conditionsTheirStatisticsDecide_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<bool>("decided"); ///< by the held rows' statistics (filter/row_condition.h)
    QTest::newRow("no filter") << QString() << true;
    QTest::newRow("errors") << QStringLiteral("status = error") << true;
    QTest::newRow("e2e") << QStringLiteral("e2e > 1s") << true;
    QTest::newRow("a segment and a flag") << QStringLiteral("queue > 100ms and not skew") << true;
    QTest::newRow("token metrics") << QStringLiteral("ttft >= 200ms or tpot < 20ms") << true;
    QTest::newRow("a model") << QStringLiteral("model = \"llama-3-8b\"") << false;
    QTest::newRow("the tokens") << QStringLiteral("output_tokens > 100") << false;
    QTest::newRow("a statistic and a model") << QStringLiteral("e2e > 1s and model = \"llama-3-8b\"") << false;
}

/// What the window shows while an open writes the store (summary_first.h): a filter on a request's
/// statistics is decided from the held rows, with the figures of the table; one on what only the tables
/// hold is refused loudly, never answered empty.
void TestHeldRows::conditionsTheirStatisticsDecide()
{
    QFETCH(QString, expression);
    QFETCH(bool, decided);
    const BothWays both(900);
    const std::unique_ptr<lx::Store> &table = both.table, &memory = both.memory;
    QVERIFY(table && memory && memory->heldRows());
    const std::optional<lx::RequestFilter> filter = lxtest::filterOf(expression);
    QVERIFY(filter);
    const lx::SqlCondition where = lx::toSqlCondition(*filter);
    QCOMPARE(lx::scansDecide(*memory, where), decided);
    QVERIFY(lx::scansDecide(*table, where)); // the tables decide anything
    if (!decided) {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, lx::analyze(*memory, *filter));
        return;
    }
    QCOMPARE(everything(*memory, *filter), everything(*table, *filter));
    int held = 0;
    lx::forEachHeldRow(*memory->heldRows(), where, [&](std::int64_t, const lx::RequestRow &) { return ++held > 0; });
    QCOMPARE(held, lx::analyze(*table, *filter).total);
}

void TestHeldRows::waterfallOfHeldRows_data()
{
    QTest::addColumn<QString>("expression");
    QTest::newRow("no filter") << QString();
    QTest::newRow("slow ones") << QStringLiteral("e2e > 800ms");
    QTest::newRow("none") << QStringLiteral("e2e < 0s");
}

/// The waterfall of the held rows is the table's: ids, places, segments and lanes.
void TestHeldRows::waterfallOfHeldRows()
{
    QFETCH(QString, expression);
    const BothWays both(700);
    const std::unique_ptr<lx::Store> &table = both.table, &memory = both.memory;
    QVERIFY(table && memory && memory->heldRows());
    const std::optional<lx::RequestFilter> filter = lxtest::filterOf(expression);
    QVERIFY(filter);
    std::string why;
    const auto fromTable = lx::loadWaterfall(*table, *filter, nullptr, &why);
    const auto fromMemory = lx::loadWaterfall(*memory, *filter, nullptr, &why);
    QVERIFY2(fromTable && fromMemory, why.c_str());
    QCOMPARE(fromMemory->size(), fromTable->size());
    const auto same = [](const auto &a, const auto &b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); };
    QVERIFY(same(fromMemory->ids, fromTable->ids));
    QVERIFY(same(fromMemory->starts, fromTable->starts));
    QVERIFY(same(fromMemory->ends, fromTable->ends));
    QVERIFY(same(fromMemory->flags, fromTable->flags));
    for (std::size_t s = 0; s < fromTable->segments.size(); ++s)
        QVERIFY(same(fromMemory->segments[s], fromTable->segments[s]));
    QVERIFY(same(fromMemory->lanes, fromTable->lanes));
    QCOMPARE(fromMemory->laneCount, fromTable->laneCount);
    QCOMPARE(fromMemory->withoutStart, fromTable->withoutStart);
    // A cancel stops it as it stops the table's read.
    std::atomic<bool> cancel{true};
    QVERIFY(!lx::loadWaterfall(*memory, *filter, &cancel, &why));
}

void TestHeldRows::reportBorrowsTheHeldRows()
{
    // A report's rows of a held store are the held LatencyRows themselves, lent rather than copied; a
    // collector that lent its rows refuses a row of a scan (it has no room of its own).
    QTemporaryDir dir;
    const std::unique_ptr<lx::Store> store
        = imported({lxtest::writeFile(dir, QStringLiteral("t.jsonl"), generated(lx::sim::TraceForm::Timestamps, 300))}, true);
    QVERIFY(store && store->heldRows());
    lx::LatencyRowCollector collector;
    collector.reserve(lx::requestIdRange(*store));
    lx::AnalysisOptions options;
    options.rows = &collector;
    QCOMPARE(lx::analyze(*store, {}, options).total, 300);
    QVERIFY(collector.lent());
    QCOMPARE(collector.collected().data(), store->heldRows()->latencyRows().data());
    QCOMPARE(collector.collected().size(), std::size_t(300));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, collector(0, lx::RequestRow{}));
    const lx::LatencyRows rows = collector.take();
    QCOMPARE(rows.data(), store->heldRows()->latencyRows().data()); // still the store's: freed with it, not here
    QVERIFY(!collector.lent());
}

QTEST_GUILESS_MAIN(TestHeldRows)
#include "tst_held_rows.moc"
