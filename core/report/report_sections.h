// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/findings.h"
#include "analysis/load_analysis.h"
#include "analysis/slo.h"

#include <string>
#include <utility>
#include <vector>

/// \file report_sections.h
/// The report's sections beyond the decomposition: the load (windows, buckets, knee), the findings and the
/// SLOs, as JSON members of `report --json` (README.md) and as lines of the text report.

namespace lx {

/// {"window_ms": W, "windows": [...], "bucket_by": K, "buckets": [...], "knee": {...} or null, "below": {...},
/// "above": {...} or null, "no_knee_reason": "...", "sentence": "..."}; times in ms.
std::string loadToJson(const LoadAnalysis &load);
/// [{"id", "title", "evidence", "fix", "filter", "tail_share", "count"}, ...]
std::string findingsToJson(const std::vector<Finding> &findings);
/// [{"slo", "metric", "percentile", "threshold_ms", "value_ms", "count", "pass", "margin_ms", "filter", "budget"}, ...]
std::string slosToJson(const std::vector<SloResult> &slos);

/// "Load: below the knee decode dominates (72%), ..." and its window and bucket counts.
std::string loadToText(const LoadAnalysis &load);
/// The first `most` findings, one paragraph each.
std::string findingsToText(const std::vector<Finding> &findings, std::size_t most = 3);
/// One line per SLO: PASS or FAIL, value, margin, and the budget of a failing one.
std::string slosToText(const std::vector<SloResult> &slos);

/// Appends top-level members (a key and its JSON text each) to a JSON object such as reportToJson()'s.
std::string withMembers(std::string jsonObject, const std::vector<std::pair<std::string, std::string>> &members);

} // namespace lx
