// SPDX-License-Identifier: GPL-3.0-or-later
// A filter decided from a request's statistics columns (core/filter/row_condition.h) must select exactly the
// requests its SQL selects, NULLs, `not`, lists and flags included; and a filter it cannot decide so (a
// model, an attribute, the dominant segment) must be left to SQL.

#include "filter/filter_expression.h"
#include "filter/row_condition.h"
#include "ingest/importer.h"
#include "store/request_scan.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

namespace {

/// A store of `files`; null (with a warning) when one does not import whole.
std::unique_ptr<lx::Store> storeOf(const std::vector<std::string> &files)
{
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    if (!store)
        return nullptr;
    for (const lx::FileImport &f : lx::importFiles(*store, files)) {
        if (f.outcome != lx::FileImport::Outcome::Complete) {
            qWarning("%s", lxtest::describe(f).constData());
            return nullptr;
        }
    }
    return store;
}

std::string trace(const QTemporaryDir &dir, lx::sim::TraceForm form)
{
    return lxtest::writeFile(dir, QStringLiteral("form-%1").arg(static_cast<int>(form)), lxtest::generatedTrace(form, 400, 11));
}

std::string golden(const char *path) { return std::string(LX_SOURCE_DIR "/tests/golden/") + path; }

/// The ids the condition selects, as SQLite answers it.
std::vector<std::int64_t> idsBySql(const lx::Store &store, const lx::SqlCondition &where)
{
    lx::Statement stmt(store.db(), "SELECT r.id FROM requests r WHERE " + where.sql + " ORDER BY r.id");
    where.bind(stmt);
    std::vector<std::int64_t> ids;
    while (stmt.step() == SQLITE_ROW)
        ids.push_back(sqlite3_column_int64(stmt.get(), 0));
    return ids;
}

/// The ids the row condition selects, over the same rows.
std::vector<std::int64_t> idsByRows(const lx::Store &store, const lx::RowCondition &condition)
{
    std::vector<std::int64_t> ids;
    lx::forEachStoredRow(store.db(), [&](std::int64_t id, const lx::RequestRow &row) {
        if (condition.selects(row))
            ids.push_back(id);
        return true;
    });
    return ids;
}

} // namespace

class TestRowCondition : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void selectsWhatSqlSelects_data();
    void selectsWhatSqlSelects();
    void leftToSql_data();
    void leftToSql();

private:
    QTemporaryDir m_dir;
    std::vector<std::unique_ptr<lx::Store>> m_stores;
};

/// Requests with and without e2e, segments and token metrics, on every scope, ok and failed, with times
/// of a date and relative ones; and client records joined with their server spans.
void TestRowCondition::initTestCase()
{
    using lx::sim::TraceForm;
    m_stores.push_back(storeOf({trace(m_dir, TraceForm::Timestamps), trace(m_dir, TraceForm::Durations),
                                trace(m_dir, TraceForm::Csv), trace(m_dir, TraceForm::Otlp),
                                golden("mooncake/conversation_trace.jsonl"), golden("vllm_bench/serving_result.json"),
                                golden("aiperf/profile_export.jsonl")}));
    QTemporaryDir joined;
    m_stores.push_back(storeOf({trace(joined, TraceForm::Otlp), trace(joined, TraceForm::Client)}));
    for (const auto &store : m_stores)
        QVERIFY(store);
}

void TestRowCondition::selectsWhatSqlSelects_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("timeRange");
    QTest::addColumn<int>("status"); // -1: none
    for (const char *e : {"e2e > 1s", "e2e >= 1500ms and e2e < 4s", "queue > 100ms or prefill < 20ms", "not (decode > 1s)",
                          "not not e2e > 2s", "network < 0", "network is missing", "network is measured",
                          "unattributed != 0", "ttft in (1, 2, 3) or tpot > 10ms", "ttlt not in (0)", "tpot = 0",
                          "status = error", "status != ok and e2e > 1s", "scope = client", "scope in (server, engine)",
                          "scope != server", "not scope = client", "skew", "not skew", "joined = true", "relative = false",
                          "start > 0", "start < 2024-01-01T00:00:00Z", "(e2e > 1s or queue is missing) and not ttft > 500ms",
                          "not (preprocess is measured or postprocess > 1ms)", "e2e > 1000h", "e2e <= 1ns"})
        QTest::newRow(e) << QString::fromUtf8(e) << QString() << -1;
    QTest::newRow("a status alone") << QString() << QString() << 1;
    // The generated traces start at 2025-01-01T12:00:00Z and last some minutes.
    QTest::newRow("a time range and an expression") << QStringLiteral("e2e > 1s") << QStringLiteral("2025-01-01T12:00:30Z..") << 0;
    QTest::newRow("a time range closed on both sides") << QString()
                                                       << QStringLiteral("2025-01-01T12:00:30Z..2025-01-01T12:02:00Z") << -1;
}

/// The requests the row condition selects are the ones SQL selects, in a store of every form.
void TestRowCondition::selectsWhatSqlSelects()
{
    QFETCH(QString, expression);
    QFETCH(QString, timeRange);
    QFETCH(int, status);
    lx::RequestFilter filter;
    if (!expression.isEmpty()) {
        std::optional<lx::RequestFilter> parsed = lxtest::filterOf(expression);
        QVERIFY2(parsed, qPrintable(expression));
        filter = *parsed;
    }
    std::string why;
    if (!timeRange.isEmpty())
        QVERIFY2(lx::parseTimeRange(timeRange.toStdString(), filter, &why), why.c_str());
    if (status >= 0)
        filter.status = static_cast<lx::Status>(status);
    const lx::SqlCondition where = lx::toSqlCondition(filter);
    QVERIFY2(where.rows, "decidable from the columns");
    for (const auto &store : m_stores) {
        const std::vector<std::int64_t> bySql = idsBySql(*store, where);
        QCOMPARE(idsByRows(*store, *where.rows), bySql);
    }
}

void TestRowCondition::leftToSql_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<bool>("withModel");
    for (const char *e : {"model = \"llama\"", "route ~ \"chat\"", "input_tokens > 100", "output_tokens < 10", "dominant = queue",
                          "id = \"req-0000001\"", "region = \"eu-west\"", "attr.user_agent ~ \"curl\"",
                          "e2e > 1s and model = \"m\"", "e2e > 1s or dominant = decode", "not region = \"x\""})
        QTest::newRow(e) << QString::fromUtf8(e) << false;
    QTest::newRow("a model among the shorthands") << QStringLiteral("e2e > 1s") << true;
}

/// A condition on what a request's statistics columns do not hold has no row condition: SQL decides it.
void TestRowCondition::leftToSql()
{
    QFETCH(QString, expression);
    QFETCH(bool, withModel);
    std::optional<lx::RequestFilter> filter = lxtest::filterOf(expression);
    QVERIFY2(filter, qPrintable(expression));
    if (withModel)
        filter->models = {"qwen2.5-14b-instruct"};
    QVERIFY(!lx::toSqlCondition(*filter).rows);
}

QTEST_GUILESS_MAIN(TestRowCondition)
#include "tst_row_condition.moc"
