// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "source/clickhouse_client.h"
#include "source/otel_traces_rows.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

class CliArgs;

namespace lx {
class Store;
struct FileImport;
}

/// \file clickhouse_import.h
/// `latency-explorer-cli import --from clickhouse://...`: a window of spans pulled from a ClickHouse
/// `otel_traces` table into a store (core/source/clickhouse_pull.h, docs/CLICKHOUSE.md); and the parts
/// `report --from` shares with it: the options, their checks, the count before a pull and the pull itself.

/// The options of a pull, as given on the command line.
struct ClickHouseImportArgs {
    std::string db;
    std::string from;                  ///< the URL (no password: LX_CLICKHOUSE_PASSWORD)
    std::vector<std::string> services; ///< --service, repeatable
    std::string timeRange;             ///< A..B, both sides required
    std::string user;                  ///< --user, over the URL's
    std::string mapping;
    std::string timeoutSeconds;        ///< --timeout: the whole pull; empty for none
    std::string maxSpans;              ///< --max-spans: refuse a pull of more; empty for the default

    /// Any option but --from given (they all go with it).
    bool anyWindowOption() const
    {
        return !services.empty() || !timeRange.empty() || !user.empty() || !timeoutSeconds.empty() || !maxSpans.empty();
    }
};

/// Consumes --from, --service, --user, --timeout or --max-spans when it is next (and --time-range with
/// `withTimeRange`: report reads it as its filter's); `error` says why a value is wrong.
bool parseClickHouseOption(CliArgs &args, ClickHouseImportArgs &pull, bool withTimeRange, std::string &error);

/// A pull's options checked: where, which window, how long, how many spans at most.
struct ClickHouseSourceRequest {
    lx::source::ClickHouseEndpoint endpoint;
    lx::source::SpanWindow window;
    lx::source::ClickHouseRequestOptions request;
    std::uint64_t maxSpans = 0;
    std::uint64_t countedSpans = 0; ///< what countBeforePull() counted: the progress's total (0: not counted)
};

/// Checks the options; 0 with `source` filled, else 1 after saying why (under `command`, with `usage`).
int checkClickHouseArgs(const ClickHouseImportArgs &args, const char *command, const std::string &usage,
                        ClickHouseSourceRequest &source, std::ostream &err);

/// The count before a pull: 0 when the window holds at most maxSpans spans, else 2 after saying how many
/// and pointing at `report --from ... --push-down` (or after the count's own failure). The count is kept in
/// source.countedSpans, for the progress line's share and time left.
int countBeforePull(ClickHouseSourceRequest &source, const char *command, std::ostream &err);

/// Pulls the window into `store` with `mapping`, a progress line on a terminal and Ctrl-C to cancel.
lx::FileImport pullWithProgress(lx::Store &store, const ClickHouseSourceRequest &source, const std::string &mapping, std::ostream &err);

/// The pull's synopsis, two lines indented under import's "Usage: " line.
extern const char *const kClickHouseImportSynopsis;
/// What a pull does, and its options.
extern const char *const kClickHouseImportUsage;

/// Pulls, prints the same per-input summary as a file import and returns the exit status (0, 1 usage,
/// 2 the pull failed or gave no request, 130 cancelled with Ctrl-C).
int runClickHouseImport(const ClickHouseImportArgs &args, std::ostream &out, std::ostream &err);
