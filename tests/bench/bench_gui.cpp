// SPDX-License-Identifier: GPL-3.0-or-later
// bench-gui: what a user waits for in the desktop application, timed in-process under the offscreen
// platform (a window of 1400x900, as on screen): from openFiles() to the populated summary, to every view
// settled, then a filter change to the summary again; and how late the event loop ran meanwhile (a frozen
// window). Opening one trace file shows the summary before the investigation's store is written ("summary
// first", investigation_summary_first.cpp): `summary s` is when it is first populated, `stored s` when the
// import has landed and the store's own analysis with it, `settled s` when every view shows it. Run it on a
// trace and on a store: `bench-gui FILE [FILE...] [--runs N]`. Figures, not a test.

#include "event_loop_probe.h"
#include "filter_bar.h"
#include "investigation.h"
#include "main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Times {
    double summaryS = -1, storedS = -1, settledS = -1, filterS = -1, maxLateMs = 0;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

Times timeOpen(const QString &path)
{
    Times t;
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    EventLoopProbe probe;
    QElapsedTimer clock;
    bool filtering = false;
    QElapsedTimer filterClock;
    QObject::connect(window.investigation(), &Investigation::reportChanged, &window, [&] {
        Investigation *inv = window.investigation();
        if (!inv->hasReport())
            return;
        if (t.summaryS < 0) // perhaps while the import still writes the store
            t.summaryS = clock.nsecsElapsed() / 1e9;
        if (inv->importing())
            return;
        if (t.storedS < 0)
            t.storedS = clock.nsecsElapsed() / 1e9;
        if (filtering) {
            t.filterS = filterClock.nsecsElapsed() / 1e9;
            filtering = false;
            t.maxLateMs = probe.maxDelayMs();
            QApplication::quit();
        }
    });
    QObject::connect(&window, &MainWindow::viewsSettled, &window, [&] {
        if (t.settledS >= 0)
            return;
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
    });
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
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("LX_NO_DIALOGS", "1");
    QApplication app(argc, argv);
    QTemporaryDir settings; // keep the user's settings out of it
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    QStringList files;
    int runs = 3;
    const QStringList args = app.arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--runs") && i + 1 < args.size())
            runs = args[++i].toInt();
        else
            files << args[i];
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "usage: bench-gui FILE [FILE...] [--runs N]\n");
        return 2;
    }
    std::printf("%-40s %4s %10s %10s %10s %10s %12s\n", "input", "run", "summary s", "stored s", "settled s", "filter s",
                "max late ms");
    for (const QString &file : files) {
        std::vector<double> summary, stored, settled, filter, late;
        for (int r = 1; r <= runs; ++r) {
            const Times t = timeOpen(file);
            std::printf("%-40s %4d %10.3f %10.3f %10.3f %10.3f %12.1f\n", qPrintable(file.right(40)), r, t.summaryS, t.storedS,
                        t.settledS, t.filterS, t.maxLateMs);
            summary.push_back(t.summaryS);
            stored.push_back(t.storedS);
            settled.push_back(t.settledS);
            filter.push_back(t.filterS);
            late.push_back(t.maxLateMs);
        }
        std::printf("%-40s %4s %10.3f %10.3f %10.3f %10.3f %12.1f   (medians)\n", qPrintable(file.right(40)), "",
                    median(summary), median(stored), median(settled), median(filter), median(late));
    }
    return 0;
}
