// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/formats/otlp/otlp_span.h"
#include "source/clickhouse_client.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// \file otel_traces_rows.h
/// The OpenTelemetry Collector's ClickHouse exporter's table (`otel_traces`, docs/CLICKHOUSE.md): the query
/// that pulls a window's traces from it, and its rows read back as the spans the OTLP mappings take.

namespace lx::source {

/// What to pull: the traces that have a span of one of `services` starting in [fromNs, toNs), with all
/// their spans (those of other services too: a gateway's mapping needs the LLM server's span below it).
struct SpanWindow {
    std::vector<std::string> services; ///< ServiceName values; empty: every service
    std::int64_t fromNs = 0;           ///< ns since the epoch, inclusive
    std::int64_t toNs = 0;             ///< exclusive
};

/// The table's name in the SQL: both parts bound as `Identifier` parameters.
inline constexpr const char *kOtelTracesTable = "{database:Identifier}.{table:Identifier}";

/// Adds the window's bound parameters (database, table, times, each service) to `query` and returns the
/// subquery of its trace ids, `SELECT TraceId FROM ... WHERE` the window's condition: the traces with a
/// span of one of the services starting in the window. What a pull reads, a count counts, a push-down reduces.
std::string windowTraceIds(const ClickHouseEndpoint &endpoint, const SpanWindow &window, ClickHouseQuery &query);
/// The FROM and WHERE clauses of the spans of the window's services that start in the window, with their
/// bound parameters (the table's too): what the catalog counts by service.
ClickHouseQuery otelTracesWindowSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window);
/// The FROM and WHERE clauses of every span a pull of the window reads: all the spans of the traces that
/// windowTraceIds() selects. otelTracesQuery() selects them; the catalog counts them before a pull.
ClickHouseQuery otelTracesPulledSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window);

/// The query over `endpoint`'s database and table. Every value (database, table, services, times) is a
/// bound parameter; the SQL text holds only their placeholders. The rows come in trace order, each trace's
/// spans together, so that a trace is whole when the next begins.
ClickHouseQuery otelTracesQuery(const ClickHouseEndpoint &endpoint, const SpanWindow &window);

/// Reads one JSONEachRow row of otelTracesQuery() into `span`, keeping the attributes `filter` keeps. The
/// exporter writes every attribute as a string: a value that reads whole as a number is a number too (and
/// an integer when it is whole), so that the mappings' `gen_ai.latency.*` and token counts read as in an
/// OTLP file. Returns why the row is rejected (not JSON, a column missing, an id that is not hex, a kind
/// the exporter does not write, no start time, a duration past 2262), or empty.
std::string readOtelTracesRow(std::string_view row, const otlp::AttributeFilter &filter, otlp::Span &span);

} // namespace lx::source
