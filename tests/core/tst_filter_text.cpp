// SPDX-License-Identifier: GPL-3.0-or-later
// Bounds written for the filter language (core/filter/filter_text.h): the text people read, that the language
// reads back as exactly the bound, and, rounded within the values' gaps, selects exactly what the numeric
// form selects on a store.

#include "analysis/analysis.h"
#include "filter/filter_expression.h"
#include "filter/filter_text.h"
#include "store/store.h"
#include "test_support.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'735'732'800'000'000'000LL; // 2025-01-01T12:00:00Z
constexpr qint64 MS = 1'000'000;
constexpr qint64 S = 1000 * MS;
constexpr qint64 kMax = std::numeric_limits<qint64>::max();
constexpr qint64 kMin = std::numeric_limits<qint64>::min();

/// The one value `field op text` compiles to, or nullopt when it does not compile to one integer.
std::optional<qint64> boundOf(const std::string &field, const std::string &text)
{
    const auto compiled = compileFilterExpression(field + " >= " + text);
    const auto *condition = std::get_if<SqlCondition>(&compiled);
    if (!condition || condition->values.size() != 1)
        return std::nullopt;
    const auto *value = std::get_if<std::int64_t>(&condition->values.front());
    return value ? std::optional<qint64>(*value) : std::nullopt;
}

/// How many requests of the store `expression` selects.
qint64 countOf(const Store &store, const std::string &expression)
{
    const auto compiled = compileFilterExpression(expression);
    const auto *condition = std::get_if<SqlCondition>(&compiled);
    if (!condition)
        return -1;
    RequestFilter filter;
    filter.expression = *condition;
    AnalysisOptions options;
    options.includeErrors = true;
    return analyze(store, filter, options).total;
}

/// The starts of the store of selectsAsTheNumericFormDoes(), each a request (queue 5 ms, decode 10 ms).
const std::vector<std::int64_t> kStarts = {T0, T0 + 1 * S + 328'771'391, T0 + 1 * S + 328'900'000, T0 + 1 * S + 329'000'000,
                                           T0 + 43 * S + 527'375'743, T0 + 60 * S};

} // namespace

class TestFilterText : public QObject {
    Q_OBJECT

private slots:
    void duration_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0s");
        QTest::newRow("whole seconds") << 2 * S << QStringLiteral("2s");
        QTest::newRow("ms in seconds") << 8'627 * MS << QStringLiteral("8.627s");
        QTest::newRow("ns in seconds") << qint64(8'626'975'926) << QStringLiteral("8.626975926s");
        QTest::newRow("below a second: ms") << qint64(183'500'000) << QStringLiteral("183.5ms");
        QTest::newRow("below a ms: us") << qint64(12'000) << QStringLiteral("12us");
        QTest::newRow("fraction of a us") << qint64(1'500) << QStringLiteral("1.5us");
        QTest::newRow("below a us: ns") << qint64(850) << QStringLiteral("850ns");
        QTest::newRow("one ns") << qint64(1) << QStringLiteral("1ns");
        QTest::newRow("negative") << -2 * S << QStringLiteral("-2s");
        QTest::newRow("negative fraction") << qint64(-1'500'000) << QStringLiteral("-1.5ms");
        QTest::newRow("an hour in seconds") << 3600 * S << QStringLiteral("3600s");
        // Past ~15 significant digits the language's decimal reading rounds: whole ns instead.
        QTest::newRow("too many digits for a fraction") << kMax << QStringLiteral("9223372036854775807ns");
        QTest::newRow("a day and a ns") << 86'400 * S + 1 << QStringLiteral("86400.000000001s");
    }

    void duration()
    {
        QFETCH(qint64, ns);
        QFETCH(QString, text);
        const std::string written = filterDuration(ns);
        QCOMPARE(QString::fromStdString(written), text);
        QCOMPARE(boundOf("e2e", written), std::optional<qint64>(ns)); // reads back as exactly the bound
    }

    void instant_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<bool>("relative");
        QTest::addColumn<QString>("text");
        QTest::newRow("whole second") << T0 + 61 * S << false << QStringLiteral("2025-01-01T12:01:01Z");
        QTest::newRow("ms") << T0 + 61 * S + 328 * MS << false << QStringLiteral("2025-01-01T12:01:01.328Z");
        QTest::newRow("us") << T0 + 61 * S + 328'771'000 << false << QStringLiteral("2025-01-01T12:01:01.328771Z");
        QTest::newRow("ns") << T0 + 61 * S + 328'771'391 << false << QStringLiteral("2025-01-01T12:01:01.328771391Z");
        QTest::newRow("ms with trailing zero") << T0 + 500 * MS << false << QStringLiteral("2025-01-01T12:00:00.500Z");
        QTest::newRow("the epoch") << qint64(0) << false << QStringLiteral("1970-01-01T00:00:00Z");
        QTest::newRow("before the epoch") << -1'500 * MS << false << QStringLiteral("1969-12-31T23:59:58.500Z");
        QTest::newRow("offset from 0") << 61'500 * MS << true << QStringLiteral("61.5s");
        QTest::newRow("offset 0") << qint64(0) << true << QStringLiteral("0s");
        QTest::newRow("offset in ns") << qint64(2'000'000'001) << true << QStringLiteral("2.000000001s");
    }

    void instant()
    {
        QFETCH(qint64, ns);
        QFETCH(bool, relative);
        QFETCH(QString, text);
        const std::string written = filterInstant(ns, relative);
        QCOMPARE(QString::fromStdString(written), text);
        QCOMPARE(boundOf("start", written), std::optional<qint64>(ns));
    }

    void roundedWithin_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        QTest::addColumn<qint64>("rounded");
        QTest::newRow("to the ms") << qint64(8'626'975'926) << qint64(8'600'000'000) << qint64(8'700'000'000) << qint64(8'627'000'000);
        QTest::newRow("half rounds up") << qint64(1'500'000) << qint64(0) << 10 * MS << 2 * MS;
        QTest::newRow("ms too far: us") << qint64(8'626'975'926) << qint64(8'626'975'001) << qint64(8'626'976'000) << qint64(8'626'976'000);
        QTest::newRow("neither: itself") << qint64(8'626'975'926) << qint64(8'626'975'926) << qint64(8'626'975'926) << qint64(8'626'975'926);
        QTest::newRow("already whole") << 3 * S << 3 * S << 3 * S << 3 * S;
        QTest::newRow("negative") << qint64(-1'400'000) << qint64(-2 * MS) << qint64(0) << qint64(-1 * MS);
        QTest::newRow("unbounded") << qint64(12'345'678) << kMin << kMax << qint64(12 * MS);
        QTest::newRow("near the top") << kMax - 10 << kMax - 20 << kMax << kMax - 10;
    }

    void roundedWithin()
    {
        QFETCH(qint64, ns);
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        QFETCH(qint64, rounded);
        QCOMPARE(lx::roundedWithin(ns, lo, hi), rounded);
    }

    void equivalentBounds_data()
    {
        QTest::addColumn<QList<qint64>>("sorted");
        QTest::addColumn<qint64>("bound");
        QTest::addColumn<qint64>("lo");
        QTest::addColumn<qint64>("hi");
        QTest::newRow("between two") << QList<qint64>{10, 20, 30} << qint64(25) << qint64(21) << qint64(30);
        QTest::newRow("on a value") << QList<qint64>{10, 20, 30} << qint64(20) << qint64(11) << qint64(20);
        QTest::newRow("below all") << QList<qint64>{10, 20} << qint64(5) << kMin << qint64(10);
        QTest::newRow("above all") << QList<qint64>{10, 20} << qint64(25) << qint64(21) << kMax;
        QTest::newRow("repeated values") << QList<qint64>{10, 20, 20, 30} << qint64(20) << qint64(11) << qint64(20);
        QTest::newRow("no values") << QList<qint64>{} << qint64(7) << kMin << kMax;
    }

    void equivalentBounds()
    {
        QFETCH(QList<qint64>, sorted);
        QFETCH(qint64, bound);
        QFETCH(qint64, lo);
        QFETCH(qint64, hi);
        const BoundRange range = lx::equivalentBounds(std::vector<std::int64_t>(sorted.begin(), sorted.end()), bound);
        QCOMPARE(range.lo, lo);
        QCOMPARE(range.hi, hi);
    }

    void selectsAsTheNumericFormDoes_data()
    {
        QTest::addColumn<qint64>("bound");
        QTest::addColumn<QString>("text"); // the start, as written after rounding within the gap
        QTest::newRow("a drag's ns, rounded to the ms") << T0 + 50 * S + 328'771'391 << QStringLiteral("2025-01-01T12:00:50.329Z");
        QTest::newRow("ms would cross a request: us") << T0 + 1 * S + 328'771'600 << QStringLiteral("2025-01-01T12:00:01.328772Z");
        QTest::newRow("on a request: us below it") << T0 + 1 * S + 328'771'391 << QStringLiteral("2025-01-01T12:00:01.328771Z");
        QTest::newRow("just after a request: ns") << T0 + 1 * S + 328'771'392 << QStringLiteral("2025-01-01T12:00:01.328771392Z");
        QTest::newRow("whole second") << T0 + 60 * S << QStringLiteral("2025-01-01T12:01:00Z");
        QTest::newRow("before every request") << T0 - 123'456'789 << QStringLiteral("2025-01-01T11:59:59.877Z");
    }

    void selectsAsTheNumericFormDoes()
    {
        QFETCH(qint64, bound);
        QFETCH(QString, text);
        QByteArray lines;
        for (std::size_t i = 0; i < kStarts.size(); ++i)
            lines += "{\"id\":\"r" + QByteArray::number(qulonglong(i)) + "\",\"start_ns\":" + QByteArray::number(kStarts[i])
                     + ",\"queue_ms\":5,\"decode_ms\":10}\n";
        const lxtest::StoreFixture fixture(lines);
        QVERIFY(fixture.store);
        const BoundRange same = lx::equivalentBounds(kStarts, bound);
        const std::string written = filterInstant(lx::roundedWithin(bound, same.lo, same.hi), false);
        QCOMPARE(QString::fromStdString(written), text);
        for (const char *op : {" >= ", " < "}) {
            const qint64 numeric = countOf(*fixture.store, "start" + std::string(op) + std::to_string(bound));
            QVERIFY(numeric >= 0);
            QCOMPARE(countOf(*fixture.store, "start" + std::string(op) + written), numeric);
        }
    }
};

QTEST_GUILESS_MAIN(TestFilterText)

#include "tst_filter_text.moc"
