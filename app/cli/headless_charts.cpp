// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_charts.h"

#include "chart_render.h"

#include <QApplication>

#include <cstdio>
#include <memory>

void ensureHeadlessApplication()
{
    if (QApplication::instance())
        return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // The offscreen platform's notes ("does not support propagateSizeHints()", XDG_RUNTIME_DIR) are no news
    // for a script; Qt's errors still come through, and LX_QT_MESSAGES=1 shows everything.
    if (qEnvironmentVariableIsEmpty("LX_QT_MESSAGES")) {
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
            if (type == QtCriticalMsg || type == QtFatalMsg)
                std::fprintf(stderr, "latency-explorer-cli: %s\n", qPrintable(message));
        });
    }
    static int argc = 1;
    static char name[] = "latency-explorer-cli";
    static char *argv[] = {name, nullptr};
    static const auto app = std::make_unique<QApplication>(argc, argv); // lives until the process ends
}

std::vector<lx::ReportFigure> drawReportFigures(const lx::Store &store, const lx::RequestFilter &filter)
{
    ensureHeadlessApplication();
    std::vector<ChartData> charts;
    for (ChartKind kind : reportChartKinds())
        charts.push_back(computeChartData(kind, store, filter));
    return renderReportFigures(charts);
}
