// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "source/clickhouse_body.h"
#include "source/clickhouse_endpoint.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// \file clickhouse_client.h
/// One query over ClickHouse's HTTP interface (libcurl), its result streamed row by row: nothing of the body
/// is held beyond the line being read. Every value from a user is a bound query parameter: the SQL names it
/// `{name:Type}` and the request carries `param_name=value`, URL-encoded, so that no value is SQL text.

namespace lx::source {

struct ClickHouseQuery {
    /// The SQL, with `{name:Type}` placeholders and without a FORMAT clause (`format` says it).
    std::string sql;
    std::vector<std::pair<std::string, std::string>> params; ///< name (without `param_`) and value as text
    std::string format = "JSONEachRow";                       ///< a format of one row per line
};

struct ClickHouseRequestOptions {
    long connectTimeoutMs = 10'000; ///< to open the connection; 0 for libcurl's default
    long totalTimeoutMs = 0;        ///< for the whole request, 0 for none (a pull may take long)
    /// Ask for a zstd-compressed body (enable_http_compression=1, Accept-Encoding: zstd), decoded as it
    /// arrives. ClickHouse may still answer uncompressed (a proxy, an old version): both are read.
    bool compress = true;
    /// The password; when empty, the environment's kClickHousePasswordVariable (none: no password sent).
    /// Held only for the request, never written anywhere.
    std::string password;
    /// Polled as bytes arrive and about every 100 ms while none do (a slow query sends none), with the bytes
    /// received so far (as they came over the network); returning false cancels.
    std::function<bool(std::uint64_t bytesReceived)> keepGoing;
};

/// Each row's text, one line of the format; returning false cancels the query.
using ClickHouseRowCallback = std::function<bool(std::string_view row)>;
/// Each progress header as it arrives, and the rows received so far; returning false cancels the query.
using ClickHouseProgressCallback = std::function<bool(const ClickHouseProgress &progress, std::uint64_t rowsReceived)>;

struct ClickHouseResult {
    enum class Outcome {
        Complete,       ///< every row received
        ServerError,    ///< ClickHouse refused or failed the query (an HTTP error status, or mid-body)
        ConnectionError,///< no connection, a TLS failure, the connection cut
        Timeout,        ///< the connect or total timeout ran out
        Cancelled,      ///< a callback returned false
        BadResponse,    ///< a body that could not be decoded
    };
    Outcome outcome = Outcome::Complete;
    long httpStatus = 0;
    int exceptionCode = 0;   ///< ClickHouse's exception code, 0 when none
    std::string message;     ///< why it is not Complete, with ClickHouse's own text when it gave one
    std::uint64_t rows = 0;  ///< rows handed to the row callback
    std::uint64_t bodyBytes = 0; ///< bytes received (compressed, as they came over the network)
    ClickHouseProgress progress; ///< the last progress header

    bool ok() const { return outcome == Outcome::Complete; }
};

/// Runs `query` against `endpoint`'s database as its user, handing each row to `onRow` as it arrives.
/// Blocks until the body ends, an error, a timeout or a cancel; safe to call from any thread.
ClickHouseResult runClickHouseQuery(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query,
                                    const ClickHouseRowCallback &onRow, const ClickHouseRequestOptions &options = {},
                                    const ClickHouseProgressCallback &onProgress = {});

/// The request's URL (query string) for `query`, without any secret: the settings and the bound
/// parameters, URL-encoded. What runClickHouseQuery() requests; exposed for the tests.
std::string clickHouseRequestUrl(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query, bool compress);

std::string_view outcomeName(ClickHouseResult::Outcome outcome);

} // namespace lx::source
