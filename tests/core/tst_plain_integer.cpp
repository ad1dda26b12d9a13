// SPDX-License-Identifier: GPL-3.0-or-later
// lx::readPlainInteger(), the JSON readers' fast path for integers: for every token it takes, the value
// simdjson's own get_int64() reads; every token it leaves (fractions, exponents, leading zeros, the
// out-of-range, the malformed) is left untouched, for simdjson to read or refuse as before.

#include "ingest/plain_integer.h"

#include <QTest>

#include <simdjson.h>

#include <cstdint>
#include <limits>
#include <string>

class TestPlainInteger : public QObject {
    Q_OBJECT

private slots:
    void agreesWithTheParser_data();
    void agreesWithTheParser();
    void readsTheTokenTheParserGives_data();
    void readsTheTokenTheParserGives();
};

void TestPlainInteger::agreesWithTheParser_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<bool>("taken");
    QTest::addColumn<qint64>("value"); // when taken

    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    constexpr qint64 kMin = std::numeric_limits<qint64>::min();
    QTest::newRow("zero") << QByteArray("0") << true << qint64(0);
    QTest::newRow("minus zero") << QByteArray("-0") << true << qint64(0);
    QTest::newRow("one digit") << QByteArray("7") << true << qint64(7);
    QTest::newRow("seven digits") << QByteArray("1234567") << true << qint64(1234567);
    QTest::newRow("eight digits, one step") << QByteArray("87654321") << true << qint64(87654321);
    QTest::newRow("nine digits") << QByteArray("987654321") << true << qint64(987654321);
    QTest::newRow("sixteen digits, two steps") << QByteArray("1000000000000001") << true << qint64(1000000000000001);
    QTest::newRow("a nanosecond timestamp") << QByteArray("1735732800141646423") << true << qint64(1735732800141646423);
    QTest::newRow("negative timestamp") << QByteArray("-1735732800141646423") << true << qint64(-1735732800141646423);
    QTest::newRow("int64 max") << QByteArray("9223372036854775807") << true << kMax;
    QTest::newRow("int64 min") << QByteArray("-9223372036854775808") << true << kMin;
    QTest::newRow("zeros inside") << QByteArray("1000000000000000000") << true << qint64(1000000000000000000);
    QTest::newRow("whitespace after") << QByteArray("42 \t\r\n") << true << qint64(42);
    QTest::newRow("nines") << QByteArray("999999999999999999") << true << qint64(999999999999999999);

    // Left to the parser: it reads them (as a double, or an error) as it always did.
    QTest::newRow("one past int64 max") << QByteArray("9223372036854775808") << false << qint64(0);
    QTest::newRow("one past int64 min") << QByteArray("-9223372036854775809") << false << qint64(0);
    QTest::newRow("nineteen nines") << QByteArray("9999999999999999999") << false << qint64(0);
    QTest::newRow("twenty digits") << QByteArray("17357328001416464230") << false << qint64(0);
    QTest::newRow("fraction") << QByteArray("1.5") << false << qint64(0);
    QTest::newRow("eight digits then a fraction") << QByteArray("12345678.5") << false << qint64(0);
    QTest::newRow("exponent") << QByteArray("1e18") << false << qint64(0);
    QTest::newRow("capital exponent after 16 digits") << QByteArray("1234567812345678E2") << false << qint64(0);
    QTest::newRow("leading zero") << QByteArray("01") << false << qint64(0);
    QTest::newRow("leading zero, negative") << QByteArray("-012345678") << false << qint64(0);
    QTest::newRow("minus alone") << QByteArray("-") << false << qint64(0);
    QTest::newRow("plus sign") << QByteArray("+1") << false << qint64(0);
    QTest::newRow("a letter among eight") << QByteArray("1234a678") << false << qint64(0);
    QTest::newRow("a colon among eight") << QByteArray("1234:678") << false << qint64(0);
    QTest::newRow("a slash among eight") << QByteArray("1234/678") << false << qint64(0);
    QTest::newRow("a byte past ASCII among eight") << QByteArray("1234\xB5" "678") << false << qint64(0);
    QTest::newRow("a byte past ASCII after eight") << QByteArray("12345678\xB9") << false << qint64(0);
    QTest::newRow("empty") << QByteArray("") << false << qint64(0);
}

void TestPlainInteger::agreesWithTheParser()
{
    QFETCH(QByteArray, token);
    QFETCH(bool, taken);
    QFETCH(qint64, value);

    std::int64_t read = 12345;
    QCOMPARE(lx::readPlainInteger(std::string_view(token.constData(), static_cast<std::size_t>(token.size())), read),
             taken);
    if (!taken) {
        QCOMPARE(read, std::int64_t { 12345 }); // untouched
        return;
    }
    QCOMPARE(read, value);
    // The parser's own reading of the same text, inside an object as a line has it.
    const std::string json = "{\"v\":" + token.toStdString() + "}";
    simdjson::padded_string padded(json);
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    QVERIFY(!parser.iterate(padded).get(doc));
    std::int64_t parsed = 0;
    QVERIFY(!doc["v"].get_int64().get(parsed));
    QCOMPARE(read, parsed);
}

void TestPlainInteger::readsTheTokenTheParserGives_data()
{
    QTest::addColumn<QByteArray>("json"); // an object whose "v" is read
    QTest::addColumn<bool>("taken");
    QTest::addColumn<qint64>("value");

    QTest::newRow("before a comma") << QByteArray("{\"v\":1735732800141646423,\"w\":1}") << true
                                    << qint64(1735732800141646423);
    QTest::newRow("before the brace") << QByteArray("{\"v\":-5}") << true << qint64(-5);
    QTest::newRow("spaces around") << QByteArray("{\"v\" :  123456789012 , \"w\":1}") << true << qint64(123456789012);
    QTest::newRow("a string is no number") << QByteArray("{\"v\":\"17\"}") << false << qint64(0);
    QTest::newRow("true") << QByteArray("{\"v\":true}") << false << qint64(0);
    QTest::newRow("null") << QByteArray("{\"v\":null}") << false << qint64(0);
    QTest::newRow("an array") << QByteArray("{\"v\":[1]}") << false << qint64(0);
    QTest::newRow("a fraction") << QByteArray("{\"v\":1.0}") << false << qint64(0);
}

void TestPlainInteger::readsTheTokenTheParserGives()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, taken);
    QFETCH(qint64, value);

    simdjson::padded_string padded(json.toStdString());
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    QVERIFY(!parser.iterate(padded).get(doc));
    simdjson::ondemand::object object;
    QVERIFY(!doc.get_object().get(object));
    for (auto field : object) {
        simdjson::ondemand::field f;
        QVERIFY(!std::move(field).get(f));
        if (f.unescaped_key().value() != "v")
            continue;
        simdjson::ondemand::value v = f.value();
        std::int64_t read = 0;
        QCOMPARE(lx::readPlainInteger(v.raw_json_token(), read), taken);
        if (taken)
            QCOMPARE(read, value);
    }
}

QTEST_APPLESS_MAIN(TestPlainInteger)
#include "tst_plain_integer.moc"
