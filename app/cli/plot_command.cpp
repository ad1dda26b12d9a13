// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_command.h"

#include "chart_render.h"
#include "cli_args.h"
#include "filter_options.h"
#include "headless_charts.h"
#include "open_investigation.h"
#include "analysis/load_chart_data.h"
#include "store/store.h"

#include <QFileInfo>

#include <charconv>

namespace {

constexpr const char *kPlotUsage =
    "Usage: latency-explorer-cli plot --chart waterfall|cdf|dominant|load --out FILE.{png,svg,pdf}\n"
    "                                 [--filter EXPR] [--size WxH] FILE_OR_STORE...\n"
    "Draws one of the desktop app's charts, by the same code, without a display.\n"
    "\n"
    "  --chart NAME           waterfall (requests on a time axis), cdf (per-segment CDFs), dominant\n"
    "                         (the share of requests each segment dominates, per e2e band) or load\n"
    "                         (the decomposition under load, with the knee)\n"
    "  --out FILE             the picture; its suffix chooses the format: .png, .svg or .pdf\n"
    "  --size WxH             in pixels (default 1600x900)\n";

struct PlotRequest {
    QString chart;
    QString out;
    FilterOptions filter; ///< --filter and its shorthands
    QSize size{1600, 900};
    std::string mapping;
    std::vector<std::string> inputs;
};

bool parseSize(const std::string &text, QSize &size)
{
    const auto x = text.find('x');
    if (x == std::string::npos)
        return false;
    int w = 0, h = 0;
    const char *begin = text.data();
    const char *end = begin + text.size();
    const auto [wEnd, wErr] = std::from_chars(begin, begin + x, w);
    const auto [hEnd, hErr] = std::from_chars(begin + x + 1, end, h);
    if (wErr != std::errc() || hErr != std::errc() || wEnd != begin + x || hEnd != end)
        return false;
    if (w < 100 || h < 100 || w > 16000 || h > 16000)
        return false;
    size = QSize(w, h);
    return true;
}

std::string parsePlotArgs(const std::vector<std::string> &arguments, PlotRequest &request, bool &help)
{
    CliArgs args(arguments);
    while (!args.atEnd()) {
        std::string value;
        if (args.flag("--help") || args.flag("-h")) {
            help = true;
            return {};
        }
        if (args.option("--chart", value)) {
            if (!chartKindFromName(QString::fromStdString(value)))
                return "--chart takes waterfall, cdf, dominant or load, not '" + value + "'";
            request.chart = QString::fromStdString(value);
        } else if (args.single("--out", value)) {
            request.out = QString::fromStdString(value);
            const QString suffix = QFileInfo(request.out).suffix().toLower();
            if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf"))
                return "--out: the file must end in .png, .svg or .pdf, not '" + value + "'";
        } else if (std::string why; parseFilterOption(args, request.filter, why)) {
            if (!why.empty())
                return why;
        } else if (args.option("--size", value)) {
            if (!parseSize(value, request.size))
                return "--size takes WIDTHxHEIGHT in pixels, each 100 to 16000, not '" + value + "'";
        } else if (args.single("--mapping", value)) {
            request.mapping = value;
        } else if (args.positional(value)) {
            request.inputs.push_back(value);
        } else {
            return args.error().empty() ? "unknown option '" + args.current() + "'" : args.error();
        }
    }
    if (request.chart.isEmpty())
        return "--chart is required";
    if (request.out.isEmpty())
        return "--out is required";
    if (request.inputs.empty())
        return "no input: give trace files or .lxdb stores";
    return {};
}

} // namespace

int runPlotCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    PlotRequest request;
    bool help = false;
    if (const std::string why = parsePlotArgs(arguments, request, help); !why.empty()) {
        err << "plot: " << why << "\n" << kPlotUsage << filterUsage(true) << kSpanMappingUsage;
        return 1;
    }
    if (help) {
        out << kPlotUsage << filterUsage(true) << kSpanMappingUsage;
        return 0;
    }
    if (!compileFilterOptions(request.filter, "plot", err))
        return 2;
    const lx::RequestFilter &filter = request.filter.filter;
    if (const std::string why = checkSpanMapping(request.mapping); !why.empty()) {
        err << "plot: " << why << '\n';
        return 2;
    }

    const OpenedInvestigation opened = openInvestigation(request.inputs, request.mapping, "plot", err);
    if (!opened.store)
        return opened.exitStatus;

    ensureHeadlessApplication();
    QString error;
    const ChartData data = computeChartData(*chartKindFromName(request.chart), *opened.store, filter);
    if (data.load && data.load->noArrivalTimes()) { // no picture of empty axes: say why, as the load view does
        err << "plot: " << lx::kNoArrivalTimes << '\n';
        return 2;
    }
    if (!renderChart(data, request.size, request.out, &error)) {
        err << "plot: " << error.toStdString() << '\n';
        return 2;
    }
    out << "plot: wrote " << request.out.toStdString() << " (" << request.size.width() << "x" << request.size.height()
        << ")\n";
    return opened.inputFailed ? 2 : 0;
}
