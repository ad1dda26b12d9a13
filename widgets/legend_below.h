// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

/// \file legend_below.h
/// The legend in rows under the plot, for charts that sit in a narrow pane: in a column beside the plot
/// (plot_frame.h) it takes a third of the width that the load charts' bars and lines need at 1400x900.

/// Moves the legend out of the axis rect into a row under it and shows it. Call after addPlotTitle().
void placeLegendBelow(QCustomPlot &plot);

/// Sets the legend's columns to as many of its widest entry as fit across the plot's width; true when
/// they changed (the caller replots).
bool fitLegendColumns(QCustomPlot &plot);
