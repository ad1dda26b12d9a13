// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/incident_report.h"
#include "filter/request_filter.h"

#include <vector>

namespace lx {
class Store;
}

/// \file headless_charts.h
/// The desktop app's charts in a command-line run: a QApplication on the offscreen platform (no display
/// server needed), made once, on first use, with Qt's platform notes kept out of the command's output.

/// Makes the application object the chart widgets need, if there is none yet.
void ensureHeadlessApplication();

/// The incident report's figures (load, dominant segment, CDFs, waterfall) of the requests matching
/// `filter`, drawn by the GUI's widgets.
std::vector<lx::ReportFigure> drawReportFigures(const lx::Store &store, const lx::RequestFilter &filter);
