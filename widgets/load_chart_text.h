// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"

#include <QString>

#include <array>

class QMouseEvent;
class QWidget;

/// \file load_chart_text.h
/// The words and numbers the load charts and their tooltips share, so that the knee reads the same on
/// the decomposition chart, the profile chart and the view's sentence.
namespace loadtext {

/// "9.1", "41": two significant digits below 10, whole numbers above (as core's sentence writes them).
QString rough(double value);
/// "1,234".
QString count(std::int64_t n);
/// "the Window box": what widens the windows here, where core's reasons name the command line's --window.
QString windowControl();
/// "183 ms", through core's formatter.
QString duration(double ns);
/// A round width as a tick says it: "1 s", "15 min" (not "1.00 s", "15 min 0 s"); chart_tickers.h.
QString roundDuration(double ns);
/// "61%".
QString percent(double share);
/// "network", ..., "unattributed".
QString segmentTitle(int segment);
/// "knee ≈ 2.52 req/s, 7 in flight", rounded as the findings and the sentence round it (knee_text.h).
/// With `twoLines`, the figures on a second line: "knee ≈ 2.52 req/s,\n7 in flight".
QString kneeLabel(const lx::Knee &knee, bool twoLines = false);
/// "knee ≈ 2.52 req/s".
QString kneeRateLabel(double rps);
/// "9.1–10 req/s" or "12–15 in flight": a load bucket's range in the unit of its key.
QString loadRange(double lo, double hi, lx::LoadKey key);
/// Rows of a tooltip table: each segment with time, its colour, mean and (with `of` > 0) share of `of`.
QString segmentRows(const std::array<double, lx::kSegmentCount> &meansNs, double of);
/// Shows `html` as the tooltip at the pointer of a move event on `widget`, or hides it when empty; only
/// while no button is held (a drag is not a hover).
void hoverTip(QWidget *widget, const QMouseEvent *event, const QString &html);
/// The axis title of a load key: "arrival rate (req/s)", "requests in flight (time average)".
QString loadAxisLabel(lx::LoadKey key);

} // namespace loadtext
