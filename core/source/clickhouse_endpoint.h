// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

/// \file clickhouse_endpoint.h
/// Where a ClickHouse trace store is: its HTTP interface, database, table and user, read from a URL that a
/// user types (docs/CLICKHOUSE.md). The password is never part of it: it comes from the environment
/// (kClickHousePasswordVariable) when a request is made, so that nothing that prints or stores an endpoint
/// can leak it.

namespace lx::source {

/// The environment variable that holds the ClickHouse password.
inline constexpr const char *kClickHousePasswordVariable = "LX_CLICKHOUSE_PASSWORD";

struct ClickHouseEndpoint {
    std::string scheme = "http"; ///< "http" or "https"
    std::string host;
    int port = 8123;
    std::string database = "default";
    std::string table = "otel_traces"; ///< the Collector exporter's default table name
    std::string user = "default";

    /// The HTTP interface's base address, "http://host:8123/": what requests go to.
    std::string httpBase() const;
    /// The endpoint as a user reads it back, without any secret: "clickhouse://host:8123/db?table=t&user=u"
    /// (https endpoints keep their scheme: "https://host:8443/db?table=t&user=u").
    std::string displayUrl() const;
};

/// Reads `url`: `clickhouse://HOST[:PORT]/[DB][?table=T&user=U]` (HTTP, port 8123 by default),
/// `http://` or `https://` (port 8123 or 8443 by default) with the database as the path or `?database=`.
/// A user in the URL (`http://user@host`) is taken; a password in it is refused, so that it never lands in
/// a shell history or an import_runs row. False with the reason in `error` when the URL cannot be read.
bool parseClickHouseUrl(std::string_view url, ClickHouseEndpoint &endpoint, std::string *error);

/// `text` percent-encoded for a URL's query string (RFC 3986 unreserved characters kept).
std::string urlEncode(std::string_view text);

} // namespace lx::source
