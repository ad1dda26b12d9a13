// SPDX-License-Identifier: GPL-3.0-or-later
// The summary's dominant-segment line reads like the text report's: largest share first, ties in pipeline
// order, only the segments that dominate a request, and no share shown as 0.0% that is not zero.

#include "report/report_format.h"
#include "summary_view.h"

#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QTest>
#include <QTextDocument>

using DominantCounts = std::array<std::int64_t, lx::kSegmentCount>;
Q_DECLARE_METATYPE(DominantCounts)

namespace {

/// The plain text of every label (some are rich text).
QStringList labelTexts(const SummaryView &view)
{
    QStringList texts;
    for (const QLabel *label : view.findChildren<QLabel *>()) {
        QTextDocument document;
        document.setHtml(label->text());
        texts << document.toPlainText();
    }
    return texts;
}

/// The plain text of the label that starts with "Dominant segment".
QString dominantLine(const SummaryView &view)
{
    for (const QString &text : labelTexts(view))
        if (text.startsWith(QLatin1String("Dominant segment")))
            return text;
    return {};
}

/// The table of inputs: the one whose columns include "accepted".
const QTableWidget *inputsTable(const SummaryView &view)
{
    for (const QTableWidget *table : view.findChildren<QTableWidget *>()) {
        for (int c = 0; c < table->columnCount(); ++c)
            if (table->horizontalHeaderItem(c) && table->horizontalHeaderItem(c)->text() == QLatin1String("accepted"))
                return table;
    }
    return nullptr;
}

} // namespace

class TestSummaryView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void dominantLine_data()
    {
        QTest::addColumn<DominantCounts>("counts");
        QTest::addColumn<QString>("line");
        // Pipeline order: network, preprocess, queue, prefill, decode, postprocess, unattributed.
        QTest::newRow("largest first") << DominantCounts{0, 0, 30, 10, 60, 0, 0}
                                       << QStringLiteral("share of 100 requests: decode 60.0% · queue 30.0% · prefill 10.0%");
        QTest::newRow("ties keep pipeline order") << DominantCounts{10, 0, 0, 0, 0, 0, 10}
                                                  << QStringLiteral("share of 20 requests: network 50.0% · unattributed 50.0%");
        QTest::newRow("a rare segment is not 0.0%") << DominantCounts{0, 0, 0, 0, 9999, 1, 0}
                                                    << QStringLiteral("share of 10,000 requests: decode >99.9% · postprocess <0.1%");
        QTest::newRow("no request") << DominantCounts{} << QStringLiteral("share of 0 requests: ");
    }

    void dominantLine()
    {
        QFETCH(DominantCounts, counts);
        QFETCH(QString, line);
        lx::Report report;
        report.dominantCounts = counts;
        for (std::int64_t c : counts)
            report.dominantTotal += c;
        SummaryView view;
        view.setReport(report);
        QCOMPARE(::dominantLine(view), QStringLiteral("Dominant segment, ") + line);
    }

    // Requests whose times are offsets (a benchmark result without send times): the summary says so in the
    // words of the text report, and says nothing of it when every time is a date.
    void relativeTimes_data()
    {
        QTest::addColumn<qint64>("relative");
        QTest::newRow("all relative") << qint64(7);
        QTest::newRow("one relative") << qint64(1);
        QTest::newRow("none relative") << qint64(0);
    }

    void relativeTimes()
    {
        QFETCH(qint64, relative);
        lx::Report report;
        report.total = report.ok = 7;
        report.relativeTime = relative;
        SummaryView view;
        view.setReport(report);
        const QString all = labelTexts(view).join(QLatin1Char('\n'));
        const std::string text = lx::reportToText(report);
        const bool inReport = text.find("are relative to the start") != std::string::npos;
        QCOMPARE(inReport, relative > 0);
        QCOMPARE(all.contains(QLatin1String("are relative to the start")), inReport);
        if (inReport) {
            const QString sentence = QString::fromStdString(lx::relativeTimeSentence(relative));
            QVERIFY(sentence.contains(QString::number(relative)));
            QVERIFY2(all.contains(sentence), qPrintable(all));
            QVERIFY(text.find(sentence.toStdString()) != std::string::npos);
        }
    }

    /// What the text report says above its table, the summary says too: whether client and server records
    /// were joined (it said nothing: a joined pair looked like any trace), and that a what-if replay is one.
    void saysWhatTheReportSays_data()
    {
        QTest::addColumn<bool>("joined");
        QTest::addColumn<bool>("simulated");
        QTest::newRow("plain") << false << false;
        QTest::newRow("joined") << true << false;
        QTest::newRow("simulated") << false << true;
    }
    void saysWhatTheReportSays()
    {
        QFETCH(bool, joined);
        QFETCH(bool, simulated);
        lx::Report report;
        report.total = report.ok = 20;
        report.join.active = joined;
        report.join.matched = joined ? 19 : 0;
        report.join.clientOnly = joined ? 1 : 0;
        if (simulated)
            report.inputs.push_back({ "replay", "whatif", 20, 0, "complete", {} });
        SummaryView view;
        view.setReport(report);
        const QString all = labelTexts(view).join(QLatin1Char('\n'));
        const std::string text = lx::reportToText(report);
        const QString join = QString::fromStdString(lx::joinSentence(report.join));
        QCOMPARE(all.contains(join), joined);
        QCOMPARE(text.find(join.toStdString()) != std::string::npos, joined);
        const QString replay = QString::fromStdString(lx::simulatedSentence());
        QCOMPARE(all.contains(replay), simulated);
        QCOMPARE(text.find(replay.toStdString()) != std::string::npos, simulated);
    }

    // The inputs' counts are grouped like every other count of the summary (a 1M import showed 1000000
    // under "1,000,000 requests").
    void inputCountsAreGrouped_data()
    {
        QTest::addColumn<qint64>("accepted");
        QTest::addColumn<qint64>("rejected");
        QTest::addColumn<QString>("acceptedText");
        QTest::addColumn<QString>("rejectedText");
        QTest::newRow("a million") << qint64(1000000) << qint64(0) << QStringLiteral("1,000,000") << QStringLiteral("0");
        QTest::newRow("both past a thousand") << qint64(9999999) << qint64(1234) << QStringLiteral("9,999,999") << QStringLiteral("1,234");
        QTest::newRow("small") << qint64(999) << qint64(1) << QStringLiteral("999") << QStringLiteral("1");
    }

    void inputCountsAreGrouped()
    {
        QFETCH(qint64, accepted);
        QFETCH(qint64, rejected);
        lx::Report report;
        report.inputs.push_back({"trace.jsonl", "jsonl", accepted, rejected, "complete", ""});
        SummaryView view;
        view.setReport(report);
        const QTableWidget *table = inputsTable(view);
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 1);
        QTEST(table->item(0, 2)->text(), "acceptedText");
        QTEST(table->item(0, 3)->text(), "rejectedText");
    }

    /// A long path pushed the counts and the outcome off the table, and a file whose every record was
    /// rejected read "complete" with nothing beside it.
    void inputsSayWhatMatters_data()
    {
        QTest::addColumn<qint64>("accepted");
        QTest::addColumn<qint64>("rejected");
        QTest::addColumn<QString>("message"); // the input's own
        QTest::addColumn<QString>("shown");
        QTest::newRow("read") << qint64(5) << qint64(1) << QString() << QString();
        QTest::newRow("all rejected") << qint64(0) << qint64(3) << QString()
                                      << QStringLiteral("every record was rejected: Show rejected records… says why");
        QTest::newRow("its own message") << qint64(2) << qint64(0)
                                         << QStringLiteral("truncated: the file ends inside line 3")
                                         << QStringLiteral("truncated: the file ends inside line 3");
    }
    void inputsSayWhatMatters()
    {
        QFETCH(qint64, accepted);
        QFETCH(qint64, rejected);
        QFETCH(QString, message);
        QFETCH(QString, shown);
        lx::Report report;
        report.inputs.push_back(
            { "/a/long/way/down/to/the/trace.jsonl", "jsonl", accepted, rejected, "complete", message.toStdString() });
        SummaryView view;
        view.setReport(report);
        const QTableWidget *table = inputsTable(view);
        QVERIFY(table);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("trace.jsonl"));
        QCOMPARE(table->item(0, 0)->toolTip(), QStringLiteral("/a/long/way/down/to/the/trace.jsonl"));
        QCOMPARE(table->item(0, 5)->text(), shown);
        QCOMPARE(table->item(0, 5)->toolTip(), shown);
    }
};

QTEST_MAIN(TestSummaryView)
#include "tst_summary_view.moc"
