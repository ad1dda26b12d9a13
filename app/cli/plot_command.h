// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// `latency-explorer-cli plot --chart waterfall|cdf|dominant --out FILE.{png,svg,pdf} [--filter EXPR]
/// [--size WxH] TRACE_OR_STORE...`: one of the GUI's charts, drawn headlessly by the same widget.
int runPlotCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);
