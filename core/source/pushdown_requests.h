// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "source/pushdown_sql.h"

#include <string>
#include <vector>

/// \file pushdown_requests.h
/// The push-down's requests as SQL (pushdown_sql.h builds its queries over them): the window's spans linked
/// to their parents and claimed by the mapping's root selectors, and one row per request with what the OTLP
/// reader (otlp_requests.cpp) would make of it. Every value is bound to `query` as a parameter.

namespace lx::source {

/// The mapping's `spans` sources, in the order their per-trace sums are numbered (`spans_sum_K`).
std::vector<const SegmentSource *> spansSources(const SpanMapping &mapping);

/// The spans of the window's traces, each with `is_root` (its parent is not among them), `claimed_by` (the
/// first mapping whose root selectors match it, -1 for none) and `claimed`, per trace `claimed_in_trace`
/// and `roots_in_trace`, and what mapping `j` reads below a request (the named spans' sums, the inner span).
std::string claimedSpansSql(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const SpanMappings &mappings,
                            std::size_t j, ClickHouseQuery &query);

/// One row per request of the window: `bad` (the pull rejects it), `inc` (in the statistics), `failed`,
/// `start_ns`, the segments `m0`..`m6`, `e2e`, `ttft`, `tpot`, `ttlt`, `client` (e2e on the client's clock:
/// network measured) and `dominant`.
/// Each request made by the mapping that claimed it, as the reader tries `mappings` in order on each span.
std::string requestsSql(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                        ClickHouseQuery &query);

} // namespace lx::source
