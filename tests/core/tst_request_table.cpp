// SPDX-License-Identifier: GPL-3.0-or-later
// The requests table in core: orders by every kind of column (not measured last, ties by row id), filters,
// rows fetched by id agree with the store, CSV/TSV text, and a 200k-row order against an independent sort.

#include "ingest/importer.h"
#include "store/request_table.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "test_support.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>
#include <sstream>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

using Fixture = lxtest::StoreFixture;

/// Five requests whose row ids follow the lines: 1 r10, 2 r2, 3 r1, 4 r9, 5 r02. Ties: e2e (r2 = r02,
/// r10 = r9), input tokens (r10 = r9), model b (r10, r9); r1 has nothing measured but its start and route.
QByteArray fiveRequests()
{
    const auto start = [](int ms) { return QByteArray::number(T0 + ms * MS); };
    return "{\"id\":\"r10\",\"start_ns\":" + start(5)
           + ",\"model\":\"b\",\"route\":\"/chat\",\"e2e_ms\":30,\"queue_ms\":10,\"decode_ms\":20,\"input_tokens\":100}\n"
             "{\"id\":\"r2\",\"start_ns\":" + start(1)
           + ",\"model\":\"a9\",\"status\":\"error\",\"e2e_ms\":20,\"queue_ms\":20,\"input_tokens\":50}\n"
             "{\"id\":\"r1\",\"t_server_recv_ns\":" + start(4)
           + ",\"route\":\"/chat\"}\n"
             "{\"id\":\"r9\",\"start_ns\":" + start(3)
           + ",\"model\":\"b\",\"route\":\"/x\",\"e2e_ms\":30,\"queue_ms\":5,\"decode_ms\":25,\"input_tokens\":100}\n"
             "{\"id\":\"r02\",\"start_ns\":" + start(2) + ",\"model\":\"a10\",\"e2e_ms\":20,\"queue_ms\":8,\"decode_ms\":12}\n";
}

/// The source ids of an order, comma-separated.
QString sourceIds(const ReadConnection &connection, const RequestOrder &order)
{
    QStringList out;
    for (const TableRow &row : fetchRows(connection, order.ids()))
        out << QString::fromStdString(row.sourceId);
    return out.join(QLatin1Char(','));
}

/// Natural order by chunks, written apart from the implementation's key encoding: digit runs compare by
/// value, everything else byte by byte.
int naturalCompare(const std::string &a, const std::string &b)
{
    std::size_t i = 0, j = 0;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && digit(a[ie]))
                ++ie;
            while (je < b.size() && digit(b[je]))
                ++je;
            std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
            x.erase(0, std::min(x.find_first_not_of('0'), x.size() - 1));
            y.erase(0, std::min(y.find_first_not_of('0'), y.size() - 1));
            if (x.size() != y.size())
                return x.size() < y.size() ? -1 : 1;
            if (x != y)
                return x < y ? -1 : 1;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j])
                return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
            ++i;
            ++j;
        }
    }
    return (i < a.size()) - (j < b.size());
}

} // namespace

class TestRequestTable : public QObject {
    Q_OBJECT

private slots:
    void columns()
    {
        QCOMPARE(int(allRequestColumns().size()), kRequestColumnCount);
        for (RequestColumn c : allRequestColumns()) {
            const ColumnInfo &info = columnInfo(c);
            QCOMPARE(columnFromName(info.name), std::optional<RequestColumn>(c));
            QVERIFY(!info.header.empty());
            if (info.kind == ColumnKind::Duration)
                QVERIFY(info.csvHeader.ends_with("_ms"));
        }
        QVERIFY(!columnFromName("nope"));
        QCOMPARE(columnInfo(RequestColumn::Start).kind, ColumnKind::Timestamp);
        QCOMPARE(columnInfo(RequestColumn::InputTokens).kind, ColumnKind::Integer);
        QCOMPARE(columnInfo(RequestColumn::Model).kind, ColumnKind::Text);
        QCOMPARE(columnInfo(RequestColumn::Scope).kind, ColumnKind::Enum);
        QCOMPARE(enumName(RequestColumn::Dominant, 2), std::string_view("queue"));
        QCOMPARE(enumName(RequestColumn::Status, 1), std::string_view("error"));
        QCOMPARE(enumName(RequestColumn::Scope, 0), std::string_view());
    }

    void order_data()
    {
        QTest::addColumn<QString>("column");
        QTest::addColumn<bool>("ascending");
        QTest::addColumn<QString>("expected");

        // Text in natural order ("r2" before "r10"; "r2" and "r02" tie, by row id).
        QTest::newRow("source id asc") << "source_id" << true << "r1,r2,r02,r9,r10";
        QTest::newRow("source id desc") << "source_id" << false << "r10,r9,r2,r02,r1";
        QTest::newRow("start asc") << "start" << true << "r2,r02,r9,r1,r10";
        QTest::newRow("start desc") << "start" << false << "r10,r1,r9,r02,r2";
        QTest::newRow("status asc: ok first") << "status" << true << "r10,r1,r9,r02,r2";
        QTest::newRow("status desc") << "status" << false << "r2,r10,r1,r9,r02";
        // Labels by their names, naturally (a9 < a10 < b); a request without a model last both ways.
        QTest::newRow("model asc") << "model" << true << "r2,r02,r10,r9,r1";
        QTest::newRow("model desc") << "model" << false << "r10,r9,r02,r2,r1";
        QTest::newRow("route asc") << "route" << true << "r10,r1,r9,r2,r02";
        QTest::newRow("route desc") << "route" << false << "r9,r10,r1,r2,r02";
        QTest::newRow("e2e asc, ties by id") << "e2e" << true << "r2,r02,r10,r9,r1";
        QTest::newRow("e2e desc, ties still by id") << "e2e" << false << "r10,r9,r2,r02,r1";
        QTest::newRow("decode asc, not measured last") << "decode" << true << "r02,r10,r9,r2,r1";
        QTest::newRow("decode desc, not measured last") << "decode" << false << "r9,r10,r02,r2,r1";
        // A measured zero is a value, not "not measured".
        QTest::newRow("unattributed: all zero") << "unattributed" << false << "r10,r2,r9,r02,r1";
        QTest::newRow("ttft: none measured") << "ttft" << true << "r10,r2,r1,r9,r02";
        QTest::newRow("input tokens asc") << "input_tokens" << true << "r2,r10,r9,r1,r02";
        QTest::newRow("input tokens desc") << "input_tokens" << false << "r10,r9,r2,r1,r02";
        QTest::newRow("dominant asc (pipeline order)") << "dominant" << true << "r2,r10,r9,r02,r1";
        QTest::newRow("dominant desc") << "dominant" << false << "r10,r9,r02,r2,r1";
        QTest::newRow("scope: none last") << "scope" << true << "r10,r2,r9,r02,r1";
    }

    void order()
    {
        QFETCH(QString, column);
        QFETCH(bool, ascending);
        QFETCH(QString, expected);
        Fixture f(fiveRequests());
        const auto c = columnFromName(column.toStdString());
        QVERIFY(c);
        std::string why;
        const auto order = RequestOrder::build(f.store->connection(), {}, *c, ascending ? SortDirection::Ascending : SortDirection::Descending,
                                               nullptr, &why);
        QVERIFY2(order, why.c_str());
        QCOMPARE(sourceIds(f.store->connection(), *order), expected);
        QCOMPARE(order->column(), *c);
    }

    void filtered_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<qint64>("fromMs"); // -1: open
        QTest::addColumn<qint64>("toMs");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("expected");

        QTest::newRow("model b by e2e") << QStringList{QStringLiteral("b")} << qint64(-1) << qint64(-1) << "e2e" << "r10,r9";
        QTest::newRow("two models by source id") << QStringList{QStringLiteral("b"), QStringLiteral("a10")} << qint64(-1)
                                                 << qint64(-1) << "source_id" << "r02,r9,r10";
        // A time range walks the start-time index, so rows arrive by start: ties must still go by row id.
        QTest::newRow("time range, ties by id") << QStringList() << qint64(3) << qint64(6) << "e2e" << "r10,r9,r1";
        QTest::newRow("time range by decode") << QStringList() << qint64(2) << qint64(5) << "decode" << "r02,r9,r1";
        QTest::newRow("nothing matches") << QStringList{QStringLiteral("none")} << qint64(-1) << qint64(-1) << "e2e" << "";
    }

    void filtered()
    {
        QFETCH(QStringList, models);
        QFETCH(qint64, fromMs);
        QFETCH(qint64, toMs);
        QFETCH(QString, column);
        QFETCH(QString, expected);
        Fixture f(fiveRequests());
        QVERIFY(f.store->ensureIndexes());
        RequestFilter filter;
        for (const QString &m : models)
            filter.models.push_back(m.toStdString());
        if (fromMs >= 0) {
            filter.fromNs = T0 + fromMs * MS;
            // The case this row is about: SQLite walks the start-time index, not the table.
            QVERIFY(lxtest::dump(f.store->db(), "EXPLAIN QUERY PLAN SELECT id FROM requests r WHERE r.start_ns >= 1 AND r.start_ns < 2")
                        .contains(QLatin1String("requests_by_start")));
        }
        if (toMs >= 0)
            filter.toNs = T0 + toMs * MS;
        const auto order = RequestOrder::build(f.store->connection(), filter, *columnFromName(column.toStdString()), SortDirection::Ascending);
        QVERIFY(order);
        QCOMPARE(sourceIds(f.store->connection(), *order), expected);
        QCOMPARE(order->measuredCount() <= order->size(), true);
    }

    void rowsOf()
    {
        Fixture f(fiveRequests());
        const auto order = RequestOrder::build(f.store->connection(), {}, RequestColumn::Start, SortDirection::Ascending);
        QVERIFY(order);
        const std::int64_t ids[] = {1, 2, 99, 2};
        QCOMPARE(order->rowsOf(ids), (std::vector<std::ptrdiff_t>{4, 0, -1, 0}));
    }

    void fetchRowsAgreeWithStore()
    {
        Fixture f(fiveRequests());
        const std::int64_t ids[] = {4, 1, 99, 3, 2, 5};
        const auto rows = fetchRows(f.store->connection(), ids);
        QCOMPARE(rows.size(), std::size(ids));
        Statement stmt(f.store->db(), "SELECT source_id, start_ns, status, model_id, route_id, e2e_ns, network_ns, preprocess_ns,"
                                      " queue_ns, prefill_ns, decode_ns, postprocess_ns, unattributed_ns, ttft_ns, tpot_ns, ttlt_ns,"
                                      " input_tokens, output_tokens, dominant_name, scope_name, coalesce(model, ''),"
                                      " coalesce(route, '') FROM requests_readable WHERE id = ?");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const TableRow &row = rows[i];
            QCOMPARE(row.id, ids[i]);
            stmt.bindInt(1, ids[i]);
            if (stmt.step() != SQLITE_ROW) { // not in the store: only its id
                QVERIFY(row.sourceId.empty());
                for (RequestColumn c : allRequestColumns())
                    QVERIFY(!row.measured(c));
                stmt.reset();
                continue;
            }
            const auto text = [&](int col) {
                const auto *t = reinterpret_cast<const char *>(sqlite3_column_text(stmt.get(), col));
                return std::string(t ? t : "");
            };
            QCOMPARE(row.sourceId, text(0));
            for (int c = 1; c <= 17; ++c) {
                const std::int64_t expected = sqlite3_column_type(stmt.get(), c) == SQLITE_NULL ? kNotMeasured : sqlite3_column_int64(stmt.get(), c);
                QCOMPARE(row.values[std::size_t(c)], expected);
            }
            QCOMPARE(std::string(enumName(RequestColumn::Dominant, row.value(RequestColumn::Dominant))), text(18));
            QCOMPARE(std::string(enumName(RequestColumn::Scope, row.value(RequestColumn::Scope))), text(19));
            QCOMPARE(row.model, text(20));
            QCOMPARE(row.route, text(21));
            stmt.reset();
        }
    }

    void csvExport()
    {
        // A source id and a model that need quoting, a sub-ms duration, ns in the start time, an empty cell.
        Fixture f("{\"id\":\"a,\\\"b\\\"\",\"start_ns\":" + QByteArray::number(T0 + 123456789)
                  + ",\"model\":\"m\\nx\",\"e2e_ms\":0.0015}\n"
                    "{\"id\":\"plain\",\"start_ns\":" + QByteArray::number(T0) + ",\"queue_ms\":1234.5,\"input_tokens\":7}\n");
        const auto order = RequestOrder::build(f.store->connection(), {}, RequestColumn::Start, SortDirection::Descending);
        QVERIFY(order);
        const RequestColumn columns[] = {RequestColumn::SourceId, RequestColumn::Start, RequestColumn::Model,
                                         RequestColumn::E2e, RequestColumn::Queue, RequestColumn::InputTokens};
        std::ostringstream out;
        std::vector<std::uint64_t> progress;
        QVERIFY(writeCsv(out, f.store->connection(), *order, columns, [&](std::uint64_t done, std::uint64_t) {
            progress.push_back(done);
            return true;
        }));
        QCOMPARE(QString::fromStdString(out.str()),
                 QStringLiteral("source_id,start_utc,model,e2e_ms,queue_ms,input_tokens\r\n"
                                "\"a,\"\"b\"\"\",2023-11-14T22:13:20.123456789Z,\"m\nx\",0.001500,,\r\n"
                                "plain,2023-11-14T22:13:20.000000000Z,,1234.500000,1234.500000,7\r\n"));
        QCOMPARE(progress.back(), std::uint64_t(2));

        // Every column: a header and one line per row, each with 20 cells.
        std::ostringstream all;
        QVERIFY(writeCsv(all, f.store->connection(), *order, allRequestColumns()));
        QVERIFY(all.str().starts_with("source_id,start_utc,status,model,route,e2e_ms,network_ms,preprocess_ms,queue_ms,"));
        QVERIFY(all.str().find("\r\nplain,2023-11-14T22:13:20.000000000Z,ok,,,1234.500000,,,1234.500000,,,,0.000000,") != std::string::npos);

        // Cancelled by its progress callback.
        std::ostringstream cancelled;
        std::string why;
        QVERIFY(!writeCsv(cancelled, f.store->connection(), *order, columns, [](std::uint64_t, std::uint64_t) { return false; }, &why));
        QCOMPARE(why, std::string("cancelled"));
    }

    void exportCells_data()
    {
        QTest::addColumn<QString>("column");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero is a value") << "e2e" << qint64(0) << "0.000000";
        QTest::newRow("one ns") << "e2e" << qint64(1) << "0.000001";
        QTest::newRow("negative (clock skew)") << "network" << qint64(-1'500'000) << "-1.500000";
        QTest::newRow("large, exact") << "decode" << qint64(123'456'789'012) << "123456.789012";
        QTest::newRow("not measured is empty") << "e2e" << qint64(kNotMeasured) << "";
        QTest::newRow("start with ns") << "start" << qint64(T0 + 5) << "2023-11-14T22:13:20.000000005Z";
        QTest::newRow("start before the epoch") << "start" << qint64(-1) << "1969-12-31T23:59:59.999999999Z";
        QTest::newRow("status") << "status" << qint64(1) << "error";
        QTest::newRow("tokens") << "input_tokens" << qint64(0) << "0";
        QTest::newRow("dominant") << "dominant" << qint64(6) << "unattributed";
    }

    void exportCells()
    {
        QFETCH(QString, column);
        QFETCH(qint64, value);
        QFETCH(QString, expected);
        TableRow row;
        row.values.fill(kNotMeasured);
        const RequestColumn c = *columnFromName(column.toStdString());
        row.values[std::size_t(c)] = value;
        QCOMPARE(QString::fromStdString(exportCell(row, c)), expected);
    }

    void copyText_data()
    {
        QTest::addColumn<bool>("csv");
        QTest::addColumn<QString>("expected");
        QTest::newRow("tsv: tabs and breaks become spaces") << false << QStringLiteral("source_id\tmodel\tdecode_ms\nr\t1 a b\t\n");
        QTest::newRow("csv") << true << QStringLiteral("source_id,model,decode_ms\r\nr,\"1\ta\nb\",\r\n");
    }

    void copyText()
    {
        QFETCH(bool, csv);
        QFETCH(QString, expected);
        TableRow row;
        row.values.fill(kNotMeasured);
        row.sourceId = "r";
        row.values[0] = 1;
        row.model = "1\ta\nb";
        row.values[std::size_t(RequestColumn::Model)] = 1;
        const RequestColumn columns[] = {RequestColumn::SourceId, RequestColumn::Model, RequestColumn::Decode};
        QCOMPARE(QString::fromStdString(formatRowsText({&row, 1}, columns, csv ? TextFormat::Csv : TextFormat::Tsv)), expected);
    }

    void noRows()
    {
        Fixture f(fiveRequests());
        RequestFilter filter;
        filter.routes = {"/nowhere"};
        const auto order = RequestOrder::build(f.store->connection(), filter, RequestColumn::SourceId, SortDirection::Ascending);
        QVERIFY(order);
        QVERIFY(order->empty());
        QVERIFY(fetchRows(f.store->connection(), order->ids()).empty());
        std::ostringstream out;
        const RequestColumn columns[] = {RequestColumn::SourceId, RequestColumn::E2e};
        QVERIFY(writeCsv(out, f.store->connection(), *order, columns));
        QCOMPARE(out.str(), std::string("source_id,e2e_ms\r\n"));
        QCOMPARE(formatRowsText({}, columns, TextFormat::Tsv, false), std::string());
    }

    void largeOrderAgreesWithIndependentSort_data()
    {
        QTest::addColumn<QString>("column");
        QTest::addColumn<bool>("ascending");
        for (const char *c : {"e2e", "start", "model", "source_id", "input_tokens", "dominant"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 asc").arg(QLatin1String(c)))) << QString::fromLatin1(c) << true;
            QTest::newRow(qPrintable(QStringLiteral("%1 desc").arg(QLatin1String(c)))) << QString::fromLatin1(c) << false;
        }
    }

    void largeOrderAgreesWithIndependentSort()
    {
        // 200k requests: random durations with 10% not measured and many ties, models by name, unpadded
        // numeric source ids. The reference is std::stable_sort over values read by a plain query.
        QFETCH(QString, column);
        QFETCH(bool, ascending);
        static std::unique_ptr<Fixture> f;
        if (!f) {
            constexpr int kRequests = 200'000;
            std::mt19937_64 rng(11);
            QByteArray lines;
            lines.reserve(kRequests * 130);
            for (int i = 0; i < kRequests; ++i) {
                lines += "{\"id\":\"q" + QByteArray::number(qulonglong(rng() % 1'000'000)) + "-" + QByteArray::number(i) + "\",\"start_ns\":"
                         + QByteArray::number(T0 + qint64(rng() % 3'600'000) * MS) + ",\"model\":\"m" + QByteArray::number(int(rng() % 12))
                         + "\",\"queue_ms\":" + QByteArray::number(int(rng() % 500));
                if (rng() % 10)
                    lines += ",\"decode_ms\":" + QByteArray::number(int(rng() % 2000)) + ",\"input_tokens\":" + QByteArray::number(int(rng() % 50));
                lines += "}\n";
            }
            f = std::make_unique<Fixture>(lines);
        }
        const RequestColumn c = *columnFromName(column.toStdString());
        const SortDirection direction = ascending ? SortDirection::Ascending : SortDirection::Descending;
        QElapsedTimer timer;
        timer.start();
        const auto order = RequestOrder::build(f->store->connection(), {}, c, direction);
        const qint64 builtMs = timer.elapsed();
        QVERIFY(order);
        QCOMPARE(order->size(), std::size_t(200'000));
        qInfo("order of 200k rows by %s: %lld ms", qPrintable(column), builtMs);

        struct Ref {
            std::int64_t id;
            std::int64_t value; // kNotMeasured when NULL
            std::string text;
        };
        std::vector<Ref> ref;
        const std::string sql = c == RequestColumn::SourceId ? "SELECT request_id, NULL, source_id FROM request_details"
                                : c == RequestColumn::Model  ? "SELECT r.id, NULL, m.text FROM requests r JOIN labels m ON m.id = r.model_id"
                                                             : "SELECT id, " + std::string(c == RequestColumn::E2e ? "e2e_ns"
                                                                               : c == RequestColumn::Start ? "start_ns"
                                                                               : c == RequestColumn::InputTokens ? "input_tokens"
                                                                                                                 : "dominant")
                                                                   + ", NULL FROM requests";
        Statement stmt(f->store->db(), sql);
        while (stmt.step() == SQLITE_ROW) {
            const auto *t = reinterpret_cast<const char *>(sqlite3_column_text(stmt.get(), 2));
            ref.push_back({sqlite3_column_int64(stmt.get(), 0),
                           sqlite3_column_type(stmt.get(), 1) == SQLITE_NULL ? kNotMeasured : sqlite3_column_int64(stmt.get(), 1),
                           t ? t : ""});
        }
        std::sort(ref.begin(), ref.end(), [](const Ref &a, const Ref &b) { return a.id < b.id; });
        const bool text = c == RequestColumn::SourceId || c == RequestColumn::Model;
        std::stable_sort(ref.begin(), ref.end(), [&](const Ref &a, const Ref &b) {
            if (text) {
                const int cmp = naturalCompare(a.text, b.text);
                return ascending ? cmp < 0 : cmp > 0;
            }
            if (isMeasured(a.value) != isMeasured(b.value))
                return isMeasured(a.value);
            return ascending ? a.value < b.value : a.value > b.value;
        });
        for (std::size_t i = 0; i < ref.size(); ++i) {
            if (order->idAt(i) != ref[i].id)
                QFAIL(qPrintable(QStringLiteral("row %1: id %2, expected %3").arg(i).arg(order->idAt(i)).arg(ref[i].id)));
        }
    }

    void unreadableStoreIsAnError()
    {
        Fixture f(fiveRequests());
        const auto order = RequestOrder::build(f.store->connection(), {}, RequestColumn::E2e, SortDirection::Ascending);
        QVERIFY(order);
        QVERIFY(f.store->exec("DROP VIEW requests_readable; DROP TABLE requests;"));
        std::string why;
        QVERIFY(!RequestOrder::build(f.store->connection(), {}, RequestColumn::E2e, SortDirection::Ascending, nullptr, &why));
        QVERIFY2(why.find("no such table: requests") != std::string::npos, why.c_str());
        RowFetcher fetcher(f.store->connection());
        const auto rows = fetcher.fetch(order->ids());
        QCOMPARE(rows.size(), order->size());
        QVERIFY(!fetcher.error().empty());
        // An export that cannot read the rows fails rather than writing blank ("not measured") cells.
        std::ostringstream out;
        QVERIFY(!writeCsv(out, f.store->connection(), *order, allRequestColumns(), {}, &why));
        QVERIFY2(why.find("no such table") != std::string::npos, why.c_str());
    }

    void cancelStopsTheBuild()
    {
        QByteArray lines;
        for (int i = 0; i < 40'000; ++i)
            lines += "{\"id\":\"" + QByteArray::number(i) + "\",\"start_ns\":" + QByteArray::number(T0 + i) + ",\"queue_ms\":1}\n";
        Fixture f(lines);
        const std::atomic<bool> cancel = true;
        std::string why;
        QVERIFY(!RequestOrder::build(f.store->connection(), {}, RequestColumn::Queue, SortDirection::Ascending, &cancel, &why));
        QCOMPARE(why, std::string("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestRequestTable)
#include "tst_request_table.moc"
