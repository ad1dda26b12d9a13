// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// \file clickhouse_import.h
/// `latency-explorer-cli import --from clickhouse://...`: a window of spans pulled from a ClickHouse
/// `otel_traces` table into a store (core/source/clickhouse_pull.h, docs/CLICKHOUSE.md).

/// The options of a pull, as given on the command line.
struct ClickHouseImportArgs {
    std::string db;
    std::string from;                  ///< the URL (no password: LX_CLICKHOUSE_PASSWORD)
    std::vector<std::string> services; ///< --service, repeatable
    std::string timeRange;             ///< A..B, both sides required
    std::string user;                  ///< --user, over the URL's
    std::string mapping;
    std::string timeoutSeconds;        ///< --timeout: the whole pull; empty for none
};

/// The pull's synopsis, two lines indented under import's "Usage: " line.
extern const char *const kClickHouseImportSynopsis;
/// What a pull does, and its options.
extern const char *const kClickHouseImportUsage;

/// Pulls, prints the same per-input summary as a file import and returns the exit status (0, 1 usage,
/// 2 the pull failed or gave no request, 130 cancelled with Ctrl-C).
int runClickHouseImport(const ClickHouseImportArgs &args, std::ostream &out, std::ostream &err);
