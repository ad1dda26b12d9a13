// SPDX-License-Identifier: GPL-3.0-or-later
// The summary's dominant-segment line reads like the text report's: largest share first, ties in pipeline
// order, only the segments that dominate a request, and no share shown as 0.0% that is not zero.

#include "summary_view.h"

#include <QLabel>
#include <QLocale>
#include <QTest>
#include <QTextDocument>

using DominantCounts = std::array<std::int64_t, lx::kSegmentCount>;
Q_DECLARE_METATYPE(DominantCounts)

namespace {

/// The plain text of the label that starts with "Dominant segment" (it is rich text).
QString dominantLine(const SummaryView &view)
{
    for (const QLabel *label : view.findChildren<QLabel *>()) {
        QTextDocument document;
        document.setHtml(label->text());
        const QString text = document.toPlainText();
        if (text.startsWith(QLatin1String("Dominant segment")))
            return text;
    }
    return {};
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
};

QTEST_MAIN(TestSummaryView)
#include "tst_summary_view.moc"
