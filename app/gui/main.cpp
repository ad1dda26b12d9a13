// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer: the desktop application. `latency-explorer [FILE...]` opens the files as one investigation.

#include "background_pool.h"
#include "application.h"
#include "event_loop_probe.h"
#include "filter_bar.h"
#include "investigation.h"
#include "main_window.h"
#include "platform/huge_pages.h"
#include "screenshot.h"
#include "span_mapping_menu.h"
#include "theme.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QThreadPool>

#include <cstdio>

namespace {

/// True when the command line asks for what QCommandLineParser prints and exits on: the help or the version.
bool asksForHelpOrVersion(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char *flag : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) {
            if (qstrcmp(argv[i], flag) == 0)
                return true;
        }
    }
    return false;
}

/// The inputs that do not exist, said on stderr: a screenshot of them would be a picture of an error.
bool allInputsExist(const QStringList &files)
{
    bool all = true;
    for (const QString &file : files) {
        if (!QFileInfo::exists(file)) {
            std::fprintf(stderr, "latency-explorer: %s: no such file\n", qPrintable(file));
            all = false;
        }
    }
    return all;
}

} // namespace

int main(int argc, char **argv)
{
    lx::startAgainWithHugePages(argv);
    QElapsedTimer sinceLaunch; // for --event-loop-report: from main() (the libraries are loaded by then)
    sinceLaunch.start();
    // The screenshot mode renders without a display; choose the offscreen platform before Qt starts.
    for (int i = 1; i < argc; ++i) {
        if (qstrcmp(argv[i], "--screenshot") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QCoreApplication::setApplicationName(QStringLiteral("Latency Explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LX_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Where the time of slow LLM requests went."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Trace files and .lxdb investigations; several form one investigation."),
                                 QStringLiteral("[FILE...]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                              QStringLiteral("Render the window at 1400x900 offscreen to OUT.png and exit."),
                                              QStringLiteral("OUT.png"));
    const QCommandLineOption viewOption(QStringLiteral("view"), QStringLiteral("The view to show: summary, requests, waterfall, cdf, dominant, load."),
                                        QStringLiteral("VIEW"), QStringLiteral("summary"));
    const QCommandLineOption probeOption(QStringLiteral("event-loop-report"),
                                         QStringLiteral("Print when the summary showed and how late the event loop ran while files load, until the views show them (to stderr)."));
    const QCommandLineOption filterOption(QStringLiteral("filter"), QStringLiteral("Start with this filter expression (see docs/FILTER.md)."),
                                          QStringLiteral("EXPR"));
    parser.addOption(filterOption);
    const QCommandLineOption themeOption(QStringLiteral("theme"), QStringLiteral("light, dark or system (for this run)."),
                                         QStringLiteral("THEME"));
    parser.addOption(themeOption);
    const QCommandLineOption mappingOption(QStringLiteral("mapping"),
                                           QStringLiteral("How OTLP spans become requests, for this run: auto, vllm, sglang, tgi, "
                                                          "http-gateway or a mapping file (docs/OTLP.md)."),
                                           QStringLiteral("NAME|FILE"));
    parser.addOption(mappingOption);
    parser.addOption(screenshotOption);
    parser.addOption(viewOption);
    parser.addOption(probeOption);
    if (asksForHelpOrVersion(argc, argv)) {
        // Without a display a QApplication aborts; the help and the version need none. process() prints
        // them and exits 0 (or says what is wrong with the other arguments and exits 1).
        QCoreApplication core(argc, argv);
        parser.process(core);
    }
    Application app(argc, argv);
    parser.process(app);

    MainWindow::View view = MainWindow::View::Summary;
    const QString viewName = parser.value(viewOption);
    if (!MainWindow::viewFromName(viewName, &view)) {
        std::fprintf(stderr, "latency-explorer: unknown view '%s' (summary, requests, waterfall, cdf, dominant, load)\n",
                     qPrintable(viewName));
        return 1;
    }

    if (parser.isSet(themeOption)) {
        applyTheme(themeFromName(parser.value(themeOption)));
        qputenv("LX_THEME_FROM_COMMAND_LINE", "1"); // the window does not override it with the saved theme
    }
    if (parser.isSet(screenshotOption)) {
        if (!allInputsExist(parser.positionalArguments()))
            return 2;
        return takeScreenshot(parser.value(screenshotOption), view, parser.positionalArguments(), parser.value(filterOption),
                              parser.value(mappingOption));
    }

    MainWindow window;
    if (parser.isSet(mappingOption)) {
        QString why;
        if (!window.spanMappingMenu()->setMapping(parser.value(mappingOption), &why, false)) {
            std::fprintf(stderr, "latency-explorer: --mapping: %s\n", qPrintable(why));
            return 1;
        }
    }
    EventLoopProbe probe;
    if (parser.isSet(probeOption)) {
        QObject::connect(window.investigation(), &Investigation::importStarted, &probe, [&probe] { probe.start(); });
        // What the user waits for first: the populated summary (before the store is written, for one trace file).
        QObject::connect(window.investigation(), &Investigation::reportChanged, &probe, [&window, &sinceLaunch, shown = false]() mutable {
            if (shown || !window.investigation()->hasReport())
                return;
            shown = true;
            std::fprintf(stderr, "summary shown %.3f s after start\n", sinceLaunch.nsecsElapsed() / 1e9);
        });
        // Until the views show the data: the import, the statistics and the table's order.
        QObject::connect(&window, &MainWindow::viewsSettled, &probe, [&probe] {
            if (!probe.running())
                return;
            probe.stop();
            std::fprintf(stderr, "event loop while loading: %s\n", qPrintable(probe.summary()));
        });
    }
    QObject::connect(&app, &Application::fileOpenRequested, &window, [&window](const QString &path) { window.openFiles({path}); });
    window.show();
    window.showView(view);
    window.openFiles(parser.positionalArguments());
    if (parser.isSet(filterOption))
        window.filterBar()->setExpression(parser.value(filterOption));
    const int status = app.exec();
    backgroundPool().waitForDone(); // a cancelled import ends before the process does
    return status;
}
