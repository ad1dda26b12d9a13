// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "source/clickhouse_client.h"
#include "source/otel_traces_rows.h"
#include "source/pushdown_sql.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// \file clickhouse_pushdown.h
/// The report of a window computed in ClickHouse (docs/CLICKHOUSE.md, "Push-down"), for windows too large
/// to pull: the span mapping runs as SQL (pushdown_sql.h) and only the figures come back. The same Report
/// the pulled spans would give, to a few ulps, where push-down computes a figure; labelled as computed by
/// ClickHouse, and as approximate in the approximate mode.

namespace lx::source {

/// The default of --max-spans: above it a pull is refused, pointing at push-down.
inline constexpr std::uint64_t kDefaultMaxPulledSpans = 5'000'000;

/// One load window computed in ClickHouse (toStartOfInterval over the requests' starts).
struct PushDownWindow {
    std::int64_t startNs = 0;
    std::int64_t requests = 0;     ///< requests starting in it (ok and error)
    Statistic e2e;                 ///< over those in the statistics (mean, the report's percentiles; no max)
};

struct PushDownOptions {
    std::string spanMapping; ///< as a pull's: empty or auto (vllm, sglang, tgi in turn), a preset name or a mapping file
    std::vector<double> percentiles = defaultPercentiles();
    bool includeErrors = false;
    QuantileMode mode = QuantileMode::Exact;
    std::int64_t windowNs = 0; ///< load window width; 0: the round width of at most 200 windows the report uses
    int cdfPoints = 101;       ///< the e2e CDF at levels 0, 1/(n-1), ..., 1
    ClickHouseRequestOptions request;
};

struct PushDownResult {
    std::string error; ///< why there is no result (a refused mapping, a trace shape, ClickHouse's error); empty when done
    Report report;     ///< its itl, unmatched records and join are not computed (empty)
    std::string computedBy; ///< "ClickHouse (push-down), exact: quantilesExactInclusive" or the approximate one
    std::int64_t windowNs = 0;
    std::vector<PushDownWindow> windows;
    std::vector<double> cdfLevels;                  ///< 0..1
    std::vector<std::optional<double>> cdfE2eNs;   ///< the e2e at each level
    std::uint64_t rowsRead = 0;                     ///< rows ClickHouse read for the figures (its progress header)

    bool ok() const { return error.empty(); }
};

/// Computes the report of `window` in ClickHouse with the mappings: the trace shape first (a window whose
/// traces push-down cannot follow is refused: pushDownShapeQuery()), then the figures, the load windows and
/// the CDF.
PushDownResult pushDownReport(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const PushDownOptions &options);

/// The result as the report's JSON (report_format.h) with `computed_by`, `load_windows` and `e2e_cdf`
/// members, and the same as text.
std::string pushDownToJson(const PushDownResult &result);
std::string pushDownToText(const PushDownResult &result);

} // namespace lx::source
