// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "request_filter.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace lx {
class Store;
}

/// \file chart_render.h
/// A chart of the GUI drawn without a window: `latency-explorer-cli plot` and the incident report's
/// figures go through here, so that a file is the picture the same view shows on screen. Needs a
/// QApplication (the offscreen platform will do); computes the chart's data on the calling thread.

enum class ChartKind { Waterfall, Cdf, Dominant };

/// "waterfall", "cdf", "dominant".
QStringList chartKindNames();
std::optional<ChartKind> chartKindFromName(const QString &name);
QString chartKindName(ChartKind kind);
/// For people: "Waterfall timeline", ...
QString chartKindTitle(ChartKind kind);

/// Draws the chart of the requests of `store` matching `filter` into `path` (.png, .svg or .pdf) at `size`.
/// False with the reason, naming the file, when the format is unknown or the file cannot be written.
bool renderChart(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter, QSize size,
                 const QString &path, QString *error);

/// The same chart as PNG ("png") or SVG ("svg") bytes, for embedding; empty on failure.
QByteArray renderChartBytes(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter, QSize size,
                            const QString &format);
