// SPDX-License-Identifier: GPL-3.0-or-later
// bench-waterfall: the waterfall timeline's frame time at scale. Generates N requests (1,000,000 by
// default) with `latency-explorer-cli generate`, imports them into a store once (both kept in the work
// folder for the next run), loads them as the GUI does (lx::loadWaterfall) and times offscreen frames:
// each pan or zoom step followed by a whole replot of the chart into a pixmap, as a frame on screen is.
// Prints the median and p99 of each series; the target is 50 ms a frame. Figures, not a test:
// these machines are shared, so compare medians of several runs.

#include "platform/huge_pages.h"
#include "store/store.h"
#include "waterfall_chart.h"
#include "analysis/waterfall_data.h"

#include <sys/resource.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

struct Options {
    QString cli = QStringLiteral("latency-explorer-cli");
    QString workdir = QStringLiteral("bench-data");
    long requests = 1'000'000;
    int frames = 50;
    QSize size{1600, 900};
};

/// Runs the CLI with `args`; false (having said why) when it cannot be run or fails.
bool runCli(const Options &options, const QStringList &args)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(options.cli, args);
    if (!process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::fprintf(stderr, "bench-waterfall: %s %s failed\n", qPrintable(options.cli), qPrintable(args.join(QLatin1Char(' '))));
        return false;
    }
    return true;
}

/// The store of N generated requests, made when it is not there yet.
QString prepareStore(const Options &options)
{
    const QString stem = QStringLiteral("%1/waterfall-%2").arg(options.workdir).arg(options.requests);
    const QString trace = stem + QStringLiteral(".jsonl"), store = stem + QStringLiteral(".lxdb");
    if (QFileInfo::exists(store))
        return store;
    std::printf("generating and importing %ld requests into %s ...\n", options.requests, qPrintable(store));
    if (!QFileInfo::exists(trace)
        && !runCli(options, {QStringLiteral("generate"), QStringLiteral("--requests"), QString::number(options.requests),
                             QStringLiteral("--seed"), QStringLiteral("1"), QStringLiteral("-o"), trace}))
        return {};
    if (!runCli(options, {QStringLiteral("import"), QStringLiteral("--db"), store, trace}))
        return {};
    return store;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const double rank = p * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

const char *lodName(WaterfallLod lod)
{
    return lod == WaterfallLod::Bars ? "bars" : lod == WaterfallLod::Density ? "density" : "none";
}

/// Times `frames` frames, each a step then a full replot into a pixmap; prints the series.
void timeFrames(WaterfallChart &chart, const Options &options, const char *name, const std::function<void(int)> &step)
{
    std::vector<double> ms;
    QElapsedTimer timer;
    for (int i = 0; i < options.frames; ++i) {
        timer.start();
        step(i);
        const QPixmap frame = chart.toPixmap(options.size.width(), options.size.height());
        ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        if (frame.isNull())
            std::fprintf(stderr, "bench-waterfall: an empty frame\n");
    }
    std::printf("  %-34s median %6.1f ms   p99 %6.1f ms   max %6.1f ms   (%s)\n", name, percentile(ms, 0.5),
                percentile(ms, 0.99), *std::max_element(ms.begin(), ms.end()), lodName(chart.lod()));
}

void timeScenario(WaterfallChart &chart, const Options &options, const char *mode)
{
    std::printf("%s:\n", mode);
    chart.fit();
    chart.toPixmap(options.size.width(), options.size.height()); // the first frame lays out the plot
    const int half = options.frames / 2;
    timeFrames(chart, options, "zoom in then out, from everything", [&](int i) { chart.zoomTime(i < half ? 0.85 : 1 / 0.85); });
    chart.fit();
    chart.zoomTime(0.25);
    timeFrames(chart, options, "pan a quarter of the time", [&](int i) { chart.panTime(i < half ? 0.03 : -0.03); });
    chart.fit();
    timeFrames(chart, options, "pan the rows, everything in time", [&](int i) {
        if (i == 0)
            chart.zoomRows(0.5);
        chart.panRows(i < half ? 0.02 : -0.02);
    });
    chart.fit();
    chart.zoomTime(0.002);
    chart.zoomRows(0.001);
    timeFrames(chart, options, "pan zoomed in (bars)", [&](int i) { chart.panTime(i < half ? 0.05 : -0.05); });
}

/// Rows of a million are arranged on a worker thread: waits for them.
void waitForRows(const WaterfallChart &chart)
{
    while (chart.arranging())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

int main(int argc, char **argv)
{
    lx::startAgainWithHugePages(argv); // the malloc the desktop application runs with (its main() does the same)
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    Options options;
    const QStringList args = QApplication::arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        const QString &name = args[i], &value = args[i + 1];
        if (name == QLatin1String("--cli"))
            options.cli = value;
        else if (name == QLatin1String("--workdir"))
            options.workdir = value;
        else if (name == QLatin1String("--requests"))
            options.requests = value.toLong();
        else if (name == QLatin1String("--frames"))
            options.frames = std::max(2, value.toInt());
        else {
            std::fprintf(stderr, "usage: bench-waterfall [--cli PATH] [--workdir DIR] [--requests N] [--frames N]\n");
            return 2;
        }
    }
    QDir().mkpath(options.workdir);
    const QString path = prepareStore(options);
    if (path.isEmpty())
        return 1;
    std::string error;
    const auto store = lx::Store::openExisting(path.toStdString(), &error);
    if (!store) {
        std::fprintf(stderr, "bench-waterfall: %s\n", error.c_str());
        return 1;
    }
    const double rssBefore = peakRssMiB();
    QElapsedTimer timer;
    timer.start();
    const auto data = lx::loadWaterfall(*store, {}, nullptr, &error);
    if (!data) {
        std::fprintf(stderr, "bench-waterfall: %s\n", error.c_str());
        return 1;
    }
    const double loadMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    std::printf("loaded %zu requests in %d lanes: %.0f ms, peak RSS %.0f MiB (%.0f MiB before the load)\n", data->size(),
                data->laneCount, loadMs, peakRssMiB(), rssBefore);

    WaterfallChart chart;
    chart.resize(options.size);
    chart.setData(data);
    waitForRows(chart);
    timer.start();
    lx::WaterfallSort byQueue;
    byQueue.key = lx::WaterfallSort::Key::Segment;
    byQueue.segment = lx::Segment::Queue;
    byQueue.descending = true;
    chart.setSort(byQueue);
    const double blockedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    waitForRows(chart);
    std::printf("sorted by queue in %.0f ms on a worker (the UI thread blocked %.1f ms)\n",
                static_cast<double>(timer.nsecsElapsed()) / 1e6, blockedMs);
    chart.setSort({});
    waitForRows(chart);
    std::printf("frames of %dx%d, %d a series:\n", options.size.width(), options.size.height(), options.frames);
    timeScenario(chart, options, "rows by start");
    chart.setSort(byQueue); // an order that scatters the rows over the data
    waitForRows(chart);
    timeScenario(chart, options, "rows by queue, longest first");
    timer.start();
    chart.setLanes(true);
    waitForRows(chart);
    std::printf("lanes arranged in %.0f ms on a worker\n", static_cast<double>(timer.nsecsElapsed()) / 1e6);
    timeScenario(chart, options, "lanes");
    return 0;
}
