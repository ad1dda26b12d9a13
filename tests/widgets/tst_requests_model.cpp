// SPDX-License-Identifier: GPL-3.0-or-later
// The requests table model: a valid model (QAbstractItemModelTester) before and after sorting and filtering,
// as many rows as the report counts, orders that land asynchronously with stale ones dropped, "not
// measured" shown as a dash, selections that follow their rows; and a printed scroll benchmark over a
// million requests (a figure to watch, not a timed assertion).

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "requests_model.h"
#include "requests_view.h"
#include "store/store.h"
#include "test_support.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;
constexpr int E2e = int(RequestColumn::E2e);

struct Fixture {
    QTemporaryDir dir;
    std::unique_ptr<Store> store;

    Fixture()
    {
        // Row ids follow the lines: 1 r10, 2 r2, 3 r1, 4 r9, 5 r02; r1 has nothing measured but its start.
        const auto start = [](int ms) { return QByteArray::number(T0 + ms * MS); };
        const QByteArray lines =
            "{\"id\":\"r10\",\"start_ns\":" + start(5) + ",\"model\":\"b\",\"route\":\"/chat\",\"e2e_ms\":30,\"queue_ms\":10,\"decode_ms\":20}\n"
            "{\"id\":\"r2\",\"start_ns\":" + start(1) + ",\"model\":\"a\",\"status\":\"error\",\"e2e_ms\":20,\"queue_ms\":20}\n"
            "{\"id\":\"r1\",\"t_server_recv_ns\":" + start(4) + ",\"route\":\"/chat\"}\n"
            "{\"id\":\"r9\",\"start_ns\":" + start(3) + ",\"model\":\"b\",\"e2e_ms\":30,\"queue_ms\":5,\"decode_ms\":25}\n"
            "{\"id\":\"r02\",\"start_ns\":" + start(2) + ",\"model\":\"a\",\"e2e_ms\":20,\"queue_ms\":8,\"decode_ms\":12}\n";
        std::string why;
        store = Store::openTemporary(&why);
        importFiles(*store, {lxtest::writeFile(dir, QStringLiteral("t.jsonl"), lines)});
    }
};

/// The first column's text of every row, comma-separated.
QString sourceIds(const RequestsModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, 0).data().toString();
    return out.join(QLatin1Char(','));
}

/// Waits until no build is running (and the first one has landed).
bool settle(const RequestsModel &model, int timeoutMs = 5000)
{
    QElapsedTimer timer;
    timer.start();
    while (model.isBusy() && timer.elapsed() < timeoutMs)
        QTest::qWait(5);
    return !model.isBusy();
}

RequestFilter modelsFilter(std::vector<std::string> models)
{
    RequestFilter f;
    f.models = std::move(models);
    return f;
}

} // namespace

class TestRequestsModel : public QObject {
    Q_OBJECT

private slots:
    void passesTheModelTester()
    {
        Fixture f;
        RequestsModel model(*f.store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(model.rowCount(), 5);
        model.sort(E2e, Qt::DescendingOrder);
        QVERIFY(settle(model));
        model.setFilter(modelsFilter({"b"}));
        QTRY_COMPARE(model.rowCount(), 2);
        model.sort(0, Qt::AscendingOrder);
        QVERIFY(settle(model));
        QCOMPARE(sourceIds(model), QStringLiteral("r9,r10"));
        model.setFilter({});
        QTRY_COMPARE(model.rowCount(), 5);
    }

    void rowCountMatchesTheReport_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<int>("status"); // -1 any
        QTest::addColumn<qint64>("fromMs");
        QTest::newRow("everything") << QStringList() << -1 << qint64(-1);
        QTest::newRow("model b") << QStringList{QStringLiteral("b")} << -1 << qint64(-1);
        QTest::newRow("errors") << QStringList() << int(Status::Error) << qint64(-1);
        QTest::newRow("from 3 ms") << QStringList() << -1 << qint64(3);
        QTest::newRow("nothing") << QStringList{QStringLiteral("none")} << -1 << qint64(-1);
    }

    void rowCountMatchesTheReport()
    {
        QFETCH(QStringList, models);
        QFETCH(int, status);
        QFETCH(qint64, fromMs);
        Fixture f;
        RequestFilter filter;
        for (const QString &m : models)
            filter.models.push_back(m.toStdString());
        if (status >= 0)
            filter.status = Status(status);
        if (fromMs >= 0)
            filter.fromNs = T0 + fromMs * MS;
        RequestsModel model(*f.store);
        model.setFilter(filter);
        QVERIFY(settle(model));
        QCOMPARE(qint64(model.rowCount()), analyze(*f.store, filter).total);
    }

    void sortsAndShowsValues()
    {
        Fixture f;
        RequestsModel model(*f.store);
        QVERIFY(settle(model));
        QCOMPARE(sourceIds(model), QStringLiteral("r2,r02,r9,r1,r10")); // by start, the first order
        model.sort(E2e, Qt::DescendingOrder);
        QVERIFY(settle(model));
        QCOMPARE(model.sortColumn(), E2e);
        QCOMPARE(sourceIds(model), QStringLiteral("r10,r9,r2,r02,r1")); // ties by row id, not measured last
        QCOMPARE(model.index(0, E2e).data(RequestsModel::SortRole), QVariant(qint64(30 * MS)));
        QCOMPARE(model.index(0, E2e).data().toString(), QString::fromStdString(formatDuration(30.0 * MS)));
        QCOMPARE(model.index(0, int(RequestColumn::Dominant)).data().toString(), QStringLiteral("decode"));
        QCOMPARE(model.index(2, int(RequestColumn::Status)).data().toString(), QStringLiteral("error"));
        QCOMPARE(model.index(0, int(RequestColumn::Start)).data().toString(), QString::fromStdString(formatTimestamp(T0 + 5 * MS)));
        QCOMPARE(model.rowIdAt(0), std::int64_t(1));
        QCOMPARE(model.rowIdAt(5), std::int64_t(-1));
        QCOMPARE(model.rowOfId(3), 4);

        // Not measured is a dash with a tooltip and no sort value; a measured zero is a value.
        const QModelIndex missing = model.index(4, E2e);
        QCOMPARE(missing.data().toString(), QString(QChar(0x2014)));
        QCOMPARE(missing.data(Qt::ToolTipRole).toString(), QStringLiteral("not measured"));
        QVERIFY(!missing.data(RequestsModel::SortRole).isValid());
        QCOMPARE(model.index(4, int(RequestColumn::Model)).data().toString(), QString(QChar(0x2014)));
        const QModelIndex zero = model.index(0, int(RequestColumn::Unattributed));
        QCOMPARE(zero.data(RequestsModel::SortRole), QVariant(qint64(0)));
        QVERIFY(zero.data().toString() != QString(QChar(0x2014)));
        QCOMPARE(model.index(0, E2e).data(Qt::ToolTipRole).toString(), QStringLiteral("30.000000 ms"));

        QCOMPARE(model.index(0, E2e).data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignHorizontal_Mask, Qt::Alignment(Qt::AlignRight));
        QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignHorizontal_Mask, Qt::Alignment(Qt::AlignLeft));
        QCOMPARE(model.headerData(E2e, Qt::Horizontal).toString(), QStringLiteral("E2E"));
        QCOMPARE(model.headerData(E2e, Qt::Horizontal, Qt::InitialSortOrderRole).value<Qt::SortOrder>(), Qt::DescendingOrder);
    }

    /// Start times that are offsets (a Mooncake trace) showed as days of 1970 ("1970-01-01T00:00:03.000000Z")
    /// beside a filter bar and a waterfall that said "+00:00:03".
    void offsetsAreNoDates()
    {
        QTemporaryDir dir;
        std::string why;
        std::unique_ptr<Store> store = Store::openTemporary(&why);
        importFiles(*store,
                    { lxtest::writeFile(dir, QStringLiteral("m.jsonl"),
                                        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5}\n"
                                        "{\"timestamp\": 3000, \"input_length\": 12, \"output_length\": 6}\n") });
        RequestsModel model(*store);
        QVERIFY(settle(model));
        const int start = int(RequestColumn::Start);
        QCOMPARE(model.index(1, start).data().toString(), QString::fromStdString(formatTimestamp(3'000'000'000)));
        QSignalSpy header(&model, &QAbstractItemModel::headerDataChanged);
        model.setTimesAreOffsets(true);
        QCOMPARE(header.count(), 1);
        QCOMPARE(model.index(1, start).data().toString(), QStringLiteral("+3.00 s"));
        QCOMPARE(model.index(1, start).data(Qt::ToolTipRole).toString(), QStringLiteral("+3.00 s"));
        QCOMPARE(model.headerData(start, Qt::Horizontal).toString(), QStringLiteral("Start (offset)"));
    }

    /// No duration a trace holds is elided: the text of any fits the widest text a column is sized to.
    void widestDurationTextHoldsEveryDuration_data()
    {
        QTest::addColumn<int>("unit");
        QTest::addColumn<double>("ns");
        const int autoUnit = int(DurationUnit::Auto), ms = int(DurationUnit::Milliseconds);
        // At a million requests sorted by E2E the first rows were hours long: "1 h …".
        QTest::newRow("an hour") << autoUnit << (3600e9 + 2 * 60e9);
        QTest::newRow("a day") << autoUnit << (23 * 3600e9 + 59 * 60e9);
        QTest::newRow("clock skew's minus sign") << autoUnit << -(59 * 60e9 + 59e9);
        QTest::newRow("fractions") << autoUnit << 12.345e6;
        QTest::newRow("an hour in ms") << ms << 3723e9;
        QTest::newRow("four days in ms, negative") << ms << -(99 * 3600e9);
    }

    void widestDurationTextHoldsEveryDuration()
    {
        QFETCH(int, unit);
        QFETCH(double, ns);
        const QFontMetrics metrics(QApplication::font());
        const QString text = QString::fromStdString(formatDuration(ns, DurationUnit(unit)));
        const QString widest = RequestsModel::widestDurationText(DurationUnit(unit));
        QVERIFY2(metrics.horizontalAdvance(text) <= metrics.horizontalAdvance(widest), qPrintable(text + QStringLiteral(" > ") + widest));
    }

    /// The columns are sized from the first rows by start; a later request hours long still fits its cell.
    void durationColumnsHoldHours()
    {
        QTemporaryDir dir;
        QByteArray lines;
        for (int i = 0; i < 20; ++i) // short first, then one of 7 h 14 min
            lines += "{\"id\":\"s" + QByteArray::number(i) + "\",\"start_ns\":" + QByteArray::number(T0 + i * MS)
                     + ",\"queue_ms\":" + (i == 19 ? QByteArray("26040000") : QByteArray("5")) + ",\"decode_ms\":12}\n";
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        importFiles(*store, {lxtest::writeFile(dir, QStringLiteral("hours.jsonl"), lines)});
        RequestsView view;
        view.resize(1200, 600);
        view.show();
        QSignalSpy settled(&view, &RequestsView::settled);
        view.setStore(store.get(), {});
        QVERIFY(settled.count() > 0 || settled.wait(10000));
        auto *table = view.findChild<QTableView *>();
        QVERIFY(table);
        const auto model = qobject_cast<RequestsModel *>(table->model());
        QVERIFY(model);
        QTRY_COMPARE(model->rowCount(), 20);
        for (const int column : {E2e, int(RequestColumn::Queue)}) {
            const QString longest = model->index(19, column).data().toString();
            QCOMPARE(longest, QStringLiteral("7 h 14 min"));
            QVERIFY2(table->columnWidth(column) > table->fontMetrics().horizontalAdvance(longest) + 4,
                     qPrintable(QStringLiteral("column %1: %2 px").arg(column).arg(table->columnWidth(column))));
        }
    }

    void ordersLandAsynchronously()
    {
        Fixture f;
        RequestsModel model(*f.store);
        QVERIFY(settle(model));
        QSignalSpy busy(&model, &RequestsModel::busyChanged);
        QSignalSpy landed(&model, &RequestsModel::orderChanged);
        QSignalSpy layout(&model, &QAbstractItemModel::layoutChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        // Two sorts in a row: the first one's order is stale when it lands and is dropped.
        model.sort(E2e, Qt::AscendingOrder);
        model.sort(int(RequestColumn::Decode), Qt::DescendingOrder);
        QVERIFY(model.isBusy());
        QCOMPARE(sourceIds(model), QStringLiteral("r2,r02,r9,r1,r10")); // the old order until the new one lands
        QTRY_COMPARE(landed.count(), 1);
        QTest::qWait(50); // the stale order would land about now: it must not
        QCOMPARE(landed.count(), 1);
        QCOMPARE(layout.count(), 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
        QCOMPARE(sourceIds(model), QStringLiteral("r9,r10,r02,r2,r1"));

        // A filter is a reset; a sort asked for before it lands uses the new filter too.
        model.setFilter(modelsFilter({"a"}));
        model.sort(0, Qt::DescendingOrder);
        QTRY_COMPARE(landed.count(), 2);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(sourceIds(model), QStringLiteral("r2,r02"));
    }

    void selectionFollowsItsRows()
    {
        Fixture f;
        RequestsModel model(*f.store);
        QVERIFY(settle(model));
        QItemSelectionModel selection(&model);
        const int row = model.rowOfId(4); // r9
        selection.select(model.index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        selection.setCurrentIndex(model.index(row, E2e), QItemSelectionModel::NoUpdate);
        model.sort(0, Qt::DescendingOrder);
        QVERIFY(settle(model));
        const QModelIndexList rows = selection.selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(model.rowIdAt(rows.front().row()), std::int64_t(4));
        QCOMPARE(model.rowIdAt(selection.currentIndex().row()), std::int64_t(4));
        QCOMPARE(selection.currentIndex().column(), E2e);
    }

    void copiesText()
    {
        Fixture f;
        RequestsModel model(*f.store);
        QVERIFY(settle(model));
        model.sort(E2e, Qt::DescendingOrder);
        QVERIFY(settle(model));
        const QModelIndexList cells = {model.index(1, E2e), model.index(0, 0), model.index(4, E2e)};
        QCOMPARE(model.copyText(cells, false), QStringLiteral("source_id\te2e_ms\nr10\t30.000000\nr9\t30.000000\nr1\t\n"));
        QCOMPARE(model.copyText({model.index(0, 0)}, true), QStringLiteral("source_id\r\nr10\r\n"));
        QCOMPARE(model.copyText({}, true), QString());
    }

    void scrollingAMillionRows()
    {
        // Made with SQL rather than an import (6 s for a million): only reading the table is measured here.
        QTemporaryDir dir;
        std::string why;
        auto store = Store::open(lxtest::pathOf(dir.filePath(QStringLiteral("m.lxdb"))), &why);
        QVERIFY2(store, why.c_str());
        const std::string sql =
            "BEGIN; INSERT INTO labels VALUES (1, 'llama-8b'), (2, 'qwen-14b'), (3, 'mixtral');"
            "INSERT INTO import_runs (id, path, format, compressed, started_ns, outcome) VALUES (1, 'gen', 'jsonl', 0, 0, 'complete');"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)"
            " INSERT INTO requests (id, run_id, status, start_ns, e2e_ns, e2e_scope, queue_ns, decode_ns, unattributed_ns,"
            " ttft_ns, token_scope, dominant, flags, model_id, input_tokens, output_tokens)"
            " SELECT i, 1, i % 50 = 0, " + std::to_string(T0) + " + i * 1000000, (i * 7919) % 100003 * 20000 + 1000000,"
            " 2, (i * 104729) % 10007 * 1000, (i * 7919) % 100003 * 20000, 1000000 - (i * 104729) % 10007 * 1000,"
            " CASE WHEN i % 7 THEN (i * 31) % 997 * 100000 END, 2, 4, 0, 1 + i % 3, i % 4000, 1 + i % 500 FROM n;"
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)"
            " INSERT INTO request_details (request_id, source_id, id_hash, source_line) SELECT i, 'req-' || i, i, i FROM n;"
            "COMMIT;";
        QVERIFY2(store->exec(sql.c_str(), &why), why.c_str());

        RequestsModel model(*store);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(settle(model, 60000));
        qInfo("first order (start time) of 1,000,000 rows landed after %lld ms", timer.elapsed());
        QCOMPARE(model.rowCount(), 1'000'000);
        for (const auto &[column, order] : {std::pair{RequestColumn::E2e, Qt::DescendingOrder},
                                            std::pair{RequestColumn::SourceId, Qt::AscendingOrder},
                                            std::pair{RequestColumn::Model, Qt::AscendingOrder},
                                            std::pair{RequestColumn::Ttft, Qt::AscendingOrder}}) {
            timer.restart();
            model.sort(int(column), order);
            QVERIFY(settle(model, 60000));
            qInfo("sort by %s landed after %lld ms", columnInfo(column).name.data(), timer.elapsed());
        }

        // A scroll as a 40-row view paints it: every cell's text and alignment. Half the frames step on
        // by a screen, half jump somewhere else (a dragged scroll bar), so most frames need a page fetch.
        std::mt19937 rng(3);
        std::vector<qint64> frames;
        int top = 0;
        for (int frame = 0; frame < 2000; ++frame) {
            top = frame % 2 ? int(rng() % (1'000'000 - 40)) : std::min(top + 40, 1'000'000 - 40);
            timer.restart();
            for (int row = top; row < top + 40; ++row) {
                for (int column = 0; column < kRequestColumnCount; ++column) {
                    const QModelIndex index = model.index(row, column);
                    QVERIFY(!index.data().toString().isEmpty());
                    index.data(Qt::TextAlignmentRole);
                }
            }
            frames.push_back(timer.nsecsElapsed());
        }
        std::sort(frames.begin(), frames.end());
        qInfo("scroll frame of 40 rows x %d columns over 1,000,000 rows: median %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms",
              kRequestColumnCount, frames[frames.size() / 2] / 1e6, frames[frames.size() * 9 / 10] / 1e6,
              frames[frames.size() * 99 / 100] / 1e6, frames.back() / 1e6);
    }
};

QTEST_MAIN(TestRequestsModel)
#include "tst_requests_model.moc"
