// SPDX-License-Identifier: GPL-3.0-or-later
// The chart base: exports in each format are real files of that format at the asked size; unknown
// formats and unwritable paths are refused with a reason; axis labels go through the duration formatter.

#include "chart.h"
#include "chart_tickers.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

class TestChart : public QObject {
    Q_OBJECT

private slots:
    void exportWritesFormat_data();
    void exportWritesFormat();
    void exportRefuses_data();
    void exportRefuses();
    void durationLabels_data();
    void durationLabels();
    void durationSteps_data();
    void durationSteps();
    void timeSteps_data();
    void timeSteps();
    void logTicks_data();
    void logTicks();
    void timeLabels_data();
    void timeLabels();
    void timeTicksOnTheClock_data();
    void timeTicksOnTheClock();
    void paletteChangeRecolours();
};

namespace {

void fill(Chart &chart)
{
    QCPGraph *graph = chart.addGraph();
    graph->setData({0, 1, 2, 3}, {1e6, 3e6, 2e6, 5e6});
    chart.rescaleAxes();
}

} // namespace

void TestChart::exportWritesFormat_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "chart.png" << QByteArray("\x89PNG");
    QTest::newRow("PNG suffix in capitals") << "chart.PNG" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "chart.svg" << QByteArray("<?xml");
    QTest::newRow("pdf") << "chart.pdf" << QByteArray("%PDF");
}

void TestChart::exportWritesFormat()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, magic);
    QTemporaryDir dir;
    Chart chart;
    fill(chart);
    const QString path = dir.filePath(name);
    QString error;
    QVERIFY2(chart.exportTo(path, QSize(640, 360), &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY2(bytes.startsWith(magic), bytes.left(16).constData());
    if (name.endsWith(QLatin1String("png"), Qt::CaseInsensitive)) {
        const QImage image(path);
        QCOMPARE(image.size(), QSize(640, 360));
    }
    if (name.endsWith(QLatin1String("svg")))
        QVERIFY(bytes.contains("width=\"") && bytes.contains("<svg"));
}

void TestChart::exportRefuses_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reason");
    QTest::newRow("unknown suffix") << "chart.gif" << "unknown chart format \"gif\"";
    QTest::newRow("no suffix") << "chart" << "unknown chart format \"\"";
    QTest::newRow("missing folder") << "no/such/folder/chart.png" << "could not be written";
}

void TestChart::exportRefuses()
{
    QFETCH(QString, path);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    Chart chart;
    fill(chart);
    QString error;
    QVERIFY(!chart.exportTo(dir.filePath(path), QSize(320, 200), &error));
    QVERIFY2(error.contains(reason), qPrintable(error));
    QVERIFY2(error.contains(path), qPrintable(error)); // the message names the file
}

void TestChart::durationLabels_data()
{
    QTest::addColumn<double>("ns");
    QTest::addColumn<QString>("label");
    QTest::newRow("zero") << 0.0 << "0";
    QTest::newRow("ms") << 250e6 << "250 ms";
    QTest::newRow("s without the zero a round tick does not need") << 1.5e9 << "1.5 s";
    QTest::newRow("whole seconds") << 10e9 << "10 s";
    QTest::newRow("seconds keep their digits") << 1.25e9 << "1.25 s";
    QTest::newRow("ms") << 2.5e6 << "2.5 ms";
    QTest::newRow("us") << 12'400.0 << QString::fromUtf8("12.4 µs");
    QTest::newRow("100 us, no point to trim") << 100e3 << QString::fromUtf8("100 µs");
    QTest::newRow("a minute, not 60.0 s") << 59.9e9 << "1 min";
    QTest::newRow("40 min, not 40 min 0 s") << 2400e9 << "40 min";
    QTest::newRow("minutes and seconds") << 90e9 << "1 min 30 s";
    QTest::newRow("an hour") << 3600e9 << "1 h";
    QTest::newRow("an hour and a half") << 5400e9 << "1 h 30 min";
    QTest::newRow("two days in hours") << 172800e9 << "48 h";
    QTest::newRow("negative") << -2400e9 << "-40 min";
}

void TestChart::durationLabels()
{
    QFETCH(double, ns);
    QFETCH(QString, label);
    DurationTicker linear;
    LogDurationTicker log;
    QCOMPARE(linear.getTickLabel(ns, QLocale::c(), QLatin1Char('g'), 6), label);
    QCOMPARE(log.getTickLabel(ns, QLocale::c(), QLatin1Char('g'), 6), label);
}

void TestChart::durationSteps_data()
{
    QTest::addColumn<double>("rangeNs");
    QTest::addColumn<double>("stepNs");
    // The default 5 ticks: the step is the smallest round one of at least a fifth of the range.
    QTest::newRow("milliseconds: 1-2-2.5-5") << 500e6 << 100e6;
    QTest::newRow("seconds") << 40e9 << 10e9;
    QTest::newRow("minutes, not 50 s") << 300e9 << 60e9;
    QTest::newRow("five minutes, not 100 s") << 25 * 60e9 << 300e9;
    QTest::newRow("hours") << 5 * 3600e9 << 3600e9;
    QTest::newRow("days") << 12 * 86400e9 << 3 * 86400e9;
}

void TestChart::durationSteps()
{
    QFETCH(double, rangeNs);
    QFETCH(double, stepNs);
    struct Probe : DurationTicker {
        using DurationTicker::getTickStep;
    } ticker;
    QCOMPARE(ticker.getTickStep(QCPRange(0, rangeNs)), stepNs);
}

void TestChart::timeSteps_data()
{
    QTest::addColumn<double>("rangeSeconds");
    QTest::addColumn<double>("stepSeconds");
    // The default 5 ticks: the smallest step people count time in of at least a fifth of the range.
    QTest::newRow("seconds") << 60.0 << 15.0;
    QTest::newRow("an hour") << 5 * 3600.0 << 3600.0;
    QTest::newRow("six hours, not 6.5") << 30 * 3600.0 << 6 * 3600.0;
    QTest::newRow("twelve hours, not 8: the 1M trace's 12:00, 20:00, 04:00") << 36 * 3600.0 << 12 * 3600.0;
    QTest::newRow("days") << 10 * 86400.0 << 2 * 86400.0;
}

void TestChart::timeSteps()
{
    QFETCH(double, rangeSeconds);
    QFETCH(double, stepSeconds);
    struct Probe : TimeTicker {
        using TimeTicker::TimeTicker;
        using TimeTicker::getTickStep;
    } ticker(0, false);
    QCOMPARE(ticker.getTickStep(QCPRange(0, rangeSeconds)), stepSeconds);
}

void TestChart::logTicks_data()
{
    QTest::addColumn<double>("lowerNs");
    QTest::addColumn<double>("upperNs");
    QTest::addColumn<QString>("ticks"); // the labels of the ticks inside the range
    QTest::addColumn<QString>("someSubTicks"); // labels of durations that must be sub-ticks
    QTest::newRow("decades below a second") << 0.5e6 << 2e9 << "1 ms, 10 ms, 100 ms, 1 s" << "2 ms, 50 ms, 200 ms";
    QTest::newRow("the issue's 1 min 40 s and 16 min 40 s") << 20e9 << 2000e9 << "1 min, 10 min" << "30 s, 2 min, 20 min";
    QTest::newRow("minutes to hours") << 5e9 << 20000e9 << "10 s, 1 min, 10 min, 1 h" << "20 s, 5 min, 30 min";
    QTest::newRow("hours to days") << 1800e9 << 3e14 << "1 h, 10 h, 24 h" << "2 h, 20 h";
    QTest::newRow("nanoseconds to days: every third step, no crowd")
        << 1.0 << 1e15 << QString::fromUtf8("1 ns, 1 µs, 1 ms, 1 s, 10 min, 24 h") << "";
}

void TestChart::logTicks()
{
    QFETCH(double, lowerNs);
    QFETCH(double, upperNs);
    QFETCH(QString, ticks);
    QFETCH(QString, someSubTicks);
    LogDurationTicker ticker;
    const QCPRange range(lowerNs, upperNs);
    QVector<double> tickValues, subTicks;
    QVector<QString> labels;
    ticker.generate(range, QLocale::c(), QLatin1Char('g'), 6, tickValues, &subTicks, &labels);
    QStringList inside;
    for (qsizetype i = 0; i < tickValues.size(); ++i)
        if (range.contains(tickValues.at(i)))
            inside << labels.at(i);
    QCOMPARE(inside.join(QStringLiteral(", ")), ticks);
    QStringList subLabels;
    for (double sub : subTicks)
        subLabels << durationTickLabel(sub);
    for (const QString &wanted : someSubTicks.split(QStringLiteral(", "), Qt::SkipEmptyParts))
        QVERIFY2(subLabels.contains(wanted), qPrintable(wanted + QStringLiteral(" not in ") + subLabels.join(QStringLiteral(", "))));
}

void TestChart::timeLabels_data()
{
    QTest::addColumn<bool>("relative");
    QTest::addColumn<double>("rangeSeconds");
    QTest::addColumn<double>("tick");
    QTest::addColumn<QString>("label");
    // origin 2025-01-01T12:00:00Z
    QTest::newRow("seconds") << false << 60.0 << 5.0 << "12:00:05";
    QTest::newRow("tenths") << false << 1.0 << 0.4 << "12:00:00.4";
    QTest::newRow("hundredths") << false << 0.05 << 0.03 << "12:00:00.03";
    QTest::newRow("microseconds") << false << 5e-5 << 1.2e-5 << "12:00:00.000012";
    QTest::newRow("days") << false << 10 * 86400.0 << 86400.0 << "2025-01-02";
    QTest::newRow("relative") << true << 60.0 << 90.0 << "+1 min 30 s";
    QTest::newRow("relative whole minutes, not 40 min 0 s") << true << 6000.0 << 2400.0 << "+40 min";
}

void TestChart::timeLabels()
{
    QFETCH(bool, relative);
    QFETCH(double, rangeSeconds);
    QFETCH(double, tick);
    QFETCH(QString, label);
    struct Probe : TimeTicker {
        using TimeTicker::TimeTicker;
        using TimeTicker::getTickLabel;
        using TimeTicker::getTickStep;
    } ticker(1'735'732'800'000'000'000, relative);
    ticker.getTickStep(QCPRange(0, rangeSeconds)); // the label's precision follows the step
    QCOMPARE(ticker.getTickLabel(tick, QLocale::c(), QLatin1Char('g'), 6), label);
}

void TestChart::timeTicksOnTheClock_data()
{
    QTest::addColumn<qint64>("originNs");
    QTest::addColumn<bool>("relative");
    QTest::addColumn<double>("rangeSeconds");
    QTest::addColumn<QString>("ticks"); // the labels of the ticks inside the range
    // A trace whose first request came at 2025-01-01T12:00:01.3Z ticked 12:00:01, 12:01:01, ...
    QTest::newRow("minutes on the minute")
        << qint64(1'735'732'801'300'000'000) << false << 200.0 << "12:01:00, 12:02:00, 12:03:00";
    QTest::newRow("days at midnight, not at noon") << qint64(1'735'732'800'000'000'000) << false << 7 * 86400.0
                                                   << "2025-01-02, 2025-01-04, 2025-01-06, 2025-01-08";
    QTest::newRow("an origin on the step")
        << qint64(1'735'732'800'000'000'000) << false << 200.0 << "12:00:00, 12:01:00, 12:02:00, 12:03:00";
    QTest::newRow("offsets from the origin") << qint64(1'300'000'000) << true << 200.0 << "+0, +1 min, +2 min, +3 min";
}

void TestChart::timeTicksOnTheClock()
{
    QFETCH(qint64, originNs);
    QFETCH(bool, relative);
    QFETCH(double, rangeSeconds);
    QFETCH(QString, ticks);
    TimeTicker ticker(originNs, relative);
    const QCPRange range(0, rangeSeconds);
    QVector<double> tickValues;
    QVector<QString> labels;
    ticker.generate(range, QLocale::c(), QLatin1Char('g'), 6, tickValues, nullptr, &labels);
    QStringList inside;
    for (qsizetype i = 0; i < tickValues.size(); ++i)
        if (range.contains(tickValues.at(i)))
            inside << labels.at(i);
    QCOMPARE(inside.join(QStringLiteral(", ")), ticks);
}

void TestChart::paletteChangeRecolours()
{
    Chart chart;
    fill(chart);
    QPalette dark = chart.palette();
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    int applied = 0;
    connect(&chart, &Chart::paletteApplied, this, [&applied] { ++applied; });
    chart.setPalette(dark);
    QCOMPARE(applied, 1);
    QCOMPARE(chart.xAxis->tickLabelColor(), QColor(0xee, 0xee, 0xee));
    QCOMPARE(chart.xAxis->basePen().color(), QColor(0xee, 0xee, 0xee));
}

QTEST_MAIN(TestChart)
#include "tst_chart.moc"
