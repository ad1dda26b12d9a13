// SPDX-License-Identifier: GPL-3.0-or-later
// The filter bar's history: a chart's click narrows the filter, and back/forward walk the filters applied
// like a browser's history.

#include "filter_bar.h"

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

QTEST_MAIN(TestFilterBar)
#include "tst_filter_bar.moc"
