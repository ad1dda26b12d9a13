// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/duration_format.h"
#include "settings_writer.h"
#include "theme.h"

#include <QMainWindow>

#include <functional>

class ChartTabs;
class FilterBar;
class ImportProgress;
class IncidentExport;
class Investigation;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class RequestDetailView;
class RequestsView;
class SpanMappingMenu;
class SummaryView;
struct TraceStorePull;

/// The window of one investigation: the filter bar on top, the views as tabs, the request detail docked
/// at the side, the import progress in the status bar.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// The views, in tab order; the names are those of `--view`.
    enum class View { Summary, Requests, Waterfall, Cdf, Dominant, Load };
    static bool viewFromName(const QString &name, View *view);

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// What to do with an unsaved investigation (a temporary store) that opening another, closing it, closing
    /// the window or quitting would throw away.
    enum class UnsavedChoice { Save, Discard, Cancel };
    struct UnsavedAnswer {
        UnsavedChoice choice = UnsavedChoice::Cancel;
        QString savePath; ///< where Save writes it
    };
    /// Answers the question instead of the Save / Discard / Cancel box (tests: under LX_NO_DIALOGS, with
    /// no prompt set, the window discards, as it did before it asked).
    void setUnsavedPrompt(std::function<UnsavedAnswer()> prompt) { m_unsavedPrompt = std::move(prompt); }

    /// Opens the files as a new investigation (several at once form one), after asking what becomes of an
    /// unsaved one; `add` adds them to this one.
    void openFiles(const QStringList &paths, bool add = false);
    /// File ▸ Open from Trace Store's pull, as a new investigation, after asking what becomes of an
    /// unsaved one (main_window_trace_store.cpp).
    void pullFromTraceStore(const TraceStorePull &pull);
    void showView(View view);
    Investigation *investigation() const { return m_investigation; }
    FilterBar *filterBar() const { return m_filterBar; }
    SummaryView *summaryView() const { return m_summary; }
    RequestsView *requestsView() const { return m_requests; }
    RequestDetailView *detailView() const { return m_detail; }
    ImportProgress *importProgress() const { return m_progress; }
    ChartTabs *charts() const { return m_charts; }
    SpanMappingMenu *spanMappingMenu() const { return m_spanMappingMenu; }
    /// Writes the window's settings off its thread (tests wait for it).
    SettingsWriter &settingsWriter() { return m_settingsWriter; }

signals:
    /// The data of the current filter is on screen: the report and the table are both up to date.
    void viewsSettled();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createMenus();
    void restoreSettings();
    void saveSettings();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void updateTitle();
    void onStoreChanged();
    void onReportChanged();
    void openDialog(bool add);
    void saveAsDialog();
    void openTraceStoreDialog();
    QString askSavePath();
    UnsavedAnswer askAboutUnsaved(const QString &question);
    /// Before an unsaved investigation is thrown away: asks `question` (Save / Discard / Cancel). True when
    /// the caller may go on at once (saved already, or Discard); false on Cancel, or when Save started a
    /// save, after which `afterSave` runs once the save has landed.
    bool settleUnsaved(const QString &question, std::function<void()> afterSave);
    void exportCsvDialog();
    void exportReportDialog();
    void showRejected();
    void showAbout();
    void setDurationUnit(lx::DurationUnit unit);
    void checkSettled();
    void selectRequest(qint64 rowId);

    Investigation *m_investigation;
    FilterBar *m_filterBar;
    QTabWidget *m_tabs;
    SummaryView *m_summary;
    RequestsView *m_requests;
    RequestDetailView *m_detail;
    QDockWidget *m_detailDock;
    ImportProgress *m_progress;
    ChartTabs *m_charts;
    IncidentExport *m_incidentExport;
    QLabel *m_statusCounts;
    QMenu *m_recentMenu = nullptr;
    SpanMappingMenu *m_spanMappingMenu = nullptr;
    QStringList m_recentFiles;
    SettingsWriter m_settingsWriter;
    std::function<UnsavedAnswer()> m_unsavedPrompt;
    std::function<void()> m_afterSave; ///< what Save in the unsaved question goes on with once the save has landed
    lx::DurationUnit m_unit = lx::DurationUnit::Auto;
    Theme m_theme = Theme::System;

    QAction *m_openAction = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_traceStoreAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_reportAction = nullptr;
    QAction *m_closeAction = nullptr;
    QAction *m_rejectedAction = nullptr;
    QAction *m_backAction = nullptr;
    QAction *m_forwardAction = nullptr;
    QList<QAction *> m_allActions;
};
