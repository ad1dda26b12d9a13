// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "source/clickhouse_client.h"
#include "source/otel_traces_rows.h"

#include <cstdint>
#include <string>
#include <vector>

/// \file clickhouse_catalog.h
/// What a trace store holds, asked before a pull (docs/CLICKHOUSE.md, "In the app"): whether the server
/// answers and has the table, the services of a window with their span counts, and how many spans a pull
/// of the window would read. Small queries through runClickHouseQuery(), every value a bound parameter,
/// over the same window condition as the pull (otelTracesWindowSpans(), otelTracesPulledSpans()).

namespace lx::source {

/// How a catalog question ended: empty `error` when answered. The error is a sentence for a person
/// ("connection refused", "authentication failed for user reader", "no table otel.spans"), with ClickHouse's
/// own text after it when it gave one.
struct CatalogStatus {
    std::string error;
    ClickHouseResult::Outcome outcome = ClickHouseResult::Outcome::Complete;
    bool ok() const { return error.empty(); }
    bool cancelled() const { return outcome == ClickHouseResult::Outcome::Cancelled; }
};

struct ConnectionCheck : CatalogStatus {
    std::string serverVersion; ///< `SELECT version()`
};

/// Asks the server's version, then reads nothing from the endpoint's table (`LIMIT 0` of the columns a
/// pull reads), so that a wrong password, a missing database or table, or a table that is not the
/// exporter's is said before anything else is asked.
ConnectionCheck checkConnection(const ClickHouseEndpoint &endpoint, const ClickHouseRequestOptions &options = {});

struct ServiceSpans {
    std::string service;
    std::uint64_t spans = 0; ///< spans of the service starting in the window
};

struct ServiceList : CatalogStatus {
    std::vector<ServiceSpans> services; ///< sorted by name
};

/// The services that have spans starting in [window.fromNs, window.toNs), with their counts; the window's
/// own services are not a filter here (every service is listed).
ServiceList listServices(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const ClickHouseRequestOptions &options = {});

struct SpanCount : CatalogStatus {
    std::uint64_t spans = 0;  ///< the rows a pull of the window would receive
    std::uint64_t traces = 0; ///< the traces they belong to
};

/// What pullSpans() of `window` would receive: every span of the traces that have a span of the window's
/// services starting in it.
SpanCount countSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const ClickHouseRequestOptions &options = {});

} // namespace lx::source
