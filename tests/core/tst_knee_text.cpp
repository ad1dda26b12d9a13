// SPDX-License-Identifier: GPL-3.0-or-later
// The knee's one rounding: the issue saw "2.5 req/s, 6.8 in flight" on the chart beside "2.52 req/s, 7"
// in the finding. Rates keep three significant digits without an exponent; requests in flight are whole.

#include "analysis/knee_text.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace lx;

class TestKneeText : public QObject {
    Q_OBJECT

private slots:
    void rate_data()
    {
        QTest::addColumn<double>("rps");
        QTest::addColumn<QString>("text");
        QTest::newRow("the issue's 2.52, not 2.5") << 2.5213 << "2.52";
        QTest::newRow("trailing zero dropped") << 2.5 << "2.5";
        QTest::newRow("tens") << 41.23 << "41.2";
        QTest::newRow("rounds up into the next decade") << 9.996 << "10";
        QTest::newRow("hundreds whole") << 326.4 << "326";
        QTest::newRow("thousands without an exponent") << 1234.6 << "1235";
        QTest::newRow("below one") << 0.05234 << "0.0523";
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("not a number") << std::numeric_limits<double>::quiet_NaN() << "-";
    }
    void rate()
    {
        QFETCH(double, rps);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(kneeRateText(rps)), text);
    }

    void inFlight_data()
    {
        QTest::addColumn<double>("inFlight");
        QTest::addColumn<QString>("text");
        QTest::newRow("the issue's 7, not 6.8") << 6.8 << "7";
        QTest::newRow("one") << 1.2 << "1";
        QTest::newRow("tens") << 37.4 << "37";
        QTest::newRow("below one keeps two digits") << 0.4521 << "0.45";
        QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << "-";
    }
    void inFlight()
    {
        QFETCH(double, inFlight);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(kneeInFlightText(inFlight)), text);
    }

    void both()
    {
        Knee knee;
        knee.rateRps = 2.5213;
        knee.inFlight = 6.8;
        QCOMPARE(QString::fromStdString(kneeText(knee)), QStringLiteral("2.52 req/s, 7 in flight"));
    }
};

QTEST_GUILESS_MAIN(TestKneeText)
#include "tst_knee_text.moc"
