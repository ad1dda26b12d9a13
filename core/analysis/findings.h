// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/load_analysis.h"
#include "analysis/row_halves.h"
#include "store/latency_rows.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file findings.h
/// The diagnosis: findings from the rules of docs/LOAD.md (the dominant segment of the slow requests and
/// its likely fix; clock skew, errors, missing instrumentation), each with its evidence in figures and a
/// filter expression (docs/FILTER.md) that shows its requests, ranked by how much of the tail each explains.
/// The tail is the requests above the e2e p90 (docs/LOAD.md).

namespace lx {

struct Finding {
    std::string id;        ///< stable key: "queue", "prefill", ..., "clock_skew", "errors", "unattributed"
    std::string title;     ///< "Queueing dominates the slow requests"
    std::string evidence;  ///< figures: "queue is the largest segment of 812 of the 1,000 requests above p90 (81%) ..."
    std::string fix;       ///< the likely fix, from docs/LOAD.md
    std::string filter;    ///< shows the requests: `dominant = queue and e2e > 2100.5ms`
    double tailShare = 0;  ///< fraction of the tail requests it explains (its rank)
    std::int64_t count = 0; ///< requests it concerns
};

struct FindingsOptions {
    double tailPercentile = 90; ///< the tail: requests with e2e above this percentile
    bool includeErrors = false;
    double minTailShare = 0.05; ///< dominant-segment findings explaining less of the tail are left out
    /// The e2e at tailPercentile over the same rows when the caller has it already (a report's own p90;
    /// the inner nullopt: no e2e measured), so that the rows are not read twice more for it.
    std::optional<std::optional<double>> tailThresholdNs;
    /// From this many rows on, the passes over them run on two threads (row_halves.h; tests lower it).
    std::size_t twoThreadsFrom = kRowsForTwoThreads;
    /// The load windows' tallies of the same rows (LoadProfile::rowTallies), when the caller has them: what
    /// every request adds is taken from them, and the pass over the rows reads the tail alone. Ignored when
    /// they were counted over other rows or with errors otherwise.
    std::shared_ptr<const WindowRowTallies> windowTallies;
};

/// The findings over the rows (latency_rows.h), most of the tail first; the knee, when given, adds its
/// figures to the queue finding.
std::vector<Finding> findFindings(std::span<const LatencyRow> rows, const LoadAnalysis *load = nullptr,
                                  const FindingsOptions &options = {});

} // namespace lx
