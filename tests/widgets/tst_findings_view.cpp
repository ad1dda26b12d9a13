// SPDX-License-Identifier: GPL-3.0-or-later
// The findings view lists core's findings in core's rank with their evidence and fix, and a double-click
// or "Show requests" emits the finding's exact filter expression, which selects exactly the requests the
// finding counts; without findings it says so and offers nothing to show.

#include "analysis/analysis.h"
#include "filter/filter_expression.h"
#include "analysis/findings.h"
#include "findings_view.h"
#include "test_support.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace lx;

namespace {

const lxtest::Imported &sample()
{
    static const lxtest::Imported imported = lxtest::importPaths({LX_SOURCE_DIR "/sample_traces/rising_load.jsonl"});
    return imported;
}

/// Core's findings on the sample, as `report` finds them.
const std::vector<Finding> &sampleFindings()
{
    static const std::vector<Finding> findings = [] {
        const LatencyRows rows = readLatencyRows(*sample().store, {});
        const LoadAnalysis load = analyzeLoad(computeLoadProfile(rows), rows);
        return findFindings(rows, &load);
    }();
    return findings;
}

std::int64_t matching(const std::string &expression)
{
    auto compiled = compileFilterExpression(expression);
    if (!std::holds_alternative<SqlCondition>(compiled))
        return -1;
    RequestFilter filter;
    filter.expression = std::get<SqlCondition>(compiled);
    return analyze(*sample().store, filter).total;
}

} // namespace

class TestFindingsView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(sample().store, sample().error.c_str());
        QVERIFY(sampleFindings().size() >= 2);
    }

    void listIsCoresRank()
    {
        FindingsView view;
        view.setFindings(sampleFindings());
        QCOMPARE(view.list()->topLevelItemCount(), int(sampleFindings().size()));
        for (int i = 0; i < view.list()->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = view.list()->topLevelItem(i);
            QCOMPARE(item->text(FindingsView::RankColumn), QString::number(i + 1));
            QCOMPARE(item->text(FindingsView::TitleColumn), QString::fromStdString(sampleFindings()[std::size_t(i)].title));
            QCOMPARE(item->text(FindingsView::CountColumn), QLocale().toString(qlonglong(sampleFindings()[std::size_t(i)].count)));
        }
        QCOMPARE(view.currentFinding(), 0); // the first is shown
    }

    void findingOpensItsFilter_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("doubleClick");
        for (std::size_t i = 0; i < sampleFindings().size(); ++i) {
            QTest::addRow("%s, double-click", sampleFindings()[i].id.c_str()) << int(i) << true;
            QTest::addRow("%s, button", sampleFindings()[i].id.c_str()) << int(i) << false;
        }
    }

    void findingOpensItsFilter()
    {
        QFETCH(int, index);
        QFETCH(bool, doubleClick);
        const Finding &finding = sampleFindings()[std::size_t(index)];
        FindingsView view;
        view.resize(900, 600);
        view.setFindings(sampleFindings());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy requested(&view, &FindingsView::filterRequested);
        if (doubleClick) {
            QTreeWidget *list = view.list();
            const QRect cell = list->visualItemRect(list->topLevelItem(index));
            QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, cell.center()); // the view needs the press first
            QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, cell.center());
        } else {
            view.setCurrentFinding(index);
            view.showRequestsButton()->click();
        }
        QCOMPARE(view.currentFinding(), index);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString().toStdString(), finding.filter);
        QCOMPARE(requested.at(0).at(1).toString().toStdString(), finding.title);
        // The expression selects exactly the finding's requests.
        QCOMPARE(matching(finding.filter), finding.count);
        // The details say the evidence and the fix.
        QVERIFY(view.detailsText().contains(QString::fromStdString(finding.evidence)));
        QVERIFY(view.detailsText().contains(QString::fromStdString(finding.fix)));
        QVERIFY(view.detailsText().contains(QString::fromStdString(finding.filter)));
    }

    void nothingCutBesideTheLoadView_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        // The 1400x900 window: titles ended in "…" and the likely fix was cut off below the evidence.
        QTest::newRow("the issue's 1400x900 window") << 320 << 420;
        QTest::newRow("wide") << 900 << 700;
    }
    void nothingCutBesideTheLoadView()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        FindingsView view;
        view.resize(width, height);
        view.setFindings(sampleFindings());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTreeWidget *list = view.list();
        // Every title is whole: its text fits the lines its row has (it wraps instead of eliding).
        const int column = list->header()->sectionSize(FindingsView::TitleColumn);
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = list->topLevelItem(i);
            const QRect cell = list->visualItemRect(item);
            const QRect needed = list->fontMetrics().boundingRect(QRect(0, 0, column - 12, 10000), Qt::TextWordWrap,
                                                                   item->text(FindingsView::TitleColumn));
            QVERIFY2(cell.height() >= needed.height(),
                     qPrintable(QStringLiteral("%1: %2 of %3 px").arg(item->text(FindingsView::TitleColumn)).arg(cell.height()).arg(needed.height())
                     + QStringLiteral(" column %1 text %2").arg(column).arg(list->fontMetrics().horizontalAdvance(item->text(FindingsView::TitleColumn)))));
        }
        // The details are whole too, scrolled to when the pane is short: the label is as tall as its text.
        auto *details = view.findChild<QLabel *>();
        QVERIFY(details);
        QVERIFY(view.detailsText().contains(QStringLiteral("Likely fix:")));
        QVERIFY2(details->height() >= details->heightForWidth(details->width()),
                 qPrintable(QStringLiteral("%1 of %2 px").arg(details->height()).arg(details->heightForWidth(details->width()))));
    }

    void withoutFindings()
    {
        FindingsView view;
        view.setFindings(sampleFindings());
        view.setFindings({});
        QSignalSpy requested(&view, &FindingsView::filterRequested);
        QCOMPARE(view.list()->topLevelItemCount(), 0);
        QCOMPARE(view.currentFinding(), -1);
        QVERIFY(!view.showRequestsButton()->isEnabled());
        QVERIFY(view.detailsText().startsWith(QStringLiteral("No findings")));
        // A workload trace (arrivals alone) said "nothing stands out in the slowest requests" of requests
        // without a latency.
        QVERIFY(view.detailsText().contains(QStringLiteral("nothing stands out")));
        view.setFindings({}, false);
        QCOMPARE(view.detailsText(), QStringLiteral("No findings: no request has a measured latency to look into."));
        view.showRequests(0); // out of range: nothing
        QCOMPARE(requested.count(), 0);
    }

    void findingWithoutFilterOffersNothing()
    {
        Finding finding;
        finding.id = "errors";
        finding.title = "Errors";
        finding.evidence = "3 requests failed";
        FindingsView view;
        view.setFindings({finding});
        QSignalSpy requested(&view, &FindingsView::filterRequested);
        QVERIFY(!view.showRequestsButton()->isEnabled());
        view.showRequests(0);
        QCOMPARE(requested.count(), 0);
    }

    /// With LX_SCREENSHOT_DIR set, the view with core's findings as a PNG there, to look at.
    void screenshot()
    {
        const QString dir = qEnvironmentVariable("LX_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set LX_SCREENSHOT_DIR to write the view's picture");
        FindingsView view;
        view.setFindings(sampleFindings());
        view.resize(900, 450);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.grab().save(dir + QStringLiteral("/findings_view.png")));
    }
};

QTEST_MAIN(TestFindingsView)
#include "tst_findings_view.moc"
