// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// `latency-explorer-cli compare [--json] BASELINE INCIDENT` or `compare --baseline-range A..B
/// --incident-range C..D INPUT...`: per-segment percentile deltas and the shift-share split of the e2e
/// change (core/analysis/compare.h). Returns the exit status.
int runCompareCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
