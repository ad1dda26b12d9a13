// SPDX-License-Identifier: GPL-3.0-or-later
// The one duration formatter shared by the CLI, the tables and the chart axes.

#include "model/duration_format.h"
#include "model/text_util.h"

#include <QTest>

using namespace lx;

class TestFormatting : public QObject {
    Q_OBJECT

private slots:
    void durations_data()
    {
        QTest::addColumn<double>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0");
        QTest::newRow("nanoseconds") << 850.0 << QStringLiteral("850 ns");
        QTest::newRow("microseconds") << 12'400.0 << QStringLiteral("12.4 µs");
        QTest::newRow("milliseconds") << 183'000'000.0 << QStringLiteral("183 ms");
        QTest::newRow("seconds") << 2'350'000'000.0 << QStringLiteral("2.35 s");
        QTest::newRow("minutes") << 252e9 << QStringLiteral("4 min 12 s");
        QTest::newRow("hours") << 3.5 * 3600e9 << QStringLiteral("3 h 30 min");
        QTest::newRow("negative (clock skew)") << -75'000'000.0 << QStringLiteral("-75.0 ms");
    }

    void durations()
    {
        QFETCH(double, ns);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatDuration(ns)), text);
    }

    void timestamps_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("text");
        QTest::newRow("epoch, all nine digits") << qint64(0) << 9 << QStringLiteral("1970-01-01T00:00:00.000000000Z");
        QTest::newRow("microseconds by default") << qint64(1'735'732'801'292'330'465) << 6 << QStringLiteral("2025-01-01T12:00:01.292330Z");
        QTest::newRow("every ns kept for export") << qint64(1'735'732'801'292'330'465) << 9 << QStringLiteral("2025-01-01T12:00:01.292330465Z");
        QTest::newRow("whole seconds") << qint64(1'735'732'801'999'999'999) << 0 << QStringLiteral("2025-01-01T12:00:01Z");
        // Regression guard: before 1970 the fraction stays in [0, 1 s) (floor, not truncation toward zero).
        QTest::newRow("1 ns before the epoch") << qint64(-1) << 9 << QStringLiteral("1969-12-31T23:59:59.999999999Z");
    }

    void timestamps()
    {
        QFETCH(qint64, ns);
        QFETCH(int, digits);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(formatTimestamp(ns, digits)), text);
    }

    /// A trace whose times are offsets (a Mooncake workload) gave its load windows dates in 1970 in the
    /// JSON ("1970-01-01T00:00:00.500Z") and the incident report's range "from 1970-01-01 ...".
    void instants_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<bool>("offset");
        QTest::addColumn<QString>("forPeople");
        QTest::addColumn<QString>("forMachines");
        QTest::newRow("a date") << qint64(1735732800500000000) << false << QStringLiteral("2025-01-01T12:00:00Z")
                                << QStringLiteral("2025-01-01T12:00:00.500Z");
        QTest::newRow("an offset") << qint64(500000000) << true << QStringLiteral("+500 ms")
                                   << QStringLiteral("PT0.500S");
        QTest::newRow("an offset of an hour")
            << qint64(3723004000000) << true << QStringLiteral("+1 h 2 min") << QStringLiteral("PT3723.004S");
        QTest::newRow("a negative offset")
            << qint64(-1500000000) << true << QStringLiteral("-1.50 s") << QStringLiteral("-PT1.500S");
    }
    void instants()
    {
        QFETCH(qint64, ns);
        QFETCH(bool, offset);
        QFETCH(QString, forPeople);
        QFETCH(QString, forMachines);
        QCOMPARE(QString::fromStdString(formatInstant(ns, offset, 0)), forPeople);
        QCOMPARE(QString::fromStdString(formatInstantIso(ns, offset)), forMachines);
    }

    void jsonNumbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("present");
        QTest::addColumn<QString>("text");
        QTest::newRow("integer") << 3.0 << true << QStringLiteral("3");
        QTest::newRow("trailing zeros dropped") << 12.5 << true << QStringLiteral("12.5");
        QTest::newRow("ns precision in ms") << 1.000001 << true << QStringLiteral("1.000001");
        QTest::newRow("absent is null") << 0.0 << false << QStringLiteral("null");
        QTest::newRow("negative zero") << -0.0000001 << true << QStringLiteral("0");
    }

    void jsonNumbers()
    {
        QFETCH(double, value);
        QFETCH(bool, present);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(jsonNumber(present ? std::optional<double>(value) : std::nullopt)), text);
    }

    void excerpts_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("max");
        QTest::addColumn<QString>("excerpt");
        QTest::newRow("short text as it is") << QByteArray("{\"id\":1}") << 200 << QStringLiteral("{\"id\":1}");
        QTest::newRow("cut with an ellipsis") << QByteArray("abcdefghij") << 5 << QStringLiteral("abcde...");
        QTest::newRow("binary bytes replaced") << QByteArray("a\x00\xff", 3) << 200 << QStringLiteral("a??");
        QTest::newRow("UTF-8 kept whole") << QByteArray("µs") << 200 << QStringLiteral("µs");
        QTest::newRow("no cut inside a character") << QByteArray("aµ") << 2 << QStringLiteral("a...");
    }

    void excerpts()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, max);
        QFETCH(QString, excerpt);
        QCOMPARE(QString::fromStdString(excerptOf(std::string_view(raw.constData(), std::size_t(raw.size())), std::size_t(max))), excerpt);
    }
};

QTEST_GUILESS_MAIN(TestFormatting)
#include "tst_formatting.moc"
