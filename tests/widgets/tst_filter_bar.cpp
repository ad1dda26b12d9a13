// SPDX-License-Identifier: GPL-3.0-or-later
// The filter bar's history: a chart's click narrows the filter, and back/forward walk the filters applied
// like a browser's history; its time range shows a trace's times without a date as offsets.

#include "filter_bar.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

class TestFilterBar : public QObject {
    Q_OBJECT

private slots:
    void narrowAndWalk_data();
    void narrowAndWalk();
    void newStepDropsForward();
    void silentClearForgetsHistory();
    void timeRangeOnlyWithBounds_data();
    void timeRangeOnlyWithBounds();
    void relativeTimesAsOffsets_data();
    void relativeTimesAsOffsets();
    void statesTheFilterInForce_data();
    void statesTheFilterInForce();
};

void TestFilterBar::narrowAndWalk_data()
{
    QTest::addColumn<QString>("typed");     // what the user typed first (may be empty or invalid)
    QTest::addColumn<QString>("condition"); // what a chart narrows by
    QTest::addColumn<QString>("narrowed");  // the expression after narrowing
    QTest::newRow("from nothing") << "" << "dominant = queue" << "dominant = queue";
    QTest::newRow("ANDed with a filter") << "e2e > 2s" << "dominant = queue" << "(e2e > 2s) and (dominant = queue)";
    QTest::newRow("or stays grouped") << "model = a or model = b" << "e2e >= 5ns"
                                      << "(model = a or model = b) and (e2e >= 5ns)";
    QTest::newRow("invalid text is replaced") << "e2e >" << "dominant = decode" << "dominant = decode";
}

void TestFilterBar::narrowAndWalk()
{
    QFETCH(QString, typed);
    QFETCH(QString, condition);
    QFETCH(QString, narrowed);
    FilterBar bar;
    QSignalSpy applied(&bar, &FilterBar::filterChanged);
    bar.setExpression(typed);
    const bool typedValid = bar.valid();
    bar.narrow(condition);
    QCOMPARE(bar.expressionEdit()->text(), narrowed);
    QVERIFY(bar.valid());
    QVERIFY(bar.filter().expression.has_value());
    QVERIFY(bar.canGoBack());
    QVERIFY(!bar.canGoForward());

    bar.back();
    // Back lands on the last filter that was applied: an invalid text never was, so it is the empty one.
    QCOMPARE(bar.expressionEdit()->text(), typedValid ? typed : QString());
    QCOMPARE(bar.filter().expression.has_value(), typedValid && !typed.isEmpty());
    QVERIFY(bar.canGoForward());
    bar.forward();
    QCOMPARE(bar.expressionEdit()->text(), narrowed);
    QVERIFY(!bar.canGoForward());
    QVERIFY(applied.count() >= 3);
}

void TestFilterBar::newStepDropsForward()
{
    FilterBar bar;
    bar.setExpression(QStringLiteral("e2e > 1s"));
    bar.setExpression(QStringLiteral("e2e > 2s"));
    bar.back();
    QCOMPARE(bar.expressionEdit()->text(), QStringLiteral("e2e > 1s"));
    bar.setExpression(QStringLiteral("queue > 1s"));
    QVERIFY(!bar.canGoForward());
    bar.back();
    QCOMPARE(bar.expressionEdit()->text(), QStringLiteral("e2e > 1s"));
    // Applying the same filter again adds no step.
    bar.setExpression(QStringLiteral("e2e > 1s"));
    bar.forward();
    QCOMPARE(bar.expressionEdit()->text(), QStringLiteral("queue > 1s"));
}

void TestFilterBar::silentClearForgetsHistory()
{
    FilterBar bar;
    bar.setExpression(QStringLiteral("e2e > 1s"));
    bar.narrow(QStringLiteral("dominant = queue"));
    QSignalSpy applied(&bar, &FilterBar::filterChanged);
    bar.clear(true); // a new investigation
    QCOMPARE(applied.count(), 0);
    QVERIFY(!bar.canGoForward());
    QVERIFY(!bar.canGoBack());
    bar.clear(); // a user's clear is a step that back undoes
    bar.setExpression(QStringLiteral("e2e > 3s"));
    bar.clear();
    QVERIFY(bar.canGoBack());
    bar.back();
    QCOMPARE(bar.expressionEdit()->text(), QStringLiteral("e2e > 3s"));
}

// A store without start times (a vLLM bench result, an LLMPerf file) never gives the bar a span: the time
// boxes stay hidden rather than offer 2000-01-01. A new investigation hides them until its span is known.
void TestFilterBar::timeRangeOnlyWithBounds_data()
{
    QTest::addColumn<bool>("bounds");   // the investigation's span was given
    QTest::addColumn<QString>("clear"); // then: "", "user" (Clear Filter) or "silent" (a new investigation)
    QTest::addColumn<bool>("shown");
    QTest::newRow("no start times") << false << "" << false;
    QTest::newRow("a span") << true << "" << true;
    QTest::newRow("a span, then the user clears") << true << "user" << true;
    QTest::newRow("a span, then a new investigation") << true << "silent" << false;
    QTest::newRow("no start times, then the user clears") << false << "user" << false;
}

void TestFilterBar::timeRangeOnlyWithBounds()
{
    QFETCH(bool, bounds);
    QFETCH(QString, clear);
    QFETCH(bool, shown);
    FilterBar bar;
    if (bounds)
        bar.setTimeBounds(1'700'000'000'000'000'000, 1'700'000'060'000'000'000);
    if (!clear.isEmpty())
        bar.clear(clear == QLatin1String("silent"));
    QCOMPARE(bar.timeRangeShown(), shown);
}

/// What a report says of the filter: the expression in force and the range as the editors show it; an
/// invalid text being typed is not in force, and says nothing.
void TestFilterBar::statesTheFilterInForce_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("from"); // the from box checked
    QTest::addColumn<QString>("statement");
    QTest::newRow("none") << "" << false << "";
    QTest::newRow("an expression") << "e2e > 2s" << false << "e2e > 2s";
    QTest::newRow("an expression and a start")
        << "status = ok" << true << "status = ok, start 2023-11-14 22:13:20 UTC..";
    QTest::newRow("a start alone") << "" << true << "start 2023-11-14 22:13:20 UTC..";
    QTest::newRow("an invalid text: the last one in force") << "e2e >" << false << "";
}

void TestFilterBar::statesTheFilterInForce()
{
    QFETCH(QString, typed);
    QFETCH(bool, from);
    QFETCH(QString, statement);
    FilterBar bar;
    bar.setTimeBounds(1'700'000'000'000'000'000, 1'700'000'060'000'000'000);
    bar.fromBox()->setChecked(from);
    bar.setExpression(typed);
    QCOMPARE(bar.statement(), statement);
}

/// Times without a date (a Mooncake trace, vLLM's perf_counter sends) show as the time since the first
/// request, and the filter still holds the store's own times; dated ones show as UTC dates.
void TestFilterBar::relativeTimesAsOffsets_data()
{
    QTest::addColumn<bool>("relative");
    QTest::addColumn<qint64>("firstNs");
    QTest::addColumn<qint64>("lastNs");
    QTest::addColumn<QString>("fromText");
    QTest::addColumn<QString>("toText");
    // vLLM's perf_counter: 8123.25 s of uptime, a run of 90 s.
    QTest::newRow("relative: offsets") << true << qint64(8'123'250'000'000) << qint64(8'213'250'000'000) << "+00:00:00" << "+00:01:31";
    QTest::newRow("dated: UTC") << false << qint64(1'700'000'000'000'000'000) << qint64(1'700'000'060'000'000'000)
                                << "2023-11-14 22:13:20 UTC" << "2023-11-14 22:14:21 UTC";
    // A day or more of relative times keeps the dates: hours alone would wrap.
    QTest::newRow("relative over two days: dates") << true << qint64(0) << qint64(2 * 86'400'000'000'000) << "1970-01-01 00:00:00 UTC"
                                                   << "1970-01-03 00:00:01 UTC";
}

void TestFilterBar::relativeTimesAsOffsets()
{
    QFETCH(bool, relative);
    QFETCH(qint64, firstNs);
    QFETCH(qint64, lastNs);
    QFETCH(QString, fromText);
    QFETCH(QString, toText);
    FilterBar bar;
    bar.setTimeBounds(firstNs, lastNs, relative);
    QCOMPARE(bar.fromEdit()->text(), fromText);
    QCOMPARE(bar.toEdit()->text(), toText);
    // A narrower span (a filter applied) moves neither the origin nor what the checked editors hold.
    QSignalSpy changed(&bar, &FilterBar::filterChanged);
    bar.fromBox()->setChecked(true);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(bar.filter().fromNs, firstNs - firstNs % 1'000'000); // the editors hold milliseconds
    const qint64 origin = bar.timeOrigin();
    bar.setTimeBounds(firstNs + 5'000'000'000, lastNs, relative);
    QCOMPARE(bar.timeOrigin(), origin);
    QCOMPARE(bar.fromEdit()->text(), fromText);
    // Five seconds later in the editor is five seconds later in the filter.
    bar.fromEdit()->setDateTime(bar.fromEdit()->dateTime().addSecs(5));
    bar.toBox()->setChecked(true);
    QCOMPARE(bar.filter().fromNs, firstNs - firstNs % 1'000'000 + 5'000'000'000);
    QVERIFY(bar.filter().toNs > lastNs);
    // Back in the history restores the store's times too: the start alone, at the first request.
    bar.back();
    QCOMPARE(bar.filter().fromNs, firstNs - firstNs % 1'000'000);
    QCOMPARE(bar.filter().toNs, lx::kNotMeasured);
    QCOMPARE(bar.fromEdit()->text(), fromText);
}

QTEST_MAIN(TestFilterBar)
#include "tst_filter_bar.moc"
