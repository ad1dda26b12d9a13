// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

class QHBoxLayout;

/// \file plot_frame.h
/// The frame the analysis charts share: a bold title above the plot and the legend beside it, top-aligned,
/// so that the legend never hides data and exports read like the window.

/// Puts a bold title row above the plot; the caller sets its text. Chart::applyPalette() colours it.
QCPTextElement *addPlotTitle(QCustomPlot &plot);

/// A hidden text centred over the plot, a little above the middle: why nothing is drawn. The caller
/// sets its text, shows it and colours it in applyPalette().
QCPItemText *addCentredMessage(QCustomPlot &plot);

/// Moves the legend out of the axis rect into a column to its right, at the top, and shows it. Call after
/// addPlotTitle(): the legend takes the axis rect's row.
void placeLegendBeside(QCustomPlot &plot);

/// Lays out a view as a toolbar row above its chart, which takes the rest; returns the toolbar row for
/// the caller's buttons (a stretch after them keeps them left).
QHBoxLayout *addToolbarAbove(QWidget &view, QWidget *chart);
