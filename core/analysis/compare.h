// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "store/latency_rows.h"

#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file compare.h
/// An incident against a baseline: two investigations, or two time windows of one. Per-segment
/// percentile deltas (from the two reports) and a shift-share split of the e2e change into per-segment
/// contributions. Each request's segment parts add up to its e2e, so the mean e2e is the sum of the mean
/// parts and its change splits exactly; the p95 is split the same way over the requests around it (the
/// e2e between p94 and p96), whose mean approximates it (docs/LOAD.md).

namespace lx {

/// The mean e2e of a set of requests and the mean part of each segment in it (LatencyRow::part): the
/// parts add up to the mean.
struct Composition {
    std::int64_t count = 0;
    double e2eNs = 0;
    std::array<double, kSegmentCount> partNs{};
};

/// The mean composition of the requests in the latency statistics; with a band, only those whose e2e
/// lies in [loNs, hiNs].
Composition composition(std::span<const LatencyRow> rows, bool includeErrors, double loNs = -INFINITY, double hiNs = INFINITY);

/// The composition of the requests around the e2e percentile q: e2e between the percentiles q-1 and q+1.
Composition compositionAround(std::span<const LatencyRow> rows, double q, bool includeErrors);

struct Comparison {
    Report baseline, incident;
    Composition baselineMean, incidentMean;   ///< every request: splits the mean e2e delta exactly
    Composition baselineTail, incidentTail;   ///< around p95 (e2e in [p94, p96])
};

/// Reports and compositions of both sides; the filters choose each side's requests (time windows).
Comparison compareInvestigations(const Store &baseline, const RequestFilter &baselineFilter, const Store &incident,
                                 const RequestFilter &incidentFilter, const AnalysisOptions &options = {});

/// What makes the comparison less than it reads as, in sentences: a side with no request (nothing is
/// compared) or none in its latency statistics (only counts are), e2e measured on different clocks (its change mixes in
/// the time one side does not see, such as the network), segments measured on one side only. Empty when none.
std::vector<std::string> comparisonCautions(const Comparison &comparison);

/// {"baseline": ..., "incident": ..., "segments": {...}, "e2e": {...}, "shift_share": {"mean": ..., "p95_band": ...}}; ms.
std::string comparisonToJson(const Comparison &comparison);

/// The same for people: a delta table and the split.
std::string comparisonToText(const Comparison &comparison);

} // namespace lx
