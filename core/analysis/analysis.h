// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/time_axis.h"
#include "filter/request_filter.h"
#include "model/percentiles.h"
#include "model/request.h"
#include "store/request_join.h"
#include "store/request_scan.h"

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

/// \file analysis.h
/// The decomposition report of an investigation: counts, per-segment and token statistics, dominant
/// segment shares. The same numbers feed the CLI's report and the GUI's summary.

namespace lx {

class Store;
class LatencyRowCollector;

struct AnalysisOptions {
    std::vector<double> percentiles = defaultPercentiles();
    bool includeErrors = false; ///< latency statistics over error requests too (by default ok only)
    /// Also hands every row the scan reads to this visitor, so that another statistic (the load profile)
    /// is gathered in the same pass. Called for half 0 and half 1 on two threads at once (request_scan.h).
    std::function<void(int half, const RequestRow &row)> alsoVisit;
    /// Also collects the LatencyRow of every matching row here (reserve() it first), and takes the e2e,
    /// segment and TPOT statistics from these rows rather than from columns of their own: their values are
    /// then held once, not twice (a report on 10M requests: 0.9 GB less at its peak).
    LatencyRowCollector *rows = nullptr;
    /// From this many requests on (by the id range), the TTFT and TTLT values are never held beside the
    /// `rows` (88 bytes a request, those two 16 more; a report on 10M requests peaked at 1047 MiB with both).
    /// Without a filter, on a store with column chunks, the one scan collects the rows and the two metrics
    /// are read afterwards from their own columns of the chunks (token_metric_chunks.h); otherwise the rows
    /// are collected in a second scan, after the TTFT, TTLT and ITL columns of the first are summarized and
    /// let go.
    std::int64_t rowsInASecondScanFrom = std::int64_t{1} << 22;
};

/// One metric's statistic with the clock it was measured on.
struct MetricSummary {
    Statistic stat;
    std::string scope;                         ///< "client", "server", "engine" or "mixed"; empty with count 0
    std::map<std::string, std::int64_t> scopes; ///< the count per scope when mixed
    std::int64_t excluded = 0;                  ///< values left out (network: clock skew)
};

/// One imported file as the report lists it.
struct InputSummary {
    std::string path;
    std::string format;
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
    std::string outcome;
    std::string message;
};

struct Report {
    std::vector<double> percentiles;
    std::int64_t total = 0; ///< requests imported that match the filter, ok and error
    std::int64_t ok = 0;
    std::int64_t error = 0;
    std::int64_t rejected = 0; ///< records refused at import (whole investigation, not filtered)
    std::int64_t clockSkew = 0;
    /// Matching requests whose times are offsets from an unknown origin (kFlagRelativeTime), not dates:
    /// time-based views say "relative to the start of the trace" for them.
    std::int64_t relativeTime = 0;
    /// Whether the investigation is a what-if replay (an input of format "whatif", whatif/simulated_store.h):
    /// its figures are a model's prediction, never what a server did.
    bool simulated() const
    {
        for (const InputSummary &in : inputs)
            if (in.format == "whatif")
                return true;
        return false;
    }
    /// Whether firstStartNs and lastStartNs are offsets rather than dates: every request's times are.
    bool timesAreOffsets() const { return relativeTime > 0 && relativeTime == total; }
    JoinSummary join; ///< client and server records joined (whole investigation, not filtered; request_join.h)
    std::vector<UnmatchedRecord> unmatchedSample; ///< the first few records the join left unmatched (listUnmatched())
    std::int64_t firstStartNs = kNotMeasured; ///< the earliest request start among those matching
    std::int64_t lastStartNs = kNotMeasured;  ///< the latest
    /// The times of the matching requests as a load profile reads them (LoadOptions::rowTimes).
    RowTimes rowTimes;
    std::array<MetricSummary, kSegmentCount> segments;
    MetricSummary e2e;
    MetricSummary ttft, tpot, itl, ttlt;
    std::array<std::int64_t, kSegmentCount> dominantCounts{};
    std::int64_t dominantTotal = 0; ///< requests in the statistics whose dominant segment is known
    std::vector<InputSummary> inputs;
    /// The filter as its caller states it (the options or the expression as given), empty for none: every
    /// format says it, since figures of a subset read as the whole investigation's otherwise.
    std::string filter;
    /// The latency statistics count the error requests too (AnalysisOptions::includeErrors): every format
    /// says which requests its figures are of.
    bool includeErrors = false;

    double dominantShare(int segment) const
    {
        return dominantTotal ? static_cast<double>(dominantCounts[segment]) / static_cast<double>(dominantTotal) : 0.0;
    }
};

/// Reads the requests matching the filter and computes the report. Exact percentiles, computed in C++.
Report analyze(const Store &store, const RequestFilter &filter = {}, const AnalysisOptions &options = {});

} // namespace lx
