// SPDX-License-Identifier: GPL-3.0-or-later
// bench-gui: what a user waits for in the desktop application, timed in-process under the offscreen
// platform (a window of 1400x900, as on screen): from openFiles() to the populated summary, to every view
// settled, then a filter change to the summary again; and how late the event loop ran meanwhile (a frozen
// window). Once the summary shows, the bench opens the chart tabs one after the other, as a user clicks
// through them, and `charts s` is when the last of them (Waterfall, CDFs, Dominant Segment, Load, then the Requests table) has
// drawn its data; then it goes back to the Summary. Opening one trace file shows the summary before the investigation's store is written ("summary
// first", investigation_summary_first.cpp): `summary s` is when it is first populated, `stored s` when the
// import has landed and the store's own analysis with it, `settled s` when every view shows it. Run it on a
// trace and on a store: `bench-gui FILE [FILE...] [--runs N] [--density-at-once]`; the last draws the
// waterfall's density on the UI thread however many requests are in view, as before it moved to a worker,
// for a paired comparison. Figures, not a test.

#include "event_loop_probe.h"
#include "filter_bar.h"
#include "chart_tabs.h"
#include "investigation.h"
#include "main_window.h"
#include "platform/huge_pages.h"
#include "requests_view.h"
#include "waterfall_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

struct Times {
    double summaryS = -1, chartsS = -1, storedS = -1, settledS = -1, filterS = -1, maxLateMs = 0;
    std::vector<double> chartS; ///< when each chart had drawn, in the order visited
    std::vector<EventLoopProbe::Stall> stalls; ///< the event loop's delays over kStallMs
};

constexpr double kStallMs = 100; ///< a delay a user notices: listed with when it happened

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

Times timeOpen(const QString &path, bool densityAtOnce)
{
    Times t;
    MainWindow window;
    if (densityAtOnce)
        window.charts()->waterfall()->chart()->setDensityInBackgroundFrom(SIZE_MAX);
    window.resize(1400, 900);
    window.show();
    EventLoopProbe probe;
    QElapsedTimer clock;
    bool filtering = false;
    QElapsedTimer filterClock;
    std::function<void()> onSettled;
    bool settledPending = false; ///< the views settled while the bench went through the charts
    // The chart tabs in turn, each once the one before has drawn, then the requests table.
    const std::vector<MainWindow::View> charts = {MainWindow::View::Waterfall, MainWindow::View::Cdf,
                                                  MainWindow::View::Dominant, MainWindow::View::Load,
                                                  MainWindow::View::Requests};
    std::size_t touring = charts.size();
    std::function<void()> nextChart;
    nextChart = [&] {
        if (touring >= charts.size())
            return;
        const bool shown = charts[touring] == MainWindow::View::Requests ? !window.requestsView()->busy()
                                                                         : window.charts()->currentSettled();
        if (!shown)
            return;
        t.chartS.push_back(clock.nsecsElapsed() / 1e9);
        if (++touring < charts.size()) {
            window.showView(charts[touring]);
            QTimer::singleShot(0, &window, nextChart); // it may show its data already
            return;
        }
        t.chartsS = clock.nsecsElapsed() / 1e9;
        window.showView(MainWindow::View::Summary);
        if (settledPending)
            onSettled();
    };
    QObject::connect(window.charts(), &ChartTabs::settled, &window, [&] { QTimer::singleShot(0, &window, nextChart); });
    QObject::connect(window.requestsView(), &RequestsView::settled, &window, [&] { QTimer::singleShot(0, &window, nextChart); });
    QObject::connect(window.investigation(), &Investigation::reportChanged, &window, [&] {
        Investigation *inv = window.investigation();
        if (!inv->hasReport())
            return;
        if (t.summaryS < 0) { // perhaps while the import still writes the store
            t.summaryS = clock.nsecsElapsed() / 1e9;
            touring = 0;
            window.showView(charts.front());
            QTimer::singleShot(0, &window, nextChart);
        }
        if (inv->importing())
            return;
        if (t.storedS < 0)
            t.storedS = clock.nsecsElapsed() / 1e9;
        if (filtering) {
            t.filterS = filterClock.nsecsElapsed() / 1e9;
            filtering = false;
            t.maxLateMs = probe.maxDelayMs();
            t.stalls = probe.stalls(kStallMs);
            QApplication::quit();
        }
    });
    onSettled = [&] {
        if (t.settledS >= 0)
            return;
        if (t.chartsS < 0) { // still going through the charts: settled once they are
            settledPending = true;
            return;
        }
        t.settledS = clock.nsecsElapsed() / 1e9;
        if (t.summaryS < 0) // the window's own handler of the report ran first and settled the views
            t.summaryS = t.settledS;
        if (t.storedS < 0)
            t.storedS = t.settledS;
        // A filter that keeps about half of a trace's requests: every statistic changes.
        QTimer::singleShot(100, &window, [&] {
            filtering = true;
            filterClock.start();
            window.filterBar()->setExpression(QStringLiteral("e2e > 1s"));
        });
    };
    QObject::connect(&window, &MainWindow::viewsSettled, &window, [&] { onSettled(); });
    QTimer::singleShot(10 * 60 * 1000, &window, [] { QApplication::quit(); });
    QTimer::singleShot(0, &window, [&] {
        probe.start();
        clock.start();
        window.openFiles({path});
    });
    QApplication::exec();
    return t;
}

} // namespace

int main(int argc, char **argv)
{
    // The malloc the desktop application runs with (its main() does the same): without it, a reset of the
    // requests table to 10M rows measured a 0.2-0.3 s stall that the application does not have (29-33 ms).
    lx::startAgainWithHugePages(argv);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LX_NO_DIALOGS", "1");
    QApplication app(argc, argv);
    QTemporaryDir settings; // keep the user's settings out of it
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    QStringList files;
    int runs = 3;
    bool densityAtOnce = false;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = args[++i].toInt();
        else if (args[i] == QLatin1String("--density-at-once"))
            densityAtOnce = true;
        else
            files << args[i];
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "usage: bench-gui FILE [FILE...] [--runs N] [--density-at-once]\n");
        return 2;
    }
    std::printf("%-40s %4s %10s %10s %10s %10s %10s %12s   %s\n", "input", "run", "summary s", "charts s", "stored s", "settled s",
                "filter s", "max late ms", "each view s (waterfall cdf dominant load requests)");
    for (const QString &file : files) {
        std::vector<double> summary, chartsDrawn, stored, settled, filter, late;
        for (int r = 1; r <= runs; ++r) {
            const Times t = timeOpen(file, densityAtOnce);
            std::printf("%-40s %4d %10.3f %10.3f %10.3f %10.3f %10.3f %12.1f  ", qPrintable(file.right(40)), r, t.summaryS,
                        t.chartsS, t.storedS, t.settledS, t.filterS, t.maxLateMs);
            // Each chart's own wait, from the one before (the first from the summary).
            for (std::size_t i = 0; i < t.chartS.size(); ++i)
                std::printf(" %.3f", t.chartS[i] - (i ? t.chartS[i - 1] : t.summaryS));
            std::printf("\n");
            for (const EventLoopProbe::Stall &stall : t.stalls)
                std::printf("%45s stall: %.0f ms late at %.3f s\n", "", stall.lateMs, stall.atMs / 1e3);
            summary.push_back(t.summaryS);
            chartsDrawn.push_back(t.chartsS);
            stored.push_back(t.storedS);
            settled.push_back(t.settledS);
            filter.push_back(t.filterS);
            late.push_back(t.maxLateMs);
        }
        std::printf("%-40s %4s %10.3f %10.3f %10.3f %10.3f %10.3f %12.1f   (medians)\n", qPrintable(file.right(40)), "",
                    median(summary), median(chartsDrawn), median(stored), median(settled), median(filter), median(late));
    }
    return 0;
}
