// SPDX-License-Identifier: GPL-3.0-or-later
// Counts read with their noun in the number it needs: "1 request", never "1 requests"; digits grouped by
// the locale; the verb that follows agrees.

#include "count_text.h"

#include <QLocale>
#include <QTest>

class TestCountText : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void requests_data();
    void requests();
};

void TestCountText::requests_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("verb");
    QTest::newRow("none") << qint64(0) << QStringLiteral("0 requests") << QStringLiteral("match");
    QTest::newRow("one") << qint64(1) << QStringLiteral("1 request") << QStringLiteral("matches");
    QTest::newRow("two") << qint64(2) << QStringLiteral("2 requests") << QStringLiteral("match");
    QTest::newRow("grouped") << qint64(1234567) << QStringLiteral("1,234,567 requests") << QStringLiteral("match");
}

void TestCountText::requests()
{
    QFETCH(qint64, n);
    QFETCH(QString, text);
    QFETCH(QString, verb);
    QCOMPARE(requestsText(n), text);
    QCOMPARE(agreeing(n, QStringLiteral("matches"), QStringLiteral("match")), verb);
}

QTEST_GUILESS_MAIN(TestCountText)
#include "tst_count_text.moc"
