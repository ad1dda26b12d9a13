// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop window end to end, offscreen: open a sample, filter, and compare what the views show with
// what core computes for the same filter.

#include "analysis/analysis.h"
#include "application.h"
#include "cdf_chart.h"
#include "cdf_comparison_bar.h"
#include "analysis/cdf_data.h"
#include "cdf_view.h"
#include "chart_tabs.h"
#include "analysis/dominant_breakdown.h"
#include "dominant_view.h"
#include "filter_bar.h"
#include "filter/filter_text.h"
#include "import_progress.h"
#include "incident_export.h"
#include "investigation.h"
#include "findings_view.h"
#include "load_tab.h"
#include "slo_panel.h"
#include "main_window.h"
#include "request_detail_view.h"
#include "requests_view.h"
#include "store/store.h"
#include "summary_view.h"
#include "test_support.h"
#include "analysis/waterfall_data.h"
#include "waterfall_view.h"

#include <QAbstractItemModelTester>
#include <QDropEvent>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QApplication>
#include <QGuiApplication>
#include <QFileOpenEvent>
#include <QLocale>
#include <QMimeData>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

namespace {

const QString kSample = QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl");

/// Waits until the window says its views show the data of the current filter.
bool waitSettled(MainWindow &window, QSignalSpy &settled, int timeoutMs = 60000)
{
    if (!settled.wait(timeoutMs))
        return false;
    // Several views may settle one after the other: wait for the last.
    while (settled.wait(300)) {
    }
    return !window.investigation()->busy() && !window.requestsView()->busy();
}

lx::Report coreReport(const MainWindow &window, const QString &expression)
{
    return lx::analyze(*window.investigation()->store(), lxtest::filterOf(expression).value());
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        lxtest::isolateGuiSettings(m_settings.path());
    }

    void filterFollowsEverywhere_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("no filter") << QString();
        QTest::newRow("dominant queue") << QStringLiteral("dominant = queue");
        QTest::newRow("slow and decode-bound") << QStringLiteral("e2e > 2s and dominant = decode");
        QTest::newRow("one model, errors too") << QStringLiteral("model = \"llama-3.1-8b-instruct\"");
        QTest::newRow("an attribute") << QStringLiteral("region = \"eu-west\" and ttft < 500ms");
        QTest::newRow("matches nothing") << QStringLiteral("e2e > 10h");
    }

    void filterFollowsEverywhere()
    {
        QFETCH(QString, expression);
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        if (!expression.isEmpty()) {
            window.filterBar()->setExpression(expression);
            QVERIFY(window.filterBar()->valid());
            QVERIFY(waitSettled(window, settled));
        }
        const lx::Report expected = coreReport(window, expression);
        QCOMPARE(window.investigation()->report().total, expected.total);
        QCOMPARE(qint64(window.requestsView()->model()->rowCount()), expected.total);

        // The summary table shows core's numbers: e2e row, p50 column (the 3rd), formatted once.
        const QTableWidget *table = window.summaryView()->table();
        QCOMPARE(table->rowCount(), lx::kSegmentCount + 5);
        const int e2eRow = lx::kSegmentCount;
        QCOMPARE(table->item(e2eRow, 0)->text(), QLocale().toString(expected.e2e.stat.count));
        const QString p50 = expected.e2e.stat.percentilesNs[0]
                                ? QString::fromStdString(lx::formatDuration(*expected.e2e.stat.percentilesNs[0]))
                                : QStringLiteral("—");
        QCOMPARE(table->item(e2eRow, 2)->text(), p50);

        QAbstractItemModelTester tester(window.requestsView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }

    void invalidFilterShowsWhereAndKeepsTheLastOne_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QString>("words");
        QTest::newRow("unknown field") << QStringLiteral("e2 > 2s") << QStringLiteral("e2");
        QTest::newRow("bad unit") << QStringLiteral("e2e > 2sec") << QStringLiteral("sec");
        QTest::newRow("unclosed string") << QStringLiteral("model = \"llama") << QStringLiteral("string");
        QTest::newRow("injection attempt") << QStringLiteral("model = \"x\"); DROP TABLE requests; --") << QString();
    }

    void invalidFilterShowsWhereAndKeepsTheLastOne()
    {
        QFETCH(QString, expression);
        QFETCH(QString, words);
        MainWindow window;
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        const qint64 before = window.investigation()->report().total;
        window.filterBar()->expressionEdit()->setText(expression);
        if (!window.filterBar()->valid()) {
            QVERIFY(window.filterBar()->errorText().contains(words));
            window.filterBar()->setExpression(expression); // Enter on an invalid filter changes nothing
            QTest::qWait(500);
            QCOMPARE(window.investigation()->report().total, before);
        } else {
            // Valid after all: then it must have been applied as a bound value, and the store is intact.
            QVERIFY(waitSettled(window, settled));
        }
        QCOMPARE(coreReport(window, QString()).total, before); // the store is unharmed
    }

    void detailFollowsTheSelection()
    {
        MainWindow window;
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        window.showView(MainWindow::View::Requests);
        window.requestsView()->selectRow(0);
        const qint64 rowId = window.requestsView()->selectedRowId();
        QVERIFY(rowId > 0);
        const QTreeWidget *tree = window.detailView()->tree();
        QVERIFY(tree->topLevelItemCount() >= 4);
        const QString id = tree->topLevelItem(0)->child(0)->text(1);
        QVERIFY2(id.startsWith(QStringLiteral("req-")), qPrintable(id));
    }

    void exportsTheFilteredRows_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("all") << QString();
        QTest::newRow("queue-bound") << QStringLiteral("dominant = queue");
    }

    void exportsTheFilteredRows()
    {
        QFETCH(QString, expression);
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        if (!expression.isEmpty()) {
            window.filterBar()->setExpression(expression);
            QVERIFY(waitSettled(window, settled));
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("export.csv"));
        QSignalSpy finished(window.requestsView(), &RequestsView::exportFinished);
        window.requestsView()->exportCsv(path);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().at(1).toString(), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        // A header, one line per request, and the empty piece after the last line end.
        QCOMPARE(qint64(lines.size() - 2), window.investigation()->report().total);
        QVERIFY(lines.front().startsWith("request_id") || lines.front().contains("e2e_ms"));
    }

    void rejectedAndMissingFilesAreCounted()
    {
        QTemporaryDir dir;
        const std::string bad = lxtest::writeFile(dir, QStringLiteral("bad.jsonl"),
                                                  "{\"id\":\"a\",\"t_server_recv_ns\":1,\"t_last_token_ns\":9}\n{\"id\":\n");
        MainWindow window;
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({QString::fromStdString(bad), dir.filePath(QStringLiteral("missing.jsonl"))});
        QVERIFY(waitSettled(window, settled));
        const lx::Report &report = window.investigation()->report();
        QCOMPARE(report.total, qint64(1));
        QCOMPARE(report.rejected, qint64(1));
        QCOMPARE(report.inputs.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(report.inputs[1].outcome), QStringLiteral("unreadable"));
    }

    void droppedFilesFormOneInvestigation()
    {
        MainWindow window;
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kSample), QUrl::fromLocalFile(QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.csv"))});
        // As Qt delivers a drop: the drag enters first, and only a widget that accepted it gets the drop.
        QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QVERIFY2(drop.isAccepted(), "the window takes dropped files");
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(window.investigation()->report().total, qint64(1200 + 1500));
        QCOMPARE(window.investigation()->report().inputs.size(), std::size_t(2));
    }

    void windowShowsTheApplicationIcon_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("rendered");
        // The sizes of the hicolor theme are drawn for their size; one between them is scaled down from
        // the next larger, never blown up from a smaller one.
        for (const int size : {16, 24, 32, 48, 64, 128, 256, 512})
            QTest::addRow("%d px", size) << size << true;
        QTest::newRow("20 px, not rendered: scaled") << 20 << false;
    }

    void windowShowsTheApplicationIcon()
    {
        QFETCH(int, size);
        QFETCH(bool, rendered);
        MainWindow window;
        const QIcon icon = window.windowIcon();
        QVERIFY2(!icon.isNull(), "the window has no icon: the application's resource is missing");
        QCOMPARE(icon.availableSizes().contains(QSize(size, size)), rendered);
        const QImage image = icon.pixmap(QSize(size, size)).toImage();
        QCOMPARE(image.size(), QSize(size, size));
        // The icon's dark square fills the centre: a blank pixmap would be a resource that did not load.
        QCOMPARE(image.pixelColor(size / 2, size / 2).alpha(), 255);
        QVERIFY(image.pixelColor(size / 2, size / 2) != QColor(Qt::black));
    }

    void aboutBoxShowsTheApplicationIcon()
    {
        MainWindow window;
        QAction *about = nullptr;
        for (QAction *action : window.actions()) {
            if (action->text() == QStringLiteral("&About Latency Explorer"))
                about = action;
        }
        QVERIFY(about);
        QSize iconSize;
        QString text;
        // The box is modal: look at it from the event loop it runs, then close it.
        QTimer::singleShot(0, &window, [&] {
            auto *box = window.findChild<QMessageBox *>(QStringLiteral("aboutBox"));
            if (!box) {
                if (QWidget *modal = QApplication::activeModalWidget())
                    modal->close(); // some other dialog: the comparisons below fail instead of the test hanging
                return;
            }
            iconSize = box->iconPixmap().size() / box->iconPixmap().devicePixelRatio();
            text = box->text();
            box->accept();
        });
        about->trigger();
        QCOMPARE(iconSize, QSize(64, 64));
        QVERIFY(text.contains(QStringLiteral(LX_VERSION)));
    }

    void macFileOpenEventIsAnOpen()
    {
        auto *app = qobject_cast<Application *>(QCoreApplication::instance());
        QVERIFY(app);
        QSignalSpy asked(app, &Application::fileOpenRequested);
        QFileOpenEvent event(kSample);
        QCoreApplication::sendEvent(app, &event);
        QCOMPARE(asked.count(), 1);
        QCOMPARE(asked.front().front().toString(), kSample);
    }

    void openingAgainShowsOnlyTheNewInvestigation()
    {
        // Regression: the old investigation's analysis landed after the new open (the filter reset started one).
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        QSignalSpy imported(window.investigation(), &Investigation::importFinished);
        window.openFiles({kSample});
        QVERIFY(imported.wait(30000));
        // The first investigation's analyses are still running when the second open comes.
        window.filterBar()->setExpression(QStringLiteral("e2e > 1s"));
        QVERIFY(window.investigation()->busy());
        window.openFiles({QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.csv")});
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(window.investigation()->report().total, qint64(1500));
        QCOMPARE(window.investigation()->report().inputs.size(), std::size_t(1));
        QCOMPARE(qint64(window.requestsView()->model()->rowCount()), qint64(1500));
    }

    void showingTheDataSpanDoesNotReapplyTheFilter()
    {
        // Regression: setting the time editors to the data's span re-ran the analysis and reset the table.
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        QSignalSpy reports(window.investigation(), &Investigation::reportChanged);
        QTest::qWait(1000);
        QCOMPARE(reports.count(), 0);
    }

    void copiesTheSelectedRows()
    {
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        window.requestsView()->table()->selectAll();
        window.requestsView()->copySelection(false);
        const QStringList lines = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1200 + 1); // a header and every row
        QVERIFY(lines.front().contains(QLatin1Char('\t')));
    }

    void savingOverTheOpenFileIsRefused()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("incident.lxdb"));
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        QString error;
        QSignalSpy savedSpy(window.investigation(), &Investigation::saveFinished);
        QVERIFY2(window.investigation()->saveAs(saved, &error), qPrintable(error));
        QVERIFY(savedSpy.wait(30000));
        QCOMPARE(savedSpy.front().at(1).toString(), QString());
        QVERIFY(!window.investigation()->saveAs(saved, &error));
        QVERIFY(error.contains(QStringLiteral("already")));
        QVERIFY(QFileInfo::exists(saved));
        QVERIFY(!QFileInfo::exists(saved + QStringLiteral(".partial")));
    }

    void saveAndResume()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath(QStringLiteral("incident.lxdb"));
        qint64 total = 0;
        {
            MainWindow window;
            QSignalSpy settled(&window, &MainWindow::viewsSettled);
            window.openFiles({kSample});
            QVERIFY(waitSettled(window, settled));
            total = window.investigation()->report().total;
            QString error;
            QSignalSpy savedSpy(window.investigation(), &Investigation::saveFinished);
            QVERIFY2(window.investigation()->saveAs(saved, &error), qPrintable(error));
            QVERIFY(savedSpy.wait(30000));
            QCOMPARE(savedSpy.front().at(1).toString(), QString());
        }
        MainWindow resumed;
        QSignalSpy settled(&resumed, &MainWindow::viewsSettled);
        resumed.openFiles({saved});
        QVERIFY(waitSettled(resumed, settled));
        QCOMPARE(resumed.investigation()->report().total, total);
        QVERIFY(!resumed.investigation()->isTemporary());
    }

    /// A click on a bar of the breakdown narrows the filter every view follows; Back undoes it.
    void dominantBarNarrowsAndBackUndoes_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<int>("segment");
        QTest::addColumn<int>("band"); // -1: the overall bar
        QTest::newRow("overall queue") << QString() << int(lx::Segment::Queue) << -1;
        QTest::newRow("decode in p0-50") << QString() << int(lx::Segment::Decode) << 0;
        QTest::newRow("queue in p50-90 of one model") << QStringLiteral("model = \"llama-3.1-8b-instruct\"") << int(lx::Segment::Queue) << 1;
    }

    void dominantBarNarrowsAndBackUndoes()
    {
        QFETCH(QString, typed);
        QFETCH(int, segment);
        QFETCH(int, band);
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.showView(MainWindow::View::Dominant);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        if (!typed.isEmpty()) {
            window.filterBar()->setExpression(typed);
            QVERIFY(waitSettled(window, settled));
        }
        const lx::DominantBreakdown *data = window.charts()->dominant()->chart()->data();
        QVERIFY(data);
        const lx::DominantBar &bar = band < 0 ? data->overall : data->bands[std::size_t(band)];
        const std::int64_t count = bar.counts[std::size_t(segment)];
        const std::int64_t before = data->overall.total; // `data` goes with the next filter's data
        QVERIFY(count > 0);
        // The overall bar holds the report's dominant counts.
        QCOMPARE(data->overall.total, window.investigation()->report().dominantTotal);

        emit window.charts()->dominant()->filterRequested(QString::fromStdString(bar.expressions[std::size_t(segment)]),
                                                           QString::fromStdString(bar.descriptions[std::size_t(segment)]));
        QVERIFY(waitSettled(window, settled));
        const QString narrowed = window.filterBar()->expressionEdit()->text();
        if (!typed.isEmpty())
            QVERIFY2(narrowed.startsWith(QStringLiteral("(%1) and (").arg(typed)), qPrintable(narrowed));
        // Every view now shows exactly the bar's requests (ok ones: the breakdown's selection).
        QCOMPARE(window.investigation()->report().ok, count);
        QCOMPARE(window.charts()->dominant()->chart()->data()->overall.total, count);
        QCOMPARE(window.charts()->dominant()->chart()->data()->overall.counts[std::size_t(segment)], count);

        window.filterBar()->back();
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(window.filterBar()->expressionEdit()->text(), typed);
        QCOMPARE(window.investigation()->report().dominantTotal, before);
    }

    /// The waterfall's time range narrows the filter; a click selects the request in the table and detail.
    void waterfallLinks()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.showView(MainWindow::View::Waterfall);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        const auto data = window.charts()->waterfall()->chart()->data();
        QVERIFY(data);
        QCOMPARE(qint64(data->size()), window.investigation()->report().total); // every sample request has a start

        const std::size_t pick = data->size() / 3;
        emit window.charts()->waterfall()->requestSelected(data->ids[pick]);
        QCOMPARE(window.requestsView()->selectedRowId(), data->ids[pick]);

        const qint64 from = data->starts[data->size() / 4];
        const qint64 to = data->starts[data->size() / 2];
        emit window.charts()->waterfall()->timeRangeSelected(from, to);
        QVERIFY(waitSettled(window, settled));
        const lx::Report expected = coreReport(window, QStringLiteral("start >= %1 and start < %2").arg(from).arg(to));
        // Written to be read: dates (or offsets) that read back as the very bounds, not ns since the epoch.
        QCOMPARE(window.filterBar()->expressionEdit()->text(),
                 QString::fromStdString("start >= " + lx::filterInstant(from, data->relativeTime) + " and start < "
                                        + lx::filterInstant(to, data->relativeTime)));
        QCOMPARE(window.investigation()->report().total, expected.total);
        QCOMPARE(qint64(window.charts()->waterfall()->chart()->data()->size()), expected.total);
        QVERIFY(window.filterBar()->canGoBack());
    }

    /// B's curves: a second filter of the same investigation, drawn beside A's.
    void cdfComparison()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.showView(MainWindow::View::Cdf);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        QVERIFY(!window.charts()->cdf()->chart()->comparison());
        window.charts()->comparisonBar()->setExpression(QStringLiteral("e2e > 2s"));
        QTRY_VERIFY_WITH_TIMEOUT(window.charts()->cdf()->chart()->comparison() != nullptr, 30000);
        const lx::Report b = coreReport(window, QStringLiteral("e2e > 2s"));
        QCOMPARE(window.charts()->cdf()->chart()->comparison()->requests, b.ok);
        window.charts()->comparisonBar()->setExpression(QStringLiteral("e2e >")); // invalid: the last B stays
        QCOMPARE(window.charts()->cdf()->chart()->comparison()->requests, b.ok);
        window.charts()->comparisonBar()->clear();
        QVERIFY(!window.charts()->cdf()->chart()->comparison());
    }

    /// The Load tab: core's knee, the default SLO targets evaluated, findings that narrow the filter.
    void loadTab()
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.showView(MainWindow::View::Load);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        const LoadTabData *data = window.charts()->loadTab()->data();
        QVERIFY(data);
        // sample_traces/README.md: capacity 9.11 req/s, crossed by the ramp; decode below, queue above.
        const lx::LoadAnalysis &load = data->chart.byArrivalRate;
        QVERIFY(load.knee.has_value());
        QVERIFY2(std::abs(load.knee->rateRps - 9.11) <= 0.2 * 9.11, qPrintable(QString::number(load.knee->rateRps)));
        QCOMPARE(window.charts()->loadTab()->sloPanel()->targets(),
                 (QStringList{QStringLiteral("e2e.p95<=2s"), QStringLiteral("ttft.p99<=500ms")}));
        QCOMPARE(data->slos.size(), std::size_t(2));
        QVERIFY(!data->slos[0].pass); // this overloaded trace misses a 2 s p95 by far
        QVERIFY(!data->findings.empty());

        const lx::Finding first = data->findings.front();
        emit window.charts()->loadTab()->findingsView()->filterRequested(QString::fromStdString(first.filter),
                                                                          QString::fromStdString(first.title));
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(window.filterBar()->expressionEdit()->text(), QString::fromStdString(first.filter));
        QCOMPARE(window.investigation()->report().total, coreReport(window, QString::fromStdString(first.filter)).total);

        // A new target is evaluated and kept for the next run.
        QVERIFY(window.charts()->loadTab()->sloPanel()->addTarget(QStringLiteral("e2e.p50<=1min")));
        QTRY_COMPARE_WITH_TIMEOUT(window.charts()->loadTab()->data() ? window.charts()->loadTab()->data()->slos.size() : 0,
                                  std::size_t(3), 30000);
        QCOMPARE(QSettings().value(QStringLiteral("slo/targets")).toStringList().size(), 3);
        QSettings().remove(QStringLiteral("slo/targets"));
    }

    /// The GUI's incident report is the CLI's document, with the four charts embedded.
    void incidentReportExport_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("ok");
        QTest::newRow("html") << "incident.html" << true;
        QTest::newRow("md") << "incident.md" << true;
        QTest::newRow("unknown suffix") << "incident.docx" << false;
    }

    void incidentReportExport()
    {
        QFETCH(QString, file);
        QFETCH(bool, ok);
        MainWindow window;
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kSample});
        QVERIFY(waitSettled(window, settled));
        // The report states the filter in force, as the bar shows it (once said nothing of it).
        window.filterBar()->setExpression(QStringLiteral("status = ok"));
        QVERIFY(waitSettled(window, settled));
        QCOMPARE(window.filterBar()->statement(), QStringLiteral("status = ok"));
        QTemporaryDir dir;
        const QString path = dir.filePath(file);
        IncidentExport exporter;
        QSignalSpy finished(&exporter, &IncidentExport::finished);
        QString error;
        const bool started
            = exporter.start(window.investigation()->store()->fileName(), window.investigation()->filter(),
                             window.filterBar()->statement(), { QStringLiteral("e2e.p95<=2s") }, path, &error);
        QCOMPARE(started, ok);
        if (!ok) {
            QVERIFY2(error.contains(path), qPrintable(error));
            return;
        }
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(1).toString(), QString());
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QVERIFY(text.contains("e2e.p95"));
        QVERIFY(text.contains("requests (1189 ok, 0 error) kept by the filter status = ok, from"));
        QVERIFY(text.contains("Inputs"));
        if (file.endsWith(QLatin1String(".html")))
            QCOMPARE(text.count("data:image/png;base64,"), 4);
        else
            QVERIFY(QFile::exists(dir.filePath(QStringLiteral("incident-4.png"))));
    }

private:
    QTemporaryDir m_settings;
};

// The application object of the real program, so that its file-open handling is under test too.
int main(int argc, char **argv)
{
    Application app(argc, argv);
    TestMainWindow test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_main_window.moc"
