// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// \file slo.h
/// Service level objectives such as `e2e.p95<=2s` or `ttft.p99<500ms where model = "llama"`: parsed,
/// evaluated over an investigation, and for a failing one the segment budget at its percentile, i.e. what
/// the requests around that percentile are made of ("at p95, queue is 61% of e2e"). docs/LOAD.md has
/// the grammar and the definition of "around".

namespace lx {

class Store;

struct SloTarget {
    std::string text;       ///< as written, for reports
    std::string metric;     ///< e2e, ttft, tpot, itl, ttlt or a segment name
    double percentile = 95; ///< in [0, 100]
    bool strict = false;    ///< "<" rather than "<="
    std::int64_t thresholdNs = 0;
    std::string filter;     ///< a filter expression (docs/FILTER.md) the target applies to; empty for all
    std::optional<SqlCondition> condition; ///< the compiled filter
};

/// Parses `METRIC.pQ (<=|<) DURATION [where FILTER]`; nullopt and a reason on error.
std::optional<SloTarget> parseSlo(std::string_view text, std::string *error);

struct SloResult {
    SloTarget target;
    std::int64_t count = 0;          ///< samples of the metric
    std::optional<double> valueNs;   ///< the metric at the percentile; none without samples
    bool pass = false;
    double marginNs = 0;             ///< threshold - value: headroom when positive, the excess when negative
    /// For a failing target, the budget: the requests whose metric lies between the percentiles q-1 and
    /// q+1, and the mean share of each segment in their e2e.
    std::int64_t bandCount = 0;
    double bandLoNs = 0, bandHiNs = 0;
    std::array<double, kSegmentCount> budgetShare{};
    int budgetDominant = -1; ///< the segment with the largest share; -1 without a budget
    /// "at p95, queue is 61% of e2e"; empty without a budget
    std::string budgetSentence() const;
};

/// Evaluates each target over the requests matching `filter` and the target's own filter (ok requests only
/// unless includeErrors), with exact type-7 percentiles.
std::vector<SloResult> evaluateSlos(const Store &store, const RequestFilter &filter, const std::vector<SloTarget> &targets,
                                    bool includeErrors = false);


} // namespace lx
