// SPDX-License-Identifier: GPL-3.0-or-later
#include "clickhouse_import.h"

#include "cli_args.h"
#include "console.h"
#include "filter/request_filter.h"
#include "import_summary.h"
#include "interrupt_signal.h"
#include "model/request.h"
#include "no_request.h"
#include "source/clickhouse_pull.h"
#include "store/store.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

const char *const kClickHouseImportSynopsis =
    "       latency-explorer-cli import --db OUT.lxdb --from clickhouse://HOST:8123/DB?table=otel_traces\n"
    "           --service NAME [--service NAME...] --time-range A..B [--user U] [--timeout SECONDS] [--mapping M]\n";

const char *const kClickHouseImportUsage =
    "With --from, pulls from the OpenTelemetry Collector's ClickHouse table the traces that have a span of\n"
    "the services starting in the range (A and B: ns since the epoch or ISO-8601 UTC), with all their spans,\n"
    "and maps them as OTLP spans. The password is read from LX_CLICKHOUSE_PASSWORD, never from the URL\n"
    "(docs/CLICKHOUSE.md).\n"
    "  --from URL             clickhouse://HOST[:PORT]/DB?table=T (HTTP), http:// or https://\n"
    "  --service NAME         a ServiceName to pull (repeatable)\n"
    "  --time-range A..B      the window of the spans' start\n"
    "  --user U               the ClickHouse user (default: the URL's, else default)\n"
    "  --timeout SECONDS      give up after this long (default: no limit; connecting: 10 s)\n";

namespace {

/// A progress line of the pull on a terminal (ten times a second at most); false once Ctrl-C was pressed.
lx::source::PullProgressCallback pullProgress(std::ostream &err)
{
    const bool drawing = stderrIsTerminal();
    auto lastDraw = std::make_shared<std::chrono::steady_clock::time_point>();
    return [&err, drawing, lastDraw](const lx::source::PullProgress &progress) {
        if (drawing) {
            const auto now = std::chrono::steady_clock::now();
            if (now - *lastDraw >= std::chrono::milliseconds(100)) {
                *lastDraw = now;
                char line[200];
                std::snprintf(line, sizeof line,
                              "\rpulling: %llu spans received, %lld requests; ClickHouse read %llu%s%s rows  (Ctrl-C cancels)\033[K",
                              static_cast<unsigned long long>(progress.rowsReceived), static_cast<long long>(progress.records),
                              static_cast<unsigned long long>(progress.server.readRows),
                              progress.server.totalRowsToRead ? " of " : "",
                              progress.server.totalRowsToRead ? std::to_string(progress.server.totalRowsToRead).c_str() : "");
                err << line << std::flush;
            }
        }
        return !interrupted();
    };
}

} // namespace

int runClickHouseImport(const ClickHouseImportArgs &args, std::ostream &out, std::ostream &err)
{
    const std::string usage = std::string("Usage: ") + (kClickHouseImportSynopsis + 7) + kClickHouseImportUsage + kSpanMappingUsage;
    lx::source::ClickHouseEndpoint endpoint;
    std::string why;
    if (!lx::source::parseClickHouseUrl(args.from, endpoint, &why)) {
        err << "import: " << why << '\n';
        return 1;
    }
    if (!args.user.empty())
        endpoint.user = args.user;
    lx::RequestFilter range;
    if (args.timeRange.empty() || !lx::parseTimeRange(args.timeRange, range, &why) || !lx::isMeasured(range.fromNs)
        || !lx::isMeasured(range.toNs)) {
        err << "import: " << (args.timeRange.empty() || why.empty() ? "--time-range A..B (both sides) is required with --from" : why)
            << '\n' << usage;
        return 1;
    }
    if (range.toNs <= range.fromNs) {
        err << "import: the time range " << args.timeRange << " is empty (its end is not after its start)\n";
        return 1;
    }
    if (args.services.empty()) {
        err << "import: --service NAME is required with --from\n" << usage;
        return 1;
    }
    lx::source::PullOptions options;
    if (!args.timeoutSeconds.empty()) {
        const auto seconds = parseNumber<double>(args.timeoutSeconds);
        if (!seconds || !(*seconds > 0) || *seconds > 1e6) {
            err << "import: --timeout takes a number of seconds above 0\n";
            return 1;
        }
        options.request.totalTimeoutMs = static_cast<long>(std::ceil(*seconds * 1000));
    }
    if (const std::string bad = checkSpanMapping(args.mapping); !bad.empty()) {
        err << "import: " << bad << '\n';
        return 2;
    }
    std::unique_ptr<lx::Store> store = lx::Store::open(args.db, &why);
    if (!store) {
        err << args.db << ": " << why << '\n';
        return 2;
    }
    catchInterrupt();
    options.spanMapping = args.mapping;
    options.progress = pullProgress(err);
    lx::source::SpanWindow window;
    window.services = args.services;
    window.fromNs = range.fromNs;
    window.toNs = range.toNs;
    const std::vector<lx::FileImport> imports{lx::source::pullSpans(*store, endpoint, window, options)};
    if (stderrIsTerminal())
        err << "\r\033[K" << std::flush;
    printImportSummary(imports, out, err);
    if (interrupted() || imports.front().outcome == lx::FileImport::Outcome::Cancelled) {
        err << "import: cancelled; nothing of the pull was kept in " << args.db << '\n';
        return 130;
    }
    if (!anyRequestImported(imports)) {
        err << "import: " << noRequestReason({}, {}, imports) << '\n';
        return 2;
    }
    return anyInputFailed(imports) ? 2 : 0;
}
