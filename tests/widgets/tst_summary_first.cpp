// SPDX-License-Identifier: GPL-3.0-or-later
// Opening one trace file shows the summary first (investigation_summary_first.cpp): read into a store that
// holds the requests in memory and analysed there while the investigation's store is still being written.
// That summary is the one the written store gives; nothing else takes that path; and a cancel in either
// pass leaves the window as any cancelled import does.

#include "analysis/analysis.h"
#include "analysis/waterfall_data.h"
#include "chart_tabs.h"
#include "ingest/open_inputs.h"
#include "investigation.h"
#include "main_window.h"
#include "model/segments.h"
#include "request_detail_view.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "store/store.h"
#include "summary_view.h"
#include "test_support.h"

#include <QLabel>
#include <QLocale>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <string_view>

namespace {

/// A simulated trace of `requests` requests as timestamps JSON lines (the bench's form), in `dir`.
QString simulatedTrace(const QTemporaryDir &dir, const QString &name, std::int64_t requests, std::uint64_t seed, bool compressed = false)
{
    lx::sim::SimConfig config;
    config.requests = requests;
    config.seed = seed;
    std::string text;
    lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) { lx::sim::appendRecord(text, lx::sim::TraceForm::Timestamps, r); });
    const QByteArray bytes = QByteArray::fromStdString(text);
    return QString::fromStdString(lxtest::writeFile(dir, name, compressed ? lxtest::zstdCompress(bytes) : bytes));
}

/// A saved investigation (.lxdb) of `trace`, made by core as "Save as" would leave it.
QString savedInvestigation(const QTemporaryDir &dir, const QString &trace)
{
    lx::OpenOptions options;
    options.newStorePath = dir.filePath(QStringLiteral("saved.lxdb")).toStdString();
    const lx::OpenedInputs opened = lx::openInputs(lx::planOpenInputs({trace.toStdString()}), options);
    return opened.store ? QString::fromStdString(options.newStorePath) : QString();
}

/// What the window showed while an open's import was still running.
struct DuringImport {
    int reports = 0;     ///< reports that arrived while importing() was true
    lx::Report report;   ///< the first of them
    QString summaryE2e;  ///< the e2e count the Summary tab showed then
    QStringList stages;  ///< the progress's stages, in order, once each
};

void watch(MainWindow &window, DuringImport &seen, const std::function<void()> &onFirstReport = {})
{
    Investigation *investigation = window.investigation();
    QObject::connect(investigation, &Investigation::reportChanged, &window, [&seen, &window, investigation, onFirstReport] {
        if (!investigation->importing() || !investigation->hasReport())
            return;
        if (seen.reports++ == 0) {
            seen.report = investigation->report();
            seen.summaryE2e = window.summaryView()->table()->item(lx::kSegmentCount, 0)->text();
            if (onFirstReport)
                onFirstReport();
        }
    });
    QObject::connect(investigation, &Investigation::importProgress, &window, [&seen](const QString &stage) {
        if (seen.stages.isEmpty() || seen.stages.back() != stage)
            seen.stages << stage;
    });
}

bool waitSettled(MainWindow &window, QSignalSpy &settled)
{
    if (!settled.wait(60000))
        return false;
    while (settled.wait(300)) { // several views may settle one after the other: wait for the last
    }
    return !window.investigation()->busy();
}

bool summarySays(const MainWindow &window, const QString &words)
{
    for (const QLabel *label : window.summaryView()->findChildren<QLabel *>()) {
        if (label->text().contains(words))
            return true;
    }
    return false;
}

void compareStatistic(const lx::Statistic &actual, const lx::Statistic &expected, std::string_view what)
{
    const QByteArray name(what.data(), qsizetype(what.size()));
    QVERIFY2(actual.count == expected.count, name);
    QVERIFY2(actual.maxNs == expected.maxNs, name);
    QVERIFY2(actual.percentilesNs == expected.percentilesNs, name);
}

/// The figures the Summary shows, compared: counts and the percentiles of e2e and of every segment.
void compareReports(const lx::Report &actual, const lx::Report &expected)
{
    QCOMPARE(actual.total, expected.total);
    QCOMPARE(actual.ok, expected.ok);
    QCOMPARE(actual.error, expected.error);
    QCOMPARE(actual.rejected, expected.rejected);
    QVERIFY(actual.percentiles == expected.percentiles);
    compareStatistic(actual.e2e.stat, expected.e2e.stat, "e2e");
    for (int s = 0; s < lx::kSegmentCount; ++s)
        compareStatistic(actual.segments[std::size_t(s)].stat, expected.segments[std::size_t(s)].stat, lx::kSegmentNames[std::size_t(s)]);
    compareStatistic(actual.ttft.stat, expected.ttft.stat, "ttft");
    QVERIFY(actual.dominantCounts == expected.dominantCounts);
}

} // namespace

class TestSummaryFirst : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        lxtest::isolateGuiSettings(m_settings.path());
        m_trace = simulatedTrace(m_dir, QStringLiteral("trace.jsonl"), 20000, 7);
        m_compressed = simulatedTrace(m_dir, QStringLiteral("trace.jsonl.zst"), 20000, 8, true);
        m_other = simulatedTrace(m_dir, QStringLiteral("other.jsonl"), 3000, 9);
        m_saved = savedInvestigation(m_dir, m_other);
        QVERIFY(!m_saved.isEmpty());
    }

    void summaryBeforeTheStore_data()
    {
        QTest::addColumn<QString>("inputs"); // which of the suite's files are opened
        QTest::addColumn<bool>("summaryFirst");
        QTest::newRow("one trace file") << QStringLiteral("trace") << true;
        QTest::newRow("one compressed trace file") << QStringLiteral("compressed") << true;
        QTest::newRow("a saved investigation") << QStringLiteral("saved") << false;
        QTest::newRow("two trace files") << QStringLiteral("trace other") << false;
    }

    void summaryBeforeTheStore()
    {
        QFETCH(QString, inputs);
        QFETCH(bool, summaryFirst);
        MainWindow window;
        window.show();
        DuringImport seen;
        bool rejectedDeferred = false; // the summary's "rejected" link waits for the store, where they are
        watch(window, seen, [&] {
            emit window.summaryView()->showRejectedRequested();
            rejectedDeferred = window.statusBar()->currentMessage().contains(QStringLiteral("once the import"));
        });
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles(paths(inputs));
        QVERIFY(waitSettled(window, settled));
        QVERIFY(!window.investigation()->importing());
        const lx::Report &final = window.investigation()->report();
        compareReports(final, lx::analyze(*window.investigation()->store()));
        QVERIFY(!QTest::currentTestFailed());
        QVERIFY(final.total > 0);
        if (!summaryFirst) {
            QCOMPARE(seen.reports, 0);
            QVERIFY2(!seen.stages.join(QLatin1Char('|')).contains(QStringLiteral("summary")), qPrintable(seen.stages.join(QLatin1Char('|'))));
            return;
        }
        QCOMPARE(seen.reports, 1);
        QVERIFY(rejectedDeferred);
        compareReports(seen.report, final);
        QVERIFY(!QTest::currentTestFailed());
        QCOMPARE(seen.summaryE2e, QLocale().toString(final.e2e.stat.count)); // shown, not only computed
        // The progress said which pass it was in: reading for the summary, then writing the store.
        const qsizetype reading = seen.stages.indexOf(QStringLiteral("Reading for the summary"));
        const qsizetype writing = seen.stages.indexOf(QStringLiteral("Writing the investigation"));
        QVERIFY2(reading >= 0 && writing > reading, qPrintable(seen.stages.join(QLatin1Char('|'))));
    }

    void cancelLeavesNothingHalfDone_data()
    {
        QTest::addColumn<bool>("afterSummary"); // cancelled once the summary showed, as the store is written
        QTest::newRow("while reading for the summary") << false;
        QTest::newRow("while writing the investigation") << true;
    }

    void cancelLeavesNothingHalfDone()
    {
        QFETCH(bool, afterSummary);
        MainWindow window;
        window.show();
        DuringImport seen;
        // Cancelled the moment the summary shows: pass 2 starts with the flag set and keeps nothing.
        watch(window, seen, [&window, afterSummary] {
            if (afterSummary)
                window.investigation()->cancelImport();
        });
        QSignalSpy cancelled(window.investigation(), &Investigation::importCancelledEmpty);
        QSignalSpy finished(window.investigation(), &Investigation::importFinished);
        window.openFiles({m_trace});
        if (!afterSummary)
            window.investigation()->cancelImport(); // before the worker's first record: the summary never shows
        QVERIFY(finished.wait(60000));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(seen.reports, afterSummary ? 1 : 0);
        QVERIFY(!window.investigation()->hasStore());
        QVERIFY(!window.investigation()->hasReport());
        QVERIFY(!window.investigation()->busy());
        QVERIFY(summarySays(window, QStringLiteral("cancelled")));
        QTest::qWait(300); // nothing of the cancelled open lands late
        QVERIFY(!window.investigation()->hasStore());
        QVERIFY(!window.investigation()->hasReport());

        // The window is ready for the next open, which shows its summary first again.
        DuringImport again;
        watch(window, again);
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({m_trace});
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(again.reports, 1);
        compareReports(window.investigation()->report(), lx::analyze(*window.investigation()->store()));
    }

    void filterSetDuringTheImportWins_data()
    {
        QTest::addColumn<bool>("afterSummary"); // set once the read-ahead summary showed, else before it lands
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("heldDecide"); // the requests held for the summary can decide it
        QTest::newRow("before the summary shows") << false << QStringLiteral("e2e > 2s") << true;
        QTest::newRow("after the summary showed") << true << QStringLiteral("e2e > 2s") << true;
        QTest::newRow("on a model, after the summary") << true << QStringLiteral("model != \"none\" and e2e > 2s") << false;
    }

    void filterSetDuringTheImportWins()
    {
        QFETCH(bool, afterSummary);
        QFETCH(QString, expression);
        QFETCH(bool, heldDecide);
        const lx::RequestFilter filter = lxtest::filterOf(expression).value();
        MainWindow window;
        DuringImport seen;
        bool droppedShown = false; // the unfiltered summary no longer showed once the filter was set
        watch(window, seen, [&] {
            if (!afterSummary)
                return;
            window.investigation()->setFilter(filter);
            droppedShown = !window.investigation()->hasReport() && summarySays(window, QStringLiteral("Importing"));
        });
        // Reports of the filter that landed while the store was still written: analysed on the held requests.
        std::vector<lx::Report> filteredEarly;
        connect(window.investigation(), &Investigation::reportChanged, &window, [&] {
            Investigation *investigation = window.investigation();
            if (investigation->importing() && investigation->hasReport() && !investigation->filter().empty())
                filteredEarly.push_back(investigation->report());
        });
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({m_trace});
        if (!afterSummary)
            window.investigation()->setFilter(filter); // the unfiltered summary of pass 1 is never shown
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(seen.reports - int(filteredEarly.size()), afterSummary ? 1 : 0);
        QCOMPARE(droppedShown, afterSummary);
        const lx::Store &store = *window.investigation()->store();
        const lx::Report expected = lx::analyze(store, filter);
        compareReports(window.investigation()->report(), expected);
        QVERIFY(!QTest::currentTestFailed());
        QVERIFY(window.investigation()->report().total < lx::analyze(store).total); // the filter took
        if (!heldDecide)
            QVERIFY(filteredEarly.empty());
        for (const lx::Report &early : filteredEarly)
            compareReports(early, expected);
    }

    void chartsReadTheHeldRequests_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<bool>("heldDecide");
        QTest::newRow("no filter") << QString() << true;
        QTest::newRow("on statistics") << QStringLiteral("e2e > 1s and not skew") << true;
        QTest::newRow("on a model") << QStringLiteral("model = \"m\"") << false;
    }

    /// While pass 2 writes the store, the charts read pass 1's store (Investigation::viewSource()): the
    /// waterfall drawn from it is the one the written store gives.
    void chartsReadTheHeldRequests()
    {
        QFETCH(QString, expression);
        QFETCH(bool, heldDecide);
        const lx::RequestFilter filter = lxtest::filterOf(expression).value();
        MainWindow window;
        DuringImport seen;
        ViewSource source;
        std::shared_ptr<const lx::WaterfallData> early;
        watch(window, seen, [&] {
            source = window.investigation()->viewSource(filter);
            if (source.shared)
                early = source.shared->read([&](const lx::Store &store) { return lx::loadWaterfall(store, filter); });
        });
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({m_trace});
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(seen.reports, 1);
        QVERIFY(source.storeFile.empty()); // the store, being written, is no one's to read yet
        QCOMPARE(source.shared != nullptr, heldDecide);
        QCOMPARE(window.investigation()->viewSource(filter).storeFile, window.investigation()->store()->fileName());
        if (!heldDecide)
            return;
        QVERIFY(early);
        const auto stored = lx::loadWaterfall(*window.investigation()->store(), filter);
        QVERIFY(stored && stored->size() > 0);
        QCOMPARE(early->size(), stored->size());
        QVERIFY(std::equal(early->ids.begin(), early->ids.end(), stored->ids.begin()));
        QVERIFY(std::equal(early->ends.begin(), early->ends.end(), stored->ends.begin()));
        QVERIFY(std::equal(early->lanes.begin(), early->lanes.end(), stored->lanes.begin()));
    }

    /// A request picked in a chart while the store is written (the charts read the held requests): the
    /// detail says when its details come, then shows them once the store has landed.
    void requestPickedDuringTheImport()
    {
        MainWindow window;
        const auto detailSays = [&](const QString &words) {
            const QTreeWidget *tree = window.detailView()->tree();
            for (int i = 0; i < tree->topLevelItemCount(); ++i) {
                if (tree->topLevelItem(i)->text(0).contains(words))
                    return true;
            }
            return false;
        };
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({m_trace});
        QVERIFY(window.investigation()->importing());
        emit window.charts()->requestSelected(5);
        QVERIFY(detailSays(QStringLiteral("once the investigation's store is written")));
        QVERIFY(waitSettled(window, settled));
        emit window.charts()->requestSelected(5);
        QVERIFY(!detailSays(QStringLiteral("once the investigation's store is written")));
        QVERIFY(!detailSays(QStringLiteral("No request selected")));
        QVERIFY(window.detailView()->tree()->topLevelItemCount() > 1); // its sections
    }

private:
    QStringList paths(const QString &inputs) const
    {
        QStringList list;
        for (const QString &name : inputs.split(QLatin1Char(' '))) {
            list << (name == QLatin1String("trace")        ? m_trace
                     : name == QLatin1String("compressed") ? m_compressed
                     : name == QLatin1String("saved")      ? m_saved
                                                           : m_other);
        }
        return list;
    }

    QTemporaryDir m_settings;
    QTemporaryDir m_dir;
    QString m_trace, m_compressed, m_other, m_saved;
};

QTEST_MAIN(TestSummaryFirst)
#include "tst_summary_first.moc"
