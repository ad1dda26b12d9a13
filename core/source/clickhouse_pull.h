// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"
#include "source/clickhouse_client.h"
#include "source/otel_traces_rows.h"

#include <cstdint>
#include <functional>
#include <string>

/// \file clickhouse_pull.h
/// A window of spans pulled from a ClickHouse `otel_traces` table into a store (docs/CLICKHOUSE.md): the
/// rows become OTLP spans and go through the same span mappings as an OTLP file, into the store through
/// the same import (importStream()): one transaction, an import_runs row, the rejections with their reasons.

namespace lx::source {

/// Where a pull stands.
struct PullProgress {
    std::uint64_t rowsReceived = 0;  ///< spans received from ClickHouse
    std::uint64_t bytesReceived = 0; ///< bytes over the network (compressed)
    std::int64_t records = 0;        ///< requests accepted and rejected so far
    /// What ClickHouse's progress header said last: rows read by the query, and (0 when unknown) the rows
    /// it has to read. It reads more rows than it sends: the spans of the window are a part of the table.
    ClickHouseProgress server;
};

/// Called from the pulling thread as rows arrive (and about ten times a second while none do); false cancels.
using PullProgressCallback = std::function<bool(const PullProgress &progress)>;

struct PullOptions {
    std::string spanMapping; ///< as ImportOptions::spanMapping: auto, a preset or a mapping file
    ClickHouseRequestOptions request;
    PullProgressCallback progress;
    std::size_t rejectionSamples = 5;
};

/// What the import_runs row and the summary call a pull: the URL without any secret, the services and
/// the window, "clickhouse://h:8123/otel?table=otel_traces&user=default services=vllm 1700000000000000000..1700000060000000000".
std::string pullLabel(const ClickHouseEndpoint &endpoint, const SpanWindow &window);

/// Pulls the window's traces (otelTracesQuery()) into `store`. The FileImport says what happened as for a
/// file (its path is pullLabel(), its format "clickhouse-otel_traces"); a ClickHouse error, a lost
/// connection, a timeout or a cancel leaves nothing of the pull in the store (its import_runs row says why).
FileImport pullSpans(Store &store, const ClickHouseEndpoint &endpoint, const SpanWindow &window, const PullOptions &options = {});

} // namespace lx::source
