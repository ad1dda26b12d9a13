// SPDX-License-Identifier: GPL-3.0-or-later
// What the window shows between investigations: after a cancelled import, before an unsaved investigation
// is replaced, and in the detail panel when the filter drops the shown request. A suite of its own because
// tst_main_window.cpp, the window end to end, is near its size limit.

#include "filter_bar.h"
#include "investigation.h"
#include "main_window.h"
#include "request_detail_view.h"
#include "requests_view.h"
#include "settings_writer.h"
#include "store/request_scan.h"
#include "store/store.h"
#include "summary_view.h"
#include "test_support.h"

#include <QAction>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QStatusBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>
#include <QThread>
#include <QTreeWidget>

namespace {

const QString kJsonl = QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl");
const QString kCsv = QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.csv");

/// Opens the files and waits until every view shows them.
bool openAndSettle(MainWindow &window, const QStringList &paths)
{
    QSignalSpy settled(&window, &MainWindow::viewsSettled);
    window.openFiles(paths);
    if (!settled.wait(60000))
        return false;
    while (settled.wait(300)) { // several views may settle one after the other: wait for the last
    }
    return !window.investigation()->busy();
}

/// The requests of the open investigation, counted by core.
qint64 coreTotal(const MainWindow &window)
{
    return lx::requestIdRange(*window.investigation()->store()).rows();
}

bool summarySays(const MainWindow &window, const QString &words)
{
    for (const QLabel *label : window.summaryView()->findChildren<QLabel *>()) {
        if (label->text().contains(words))
            return true;
    }
    return false;
}

} // namespace

class TestMainWindowState : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        lxtest::isolateGuiSettings(m_settings.path());
    }

    void cancelledImportLeavesNothingOpen_data()
    {
        QTest::addColumn<QStringList>("paths");
        QTest::addColumn<bool>("openedBefore");
        QTest::newRow("one file, first thing") << QStringList{kJsonl} << false;
        QTest::newRow("two files, first thing") << QStringList{kJsonl, kCsv} << false;
        QTest::newRow("after another investigation") << QStringList{kCsv} << true;
    }

    void cancelledImportLeavesNothingOpen()
    {
        QFETCH(QStringList, paths);
        QFETCH(bool, openedBefore);
        MainWindow window;
        const QString emptyTitle = window.windowTitle();
        if (openedBefore)
            QVERIFY(openAndSettle(window, {kJsonl}));
        QSignalSpy cancelled(window.investigation(), &Investigation::importCancelledEmpty);
        QSignalSpy finished(window.investigation(), &Investigation::importFinished);
        window.openFiles(paths);
        window.investigation()->cancelImport(); // before the worker has read a record
        QVERIFY(finished.count() > 0 || finished.wait(30000));
        // importCancelledEmpty follows importFinished in the same slot. On a machine that stalled the UI
        // thread for the whole import between the two lines above, the cancel came too late: nothing to test.
        if (cancelled.isEmpty() && window.investigation()->hasStore())
            QSKIP("the import finished before the cancel landed");
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!window.investigation()->hasStore());
        QVERIFY(!window.investigation()->busy());
        QCOMPARE(window.windowTitle(), emptyTitle);
        QVERIFY(summarySays(window, QStringLiteral("cancelled")));
        QVERIFY(!summarySays(window, QStringLiteral("a filter that leaves none")));
        // The window is ready for the next open.
        QVERIFY(openAndSettle(window, {kCsv}));
        QCOMPARE(window.investigation()->report().total, coreTotal(window));
    }

    void unsavedInvestigationAsks_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<QString>("saveName"); // a name in the test's folder; a missing folder cannot be written
        QTest::addColumn<bool>("replaced");
        QTest::addColumn<bool>("saved");
        QTest::newRow("discard") << int(MainWindow::UnsavedChoice::Discard) << QString() << true << false;
        QTest::newRow("cancel") << int(MainWindow::UnsavedChoice::Cancel) << QString() << false << false;
        QTest::newRow("save, then open") << int(MainWindow::UnsavedChoice::Save) << QStringLiteral("kept.lxdb") << true << true;
        QTest::newRow("save fails: nothing replaced")
            << int(MainWindow::UnsavedChoice::Save) << QStringLiteral("missing/kept.lxdb") << false << false;
    }

    void unsavedInvestigationAsks()
    {
        QFETCH(int, choice);
        QFETCH(QString, saveName);
        QFETCH(bool, replaced);
        QFETCH(bool, saved);
        QTemporaryDir dir;
        const QString savePath = saveName.isEmpty() ? QString() : dir.filePath(saveName);
        MainWindow window;
        int asked = 0;
        window.setUnsavedPrompt([&] {
            ++asked;
            return MainWindow::UnsavedAnswer{MainWindow::UnsavedChoice(choice), savePath};
        });
        QVERIFY(openAndSettle(window, {kJsonl}));
        QCOMPARE(asked, 0); // nothing was open
        const qint64 first = coreTotal(window);
        QVERIFY(window.investigation()->isTemporary());

        QSignalSpy saveFinished(window.investigation(), &Investigation::saveFinished);
        QSignalSpy settled(&window, &MainWindow::viewsSettled);
        window.openFiles({kCsv});
        QCOMPARE(asked, 1);
        if (!savePath.isEmpty())
            QVERIFY(saveFinished.count() > 0 || saveFinished.wait(30000));
        if (replaced) {
            QVERIFY(settled.wait(60000));
            while (settled.wait(300)) {
            }
            QVERIFY(window.investigation()->report().inputs.size() == 1);
            QCOMPARE(QString::fromStdString(window.investigation()->report().inputs.front().path), kCsv);
        } else {
            QTest::qWait(300); // an open that was wrongly started would be under way by now
            QVERIFY(!window.investigation()->importing());
            QCOMPARE(coreTotal(window), first);
            QVERIFY(window.investigation()->isTemporary());
        }
        QCOMPARE(QFileInfo::exists(savePath), saved);
        QCOMPARE(asked, 1); // the open after the save asks nothing more
    }

    void savedInvestigationDoesNotAsk_data()
    {
        QTest::addColumn<bool>("close"); // then close the window, or open another file
        QTest::newRow("opening another file") << false;
        QTest::newRow("closing the window") << true;
    }

    void savedInvestigationDoesNotAsk()
    {
        QFETCH(bool, close);
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        int asked = 0;
        window.setUnsavedPrompt([&] {
            ++asked;
            return MainWindow::UnsavedAnswer{MainWindow::UnsavedChoice::Cancel, {}};
        });
        QVERIFY(openAndSettle(window, {kJsonl}));
        QString error;
        QSignalSpy saveFinished(window.investigation(), &Investigation::saveFinished);
        QVERIFY2(window.investigation()->saveAs(dir.filePath(QStringLiteral("incident.lxdb")), &error), qPrintable(error));
        QVERIFY(saveFinished.wait(30000));
        QVERIFY(!window.investigation()->isTemporary());
        if (close) {
            QVERIFY(window.close());
        } else {
            QVERIFY(openAndSettle(window, {kCsv}));
            QCOMPARE(window.investigation()->report().total, coreTotal(window));
        }
        QCOMPARE(asked, 0);
    }

    /// Closing the window or the investigation (Close, Quit) asks, as opening another does.
    void closingAnUnsavedInvestigationAsks_data()
    {
        QTest::addColumn<bool>("wholeWindow"); // the window (Quit, its close button), or File ▸ Close Investigation
        QTest::addColumn<int>("choice");
        QTest::addColumn<QString>("saveName"); // a name in the test's folder; a missing folder cannot be written
        QTest::addColumn<bool>("closed");
        QTest::addColumn<bool>("saved");
        for (const bool wholeWindow : {true, false}) {
            const QByteArray what = wholeWindow ? "window: " : "investigation: ";
            QTest::newRow(what + "discard") << wholeWindow << int(MainWindow::UnsavedChoice::Discard) << QString() << true << false;
            QTest::newRow(what + "cancel") << wholeWindow << int(MainWindow::UnsavedChoice::Cancel) << QString() << false << false;
            QTest::newRow(what + "save, then close") << wholeWindow << int(MainWindow::UnsavedChoice::Save) << QStringLiteral("kept.lxdb") << true << true;
            QTest::newRow(what + "save fails: stays open") << wholeWindow << int(MainWindow::UnsavedChoice::Save)
                                                            << QStringLiteral("missing/kept.lxdb") << false << false;
        }
    }

    void closingAnUnsavedInvestigationAsks()
    {
        QFETCH(bool, wholeWindow);
        QFETCH(int, choice);
        QFETCH(QString, saveName);
        QFETCH(bool, closed);
        QFETCH(bool, saved);
        QTemporaryDir dir;
        const QString savePath = saveName.isEmpty() ? QString() : dir.filePath(saveName);
        MainWindow window;
        window.show();
        int asked = 0;
        window.setUnsavedPrompt([&] {
            ++asked;
            return MainWindow::UnsavedAnswer{MainWindow::UnsavedChoice(choice), savePath};
        });
        QVERIFY(openAndSettle(window, {kJsonl}));
        QVERIFY(window.investigation()->isTemporary());
        QSignalSpy saveFinished(window.investigation(), &Investigation::saveFinished);
        QAction *closeInvestigation = nullptr;
        for (QAction *action : window.actions()) {
            if (action->shortcut() == QKeySequence(QKeySequence::Close))
                closeInvestigation = action;
        }
        QVERIFY(closeInvestigation);
        if (wholeWindow)
            window.close();
        else
            closeInvestigation->trigger();
        QCOMPARE(asked, 1);
        if (!savePath.isEmpty())
            QVERIFY(saveFinished.count() > 0 || saveFinished.wait(30000));
        QTest::qWait(100); // the close that follows a save is queued behind it
        if (wholeWindow)
            QCOMPARE(!window.isVisible(), closed);
        else
            QCOMPARE(!window.investigation()->hasStore(), closed);
        QCOMPARE(QFileInfo::exists(savePath), saved);
        QCOMPARE(asked, 1); // the close after the save asks nothing more
    }

    /// A saved investigation opens on a worker (its first check reads the whole file): the call returns at
    /// once with the window saying what it does, and the store, or why it cannot be opened, lands later.
    void resumingAStoreRunsOffTheWindowsThread_data()
    {
        QTest::addColumn<QByteArray>("content"); // empty: a store imported from the sample
        QTest::addColumn<QString>("error");      // what the status bar says; empty: it opens
        QTest::newRow("a saved investigation") << QByteArray() << QString();
        // SQLite's header and then garbage: sniffed as a store, refused by SQLite.
        QTest::newRow("a damaged store") << QByteArray("SQLite format 3", 16) + QByteArray(4080, 'x') << QStringLiteral("stuck.lxdb: ");
    }

    void resumingAStoreRunsOffTheWindowsThread()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, error);
        qputenv("LX_NO_DIALOGS", "1");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("stuck.lxdb"));
        if (content.isEmpty()) {
            auto imported = lxtest::importPaths({kJsonl.toStdString()});
            QVERIFY2(imported.store, imported.error.c_str());
            std::string why;
            QVERIFY2(imported.store->saveAs(path.toStdString(), &why), why.c_str());
        } else {
            QVERIFY(lxtest::writeFile(path, content));
        }
        MainWindow window;
        window.show();
        QSignalSpy stored(window.investigation(), &Investigation::storeChanged);
        QSignalSpy failed(window.investigation(), &Investigation::errorOccurred);
        window.openFiles({path});
        QVERIFY(!window.investigation()->hasStore()); // not opened on the calling thread
        QVERIFY(window.investigation()->busy());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Opening stuck.lxdb: checking the store")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(summarySays(window, QStringLiteral("checking the store")));
        QVERIFY(stored.wait(30000));
        if (error.isEmpty()) {
            QVERIFY(window.investigation()->hasStore());
            QCOMPARE(failed.count(), 0);
            QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("checking the store")));
        } else {
            QVERIFY(!window.investigation()->hasStore());
            QVERIFY(!window.investigation()->busy());
            QCOMPARE(failed.count(), 1);
            QVERIFY2(failed.first().first().toString().startsWith(path.section(QLatin1Char('/'), 0, -2)),
                     qPrintable(failed.first().first().toString()));
            QVERIFY(window.statusBar()->currentMessage().contains(error));
            QVERIFY(!summarySays(window, QStringLiteral("checking the store")));
        }
    }

    /// OTLP spans that no mapping claims (a web shop's) import, and the window says why all is unattributed.
    void unclaimedSpansAreSaid()
    {
        QTemporaryDir dir;
        const QByteArray spans = R"({"resourceSpans":[{"scopeSpans":[{"spans":[)"
            R"({"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001","name":"GET /cart","kind":2,)"
            R"("startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000200000000"},)"
            R"({"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000002","parentSpanId":"0000000000000001",)"
            R"("name":"SELECT cart_items","kind":3,"startTimeUnixNano":"1700000000010000000","endTimeUnixNano":"1700000000050000000"})"
            "]}]}]}\n";
        const QString path = QString::fromStdString(lxtest::writeFile(dir, QStringLiteral("shop.jsonl"), spans));
        MainWindow window;
        QVERIFY(openAndSettle(window, {path}));
        QCOMPARE(window.investigation()->report().total, std::int64_t(1));
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(QStringLiteral("shop.jsonl: 2 spans seen (names: GET /cart, SELECT cart_items); no span mapping claimed them")),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("File \u25B8 OTLP Span Mapping or pass --mapping")), qPrintable(said));
    }

    /// The detail panel follows the filter: a request the filter drops gives way to a note.
    void detailFollowsTheFilter_data()
    {
        QTest::addColumn<QString>("expression"); // %1 is the shown request's id
        QTest::newRow("its own id") << QStringLiteral("id = \"%1\"");
        QTest::newRow("another id") << QStringLiteral("id != \"%1\"");
        QTest::newRow("matches nothing") << QStringLiteral("e2e > 10h");
        QTest::newRow("fast ones") << QStringLiteral("e2e < 1s");
    }

    void detailFollowsTheFilter()
    {
        QFETCH(QString, expression);
        MainWindow window;
        QVERIFY(openAndSettle(window, {kJsonl}));
        window.showView(MainWindow::View::Requests);
        window.requestsView()->selectRow(0);
        const qint64 rowId = window.requestsView()->selectedRowId();
        QVERIFY(rowId > 0);
        const QTreeWidget *tree = window.detailView()->tree();
        const QString id = tree->topLevelItem(0)->child(0)->text(1);

        QSignalSpy checked(window.detailView(), &RequestDetailView::filterChecked);
        const QString text = expression.contains(QLatin1String("%1")) ? expression.arg(id) : expression;
        window.filterBar()->setExpression(text);
        QVERIFY(window.filterBar()->valid());
        QVERIFY(checked.wait(30000));
        bool expected = false;
        lx::scanRequestRows(*window.investigation()->store(), lx::toSqlCondition(lxtest::filterOf(text).value()),
                            lx::RowIdRange{rowId, rowId}, [&expected](int, const lx::RequestRow &) { expected = true; });
        QCOMPARE(checked.front().front().toBool(), expected);
        if (expected) {
            QCOMPARE(tree->topLevelItem(0)->child(0)->text(1), id);
        } else {
            QCOMPARE(tree->topLevelItemCount(), 1);
            QVERIFY(tree->topLevelItem(0)->text(0).contains(QStringLiteral("not in the current filter")));
        }
    }

    /// At the default window size the detail panel shows its values whole: the field column is as wide as
    /// the field names, not as the section titles (sized to those it cut the timestamps short).
    void detailShowsWholeValues()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(openAndSettle(window, {kJsonl}));
        window.showView(MainWindow::View::Requests);
        window.requestsView()->selectRow(0);
        const QTreeWidget *tree = window.detailView()->tree();
        QTRY_VERIFY(tree->topLevelItemCount() > 3);
        const QFontMetrics metrics(tree->font());
        int fields = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *section = tree->topLevelItem(i);
            for (int c = 0; c < section->childCount(); ++c) {
                const QTreeWidgetItem *field = section->child(c);
                if (field->isFirstColumnSpanned())
                    continue;
                ++fields;
                const QRect name = tree->visualItemRect(field);
                QVERIFY2(tree->header()->sectionSize(0) >= metrics.horizontalAdvance(field->text(0)) + 2 * tree->indentation(),
                         qPrintable(field->text(0)));
                // The timestamps whole (a value such as the source's path may be longer than any panel).
                if (i == 3)
                    QVERIFY2(tree->header()->sectionSize(0) + metrics.horizontalAdvance(field->text(1)) <= tree->viewport()->width(),
                             qPrintable(field->text(0) + QStringLiteral(": ") + field->text(1)));
                QVERIFY(name.isValid());
            }
        }
        QVERIFY(fields > 20);
        QVERIFY(tree->topLevelItem(3)->text(0).startsWith(QStringLiteral("Timestamps")));
        // One date for the stamps of one day, in the title; the dock leaves the views most of the window.
        QVERIFY2(tree->topLevelItem(3)->text(0).contains(QRegularExpression(QStringLiteral("\\d{4}-\\d\\d-\\d\\d UTC"))),
                 qPrintable(tree->topLevelItem(3)->text(0)));
        QVERIFY2(!tree->topLevelItem(3)->child(1)->text(1).contains(QLatin1Char('T')), qPrintable(tree->topLevelItem(3)->child(1)->text(1)));
        QVERIFY2(window.detailView()->width() <= 1400 * 3 / 10, qPrintable(QString::number(window.detailView()->width())));
        QVERIFY(tree->header()->sectionSize(0) < metrics.horizontalAdvance(tree->topLevelItem(3)->text(0)));
    }

    void detailWithoutRequestChecksNothing()
    {
        MainWindow window;
        QVERIFY(openAndSettle(window, {kJsonl}));
        QSignalSpy checked(window.detailView(), &RequestDetailView::filterChecked);
        window.filterBar()->setExpression(QStringLiteral("e2e > 10h"));
        QTest::qWait(300);
        QCOMPARE(checked.count(), 0);
    }

    void settingsAreWrittenOffTheWindowsThread_data()
    {
        QTest::addColumn<QStringList>("opened"); // files opened one after the other
        QTest::newRow("one file") << QStringList{kJsonl};
        QTest::newRow("two files: the last opened first") << QStringList{kJsonl, kCsv};
    }

    void settingsAreWrittenOffTheWindowsThread()
    {
        // Each open adds to the recent files, and QSettings syncs its lock file to the disk as it writes:
        // on the window's thread that stalled it 120-165 ms while the last investigation's store was
        // written out. The settings land all the same, in the order the files were opened.
        QFETCH(QStringList, opened);
        MainWindow window;
        for (const QString &path : opened)
            QVERIFY(openAndSettle(window, {path}));
        window.settingsWriter().waitForDone();
        QVERIFY(window.settingsWriter().lastWriter() != nullptr);
        QVERIFY(window.settingsWriter().lastWriter() != QThread::currentThread());
        const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
        QVERIFY(recent.size() >= opened.size());
        for (qsizetype i = 0; i < opened.size(); ++i)
            QCOMPARE(recent[i], QFileInfo(opened[opened.size() - 1 - i]).absoluteFilePath());
    }

    void settingsWriterKeepsTheOrder_data()
    {
        QTest::addColumn<int>("writes"); // of one key, each a value higher than the last
        QTest::newRow("one write") << 1;
        QTest::newRow("many writes: the last lands last") << 50;
    }

    void settingsWriterKeepsTheOrder()
    {
        QFETCH(int, writes);
        {
            SettingsWriter writer;
            for (int i = 1; i <= writes; ++i)
                writer.write({{QStringLiteral("test/order"), i}});
        } // its end waits for the writes
        QCOMPARE(QSettings().value(QStringLiteral("test/order")).toInt(), writes);
        QSettings().remove(QStringLiteral("test/order"));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestMainWindowState)
#include "tst_main_window_state.moc"
