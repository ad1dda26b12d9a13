// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "chart_tabs.h"
#include "count_text.h"
#include "filter_bar.h"
#include "import_progress.h"
#include "incident_export.h"
#include "load_tab.h"
#include "slo_panel.h"
#include "span_mapping_menu.h"
#include "model/segments.h"
#include "store/store.h"
#include "investigation.h"
#include "request_detail_view.h"
#include "requests_view.h"
#include "shortcuts_dialog.h"
#include "summary_view.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <utility>

namespace {
constexpr int kRecentFiles = 10;

QString openHint() { return MainWindow::tr("Open a trace file or an investigation (Ctrl+O), or drop files here."); }
} // namespace

bool MainWindow::viewFromName(const QString &name, View *view)
{
    if (name == QLatin1String("summary"))
        *view = View::Summary;
    else if (name == QLatin1String("requests"))
        *view = View::Requests;
    else if (name == QLatin1String("waterfall"))
        *view = View::Waterfall;
    else if (name == QLatin1String("cdf"))
        *view = View::Cdf;
    else if (name == QLatin1String("dominant"))
        *view = View::Dominant;
    else if (name == QLatin1String("load"))
        *view = View::Load;
    else
        return false;
    return true;
}

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_investigation(new Investigation(this))
    , m_filterBar(new FilterBar(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(new SummaryView(this))
    , m_requests(new RequestsView(this))
    , m_detail(new RequestDetailView(this))
    , m_detailDock(new QDockWidget(tr("Request detail"), this))
    , m_progress(new ImportProgress(this))
    , m_charts(nullptr)
    , m_incidentExport(new IncidentExport(this))
    , m_statusCounts(new QLabel(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    auto *filterToolBar = new QToolBar(tr("Filter"), this);
    filterToolBar->setObjectName(QStringLiteral("FilterToolBar"));
    filterToolBar->setMovable(false);
    filterToolBar->addWidget(m_filterBar);
    addToolBar(Qt::TopToolBarArea, filterToolBar);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_tabs->addTab(m_requests, tr("Requests"));
    m_charts = new ChartTabs(m_investigation, m_filterBar, m_tabs, this); // adds the chart tabs, in View order
    setCentralWidget(m_tabs);

    m_detailDock->setObjectName(QStringLiteral("DetailDock"));
    m_detailDock->setWidget(m_detail);
    addDockWidget(Qt::RightDockWidgetArea, m_detailDock);
    resizeDocks({m_detailDock}, {380}, Qt::Horizontal); // a quarter of the default window: the views come first

    m_spanMappingMenu = new SpanMappingMenu(this);
    m_investigation->setSpanMapping(m_spanMappingMenu->mapping());
    connect(m_spanMappingMenu, &SpanMappingMenu::mappingChanged, m_investigation, &Investigation::setSpanMapping);

    statusBar()->addWidget(m_statusCounts, 1);
    statusBar()->addPermanentWidget(m_progress);

    connect(m_investigation, &Investigation::importStarted, m_progress, &ImportProgress::start);
    connect(m_investigation, &Investigation::importProgress, m_progress, &ImportProgress::update);
    connect(m_investigation, &Investigation::importFinished, m_progress, &ImportProgress::finish);
    connect(m_progress, &ImportProgress::cancelRequested, m_investigation, &Investigation::cancelImport);
    connect(m_investigation, &Investigation::resumeStarted, this, [this](const QString &path) {
        const QString message = tr("Opening %1: checking the store…").arg(QFileInfo(path).fileName());
        m_summary->clear(message);
        statusBar()->showMessage(message);
        // Gone when the store lands (or an error replaces it); never over a later message.
        connect(m_investigation, &Investigation::storeChanged, this, [this, message] {
            if (statusBar()->currentMessage() == message)
                statusBar()->clearMessage();
        }, Qt::SingleShotConnection);
    });
    connect(m_investigation, &Investigation::storeChanged, this, &MainWindow::onStoreChanged);
    connect(m_investigation, &Investigation::reportChanged, this, &MainWindow::onReportChanged);
    connect(m_investigation, &Investigation::errorOccurred, this, [this](const QString &message) {
        statusBar()->showMessage(message, 15000);
        if (!qEnvironmentVariableIsSet("LX_NO_DIALOGS"))
            QMessageBox::warning(this, tr("Latency Explorer"), message);
    });
    connect(m_investigation, &Investigation::importFinished, this, [this] {
        const auto [problems, notices] = importOutcomeText(m_investigation->lastImports());
        if (!problems.isEmpty() || !notices.isEmpty())
            statusBar()->showMessage((problems + notices).join(QStringLiteral("; ")), 60000);
        showImportNotices(this, notices);
    });
    connect(m_investigation, &Investigation::importCancelledEmpty, this, [this] {
        const QString message = tr("The import was cancelled: nothing was imported.");
        m_summary->clear(message + QLatin1Char(' ') + openHint());
        statusBar()->showMessage(message, 10000);
    });
    connect(m_investigation, &Investigation::saveFinished, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty()) {
            statusBar()->showMessage(tr("Saved to %1").arg(path), 8000);
            addRecentFile(path);
        } else {
            statusBar()->showMessage(tr("Cannot save %1: %2").arg(path, error), 15000);
        }
        updateTitle();
        const std::function<void()> next = std::exchange(m_afterSave, {});
        if (error.isEmpty() && next)
            next();
    });
    connect(m_filterBar, &FilterBar::filterChanged, m_investigation, &Investigation::setFilter);
    connect(m_investigation, &Investigation::filterChanged, this, [this] {
        m_requests->setFilter(m_investigation->filter());
        m_detail->setFilter(m_investigation->filter());
    });
    connect(m_summary, &SummaryView::showRejectedRequested, this, &MainWindow::showRejected);
    connect(m_requests, &RequestsView::requestSelected, this, &MainWindow::selectRequest);
    connect(m_charts, &ChartTabs::requestSelected, this, &MainWindow::selectRequest);
    connect(m_charts, &ChartTabs::settled, this, &MainWindow::checkSettled);
    connect(m_charts, &ChartTabs::filterNarrowed, this, [this](const QString &description) {
        statusBar()->showMessage(tr("%1 · Back (Alt+Left) undoes it").arg(description), 10000);
    });
    connect(m_incidentExport, &IncidentExport::finished, this, [this](const QString &path, const QString &error) {
        m_reportAction->setEnabled(true);
        statusBar()->showMessage(error.isEmpty() ? tr("Incident report written to %1").arg(path)
                                                 : tr("Incident report not written: %1").arg(error),
                                 error.isEmpty() ? 8000 : 15000);
    });
    connect(m_filterBar, &FilterBar::historyChanged, this, [this] {
        m_backAction->setEnabled(m_filterBar->canGoBack());
        m_forwardAction->setEnabled(m_filterBar->canGoForward());
    });
    connect(m_requests, &RequestsView::settled, this, &MainWindow::checkSettled);
    connect(m_requests, &RequestsView::errorOccurred, this, [this](const QString &message) { statusBar()->showMessage(message, 15000); });
    connect(m_requests, &RequestsView::exportFinished, this, [this](const QString &path, const QString &error) {
        if (error.isEmpty())
            statusBar()->showMessage(tr("Exported to %1").arg(path), 8000);
        else
            statusBar()->showMessage(tr("Export to %1 failed: %2").arg(path, error), 15000);
    });

    createActions();
    createMenus();
    restoreSettings();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    const auto make = [this](const QString &text, const QKeySequence &key, auto slot) {
        auto *action = new QAction(text, this);
        if (!key.isEmpty())
            action->setShortcut(key);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_allActions << action;
        return action;
    };
    m_openAction = make(tr("&Open…"), QKeySequence::Open, [this] { openDialog(false); });
    m_addAction = make(tr("&Add Files to Investigation…"), QKeySequence(tr("Ctrl+Shift+O")), [this] { openDialog(true); });
    m_traceStoreAction = make(tr("Open from &Trace Store…"), QKeySequence(tr("Ctrl+Shift+T")), &MainWindow::openTraceStoreDialog);
    m_saveAsAction = make(tr("Sa&ve Investigation As…"), QKeySequence::SaveAs, &MainWindow::saveAsDialog);
    // An investigation is only ever saved under a new name, so Ctrl+S, the key users reach for, saves as too.
    m_saveAsAction->setShortcuts(QKeySequence::keyBindings(QKeySequence::Save) + QKeySequence::keyBindings(QKeySequence::SaveAs));
    m_exportAction = make(tr("&Export Filtered Requests to CSV…"), QKeySequence(tr("Ctrl+E")), &MainWindow::exportCsvDialog);
    m_reportAction = make(tr("Export &Incident Report…"), QKeySequence(tr("Ctrl+Shift+E")), &MainWindow::exportReportDialog);
    m_closeAction = make(tr("&Close Investigation"), QKeySequence::Close, [this] {
        const auto closeInvestigation = [this] {
            m_filterBar->clear(true);
            m_investigation->close();
        };
        if (m_investigation->importing()
            || settleUnsaved(tr("The investigation open now has not been saved. Save it before closing it?"), closeInvestigation))
            closeInvestigation();
    });
    m_rejectedAction = make(tr("Re&jected Records…"), QKeySequence(tr("Ctrl+R")), &MainWindow::showRejected);
    // Ctrl+Q everywhere: the platform's Quit key is none where no desktop theme gives one (Windows, bare X11).
    QAction *quit = make(tr("&Quit"), QKeySequence(tr("Ctrl+Q")), &QWidget::close);
    if (const QList<QKeySequence> platform = QKeySequence::keyBindings(QKeySequence::Quit); !platform.contains(quit->shortcut()))
        quit->setShortcuts(QList<QKeySequence>{quit->shortcut()} + platform);
    // Copy belongs to the requests table: elsewhere Ctrl+C copies what has the focus (the summary, the detail).
    for (QAction *copy : {make(tr("&Copy Selected Requests (TSV)"), QKeySequence::Copy, [this] { m_requests->copySelection(false); }),
                          make(tr("Copy Selected Requests as CS&V"), QKeySequence(tr("Ctrl+Shift+C")), [this] { m_requests->copySelection(true); })}) {
        removeAction(copy);
        m_requests->addAction(copy);
        copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    }
    make(tr("&Filter…"), QKeySequence(tr("Ctrl+L")), [this] {
        m_filterBar->expressionEdit()->setFocus();
        m_filterBar->expressionEdit()->selectAll();
    });
    make(tr("C&lear Filter"), QKeySequence(tr("Ctrl+Shift+L")), [this] { m_filterBar->clear(); });
    m_backAction = make(tr("&Back to the Previous Filter"), QKeySequence::Back, [this] { m_filterBar->back(); });
    m_forwardAction = make(tr("For&ward to the Next Filter"), QKeySequence::Forward, [this] { m_filterBar->forward(); });
    m_backAction->setEnabled(false);
    m_forwardAction->setEnabled(false);
    make(tr("&Summary"), QKeySequence(tr("Ctrl+1")), [this] { showView(View::Summary); });
    make(tr("&Requests"), QKeySequence(tr("Ctrl+2")), [this] { showView(View::Requests); });
    make(tr("&Waterfall"), QKeySequence(tr("Ctrl+3")), [this] { showView(View::Waterfall); });
    make(tr("&CDFs"), QKeySequence(tr("Ctrl+4")), [this] { showView(View::Cdf); });
    make(tr("D&ominant Segment"), QKeySequence(tr("Ctrl+5")), [this] { showView(View::Dominant); });
    make(tr("&Load and Diagnosis"), QKeySequence(tr("Ctrl+6")), [this] { showView(View::Load); });
    QAction *detail = m_detailDock->toggleViewAction();
    detail->setText(tr("Request &Detail Panel"));
    detail->setShortcut(QKeySequence(tr("Ctrl+D")));
    addAction(detail);
    m_allActions << detail;
    make(tr("&Keyboard Shortcuts"), QKeySequence(tr("F1")), [this] { ShortcutsDialog(m_allActions, this).exec(); });
    make(tr("&About Latency Explorer"), QKeySequence(), &MainWindow::showAbout);
}

void MainWindow::createMenus()
{
    const auto action = [this](const char *text) {
        for (QAction *a : m_allActions) {
            if (a->text() == tr(text))
                return a;
        }
        return static_cast<QAction *>(nullptr);
    };
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_addAction);
    file->addAction(m_traceStoreAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addMenu(m_spanMappingMenu);
    file->addAction(m_saveAsAction);
    file->addAction(m_exportAction);
    file->addAction(m_reportAction);
    file->addSeparator();
    file->addAction(m_closeAction);
    file->addAction(action("&Quit"));

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(action("&Copy Selected Requests (TSV)"));
    edit->addAction(action("Copy Selected Requests as CS&V"));
    edit->addSeparator();
    edit->addAction(action("&Filter…"));
    edit->addAction(action("C&lear Filter"));
    edit->addAction(m_backAction);
    edit->addAction(m_forwardAction);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(action("&Summary"));
    view->addAction(action("&Requests"));
    view->addAction(action("&Waterfall"));
    view->addAction(action("&CDFs"));
    view->addAction(action("D&ominant Segment"));
    view->addAction(action("&Load and Diagnosis"));
    view->addSeparator();
    view->addAction(m_detailDock->toggleViewAction());
    view->addAction(m_rejectedAction);
    view->addSeparator();
    QMenu *units = view->addMenu(tr("D&urations"));
    auto *unitGroup = new QActionGroup(this);
    for (const auto &[text, unit] : {std::pair{tr("&Automatic Unit"), lx::DurationUnit::Auto},
                                     std::pair{tr("Always &Milliseconds"), lx::DurationUnit::Milliseconds}}) {
        QAction *a = units->addAction(text);
        a->setCheckable(true);
        a->setChecked(unit == m_unit);
        a->setData(int(unit));
        unitGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, unit] { setDurationUnit(unit); });
    }
    QMenu *themes = view->addMenu(tr("&Theme"));
    auto *themeGroup = new QActionGroup(this);
    for (const auto &[text, theme] : {std::pair{tr("&System"), Theme::System}, std::pair{tr("&Light"), Theme::Light},
                                      std::pair{tr("&Dark"), Theme::Dark}}) {
        QAction *a = themes->addAction(text);
        a->setCheckable(true);
        a->setData(int(theme));
        themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, theme] {
            m_theme = theme;
            applyTheme(theme);
        });
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(action("&Keyboard Shortcuts"));
    help->addAction(action("&About Latency Explorer"));
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    resize(1400, 900);
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_recentFiles = settings.value(QStringLiteral("recentFiles")).toStringList();
    m_unit = settings.value(QStringLiteral("units")).toString() == QLatin1String("ms") ? lx::DurationUnit::Milliseconds
                                                                                      : lx::DurationUnit::Auto;
    m_theme = themeFromName(settings.value(QStringLiteral("theme")).toString());
    if (m_theme != Theme::System && !qEnvironmentVariableIsSet("LX_THEME_FROM_COMMAND_LINE"))
        applyTheme(m_theme);
    const auto checkIn = [](QMenu *menu, int value) {
        for (QAction *a : menu->actions()) {
            if (a->menu())
                continue;
            a->setChecked(a->data().toInt() == value);
        }
    };
    for (QAction *a : menuBar()->actions()) {
        if (!a->menu())
            continue;
        for (QAction *sub : a->menu()->actions()) {
            if (!sub->menu())
                continue;
            if (sub->text() == tr("D&urations"))
                checkIn(sub->menu(), int(m_unit));
            else if (sub->text() == tr("&Theme"))
                checkIn(sub->menu(), int(m_theme));
        }
    }
    setDurationUnit(m_unit);
    rebuildRecentMenu();
}

void MainWindow::saveSettings()
{
    m_settingsWriter.write({
        {QStringLiteral("window/geometry"), saveGeometry()},
        {QStringLiteral("window/state"), saveState()},
        {QStringLiteral("recentFiles"), m_recentFiles},
        {QStringLiteral("units"), m_unit == lx::DurationUnit::Milliseconds ? QStringLiteral("ms") : QStringLiteral("auto")},
        {QStringLiteral("theme"), themeName(m_theme)},
    });
}

void MainWindow::addRecentFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_recentFiles.removeAll(absolute);
    m_recentFiles.prepend(absolute);
    while (m_recentFiles.size() > kRecentFiles)
        m_recentFiles.removeLast();
    rebuildRecentMenu();
    saveSettings();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString &path : m_recentFiles) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openFiles({path}); });
    }
    m_recentMenu->setEnabled(!m_recentFiles.isEmpty());
}

void MainWindow::openFiles(const QStringList &paths, bool add)
{
    if (paths.isEmpty())
        return;
    if (m_investigation->importing()) {
        statusBar()->showMessage(tr("An import is running; wait for it or cancel it first"), 5000);
        return;
    }
    // Opened when the save has landed: a saved investigation asks nothing.
    if (!add && !settleUnsaved(tr("The investigation open now has not been saved. Save it before opening another?"),
                               [this, paths] { openFiles(paths); }))
        return;
    for (const QString &path : paths)
        addRecentFile(path);
    if (add) {
        m_investigation->add(paths);
    } else {
        m_filterBar->clear(true); // no analysis of the investigation that is about to close
        m_investigation->open(paths);
    }
}

void MainWindow::setDurationUnit(lx::DurationUnit unit)
{
    m_unit = unit;
    m_summary->setDurationUnit(unit);
    m_detail->setDurationUnit(unit);
    m_requests->setDurationUnit(unit);
}

void MainWindow::showView(View view) { m_tabs->setCurrentIndex(int(view)); }

void MainWindow::updateTitle()
{
    const QString name = m_investigation->title();
    setWindowTitle(name.isEmpty() ? tr("Latency Explorer") : tr("%1 — Latency Explorer").arg(name));
    const bool open = m_investigation->hasStore() && !m_investigation->importing();
    m_saveAsAction->setEnabled(open);
    m_addAction->setEnabled(!m_investigation->importing());
    m_exportAction->setEnabled(open);
    m_reportAction->setEnabled(open && !m_incidentExport->running());
    m_closeAction->setEnabled(open);
    m_rejectedAction->setEnabled(open);
}

void MainWindow::onStoreChanged()
{
    updateTitle();
    const bool readable = m_investigation->hasStore() && !m_investigation->importing();
    // While an import writes the store the views let go of it; they come back when it has landed.
    m_requests->setStore(readable ? m_investigation->store() : nullptr, m_investigation->filter());
    m_detail->showRequest(nullptr, -1);
    if (!m_investigation->hasStore() || m_investigation->importing())
        m_statusCounts->clear();
    if (!m_investigation->hasStore())
        m_summary->clear(openHint());
    else if (m_investigation->importing())
        m_summary->clear(tr("Importing…"));
}

void MainWindow::onReportChanged()
{
    if (!m_investigation->hasReport()) {
        // A summary shown ahead of a running import was dropped (a filter set meanwhile): the import's
        // analysis brings the next one.
        if (m_investigation->importing()) {
            m_summary->clear(tr("Importing…"));
            m_statusCounts->clear();
        }
        return;
    }
    const lx::Report &report = m_investigation->report();
    m_summary->setReport(report);
    if (lx::isMeasured(report.firstStartNs))
        m_filterBar->setTimeBounds(report.firstStartNs, report.lastStartNs, report.timesAreOffsets());
    m_requests->setTimesAreOffsets(report.timesAreOffsets());
    m_statusCounts->setText(tr("%1 %2 (%L3 ok, %L4 error) · %L5 rejected at import")
                                .arg(requestsText(report.total), agreeing(report.total, tr("matches"), tr("match")))
                                .arg(report.ok)
                                .arg(report.error)
                                .arg(report.rejected));
    checkSettled();
}

void MainWindow::checkSettled()
{
    if (m_investigation->hasReport() && !m_investigation->busy() && !m_requests->busy() && m_charts->currentSettled())
        emit viewsSettled();
}

void MainWindow::selectRequest(qint64 rowId)
{
    // A chart may show the requests read for the summary while the store is written: their details come
    // with the store (the detail view reads them there).
    const bool readable = m_investigation->hasStore() && !m_investigation->importing();
    m_detail->showRequest(readable ? m_investigation->store() : nullptr, readable ? rowId : -1);
    if (!readable && rowId >= 0)
        m_detail->showNote(tr("The request's details come once the investigation's store is written"));
    m_requests->selectRequest(rowId); // no echo: the table ignores its own selection
    m_charts->selectRequest(rowId);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // An import under way has nothing whole to keep yet: it is cancelled. An unsaved investigation asks
    // first (Close, Quit); after Save the window closes once the save has landed.
    if (m_investigation->importing()) {
        m_investigation->cancelImport();
    } else if (!settleUnsaved(tr("The investigation open now has not been saved. Save it before closing the window?"),
                              [this] { close(); })) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths << url.toLocalFile();
    }
    openFiles(paths); // several files dropped at once form one investigation
    event->acceptProposedAction();
}
