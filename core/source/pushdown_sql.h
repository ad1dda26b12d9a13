// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/span_mapping.h"
#include "source/clickhouse_client.h"
#include "source/otel_traces_rows.h"

#include <cstdint>
#include <string>
#include <vector>

/// \file pushdown_sql.h
/// A span mapping written as ClickHouse SQL (docs/CLICKHOUSE.md, "Push-down"): one row per request of a
/// window, with the values the OTLP reader would give it (otlp_requests.cpp), and the queries that reduce
/// those rows to the report's figures in ClickHouse. Every value (database, table, services, times,
/// attribute keys, span names, percentiles) is a bound `{name:Type}` parameter, never SQL text.

namespace lx::source {

/// How the percentiles are computed in ClickHouse.
enum class QuantileMode {
    Exact,       ///< quantilesExactInclusive: R-7, numpy's rule, as the pulled report; the values gather in memory
    Approximate, ///< quantilesTDigest: bounded memory, approximate (labelled so in the report)
};

/// Why `mapping` cannot be computed in ClickHouse with the figures a pull would give, naming the mapping and
/// what is at fault; empty when it can. Every selector and source has its SQL (docs/CLICKHOUSE.md,
/// "Which mappings"); what is exact only for some traces is refused per window by pushDownShapeQuery().
std::string pushDownRefusal(const SpanMapping &mapping);

/// True when the mapping reads spans below the request (`spans` sums, an inner span): exact when the
/// request is its trace's only root, for then every other span of the trace is below it.
bool readsBelowRequest(const SpanMapping &mapping);

/// What a push-down computes.
struct PushDownSpec {
    SpanWindow window;
    std::vector<double> percentiles; ///< 0..100, as the report's --percentiles
    bool includeErrors = false;      ///< the statistics over error requests too
    QuantileMode mode = QuantileMode::Exact;
};

/// The shape of the window's traces as the mappings see them (tried in order on each span), one row, the
/// last two for the traces with a span that mapping `j` claims: `traces`; `nested`, traces with more
/// than one span the mapping claims whose root is not one of them (which are requests depends on how they
/// nest, which push-down does not follow; under a claimed root, the others are nested in it); `multi_root`,
/// traces with a claimed span and more than one root span (the pull makes the other roots requests of their
/// own); `below_root`, traces whose claimed span is not their root (its descendants cannot be told from the
/// trace's other spans, which matters to a mapping that readsBelowRequest()); `ambiguous_inner`, traces where
/// the inner selector that applies finds more than one span (the reader takes the first in breadth-first
/// order, which SQL over the table does not know).
ClickHouseQuery pushDownShapeQuery(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const SpanMappings &mappings,
                                   std::size_t j);

/// The report's figures in one row (clickhouse_pushdown.cpp reads it): counts, and per metric (`m0`..`m6`
/// the segments in pipeline order, `e2e`, `ttft`, `tpot`, `ttlt`) `<m>_count`, `<m>_sum`, `<m>_max`, `<m>_q`
/// (the percentiles in the spec's order); `client_e2e` (requests whose e2e is the client's), the dominant
/// counts `dom0`..`dom6`, `first_start`, `last_start`.
ClickHouseQuery pushDownFiguresQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings);

/// The load windows: per `toStartOfInterval` window of `windowNs` over the requests' starts, one row
/// `window_ns` (its start), `requests`, `in_statistics`, `e2e_q` (the spec's percentiles) and `e2e_sum`.
ClickHouseQuery pushDownLoadQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                                  std::int64_t windowNs);

/// The e2e CDF: one row `cdf` of the e2e at each of `points` levels (0..1) over the requests in the statistics.
ClickHouseQuery pushDownCdfQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                                 const std::vector<double> &points);

} // namespace lx::source
