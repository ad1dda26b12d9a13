// SPDX-License-Identifier: GPL-3.0-or-later
// Good input through the native JSON-lines and CSV readers, from file to store: every expected value
// below is worked out by hand from docs/DOMAIN.md, never with the decomposition code it checks.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using lxtest::dump;

namespace {

constexpr qint64 kBase = 1700000000000000000; // stamps are written as offsets from here

/// One JSON-lines record with id r1 in the timestamps form. `stamps` is "sr=0 ft=1000 ...": short
/// names for the t_*_ns fields, values in ns after kBase; `extra` is appended inside the object.
QByteArray ts(const char *stamps, const char *extra = "")
{
    static const QHash<QByteArray, QByteArray> names = {
        {"cs", "t_client_send_ns"}, {"sr", "t_server_recv_ns"}, {"pd", "t_preprocess_done_ns"}, {"sch", "t_sched_ns"},
        {"ft", "t_first_token_ns"}, {"lt", "t_last_token_ns"},  {"ss", "t_server_send_ns"},     {"cr", "t_client_recv_ns"}};
    QByteArray line = R"({"id":"r1")";
    const QList<QByteArray> pairs = QByteArray(stamps).split(' ');
    for (const QByteArray &pair : pairs) {
        const QList<QByteArray> kv = pair.split('=');
        line += ",\"" + names.value(kv[0], "unknown_" + kv[0]) + "\":" + QByteArray::number(kBase + kv[1].toLongLong());
    }
    return line + extra + "}\n";
}

using lxtest::Imported;
using lxtest::importPaths;

/// Imports one file written from `content` and checks that every record was accepted.
#define IMPORT_CLEANLY(imported, dir, fileName, content, records)                                                   \
    const Imported imported = importPaths({lxtest::writeFile(dir, fileName, content)});                             \
    QVERIFY2(imported.store, imported.error.c_str());                                                               \
    QCOMPARE(imported.files.size(), std::size_t(1));                                                                \
    QVERIFY2(imported.files[0].outcome == lx::FileImport::Outcome::Complete && imported.files[0].rejected == 0,     \
             lxtest::describe(imported.files[0]).constData());                                                      \
    QCOMPARE(imported.files[0].accepted, qint64(records))

// The derived columns in pipeline order: network..unattributed, e2e, scope, ttft, tpot, ttlt, dominant,
// flags, then the start relative to kBase.
constexpr const char *kDerivedSql =
    "SELECT network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns, unattributed_ns, e2e_ns,"
    " scope_name, ttft_ns, tpot_ns, ttlt_ns, dominant_name, flags, start_ns - 1700000000000000000"
    " FROM requests_readable ORDER BY id";

// Zero rows: the segments add up to e2e exactly wherever e2e is measured.
constexpr const char *kSumMismatchSql =
    "SELECT id FROM requests WHERE e2e_ns IS NOT NULL AND coalesce(network_ns, 0) + coalesce(preprocess_ns, 0)"
    " + coalesce(queue_ns, 0) + coalesce(prefill_ns, 0) + coalesce(decode_ns, 0) + coalesce(postprocess_ns, 0)"
    " + unattributed_ns != e2e_ns";

} // namespace

class TestNativeReaders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timestampsForm_data();
    void timestampsForm();
    void durationsForm_data();
    void durationsForm();
    void attributesKeptVerbatim_data();
    void attributesKeptVerbatim();
    void keysInAnyOrderAndEscaped_data();
    void keysInAnyOrderAndEscaped();
    void keysComparedWhole_data();
    void keysComparedWhole();
    void tokenTimes_data();
    void tokenTimes();
    void absentIsNullNeverZero_data();
    void absentIsNullNeverZero();
    void csvForms_data();
    void csvForms();
    void jsonlAndCsvGiveIdenticalRows_data();
    void jsonlAndCsvGiveIdenticalRows();
    void zstdRecognisedByMagic_data();
    void zstdRecognisedByMagic();
    void lineEnds_data();
    void lineEnds();

private:
    QTemporaryDir m_dir;
};

void TestNativeReaders::timestampsForm_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // see kDerivedSql

    QTest::newRow("all eight stamps") << ts("cs=0 sr=2000 pd=6000 sch=11000 ft=29000 lt=79000 ss=80000 cr=85000", R"(,"output_tokens":6)")
        << QStringLiteral("7000|4000|5000|18000|50000|1000|0|85000|client|27000|10000|77000|decode|0|0");
    QTest::newRow("server stamps only: server scope") << ts("sr=0 pd=1000 sch=3000 ft=10000 lt=40000 ss=42000", R"(,"output_tokens":4)")
        << QStringLiteral("NULL|1000|2000|7000|30000|2000|0|42000|server|10000|10000|40000|decode|0|0");
    QTest::newRow("no server send: engine scope, queue from server recv") << ts("sr=0 sch=5000 ft=9000 lt=12000")
        << QStringLiteral("NULL|NULL|5000|4000|3000|NULL|0|12000|engine|9000|NULL|12000|queue|0|0");
    QTest::newRow("missing sched: the stretch is unattributed") << ts("sr=0 pd=2000 ft=20000 lt=25000 ss=26000")
        << QStringLiteral("NULL|2000|NULL|NULL|5000|1000|18000|26000|server|20000|NULL|25000|unattributed|0|0");
    QTest::newRow("client stamps only") << ts("cs=0 cr=50000")
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|50000|50000|client|NULL|NULL|NULL|unattributed|0|0");
    QTest::newRow("tie goes to the earlier segment") << ts("sr=0 pd=1000 sch=4000 ft=7000 lt=10000 ss=10000")
        << QStringLiteral("NULL|1000|3000|3000|3000|0|0|10000|server|7000|NULL|10000|queue|0|0");
    QTest::newRow("clock skew: negative network kept and flagged") << ts("cs=5000 sr=2000 sch=3000 ft=6000 lt=10000 ss=12000 cr=14000")
        << QStringLiteral("-1000|NULL|1000|3000|4000|2000|0|9000|client|4000|NULL|8000|decode|1|2000");
    QTest::newRow("one output token has no TPOT") << ts("sr=0 ft=1000 lt=1000", R"(,"output_tokens":1)")
        << QStringLiteral("NULL|NULL|NULL|NULL|0|NULL|1000|1000|engine|1000|NULL|1000|unattributed|0|0");
    QTest::newRow("TPOT rounded to the nearest ns") << ts("sr=0 ft=1000 lt=3000 ss=3000", R"(,"output_tokens":4)")
        << QStringLiteral("NULL|NULL|NULL|NULL|2000|0|1000|3000|server|1000|667|3000|decode|0|0");
    QTest::newRow("no end stamp: no e2e, no dominant") << ts("sr=0 ft=1000")
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|1000|NULL|NULL|NULL|0|0");
}

void TestNativeReaders::timestampsForm()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    IMPORT_CLEANLY(imported, m_dir, QStringLiteral("timestamps.jsonl"), content, 1);
    QCOMPARE(dump(imported.store->db(), kDerivedSql), expected);
    QCOMPARE(dump(imported.store->db(), kSumMismatchSql), QString());

    // The analysis reads the same row: the e2e scope is named, the dominant segment counted.
    const lx::Report report = lx::analyze(*imported.store);
    const QStringList cells = expected.split(QLatin1Char('|'));
    QCOMPARE(report.total, qint64(1));
    QCOMPARE(QString::fromStdString(report.e2e.scope), cells[8] == QLatin1String("NULL") ? QString() : cells[8]);
    QCOMPARE(report.dominantTotal, qint64(cells[12] == QLatin1String("NULL") ? 0 : 1));
}

void TestNativeReaders::durationsForm_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // kDerivedSql, then t_client_send_ns and t_server_recv_ns after kBase

    QTest::newRow("e2e_ms remainder is unattributed") << QStringLiteral("d.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":1700000000000000000,"preprocess_ms":1.5,"queue_ms":2,"prefill_ms":3.25,"decode_ms":10,"postprocess_ms":0.5,"e2e_ms":20})")
        << QStringLiteral("NULL|1500000|2000000|3250000|10000000|500000|2750000|20000000|server|6750000|NULL|16750000|decode|2|0|NULL|0");
    QTest::newRow("network makes start the client send") << QStringLiteral("d.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":1700000000000000000,"network_ms":4,"prefill_ms":6,"decode_ms":5,"output_tokens":6})")
        << QStringLiteral("4000000|NULL|NULL|6000000|5000000|NULL|0|15000000|client|6000000|1000000|11000000|prefill|2|0|0|NULL");
    QTest::newRow("without prefill no TTFT") << QStringLiteral("d.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":1700000000000000000,"queue_ms":7,"decode_ms":3,"e2e_ms":12})")
        << QStringLiteral("NULL|NULL|7000000|NULL|3000000|NULL|2000000|12000000|server|NULL|NULL|NULL|queue|2|0|NULL|0");
    QTest::newRow("e2e_ms alone is all unattributed") << QStringLiteral("d.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":1700000000000000000,"e2e_ms":9})")
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|9000000|9000000|server|NULL|NULL|NULL|unattributed|2|0|NULL|0");
    QTest::newRow("zero and exponent milliseconds") << QStringLiteral("d.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":1700000000000000000,"queue_ms":0,"prefill_ms":2,"decode_ms":1e1})")
        << QStringLiteral("NULL|NULL|0|2000000|10000000|NULL|0|12000000|server|2000000|NULL|12000000|decode|2|0|NULL|0");
    QTest::newRow("csv") << QStringLiteral("d.csv")
        << QByteArray("id,start_ns,preprocess_ms,queue_ms,prefill_ms,decode_ms,postprocess_ms,e2e_ms\n"
                      "r1,1700000000000000000,1.5,2,3.25,10,0.5,20\n")
        << QStringLiteral("NULL|1500000|2000000|3250000|10000000|500000|2750000|20000000|server|6750000|NULL|16750000|decode|2|0|NULL|0");
}

void TestNativeReaders::durationsForm()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    IMPORT_CLEANLY(imported, m_dir, fileName, content, 1);
    const QString stamps = dump(imported.store->db(), "SELECT t_client_send_ns - 1700000000000000000,"
                                                      " t_server_recv_ns - 1700000000000000000 FROM requests_readable");
    QCOMPARE(dump(imported.store->db(), kDerivedSql) + QLatin1Char('|') + stamps, expected);
    QCOMPARE(dump(imported.store->db(), kSumMismatchSql), QString());
}

void TestNativeReaders::attributesKeptVerbatim_data()
{
    QTest::addColumn<QByteArray>("fields"); // appended after the id and two stamps
    QTest::addColumn<QString>("expected");  // the attributes column

    QTest::newRow("nested object and array") << QByteArray(R"(,"gpu":{"ids":[0,1],"name":"H100"},"tags":["a",{"b":null}])")
        << QStringLiteral(R"({"gpu":{"ids":[0,1],"name":"H100"},"tags":["a",{"b":null}]})");
    QTest::newRow("string with escapes") << QByteArray(R"(,"note":"say \"hi\"\\n\u00e9\t")")
        << QStringLiteral(R"({"note":"say \"hi\"\\n\u00e9\t"})");
    QTest::newRow("numbers as written") << QByteArray(R"(,"temp":0.70,"big":123456789012345678901234567890,"exp":1E-3,"neg":-0)")
        << QStringLiteral(R"({"temp":0.70,"big":123456789012345678901234567890,"exp":1E-3,"neg":-0})");
    QTest::newRow("booleans and null") << QByteArray(R"(,"cached":true,"x":null,"f":false)")
        << QStringLiteral(R"({"cached":true,"x":null,"f":false})");
    QTest::newRow("whitespace between tokens") << QByteArray(R"( , "a" : [1, 2] , "b" :  7 )")
        << QStringLiteral(R"({"a":[1, 2],"b":7})");
    QTest::newRow("keys with escapes") << QByteArray(R"(,"k\"ey\n":1,"caf\u00e9":2,"back\\slash":3)")
        << QString::fromUtf8(R"({"k\"ey\n":1,"caf)" "\xC3\xA9" R"(":2,"back\\slash":3})");
    QTest::newRow("known fields in between") << QByteArray(R"(,"a":1,"model":"m","b":2)") << QStringLiteral(R"({"a":1,"b":2})");
    QTest::newRow("no unknown key: NULL") << QByteArray(R"(,"model":"m")") << QStringLiteral("NULL");
}

void TestNativeReaders::attributesKeptVerbatim()
{
    QFETCH(QByteArray, fields);
    QFETCH(QString, expected);
    const QByteArray line = R"({"id":"r1","t_server_recv_ns":1,"t_last_token_ns":2)" + fields + "}\n";
    IMPORT_CLEANLY(imported, m_dir, QStringLiteral("attributes.jsonl"), line, 1);
    if (QByteArray(QTest::currentDataTag()).startsWith("whitespace")) {
        // Whitespace between tokens is not part of a value: compare the minified forms.
        const QByteArray minified = "SELECT json('" + expected.toUtf8() + "')";
        QCOMPARE(dump(imported.store->db(), "SELECT json(attributes) FROM requests_readable"),
                 dump(imported.store->db(), minified.constData()));
    } else {
        QCOMPARE(dump(imported.store->db(), "SELECT attributes FROM requests_readable"), expected);
    }
    if (expected != QLatin1String("NULL"))
        QCOMPARE(dump(imported.store->db(), "SELECT json_valid(attributes) FROM requests_readable"), QStringLiteral("1"));
}

// Every line is read for what its keys say, whatever the line before said: keys that change places, a key
// a letter short of a known one, a known key written with an escape, more keys than the line before.
void TestNativeReaders::keysInAnyOrderAndEscaped_data()
{
    QTest::addColumn<QByteArray>("lines");
    QTest::addColumn<QString>("expected"); // source id, model, TTLT, attributes, by line

    const QByteArray first = R"({"id":"r1","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000005000,"model":"a"})" "\n";
    QTest::newRow("the same order") << first + R"({"id":"r2","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000007000,"model":"b"})" "\n"
        << QStringLiteral("r1|a|5000|NULL\nr2|b|7000|NULL");
    QTest::newRow("keys change places") << first + R"({"model":"b","t_last_token_ns":1700000000000007000,"id":"r2","t_server_recv_ns":1700000000000000000})" "\n"
        << QStringLiteral("r1|a|5000|NULL\nr2|b|7000|NULL");
    QTest::newRow("a key a letter short is an attribute") << first + R"({"id":"r2","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000007000,"mode":"b"})" "\n"
        << QStringLiteral("r1|a|5000|NULL\nr2|NULL|7000|{\"mode\":\"b\"}");
    QTest::newRow("a known key with an escape") << first + R"({"id":"r2","t_server_recv\u005fns":1700000000000000000,"t_last_token_ns":1700000000000007000,"mod\u0065l":"b"})" "\n"
        << QStringLiteral("r1|a|5000|NULL\nr2|b|7000|NULL");
    QTest::newRow("an escaped quote in a key") << first + R"({"id":"r2","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000007000,"mo\"del":"b"})" "\n"
        << QStringLiteral("r1|a|5000|NULL\nr2|NULL|7000|{\"mo\\\"del\":\"b\"}");
    QTest::newRow("more keys than the line before") << first + R"({"id":"r2","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000007000,"model":"b","x":1,"y":2})" "\n" + QByteArray(first).replace("r1", "r3")
        << QStringLiteral("r1|a|5000|NULL\nr2|b|7000|{\"x\":1,\"y\":2}\nr3|a|5000|NULL");
    // Past the places the reader remembers (256): the keys there are read afresh on every line.
    QByteArray wide1 = R"({"id":"r1","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000005000)";
    QByteArray wide2 = R"({"id":"r2","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000000007000)";
    QString attributes;
    for (int i = 0; i < 300; ++i) {
        wide1 += ",\"k" + QByteArray::number(i) + "\":" + QByteArray::number(i);
        wide2 += ",\"k" + QByteArray::number(i) + "\":" + QByteArray::number(i);
        attributes += (i ? QStringLiteral(",") : QStringLiteral("{")) + QStringLiteral("\"k%1\":%1").arg(i);
    }
    attributes += QLatin1Char('}');
    QTest::newRow("300 keys, a known one past the remembered places") << wide1 + R"(,"model":"a","zz":1})" "\n" + wide2 + R"(,"mode":"b","model":"c"})" "\n"
        << QStringLiteral("r1|a|5000|%1\nr2|c|7000|%2").arg(QString(attributes).replace(QStringLiteral("}"), QStringLiteral(",\"zz\":1}")),
                                                          QString(attributes).replace(QStringLiteral("}"), QStringLiteral(",\"mode\":\"b\"}")));
}

void TestNativeReaders::keysInAnyOrderAndEscaped()
{
    QFETCH(QByteArray, lines);
    QFETCH(QString, expected);
    const int records = int(lines.count('\n'));
    IMPORT_CLEANLY(imported, m_dir, QStringLiteral("keys.jsonl"), lines, records);
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, model, ttlt_ns, attributes FROM requests_readable ORDER BY id"), expected);
}

// A key at the place where the line before had one is compared in place with that one: a key that differs
// from it in one byte (its first, its middle or its last) is its own, whatever its length, short of a word,
// a word and over, or past simdjson's padding (64).
void TestNativeReaders::keysComparedWhole_data()
{
    QTest::addColumn<QByteArray>("before"); // the first line's attribute key
    QTest::addColumn<QByteArray>("after");  // the second line's, at the same place

    for (int length : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 70}) {
        QByteArray key;
        for (int i = 0; i < length; ++i)
            key += char('a' + i % 26);
        for (int at : {0, length / 2, length - 1}) {
            QByteArray other = key;
            other[at] = 'Z';
            QTest::addRow("%d bytes, byte %d differs", length, at) << key << other;
        }
    }
}

void TestNativeReaders::keysComparedWhole()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    const QByteArray lines = R"({"id":"r1","t_server_recv_ns":1700000000000000000,")" + before
                             + R"(":1,"t_last_token_ns":1700000000000005000})" "\n"
                               R"({"id":"r2","t_server_recv_ns":1700000000000000000,")"
                             + after + R"(":2,"t_last_token_ns":1700000000000007000})" "\n";
    IMPORT_CLEANLY(imported, m_dir, QStringLiteral("keys.jsonl"), lines, 2);
    const QString expected = QStringLiteral("r1|{\"%1\":1}\nr2|{\"%2\":2}").arg(QString::fromLatin1(before), QString::fromLatin1(after));
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, attributes FROM requests_readable ORDER BY id"), expected);
}

void TestNativeReaders::tokenTimes_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("stored"); // source_id|times|t_first_token_ns|t_last_token_ns|output_tokens|tpot_ns
    QTest::addColumn<QList<double>>("itl"); // count, mean, p50, max in ns

    const QString pooled = QStringLiteral("r1|[100 110 130 160]|100|160|4|20\nr2|[0 5]|0|5|2|5");
    QTest::newRow("gaps pooled over requests") << QStringLiteral("t.jsonl")
        << QByteArray("{\"id\":\"r1\",\"t_server_recv_ns\":0,\"token_times_ns\":[100,110,130,160]}\n"
                      "{\"id\":\"r2\",\"t_server_recv_ns\":0,\"token_times_ns\":[0,5]}\n")
        << pooled << QList<double>{4, 16.25, 15, 30};
    QTest::newRow("csv list") << QStringLiteral("t.csv")
        << QByteArray("id,t_server_recv_ns,token_times_ns\nr1,0,\"[100;110;130;160]\"\nr2,0,0 5\n") << pooled
        << QList<double>{4, 16.25, 15, 30};
    QTest::newRow("stamps win over token times") << QStringLiteral("t.jsonl")
        << QByteArray(R"({"id":"r1","t_server_recv_ns":0,"t_first_token_ns":90,"t_last_token_ns":170,"output_tokens":5,"token_times_ns":[100,130]})")
        << QStringLiteral("r1|[100 130]|90|170|5|20") << QList<double>{1, 30, 30, 30};
    QTest::newRow("an error request's gaps are left out") << QStringLiteral("t.jsonl")
        << QByteArray("{\"id\":\"r1\",\"t_server_recv_ns\":0,\"token_times_ns\":[0,10,30]}\n"
                      "{\"id\":\"r2\",\"status\":\"error\",\"t_server_recv_ns\":0,\"token_times_ns\":[0,1000]}\n")
        << QStringLiteral("r1|[0 10 30]|0|30|3|15\nr2|[0 1000]|0|1000|2|1000") << QList<double>{2, 15, 15, 20};
    QTest::newRow("one token has no gap") << QStringLiteral("t.jsonl")
        << QByteArray(R"({"id":"r1","t_server_recv_ns":0,"token_times_ns":[7]})")
        << QStringLiteral("r1|[7]|7|7|1|NULL") << QList<double>{0};
}

void TestNativeReaders::tokenTimes()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    QFETCH(QString, stored);
    QFETCH(QList<double>, itl);
    IMPORT_CLEANLY(imported, m_dir, fileName, content, stored.count(QLatin1Char('\n')) + 1);
    QCOMPARE(dump(imported.store->db(), "SELECT r.source_id, t.times, r.t_first_token_ns, r.t_last_token_ns, r.output_tokens,"
                                        " r.tpot_ns FROM requests_readable r JOIN token_times t ON t.request_id = r.id ORDER BY r.id"),
             stored);
    const lx::Report report = lx::analyze(*imported.store);
    const lx::Statistic &s = report.itl.stat;
    QCOMPARE(s.count, qint64(itl[0]));
    if (s.count == 0) {
        QVERIFY(!s.meanNs && !s.maxNs && !s.percentilesNs[0]);
        return;
    }
    QCOMPARE(*s.meanNs, itl[1]);
    QCOMPARE(*s.percentilesNs[0], itl[2]); // the default list starts with p50
    QCOMPARE(*s.maxNs, itl[3]);
}

void TestNativeReaders::absentIsNullNeverZero_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("nullColumns");
    QTest::addColumn<QStringList>("zeroColumns");

    const auto cols = [](const char *names) { return QString::fromLatin1(names).split(QLatin1Char(' ')); };
    QTest::newRow("null stamp") << QStringLiteral("n.jsonl")
        << QByteArray(R"({"id":"r1","t_server_recv_ns":0,"t_sched_ns":null,"t_first_token_ns":10,"t_last_token_ns":20})")
        << cols("t_sched_ns queue_ns prefill_ns") << cols("t_server_recv_ns");
    QTest::newRow("null strings and counts") << QStringLiteral("n.jsonl")
        << QByteArray(R"({"id":"r1","model":null,"route":null,"status":null,"input_tokens":null,"output_tokens":null,"t_server_recv_ns":0,"t_first_token_ns":5,"t_last_token_ns":9})")
        << cols("model route input_tokens output_tokens tpot_ns") << cols("status");
    QTest::newRow("null duration") << QStringLiteral("n.jsonl")
        << QByteArray(R"({"id":"r1","start_ns":0,"queue_ms":null,"prefill_ms":3,"e2e_ms":null})")
        << cols("queue_ns preprocess_ns decode_ns ttlt_ns") << cols("t_server_recv_ns unattributed_ns");
    QTest::newRow("not measured is not zero") << QStringLiteral("n.jsonl")
        << QByteArray(R"({"id":"r1","t_server_recv_ns":100,"t_last_token_ns":200})")
        << cols("network_ns preprocess_ns queue_ns prefill_ns decode_ns postprocess_ns ttft_ns tpot_ns input_tokens output_tokens"
                " t_client_send_ns t_preprocess_done_ns t_sched_ns t_first_token_ns t_server_send_ns t_client_recv_ns model route attributes")
        << QStringList();
    QTest::newRow("measured zero stays zero") << QStringLiteral("n.jsonl")
        << QByteArray(R"({"id":"r1","t_server_recv_ns":7,"t_preprocess_done_ns":7,"t_sched_ns":7,"t_first_token_ns":7,"t_last_token_ns":7,"t_server_send_ns":7})")
        << cols("network_ns")
        << cols("preprocess_ns queue_ns prefill_ns decode_ns postprocess_ns unattributed_ns e2e_ns ttft_ns ttlt_ns");
    QTest::newRow("csv empty cells") << QStringLiteral("n.csv")
        << QByteArray("id,model,t_server_recv_ns,t_sched_ns,t_first_token_ns,t_last_token_ns,output_tokens,region\nr1,,0,,10,20,,\n")
        << cols("model t_sched_ns queue_ns prefill_ns output_tokens tpot_ns attributes") << cols("t_server_recv_ns");
    QTest::newRow("csv durations empty cell") << QStringLiteral("n.csv") << QByteArray("id,start_ns,queue_ms,prefill_ms\nr1,5,,0\n")
        << cols("queue_ns network_ns") << cols("prefill_ns ttft_ns unattributed_ns");
}

void TestNativeReaders::absentIsNullNeverZero()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    QFETCH(QStringList, nullColumns);
    QFETCH(QStringList, zeroColumns);
    IMPORT_CLEANLY(imported, m_dir, fileName, content, 1);
    const lx::Report report = lx::analyze(*imported.store);
    for (const QString &column : nullColumns + zeroColumns) {
        const bool null = nullColumns.contains(column);
        const QByteArray sql = "SELECT " + column.toLatin1() + " FROM requests_readable";
        QVERIFY2(dump(imported.store->db(), sql.constData()) == (null ? QStringLiteral("NULL") : QStringLiteral("0")),
                 qPrintable(column + QStringLiteral(" should be ") + (null ? QStringLiteral("NULL, is ") : QStringLiteral("0, is "))
                            + dump(imported.store->db(), sql.constData())));
        // A segment not measured is left out of its statistic; a measured zero counts.
        if (const auto segment = lx::segmentFromName(column.chopped(3).toStdString())) {
            const lx::Statistic &s = report.segments[static_cast<int>(*segment)].stat;
            QVERIFY2(s.count == (null ? 0 : 1), qPrintable(column));
            QVERIFY2(null ? !s.meanNs : *s.meanNs == 0.0, qPrintable(column));
        }
    }
}

void TestNativeReaders::csvForms_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<QString>("expected");

    QTest::newRow("header in any column order") << QByteArray("t_last_token_ns,model,id,t_server_recv_ns,t_first_token_ns\n30,llama,r1,10,20\n")
        << QByteArray("SELECT source_id, model, t_server_recv_ns, t_first_token_ns, t_last_token_ns, decode_ns FROM requests_readable")
        << QStringLiteral("r1|llama|10|20|30|10");
    QTest::newRow("quoted commas and doubled quotes")
        << QByteArray("id,model,region,t_server_recv_ns,t_last_token_ns\n\"r,1\",\"m \"\"x\"\"\",\"eu, west\",1,2\n")
        << QByteArray("SELECT source_id, model, attributes FROM requests_readable") << QStringLiteral(R"(r,1|m "x"|{"region":"eu, west"})");
    QTest::newRow("line break inside quotes")
        << QByteArray("id,note,t_server_recv_ns,t_last_token_ns\nr1,\"first\nsecond\",1,2\nr2,plain,3,4\n")
        << QByteArray("SELECT source_id, source_line, attributes FROM requests_readable ORDER BY id")
        << QStringLiteral("r1|2|{\"note\":\"first\\nsecond\"}\nr2|4|{\"note\":\"plain\"}");
    // A quote inside an unquoted field is a character: one once opened a "quoted field" that took in
    // every line after it, neither imported nor rejected.
    QTest::newRow("a quote inside an unquoted field")
        << QByteArray("id,note,t_server_recv_ns,t_last_token_ns\nr1,o\"k,1,2\nr2,5\" screen,3,4\nr3,plain,5,6\n")
        << QByteArray("SELECT source_id, source_line, attributes FROM requests_readable ORDER BY id")
        << QStringLiteral("r1|2|{\"note\":\"o\\\"k\"}\nr2|3|{\"note\":\"5\\\" screen\"}\nr3|4|{\"note\":\"plain\"}");
    QTest::newRow("a line break in a quoted field, then a quote inside an unquoted one")
        << QByteArray("id,note,t_server_recv_ns,t_last_token_ns\nr1,\"a \"\"b\"\"\nc\",1,2\nr2,x\"y,3,4\n")
        << QByteArray("SELECT source_id, source_line FROM requests_readable ORDER BY id")
        << QStringLiteral("r1|2\nr2|4");
    QTest::newRow("empty cells are absent")
        << QByteArray("id,t_server_recv_ns,t_preprocess_done_ns,t_sched_ns,t_first_token_ns,t_last_token_ns,route\nr1,10,,30,40,70,\n")
        << QByteArray("SELECT preprocess_ns, queue_ns, t_preprocess_done_ns, route, attributes FROM requests_readable")
        << QStringLiteral("NULL|20|NULL|NULL|NULL");
    QTest::newRow("unknown columns become attributes")
        << QByteArray("id,region,temp,tier,t_server_recv_ns,t_last_token_ns\nr1,eu,0.7,,1,2\n")
        << QByteArray("SELECT attributes FROM requests_readable") << QStringLiteral(R"({"region":"eu","temp":0.7})");
    QTest::newRow("status, model, route, token counts")
        << QByteArray("id,status,model,route,input_tokens,output_tokens,t_server_recv_ns,t_first_token_ns,t_last_token_ns\n"
                      "r1,error,m,/v1/chat,12,3,0,10,30\n")
        << QByteArray("SELECT status, model, route, input_tokens, output_tokens, tpot_ns FROM requests_readable")
        << QStringLiteral("1|m|/v1/chat|12|3|10");
    // A spreadsheet's trailing columns have no name: two of them are no column named twice.
    QTest::newRow("unnamed trailing columns")
        << QByteArray("id,t_server_recv_ns,t_last_token_ns,,\nr1,100,200,,\n")
        << QByteArray("SELECT source_id, ttlt_ns FROM requests_readable") << QStringLiteral("r1|100");
    QTest::newRow("quoted numbers") << QByteArray("id,t_server_recv_ns,t_last_token_ns\n\"r1\",\"100\",\"250\"\n")
        << QByteArray("SELECT source_id, ttlt_ns FROM requests_readable") << QStringLiteral("r1|150");
}

void TestNativeReaders::csvForms()
{
    QFETCH(QByteArray, content);
    QFETCH(QByteArray, query);
    QFETCH(QString, expected);
    IMPORT_CLEANLY(imported, m_dir, QStringLiteral("forms.csv"), content, expected.count(QLatin1Char('\n')) + 1);
    QCOMPARE(imported.files[0].format, std::string("csv"));
    QCOMPARE(dump(imported.store->db(), query.constData()), expected);
}

void TestNativeReaders::jsonlAndCsvGiveIdenticalRows_data()
{
    QTest::addColumn<QByteArray>("jsonl");
    QTest::addColumn<QByteArray>("csv");

    QTest::newRow("timestamps form")
        << QByteArray(R"({"id":"a","status":"ok","model":"m1","route":"/chat","input_tokens":12,"output_tokens":5,"t_client_send_ns":1000,"t_server_recv_ns":1500,"t_preprocess_done_ns":1700,"t_sched_ns":2500,"t_first_token_ns":4000,"t_last_token_ns":9000,"t_server_send_ns":9100,"t_client_recv_ns":9900,"region":"eu","temp":0.7})" "\n"
                      R"({"id":"b","status":"error","t_server_recv_ns":100,"t_first_token_ns":300,"region":"us"})" "\n"
                      R"({"id":"7","t_server_recv_ns":100,"t_sched_ns":250,"t_last_token_ns":900,"t_server_send_ns":950})" "\n")
        << QByteArray("region,id,status,model,route,input_tokens,output_tokens,t_client_send_ns,t_server_recv_ns,t_preprocess_done_ns,"
                      "t_sched_ns,t_first_token_ns,t_last_token_ns,t_server_send_ns,t_client_recv_ns,temp\n"
                      "eu,a,ok,m1,/chat,12,5,1000,1500,1700,2500,4000,9000,9100,9900,0.7\n"
                      "us,b,error,,,,,,100,,,300,,,,\n"
                      ",7,,,,,,,100,,250,,900,950,,\n");
    QTest::newRow("durations form")
        << QByteArray(R"({"id":"d1","start_ns":5000,"network_ms":1,"queue_ms":2.5,"prefill_ms":3,"decode_ms":4,"e2e_ms":11,"output_tokens":3})" "\n"
                      R"({"id":"d2","start_ns":6000,"preprocess_ms":0.25,"postprocess_ms":2})" "\n")
        << QByteArray("id,start_ns,network_ms,preprocess_ms,queue_ms,prefill_ms,decode_ms,postprocess_ms,e2e_ms,output_tokens\n"
                      "d1,5000,1,,2.5,3,4,,11,3\nd2,6000,,0.25,,,,2,,\n");
    QTest::newRow("token times") << QByteArray(R"({"id":"t","t_server_recv_ns":0,"token_times_ns":[10,25,45]})" "\n")
                                 << QByteArray("id,t_server_recv_ns,token_times_ns\nt,0,10;25;45\n");
    QTest::newRow("strings that need quoting")
        << QByteArray(R"({"id":"q, \"1\"","model":"a,b","t_server_recv_ns":1,"t_last_token_ns":2,"note":"x\ny"})" "\n")
        << QByteArray("id,model,t_server_recv_ns,t_last_token_ns,note\n\"q, \"\"1\"\"\",\"a,b\",1,2,\"x\ny\"\n");
}

void TestNativeReaders::jsonlAndCsvGiveIdenticalRows()
{
    QFETCH(QByteArray, jsonl);
    QFETCH(QByteArray, csv);
    const int records = jsonl.count('\n');
    IMPORT_CLEANLY(fromJsonl, m_dir, QStringLiteral("same.jsonl"), jsonl, records);
    IMPORT_CLEANLY(fromCsv, m_dir, QStringLiteral("same.csv"), csv, records);
    // Row and label ids, runs, paths and source lines (the CSV header is a line) differ by nature; all else must not.
    const QStringList skip = QStringLiteral("id run_id model_id route_id source_line source_path").split(QLatin1Char(' '));
    const char *requests = "SELECT * FROM requests_readable ORDER BY source_id";
    const QString rows = dump(fromJsonl.store->db(), requests, skip);
    QCOMPARE(rows.count(QLatin1Char('\n')) + 1, records);
    QCOMPARE(dump(fromCsv.store->db(), requests, skip), rows);
    const char *tokens = "SELECT r.source_id, t.times FROM token_times t JOIN requests_readable r ON r.id = t.request_id ORDER BY 1";
    QCOMPARE(dump(fromCsv.store->db(), tokens), dump(fromJsonl.store->db(), tokens));
}

void TestNativeReaders::zstdRecognisedByMagic_data()
{
    QTest::addColumn<QByteArrayList>("frames"); // each compressed on its own; none: the text written as it is
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QString>("format");

    const QByteArray r1 = "{\"id\":\"r1\",\"t_server_recv_ns\":1,\"t_last_token_ns\":5}\n";
    const QByteArray r2 = "{\"id\":\"r2\",\"t_server_recv_ns\":2,\"t_last_token_ns\":9}\n";
    const QByteArray csv = "id,t_server_recv_ns,t_last_token_ns\nr1,1,5\nr2,2,9\n";
    QTest::newRow("compressed, named .jsonl") << QByteArrayList{r1 + r2} << QStringLiteral("trace.jsonl") << QStringLiteral("jsonl");
    QTest::newRow("compressed, named .zst") << QByteArrayList{r1 + r2} << QStringLiteral("trace.zst") << QStringLiteral("jsonl");
    QTest::newRow("compressed csv, named .csv") << QByteArrayList{csv} << QStringLiteral("trace.csv") << QStringLiteral("csv");
    QTest::newRow("two concatenated frames") << QByteArrayList{r1, r2} << QStringLiteral("frames.zst") << QStringLiteral("jsonl");
    QTest::newRow("plain text named .zst") << QByteArrayList() << QStringLiteral("plain.zst") << QStringLiteral("jsonl");
}

void TestNativeReaders::zstdRecognisedByMagic()
{
    QFETCH(QByteArrayList, frames);
    QFETCH(QString, fileName);
    QFETCH(QString, format);
    if (!frames.isEmpty() && QStandardPaths::findExecutable(QStringLiteral("zstd")).isEmpty())
        QSKIP("the zstd command line tool is not installed");
    QByteArray bytes = frames.isEmpty() ? QByteArray("{\"id\":\"r1\",\"t_server_recv_ns\":1,\"t_last_token_ns\":5}\n"
                                                     "{\"id\":\"r2\",\"t_server_recv_ns\":2,\"t_last_token_ns\":9}\n")
                                        : QByteArray();
    for (const QByteArray &frame : frames)
        bytes += lxtest::zstdCompress(frame);
    QVERIFY(frames.isEmpty() || bytes.startsWith("\x28\xB5\x2F\xFD"));
    IMPORT_CLEANLY(imported, m_dir, fileName, bytes, 2);
    QCOMPARE(imported.files[0].compressed, !frames.isEmpty());
    QCOMPARE(QString::fromStdString(imported.files[0].format), format);
    QCOMPARE(dump(imported.store->db(), "SELECT compressed, format FROM import_runs"),
             QString::number(!frames.isEmpty()) + QLatin1Char('|') + format);
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, ttlt_ns FROM requests_readable ORDER BY id"), QStringLiteral("r1|4\nr2|7"));
}

void TestNativeReaders::lineEnds_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // source_id|source_line|t_last_token_ns

    const QByteArray r1 = R"({"id":"r1","t_server_recv_ns":1,"t_last_token_ns":30})";
    const QByteArray r2 = R"({"id":"r2","t_server_recv_ns":1,"t_last_token_ns":40})";
    const QString plain = QStringLiteral("r1|1|30\nr2|2|40");
    const QString csvPlain = QStringLiteral("r1|2|30\nr2|3|40");
    QTest::newRow("jsonl BOM") << QStringLiteral("e.jsonl") << "\xEF\xBB\xBF" + r1 + "\n" + r2 + "\n" << plain;
    QTest::newRow("jsonl CRLF") << QStringLiteral("e.jsonl") << r1 + "\r\n" + r2 + "\r\n" << plain;
    QTest::newRow("jsonl no final newline") << QStringLiteral("e.jsonl") << r1 + "\n" + r2 << plain;
    QTest::newRow("jsonl blank lines") << QStringLiteral("e.jsonl") << "\n" + r1 + "\n\n  \t\n\r\n" + r2 + "\n\n"
                                       << QStringLiteral("r1|2|30\nr2|6|40");
    QTest::newRow("jsonl all at once") << QStringLiteral("e.jsonl") << "\xEF\xBB\xBF" + r1 + "\r\n\r\n" + r2
                                       << QStringLiteral("r1|1|30\nr2|3|40");
    const QByteArray header = "id,t_server_recv_ns,t_last_token_ns";
    QTest::newRow("csv BOM") << QStringLiteral("e.csv") << "\xEF\xBB\xBF" + header + "\nr1,1,30\nr2,1,40\n" << csvPlain;
    QTest::newRow("csv CRLF") << QStringLiteral("e.csv") << header + "\r\nr1,1,30\r\nr2,1,40\r\n" << csvPlain;
    QTest::newRow("csv no final newline") << QStringLiteral("e.csv") << header + "\nr1,1,30\nr2,1,40" << csvPlain;
    QTest::newRow("csv blank lines") << QStringLiteral("e.csv") << header + "\n\nr1,1,30\n\r\nr2,1,40\n\n"
                                     << QStringLiteral("r1|3|30\nr2|5|40");
    QTest::newRow("csv all at once") << QStringLiteral("e.csv") << "\xEF\xBB\xBF" + header + "\r\nr1,1,30\r\n\r\nr2,1,40"
                                     << QStringLiteral("r1|2|30\nr2|4|40");
}

void TestNativeReaders::lineEnds()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    IMPORT_CLEANLY(imported, m_dir, fileName, content, 2);
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, source_line, t_last_token_ns FROM requests_readable ORDER BY id"), expected);
}

QTEST_GUILESS_MAIN(TestNativeReaders)
#include "tst_native_readers.moc"
