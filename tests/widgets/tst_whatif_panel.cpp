// SPDX-License-Identifier: GPL-3.0-or-later
// The What-if panel of the Load tab runs core's runWhatIf() in the background on a simulated ramp: its
// sentence names the changes and the p99 e2e, its table holds observed and predicted percentiles, and the
// load view then draws the prediction dashed; a trace without server stamps shows core's reason, and a
// cancelled run (button or Esc) leaves no result. On the Load tab, the prediction goes when the filter or
// the store changes. The SLO targets' verdicts show on both sides; the filter narrows the fit only when its
// box is ticked. With LX_TEST_GRAB_DIR set, the panel beside the load view
// is written there as whatif_panel.png, to look at.

#include "chart.h"
#include "filter_bar.h"
#include "investigation.h"
#include "load_tab.h"
#include "load_view.h"
#include "model/duration_format.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "store/store.h"
#include "test_support.h"
#include "whatif_panel.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

namespace {

constexpr int kRunTimeoutMs = 120'000;

/// A ramp past the knee of a server with 8 slots, its stamps as an import reads them.
const lxtest::Imported &ramp()
{
    static QTemporaryDir dir;
    static const lxtest::Imported imported = [] {
        lx::sim::SimConfig config;
        config.decodeSlots = 8;
        config.requests = 3000;
        config.seed = 23;
        const double capacity = lx::sim::estimatedCapacityRps(config);
        config.startRateRps = 0.3 * capacity;
        config.endRateRps = 1.4 * capacity;
        std::string text;
        lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) { lx::sim::appendRecord(text, lx::sim::TraceForm::Timestamps, r); });
        return lxtest::importPaths({lxtest::writeFile(dir, QStringLiteral("ramp.jsonl"), QByteArray::fromStdString(text))});
    }();
    return imported;
}

/// A store of the JSON lines given, kept for the suite.
const lx::Store &storeOf(const QByteArray &lines)
{
    static std::vector<std::unique_ptr<lxtest::StoreFixture>> kept;
    kept.push_back(std::make_unique<lxtest::StoreFixture>(lines));
    return *kept.back()->store;
}

/// The prediction's graphs drawn: visible, with points, dashed.
int dashedPredictionGraphs(const LoadView &view)
{
    int n = 0;
    for (const QCPGraph *graph : {view.predictedP95Line(), view.predictedThroughputLine(), view.predictedInFlightLine()})
        if (graph->visible() && !graph->data()->isEmpty() && graph->pen().style() == Qt::DashLine)
            ++n;
    return n;
}

/// The load view's dashed graphs, the observed TTFT mean's included.
int dashedGraphs(const LoadView &view)
{
    int n = 0;
    for (const Chart *chart : {view.decompositionChart(), view.profileChart()})
        for (int i = 0; i < chart->graphCount(); ++i)
            if (chart->graph(i)->visible() && !chart->graph(i)->data()->isEmpty() && chart->graph(i)->pen().style() == Qt::DashLine)
                ++n;
    return n;
}

bool waitFinished(WhatIfPanel &panel)
{
    QSignalSpy finished(&panel, &WhatIfPanel::finished);
    return finished.wait(kRunTimeoutMs);
}

} // namespace

class TestWhatIfPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        lxtest::isolateGuiSettings(m_settings.path());
        qRegisterMetaType<std::shared_ptr<const lx::LoadChartData>>(); // for the spies on predictionChanged
        QVERIFY2(ramp().store, ramp().error.c_str());
    }

    void runDrawsPredictionDashed_data()
    {
        QTest::addColumn<int>("replicas");
        QTest::addColumn<int>("router");
        QTest::addColumn<double>("arrivals");
        QTest::addColumn<QStringList>("said");
        QTest::newRow("2 replicas") << 2 << 0 << 1.0 << QStringList{QStringLiteral("2 replicas (rr)"), QStringLiteral("p99 e2e")};
        QTest::newRow("2 replicas least loaded") << 2 << 1 << 1.0 << QStringList{QStringLiteral("2 replicas (least-loaded)"), QStringLiteral("p99 e2e")};
        QTest::newRow("arrivals x1.5 on one replica") << 1 << 0 << 1.5 << QStringList{QStringLiteral("arrivals ×1.5"), QStringLiteral("p99 e2e")};
    }
    void runDrawsPredictionDashed()
    {
        QFETCH(int, replicas);
        QFETCH(int, router);
        QFETCH(double, arrivals);
        QFETCH(QStringList, said);
        WhatIfPanel panel;
        LoadView view;
        view.resize(900, 700);
        view.setData(std::make_shared<const lx::LoadChartData>(lx::computeLoadChartData(*ramp().store, {})));
        connect(&panel, &WhatIfPanel::predictionChanged, &view, &LoadView::setPrediction);
        const int observedDashed = dashedGraphs(view);
        QCOMPARE(dashedPredictionGraphs(view), 0);

        panel.setStoreFile(ramp().store->fileName());
        panel.replicasBox()->setValue(replicas);
        panel.routerBox()->setCurrentIndex(router);
        panel.arrivalsBox()->setValue(arrivals);
        QSignalSpy predicted(&panel, &WhatIfPanel::predictionChanged);
        QTest::mouseClick(panel.runButton(), Qt::LeftButton);
        QVERIFY(panel.running());
        QVERIFY(!panel.runButton()->isEnabled());
        QVERIFY(panel.cancelButton()->isEnabled());
        QVERIFY(panel.progressBar()->isVisibleTo(&panel));
        QVERIFY(waitFinished(panel));

        QVERIFY2(panel.result(), qPrintable(panel.message()));
        for (const QString &words : said)
            QVERIFY2(panel.message().contains(words), qPrintable(panel.message()));
        QVERIFY(!panel.running());
        QVERIFY(!panel.progressBar()->isVisibleTo(&panel));
        // The table: every cell of e2e, TTFT, queue and decode holds a duration.
        QVERIFY(panel.resultTable()->isVisibleTo(&panel));
        for (int row = 0; row < WhatIfPanel::RowCount; ++row)
            for (int column = WhatIfPanel::ObservedP50Column; column < WhatIfPanel::ColumnCount; ++column)
                QVERIFY2(panel.resultTable()->item(row, column) && panel.resultTable()->item(row, column)->text() != QStringLiteral("–"),
                         qPrintable(QStringLiteral("row %1, column %2").arg(row).arg(column)));
        QCOMPARE(panel.resultTable()->item(WhatIfPanel::E2eRow, WhatIfPanel::ObservedP99Column)->text(),
                 QString::fromStdString(lx::formatDuration(*panel.result()->outcome.observed->report.e2e.stat.percentilesNs[2])));

        // Dashed beside the observed: the predicted p95, throughput and requests in flight.
        QCOMPARE(predicted.count(), 1);
        QVERIFY(view.prediction());
        QCOMPARE(dashedPredictionGraphs(view), 3);
        QCOMPARE(dashedGraphs(view), observedDashed + 3);
        QVERIFY(view.decompositionChart()->legend->hasItemWithPlottable(view.predictedP95Line()));
        // They stay over the other key and the shares, and go when the prediction is cleared.
        view.setLoadKey(lx::LoadKey::InFlight);
        view.setShowShares(!view.showsShares());
        QCOMPARE(dashedPredictionGraphs(view), 3);
        QVERIFY(view.decompositionChart()->legend->hasItemWithPlottable(view.predictedP95Line()));
        panel.clearResult();
        QVERIFY(!panel.result());
        QVERIFY(!view.prediction());
        QCOMPARE(dashedPredictionGraphs(view), 0);
        QVERIFY(!view.decompositionChart()->legend->hasItemWithPlottable(view.predictedP95Line()));
    }

    void filteredRequestsAndSlos_data()
    {
        QTest::addColumn<bool>("filterGiven");
        QTest::addColumn<bool>("ticked");
        QTest::addColumn<bool>("narrowed");
        QTest::newRow("no filter: the box is off") << false << true << false;
        QTest::newRow("filter, box unticked: the whole trace") << true << false << false;
        QTest::newRow("filter, box ticked: its requests only") << true << true << true;
    }
    void filteredRequestsAndSlos()
    {
        QFETCH(bool, filterGiven);
        QFETCH(bool, ticked);
        QFETCH(bool, narrowed);
        // The first 1000 requests by row: a third of the ramp, before its knee.
        lx::RequestFilter firstThird;
        firstThird.expression = lx::SqlCondition{"r.id <= 1000", {}, nullptr};
        WhatIfPanel panel;
        panel.setStoreFile(ramp().store->fileName());
        panel.setSloTargets({QStringLiteral("e2e.p95<=2s"), QStringLiteral("not a target"), QStringLiteral("ttft.p99<=500ms")});
        panel.setFilter(filterGiven ? firstThird : lx::RequestFilter{}, filterGiven ? QStringLiteral("the first third") : QString());
        QCOMPARE(panel.onlyFilteredBox()->isEnabled(), filterGiven);
        panel.onlyFilteredBox()->setChecked(ticked);
        panel.run();
        QVERIFY(waitFinished(panel));
        QVERIFY2(panel.result(), qPrintable(panel.message()));
        const lx::whatif::WhatIfOutcome &outcome = panel.result()->outcome;
        QCOMPARE(outcome.observed->report.total, narrowed ? std::int64_t(1000) : std::int64_t(3000));
        QCOMPARE(outcome.fit.requests, narrowed ? std::int64_t(1000) : std::int64_t(3000));
        // Each parsable target with its verdict on both sides, as the CLI prints them.
        QCOMPARE(outcome.observed->slos.size(), std::size_t(2));
        for (const char *line : {"SLO e2e.p95<=2s: observed ", "SLO ttft.p99<=500ms: observed ", ", predicted "})
            QVERIFY2(panel.message().contains(QLatin1String(line)), qPrintable(panel.message()));
        // A fit to the filtered requests alone says why it may mislead, as the CLI does (it said nothing).
        QCOMPARE(panel.message().contains(QLatin1String("Fitted to the filtered requests alone")), narrowed);
    }

    void refusalShowsReason_data()
    {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<QString>("reason");
        QByteArray clientOnly;
        for (int i = 0; i < 50; ++i)
            clientOnly += "{\"id\":\"r" + QByteArray::number(i) + "\",\"t_client_send_ns\":" + QByteArray::number(1'000'000'000LL * i)
                          + ",\"t_client_recv_ns\":" + QByteArray::number(1'000'000'000LL * i + 500'000'000) + "}\n";
        QTest::newRow("no server stamps") << clientOnly << QStringLiteral("no server stamps: no queue can be fitted");
        QTest::newRow("a single request") << QByteArray("{\"id\":\"a\",\"t_server_recv_ns\":1000,\"t_preprocess_done_ns\":2000,"
                                                       "\"t_sched_ns\":3000,\"t_first_token_ns\":4000,\"t_last_token_ns\":9000,"
                                                       "\"t_server_send_ns\":9500,\"input_tokens\":10,\"output_tokens\":5}\n")
                                          << QStringLiteral("1 request has server stamps: a model needs at least");
    }
    void refusalShowsReason()
    {
        QFETCH(QByteArray, lines);
        QFETCH(QString, reason);
        WhatIfPanel panel;
        QSignalSpy predicted(&panel, &WhatIfPanel::predictionChanged);
        panel.setStoreFile(storeOf(lines).fileName());
        panel.run();
        QVERIFY(waitFinished(panel));
        QVERIFY2(panel.message().contains(reason), qPrintable(panel.message()));
        QVERIFY(panel.message().startsWith(QStringLiteral("No prediction: ")));
        QVERIFY(!panel.result());
        QVERIFY(!panel.resultTable()->isVisibleTo(&panel));
        QCOMPARE(predicted.count(), 0);
        QVERIFY(panel.runButton()->isEnabled());
    }

    void cancelLeavesNoResult_data()
    {
        QTest::addColumn<bool>("byEscape");
        QTest::newRow("cancel button") << false;
        QTest::newRow("escape key") << true;
    }
    void cancelLeavesNoResult()
    {
        QFETCH(bool, byEscape);
        WhatIfPanel panel;
        LoadView view;
        connect(&panel, &WhatIfPanel::predictionChanged, &view, &LoadView::setPrediction);
        QSignalSpy predicted(&panel, &WhatIfPanel::predictionChanged);
        panel.setStoreFile(ramp().store->fileName());
        QVERIFY(panel.runButton()->focusPolicy() & Qt::TabFocus); // reachable from the keyboard
        QTest::keyClick(&panel, Qt::Key_Return); // Enter runs
        QVERIFY(panel.running());
        if (byEscape)
            QTest::keyClick(&panel, Qt::Key_Escape);
        else
            QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
        QVERIFY(!panel.running());
        QVERIFY(panel.message().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(panel.runButton()->isEnabled());
        QVERIFY(!panel.cancelButton()->isEnabled());
        // The worker finishes on its own: nothing of it lands.
        QSignalSpy finished(&panel, &WhatIfPanel::finished);
        QVERIFY(!finished.wait(3000));
        QVERIFY(!panel.result());
        QCOMPARE(predicted.count(), 0);
        QVERIFY(!view.prediction());
    }

    void enterInAControlRuns_data()
    {
        QTest::addColumn<QString>("control");
        QTest::newRow("replicas") << QStringLiteral("replicas");
        QTest::newRow("arrivals") << QStringLiteral("arrivals");
        QTest::newRow("router") << QStringLiteral("router");
        QTest::newRow("escape while idle does nothing") << QStringLiteral("idle escape");
    }
    void enterInAControlRuns()
    {
        QFETCH(QString, control);
        WhatIfPanel panel;
        panel.setStoreFile(ramp().store->fileName());
        if (control == QLatin1String("idle escape")) {
            QTest::keyClick(&panel, Qt::Key_Escape);
            QVERIFY(!panel.running());
            QVERIFY(!panel.message().startsWith(QStringLiteral("Cancelled")));
            return;
        }
        QWidget *box = control == QLatin1String("replicas") ? static_cast<QWidget *>(panel.replicasBox())
                       : control == QLatin1String("arrivals") ? static_cast<QWidget *>(panel.arrivalsBox())
                                                              : static_cast<QWidget *>(panel.routerBox());
        QTest::keyClick(box, Qt::Key_Return); // the control passes Enter on to the panel
        QVERIFY(panel.running());
        panel.cancel();
    }

    /// Each control's label names its Alt key (the mnemonic) rather than showing an '&': the replicas row,
    /// a layout of two controls, once showed "Re&plicas".
    void everyMnemonicHasItsControl()
    {
        WhatIfPanel panel;
        int mnemonics = 0;
        for (const QLabel *label : panel.findChildren<QLabel *>()) {
            if (!label->text().contains(QLatin1Char('&')))
                continue;
            ++mnemonics;
            QVERIFY2(label->buddy(), qPrintable(label->text()));
        }
        QCOMPARE(mnemonics, 5);
    }

    void anotherStoreClearsResult_data()
    {
        QTest::addColumn<bool>("none");
        QTest::newRow("another store") << false;
        QTest::newRow("no store") << true;
    }
    void anotherStoreClearsResult()
    {
        QFETCH(bool, none);
        WhatIfPanel panel;
        QSignalSpy predicted(&panel, &WhatIfPanel::predictionChanged);
        panel.setStoreFile(ramp().store->fileName());
        panel.replicasBox()->setValue(2);
        panel.run();
        QVERIFY(waitFinished(panel));
        QVERIFY2(panel.result(), qPrintable(panel.message()));
        QVERIFY(panel.result()->simulated);
        panel.setStoreFile(ramp().store->fileName()); // the same: kept
        QVERIFY(panel.result());
        panel.setStoreFile(none ? std::string() : storeOf("{\"id\":\"x\",\"t_client_send_ns\":1,\"t_client_recv_ns\":2}\n").fileName());
        QVERIFY(!panel.result());
        QCOMPARE(predicted.count(), 2);
        QVERIFY(!predicted.last().at(0).value<std::shared_ptr<const lx::LoadChartData>>());
        QCOMPARE(panel.runButton()->isEnabled(), !none);
    }

    void loadTabClearsPredictionOnChange_data()
    {
        QTest::addColumn<QString>("change");
        QTest::newRow("filter") << QStringLiteral("filter");
        QTest::newRow("store closed") << QStringLiteral("close");
        QTest::newRow("window width kept") << QStringLiteral("window");
    }
    void loadTabClearsPredictionOnChange()
    {
        QFETCH(QString, change);
        Investigation investigation;
        FilterBar bar;
        LoadTab tab(&investigation, &bar);
        // As ChartTabs does: the tab is told when the store or the filter changes.
        connect(&investigation, &Investigation::storeChanged, &tab, &LoadTab::invalidate);
        connect(&investigation, &Investigation::filterChanged, &tab, &LoadTab::invalidate);
        QSignalSpy imported(&investigation, &Investigation::importFinished);
        investigation.open({QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl")});
        QVERIFY(imported.wait(60'000));
        QTRY_VERIFY(tab.whatIfPanel()->runButton()->isEnabled());
        tab.whatIfPanel()->replicasBox()->setValue(2);
        tab.whatIfPanel()->run();
        QVERIFY(waitFinished(*tab.whatIfPanel()));
        QVERIFY2(tab.whatIfPanel()->result(), qPrintable(tab.whatIfPanel()->message()));
        QVERIFY(tab.loadView()->prediction());
        if (change == QLatin1String("filter")) {
            lx::RequestFilter ok;
            ok.status = lx::Status::Ok;
            investigation.setFilter(ok);
        } else if (change == QLatin1String("close")) {
            investigation.close();
            QVERIFY(!tab.whatIfPanel()->runButton()->isEnabled());
        } else {
            tab.invalidate(); // what a new window width does: the same investigation, the same filter
            QVERIFY(tab.loadView()->prediction());
            return;
        }
        QVERIFY(!tab.whatIfPanel()->result());
        QVERIFY(!tab.loadView()->prediction());
    }

    void grabForALook()
    {
        const QByteArray out = qgetenv("LX_TEST_GRAB_DIR");
        if (out.isEmpty())
            QSKIP("LX_TEST_GRAB_DIR is not set: nothing to write");
        Investigation investigation;
        FilterBar bar;
        LoadTab tab(&investigation, &bar);
        connect(&investigation, &Investigation::storeChanged, &tab, &LoadTab::invalidate);
        tab.resize(1000, 820); // as in the window at 1400x900 beside the request detail
        tab.show();
        QSignalSpy imported(&investigation, &Investigation::importFinished);
        investigation.open({QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl")});
        QVERIFY(imported.wait(60'000));
        QTRY_VERIFY(tab.whatIfPanel()->runButton()->isEnabled());
        tab.loadIfStale();
        QTRY_VERIFY_WITH_TIMEOUT(tab.settled() && tab.data(), 60'000);
        tab.whatIfPanel()->replicasBox()->setValue(2);
        tab.whatIfPanel()->run();
        QVERIFY(waitFinished(*tab.whatIfPanel()));
        QVERIFY(tab.whatIfPanel()->result());
        QTest::qWait(200);
        const QString file = QDir(QString::fromLocal8Bit(out)).filePath(QStringLiteral("whatif_panel.png"));
        QVERIFY(tab.grab().save(file));
        qInfo("wrote %s", qPrintable(file));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestWhatIfPanel)
#include "tst_whatif_panel.moc"
