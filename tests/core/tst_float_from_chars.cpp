// SPDX-License-Identifier: GPL-3.0-or-later
// lx::fromCharsFallback(), the std::from_chars(double) of the standard libraries without one (libc++ 14):
// the same prefix read, the same value and the same errors as std::from_chars, whatever the locale. On a
// standard library that has std::from_chars(double) every row is also compared with it.

#include "platform/float_from_chars.h"

#include <QTest>

#include <clocale>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

Q_DECLARE_METATYPE(std::errc)

class TestFloatFromChars : public QObject {
    Q_OBJECT

private slots:
    void matchesFromChars_data();
    void matchesFromChars();
    void independentOfTheLocale();
};

void TestFloatFromChars::matchesFromChars_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<std::errc>("error");
    QTest::addColumn<int>("consumed"); // characters read
    QTest::addColumn<double>("value"); // when read; -1 stands for "left untouched" on an error

    const auto ok = std::errc();
    const double untouched = -1;
    QTest::newRow("integer") << QByteArray("42") << ok << 2 << 42.0;
    QTest::newRow("fraction") << QByteArray("99.9") << ok << 4 << 99.9;
    QTest::newRow("negative with exponent") << QByteArray("-2.25e3") << ok << 7 << -2250.0;
    QTest::newRow("capital exponent, signed") << QByteArray("1.5E-2") << ok << 6 << 0.015;
    QTest::newRow("leading point") << QByteArray(".5") << ok << 2 << 0.5;
    QTest::newRow("trailing point") << QByteArray("5.") << ok << 2 << 5.0;
    QTest::newRow("closest double of 0.1") << QByteArray("0.1") << ok << 3 << 0.1;
    QTest::newRow("17 significant digits") << QByteArray("2.2250738585072014e-308") << ok << 23 << 2.2250738585072014e-308;
    QTest::newRow("stops at the first stranger") << QByteArray("1.5ms") << ok << 3 << 1.5;
    QTest::newRow("an exponent without digits is not one") << QByteArray("1e") << ok << 1 << 1.0;
    QTest::newRow("an exponent sign without digits") << QByteArray("1e+x") << ok << 1 << 1.0;
    QTest::newRow("hexadecimal is not the general format") << QByteArray("0x10") << ok << 1 << 0.0;
    QTest::newRow("inf") << QByteArray("inf") << ok << 3 << std::numeric_limits<double>::infinity();
    QTest::newRow("-Infinity") << QByteArray("-Infinity") << ok << 9 << -std::numeric_limits<double>::infinity();
    QTest::newRow("infinit reads inf") << QByteArray("infinit") << ok << 3 << std::numeric_limits<double>::infinity();
    QTest::newRow("subnormal") << QByteArray("4e-320") << ok << 6 << 4e-320;
    QTest::newRow("nan") << QByteArray("nan") << ok << 3 << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("-NaN with its payload") << QByteArray("-NaN(123)") << ok << 9 << -std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("nan( unclosed reads nan") << QByteArray("nan(12") << ok << 3 << std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("negative zero") << QByteArray("-0") << ok << 2 << -0.0;
    QTest::newRow("zeros only are no underflow") << QByteArray("0.000e-999") << ok << 10 << 0.0;

    // Errors: the value is left as it was.
    QTest::newRow("empty") << QByteArray("") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("leading plus") << QByteArray("+1") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("leading space") << QByteArray(" 1") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("a lone point") << QByteArray(".") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("a lone minus") << QByteArray("-") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("an exponent alone") << QByteArray("e5") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("a decimal comma") << QByteArray(",5") << std::errc::invalid_argument << 0 << untouched;
    QTest::newRow("overflow") << QByteArray("1e400") << std::errc::result_out_of_range << 5 << untouched;
    QTest::newRow("negative overflow") << QByteArray("-1e400") << std::errc::result_out_of_range << 6 << untouched;
    QTest::newRow("underflow to zero") << QByteArray("1e-400") << std::errc::result_out_of_range << 6 << untouched;
}

void TestFloatFromChars::matchesFromChars()
{
    QFETCH(QByteArray, text);
    QFETCH(std::errc, error);
    QFETCH(int, consumed);
    QFETCH(double, value);

    // Not NUL-terminated where it ends: the fallback must not read past `last`.
    const std::string padded = text.toStdString() + "7";
    const char *first = padded.data();
    const char *last = first + text.size();

    double got = -1;
    const auto result = lx::fromCharsFallback(first, last, got);
    QVERIFY(result.ec == error);
    QCOMPARE(int(result.ptr - first), consumed);
    QCOMPARE(std::signbit(got), std::signbit(value));
    if (std::isnan(value))
        QVERIFY(std::isnan(got)); // the payload is the library's
    else if (std::isinf(value))
        QCOMPARE(got, value);
    else
        QCOMPARE(std::memcmp(&got, &value, sizeof got), 0); // bit for bit: correctly rounded, -0 kept

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    double standard = -1;
    const auto expected = std::from_chars(first, last, standard);
    QVERIFY(expected.ec == result.ec);
    QCOMPARE(expected.ptr, result.ptr);
    if (std::isnan(got))
        QVERIFY(std::isnan(standard) && std::signbit(standard) == std::signbit(got));
    else
        QCOMPARE(std::memcmp(&standard, &got, sizeof got), 0);
#endif
}

void TestFloatFromChars::independentOfTheLocale()
{
    // strtod follows LC_NUMERIC, where a decimal comma would end "1.5" at its point; the fallback must not.
    const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
    bool commaLocale = false;
    for (const char *name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "German_Germany.1252"}) {
        if (std::setlocale(LC_NUMERIC, name)) {
            commaLocale = true;
            break;
        }
    }
    if (!commaLocale)
        QSKIP("no locale with a decimal comma is installed");
    double got = 0;
    const char text[] = "1.5";
    const auto result = lx::fromCharsFallback(text, text + 3, got);
    std::setlocale(LC_NUMERIC, previous.c_str());
    QVERIFY(result.ec == std::errc());
    QCOMPARE(result.ptr, text + 3);
    QCOMPARE(got, 1.5);
}

QTEST_GUILESS_MAIN(TestFloatFromChars)
#include "tst_float_from_chars.moc"
