// SPDX-License-Identifier: GPL-3.0-or-later
// Attributes that many requests share are stored once (attribute_sets.h), the others in their row; a request
// reads the same attributes either way, and a store of schema version 1 (every attribute in its row) is
// read as it is and migrated when opened for writing.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "model/text_keys.h"
#include "store/attribute_sets.h"
#include "store/request_lookup.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "older_stores.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace lx;
using lxtest::writeFile;

namespace {

enum class Attributes { SharedZones, UserPerRequest, LongText, None };

/// `count` records r0..; their attributes as `kind` says. The zone of record i is z(i % 3).
QByteArray records(int count, Attributes kind, const char *prefix = "r")
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        const qint64 t = 1'700'000'000'000'000'000LL + qint64(i) * 1'000'000LL;
        out += QByteArray("{\"id\":\"") + prefix + QByteArray::number(i) + "\",\"t_server_recv_ns\":" + QByteArray::number(t)
               + ",\"t_last_token_ns\":" + QByteArray::number(t + 200'000'000 + i);
        switch (kind) {
        case Attributes::SharedZones:
            out += ",\"zone\":\"z" + QByteArray::number(i % 3) + "\"";
            break;
        case Attributes::UserPerRequest:
            out += ",\"zone\":\"z" + QByteArray::number(i % 3) + "\",\"user\":\"u" + QByteArray::number(i) + "\"";
            break;
        case Attributes::LongText:
            out += ",\"zone\":\"z" + QByteArray::number(i % 3) + "\",\"note\":\"" + QByteArray(int(kMaxSetBytes), 'n') + "\"";
            break;
        case Attributes::None:
            break;
        }
        out += "}\n";
    }
    return out;
}

qint64 scalar(const Store &store, const std::string &sql)
{
    Statement stmt(store.db(), sql);
    return stmt.step() == SQLITE_ROW ? sqlite3_column_int64(stmt.get(), 0) : -1;
}

/// Requests whose attributes (read through the view) name the zone of their id's number: all of them, when
/// every request kept its attributes whole.
qint64 requestsWithTheirZone(const Store &store)
{
    return scalar(store, "SELECT count(*) FROM requests_readable WHERE json_extract(attributes, '$.zone')"
                         " = 'z' || (CAST(substr(source_id, 2) AS INTEGER) % 3)");
}

/// A store as version 1 wrote it: every attribute in its row, no sets (older_stores.h).
bool downgradeToVersion1(const std::string &path) { return lxtest::downgradeStore(path, 1); }

qint64 filtered(const Store &store, const char *expression)
{
    const std::optional<RequestFilter> filter = lxtest::filterOf(QString::fromLatin1(expression));
    return filter ? analyze(store, *filter).total : -1;
}

} // namespace

class TestAttributeSets : public QObject {
    Q_OBJECT

private slots:
    void storedOnceOrInTheRow_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("sets");
        QTest::addColumn<qint64>("inRow");
        QTest::addColumn<qint64>("withZone");
        QTest::newRow("three zones: three sets") << 60 << int(Attributes::SharedZones) << qint64(3) << qint64(0) << qint64(60);
        QTest::newRow("a user per request: the sets fill, the rest in the row")
            << 5000 << int(Attributes::UserPerRequest) << qint64(kMaxAttributeSets) << qint64(5000 - kMaxAttributeSets)
            << qint64(5000);
        QTest::newRow("a user per request, past the parser's text keys")
            << int(kMaxTextKeys + 5000) << int(Attributes::UserPerRequest) << qint64(kMaxAttributeSets)
            << qint64(kMaxTextKeys + 5000 - kMaxAttributeSets) << qint64(kMaxTextKeys + 5000);
        QTest::newRow("a user per request, long past the text keys: no longer looked up")
            << int(2 * kMaxTextKeys + 5000) << int(Attributes::UserPerRequest) << qint64(kMaxAttributeSets)
            << qint64(2 * kMaxTextKeys + 5000 - kMaxAttributeSets) << qint64(2 * kMaxTextKeys + 5000);
        QTest::newRow("longer than a set may be: in the row") << 30 << int(Attributes::LongText) << qint64(0) << qint64(30) << qint64(30);
        QTest::newRow("no attributes: neither") << 30 << int(Attributes::None) << qint64(0) << qint64(0) << qint64(0);
    }

    void storedOnceOrInTheRow()
    {
        QFETCH(int, count);
        QFETCH(int, kind);
        QFETCH(qint64, sets);
        QFETCH(qint64, inRow);
        QFETCH(qint64, withZone);
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("a.lxdb"), records(count, Attributes(kind)));
        std::string why;
        auto store = Store::openReadOnly(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(scalar(*store, "SELECT count(*) FROM attribute_sets"), sets);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_details WHERE attributes IS NOT NULL"), inRow);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_details WHERE attributes IS NOT NULL AND attribute_set IS NOT NULL"), qint64(0));
        QCOMPARE(requestsWithTheirZone(*store), withZone);
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_attributes WHERE key = 'zone'"), withZone);
        QCOMPARE(filtered(*store, "zone = \"z1\""), withZone == 0 ? 0 : qint64((count + 1) / 3));
        const auto pairs = attributePairs(*store, 2); // the second record: zone z1
        const bool zoneZ1 = std::find(pairs.begin(), pairs.end(), std::pair<std::string, std::string>("zone", "\"z1\"")) != pairs.end();
        QCOMPARE(zoneZ1, withZone > 0);
    }

    void boundedByTheirNumber()
    {
        QTemporaryDir dir;
        std::string why;
        auto store = Store::open(dir.filePath(QStringLiteral("s.lxdb")).toStdString(), &why);
        QVERIFY2(store, why.c_str());
        QVERIFY(store->exec("BEGIN"));
        AttributeSets sets(store->db(), 2);
        const auto a = sets.idOf("{\"a\":1}");
        const auto b = sets.idOf("{\"b\":1}");
        QVERIFY(a && b && *a != *b);
        QCOMPARE(sets.idOf("{\"a\":1}"), a);           // known: the same set
        QCOMPARE(sets.idOf("{\"c\":1}"), std::nullopt); // a third: stays in its row
        QCOMPARE(sets.idOf(""), std::nullopt);          // no attributes: no set
        QVERIFY(store->exec("COMMIT"));
        AttributeSets again(store->db(), 3); // knows the two the store holds
        QCOMPARE(again.idOf("{\"b\":1}"), b);
        QVERIFY(again.idOf("{\"c\":1}").has_value());
        QCOMPARE(again.idOf("{\"d\":1}"), std::nullopt);
        QVERIFY(again.error().empty());
    }

    void readsVersion1AsItIs()
    {
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("v1.lxdb"), records(90, Attributes::SharedZones));
        std::string why;
        const std::string before = lxtest::everythingReported(*Store::openReadOnly(path, &why));
        QVERIFY(downgradeToVersion1(path));
        auto store = Store::openReadOnly(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(lxtest::everythingReported(*store), before);
        QCOMPARE(filtered(*store, "zone = \"z2\""), qint64(30));
        QCOMPARE(attributePairs(*store, 3).front().second, std::string("\"z2\""));
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key = 'schema_version'"), qint64(1)); // nothing written
    }

    void migratesVersion1WhenWriting()
    {
        QTemporaryDir dir;
        const std::string path = lxtest::importedStoreFile(dir, QStringLiteral("v1.lxdb"), records(90, Attributes::SharedZones));
        QVERIFY(downgradeToVersion1(path));
        std::string why;
        auto store = Store::open(path, &why);
        QVERIFY2(store, why.c_str());
        QCOMPARE(scalar(*store, "SELECT value FROM meta WHERE key = 'schema_version'"), qint64(kSchemaVersion));
        QCOMPARE(requestsWithTheirZone(*store), qint64(90)); // version 1's rows keep their attributes
        importFiles(*store, {writeFile(dir, QStringLiteral("more.jsonl"), records(30, Attributes::SharedZones, "s"))});
        QCOMPARE(scalar(*store, "SELECT count(*) FROM attribute_sets"), qint64(3)); // the new rows name sets
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_details WHERE attribute_set IS NOT NULL"), qint64(30));
        QCOMPARE(filtered(*store, "zone = \"z0\""), qint64(40));
        QCOMPARE(scalar(*store, "SELECT count(*) FROM request_attributes WHERE key = 'zone'"), qint64(120));
        store.reset();
        QVERIFY2(Store::openReadOnly(path, &why), why.c_str()); // a migrated store passes the checks of this version
    }

    void mergesSetsOfEitherVersion_data()
    {
        QTest::addColumn<bool>("sourceIsVersion1");
        QTest::newRow("version 3 source: its sets mapped") << false;
        QTest::newRow("version 1 source: attributes in the rows") << true;
    }

    void mergesSetsOfEitherVersion()
    {
        QFETCH(bool, sourceIsVersion1);
        QTemporaryDir dir;
        // The two stores meet their zones in other orders, so that a set's id differs between them.
        const std::string first = lxtest::importedStoreFile(dir, QStringLiteral("1.lxdb"), records(30, Attributes::SharedZones, "a"));
        QByteArray reversed;
        const QList<QByteArray> lines = records(30, Attributes::SharedZones, "b").split('\n');
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (!it->isEmpty())
                reversed += *it + '\n';
        const std::string second = lxtest::importedStoreFile(dir, QStringLiteral("2.lxdb"), reversed);
        if (sourceIsVersion1)
            QVERIFY(downgradeToVersion1(second));
        std::string why;
        auto merged = Store::openTemporary(&why);
        QVERIFY2(mergeStore(*merged, first, &why), why.c_str());
        QVERIFY2(mergeStore(*merged, second, &why), why.c_str());
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM requests"), qint64(60));
        QCOMPARE(scalar(*merged, "SELECT count(*) FROM attribute_sets"), qint64(3));
        QCOMPARE(requestsWithTheirZone(*merged), qint64(60));
        QCOMPARE(filtered(*merged, "zone = \"z1\""), qint64(20));
    }
};

QTEST_GUILESS_MAIN(TestAttributeSets)
#include "tst_attribute_sets.moc"
