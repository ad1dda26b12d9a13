// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/incident_report.h"
#include "filter/request_filter.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace lx {
class Store;
struct CdfData;
struct DominantBreakdown;
struct WaterfallData;
struct LoadChartData;
} // namespace lx

/// \file chart_render.h
/// A chart of the GUI drawn without a window: `latency-explorer-cli plot`, the incident report's figures
/// and the GUI's report export go through here, so that a file is the picture the same view shows on
/// screen. Two steps: the data (core's, any thread), then the drawing (the UI thread, needs a
/// QApplication; the offscreen platform will do).

enum class ChartKind { Waterfall, Cdf, Dominant, Load };

/// "waterfall", "cdf", "dominant", "load".
QStringList chartKindNames();
std::optional<ChartKind> chartKindFromName(const QString &name);
QString chartKindName(ChartKind kind);
/// For people: "Waterfall timeline", ...
QString chartKindTitle(ChartKind kind);

/// One chart's data, as its view takes it.
struct ChartData {
    ChartKind kind = ChartKind::Cdf;
    std::shared_ptr<const lx::WaterfallData> waterfall;
    std::shared_ptr<const lx::CdfData> cdf;
    std::shared_ptr<const lx::DominantBreakdown> dominant;
    std::shared_ptr<const lx::LoadChartData> load;
};

/// Computes the data of a chart of the requests of `store` matching `filter`. Safe on a worker thread with
/// a Store of that thread's own.
ChartData computeChartData(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter);

/// Draws the chart into `path` (.png, .svg or .pdf) at `size`. False with the reason, naming the file,
/// when the format is unknown or the file cannot be written. UI thread.
bool renderChart(const ChartData &data, QSize size, const QString &path, QString *error);

/// The same chart as PNG ("png") or SVG ("svg") bytes, for embedding; empty on failure. UI thread.
QByteArray renderChartBytes(const ChartData &data, QSize size, const QString &format);

/// The figures of an incident report, in the order it shows them (load, dominant segment, CDFs,
/// waterfall), as PNGs of `size`. UI thread.
std::vector<lx::ReportFigure> renderReportFigures(const std::vector<ChartData> &charts, QSize size = {1200, 600});

/// The kinds an incident report draws, in its order.
std::vector<ChartKind> reportChartKinds();
