// SPDX-License-Identifier: GPL-3.0-or-later
// Values read back from a store are not trusted: a store may come from anywhere (a foreign program, a
// crafted file). Each row is a store that the fuzz target store_open found to break a scan: its ids, its
// scopes or its token times rewritten, then analysed.

#include "analysis/analysis.h"
#include "store/request_scan.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "test_support.h"

#include <QTest>

#include <cstdint>
#include <limits>

using namespace lx;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

/// Three requests, each with three token times.
QByteArray threeRequests()
{
    QByteArray out;
    for (int i = 0; i < 3; ++i) {
        const qint64 t = 1'700'000'000'000'000'000LL + qint64(i) * 1'000'000'000LL;
        out += "{\"id\":\"r" + QByteArray::number(i) + "\",\"t_server_recv_ns\":" + QByteArray::number(t)
               + ",\"t_sched_ns\":" + QByteArray::number(t + 5'000'000) + ",\"t_last_token_ns\":"
               + QByteArray::number(t + 90'000'000) + ",\"token_times_ns\":[" + QByteArray::number(t + 50'000'000) + ","
               + QByteArray::number(t + 70'000'000) + "," + QByteArray::number(t + 90'000'000) + "]}\n";
    }
    return out;
}

void exec(const Store &store, const QByteArray &sql)
{
    char *error = nullptr;
    QVERIFY2(sqlite3_exec(store.db(), sql.constData(), nullptr, nullptr, &error) == SQLITE_OK, error);
}

/// The token times of every request replaced by these (little-endian int64, as the importer writes them).
void setTokenTimes(const Store &store, std::initializer_list<std::int64_t> times)
{
    Statement stmt(store.db(), "UPDATE token_times SET times = ?");
    QByteArray blob;
    for (std::int64_t t : times)
        blob.append(reinterpret_cast<const char *>(&t), sizeof t);
    sqlite3_bind_blob(stmt.get(), 1, blob.constData(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
    QCOMPARE(stmt.step(), SQLITE_DONE);
}

} // namespace

class TestStoredValues : public QObject {
    Q_OBJECT

private slots:
    void idsOfAnySpan_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("rows");
        QTest::addColumn<bool>("counted");
        QTest::newRow("dense ids: the span is the bound, nothing counted") << qint64(1) << qint64(3) << qint64(3) << false;
        QTest::newRow("ids 1 and 10^12: counted, not 10^12 values reserved") << qint64(1) << qint64(1'000'000'000'000) << qint64(3) << true;
        QTest::newRow("ids -2^63 and 2^63-1: no overflow of the span") << qint64(kMin) << qint64(kMax) << qint64(3) << true;
        QTest::newRow("ids 1, 2 and 116 (as the fuzz find): the span bounds them, one half from 0") << qint64(1) << qint64(116) << qint64(116) << false;
    }
    void idsOfAnySpan()
    {
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(qint64, rows);
        QFETCH(bool, counted);
        lxtest::StoreFixture fixture(threeRequests());
        QVERIFY(fixture.store);
        const Store &store = *fixture.store;
        // The middle request keeps its id; the first and the last take the given ones (details and token times follow).
        exec(store, "PRAGMA foreign_keys = OFF");
        for (auto [from, to] : {std::pair<qint64, qint64>(1, first), std::pair<qint64, qint64>(3, last)}) {
            if (from == to)
                continue;
            const QByteArray f = QByteArray::number(from), t = QByteArray::number(to);
            exec(store, "UPDATE requests SET id = " + t + " WHERE id = " + f);
            exec(store, "UPDATE token_times SET request_id = " + t + " WHERE request_id = " + f);
        }
        const RowIdRange range = requestIdRange(store);
        QCOMPARE(range.lo, first);
        QCOMPARE(range.hi, last);
        QCOMPARE(range.rows(), rows);
        QCOMPARE(range.counted >= 0, counted);
        QVERIFY(!range.twoHalves);
        const Report report = analyze(store);
        QCOMPARE(report.e2e.stat.count, qint64(3));
        QCOMPARE(report.itl.stat.count, qint64(6));
    }

    void tokenTimesAsStored_data()
    {
        QTest::addColumn<qint64>("a");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<int>("scope");
        QTest::addColumn<qint64>("gaps");
        QTest::newRow("in order: one gap per request") << qint64(10) << qint64(25) << 2 << qint64(3);
        QTest::newRow("out of order: no gap (not a negative latency)") << qint64(25) << qint64(10) << 2 << qint64(0);
        QTest::newRow("2^64-1 apart: no gap (past int64)") << qint64(kMin) << qint64(kMax) << 2 << qint64(0);
        QTest::newRow("a token scope no scope has: read as none") << qint64(10) << qint64(25) << 1'554'248'627 << qint64(3);
    }
    void tokenTimesAsStored()
    {
        QFETCH(qint64, a);
        QFETCH(qint64, b);
        QFETCH(int, scope);
        QFETCH(qint64, gaps);
        lxtest::StoreFixture fixture(threeRequests());
        QVERIFY(fixture.store);
        setTokenTimes(*fixture.store, {a, b});
        exec(*fixture.store, "UPDATE requests SET token_scope = " + QByteArray::number(scope));
        const Report report = analyze(*fixture.store);
        QCOMPARE(report.itl.stat.count, gaps);
        if (gaps > 0)
            QCOMPARE(report.itl.stat.maxNs.value_or(-1), double(b - a));
    }
};

QTEST_GUILESS_MAIN(TestStoredValues)
#include "tst_stored_values.moc"
