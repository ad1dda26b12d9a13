// SPDX-License-Identifier: GPL-3.0-or-later
#include "clickhouse_import.h"

#include "cli_args.h"
#include "console.h"
#include "filter/request_filter.h"
#include "import_summary.h"
#include "interrupt_signal.h"
#include "model/duration_format.h"
#include "model/request.h"
#include "no_request.h"
#include "source/clickhouse_pull.h"
#include "source/clickhouse_catalog.h"
#include "source/clickhouse_pushdown.h"
#include "store/store.h"

#include <chrono>
#include <cmath>
#include <algorithm>
#include <memory>

const char *const kClickHouseImportSynopsis =
    "       latency-explorer-cli import --db OUT.lxdb --from clickhouse://HOST:8123/DB?table=otel_traces\n"
    "           --service NAME [--service NAME...] --time-range A..B [--user U] [--timeout SECONDS] [--max-spans N]\n"
    "           [--mapping M]\n";

const char *const kClickHouseImportUsage =
    "With --from, pulls from the OpenTelemetry Collector's ClickHouse table the traces that have a span of\n"
    "the services starting in the range (A and B: ns since the epoch or ISO-8601 UTC), with all their spans,\n"
    "and maps them as OTLP spans. The password is read from LX_CLICKHOUSE_PASSWORD, never from the URL\n"
    "(docs/CLICKHOUSE.md).\n"
    "  --from URL             clickhouse://HOST[:PORT]/DB?table=T (HTTP), http:// or https://\n"
    "  --service NAME         a ServiceName to pull (repeatable)\n"
    "  --time-range A..B      the window of the spans' start\n"
    "  --user U               the ClickHouse user (default: the URL's, else default)\n"
    "  --timeout SECONDS      give up after this long (default: no limit; connecting: 10 s)\n"
    "  --max-spans N          count first, and refuse a window of more spans (default 5,000,000; 0: no limit):\n"
    "                         report --from ... --push-down computes such a window's figures in ClickHouse\n";

namespace {

/// A progress line of the pull on a terminal (ten times a second at most); false once Ctrl-C was pressed.
/// "2 min 10 s left" from the spans received of those counted, at the pace so far; empty until it means something.
std::string timeLeft(std::uint64_t received, std::uint64_t total, std::chrono::steady_clock::duration elapsed)
{
    if (total == 0 || received == 0 || received >= total || elapsed < std::chrono::seconds(1))
        return {};
    const double ns = std::chrono::duration<double, std::nano>(elapsed).count();
    return ", about " + lx::formatDuration(ns * static_cast<double>(total - received) / static_cast<double>(received)) + " left";
}

lx::source::PullProgressCallback pullProgress(std::ostream &err, std::uint64_t countedSpans)
{
    const bool drawing = stderrIsTerminal();
    const auto started = std::chrono::steady_clock::now();
    auto lastDraw = std::make_shared<std::chrono::steady_clock::time_point>();
    return [&err, drawing, lastDraw, started, countedSpans](const lx::source::PullProgress &progress) {
        if (drawing) {
            const auto now = std::chrono::steady_clock::now();
            if (now - *lastDraw >= std::chrono::milliseconds(100)) {
                *lastDraw = now;
                // The count before the pull is what the rows received are a share of; without one, ClickHouse's
                // own progress header says how far its read has come.
                std::string line = "\rpulling: " + std::to_string(progress.rowsReceived);
                if (countedSpans > 0)
                    line += " of " + std::to_string(countedSpans) + " spans ("
                            + std::to_string(std::min<std::uint64_t>(100, progress.rowsReceived * 100 / countedSpans)) + "%"
                            + timeLeft(progress.rowsReceived, countedSpans, now - started) + ")";
                else
                    line += " spans received";
                line += ", " + std::to_string(progress.records) + " requests; ClickHouse read "
                        + std::to_string(progress.server.readRows)
                        + (progress.server.totalRowsToRead ? " of " + std::to_string(progress.server.totalRowsToRead) : "")
                        + " rows  (Ctrl-C cancels)\033[K";
                err << line << std::flush;
            }
        }
        return !interrupted();
    };
}

} // namespace

bool parseClickHouseOption(CliArgs &args, ClickHouseImportArgs &pull, bool withTimeRange, std::string &error)
{
    std::string value;
    if (args.option("--from", value))
        pull.from = value;
    else if (args.option("--service", value))
        pull.services.push_back(value);
    else if (withTimeRange && args.option("--time-range", value))
        pull.timeRange = value;
    else if (args.option("--user", value))
        pull.user = value;
    else if (args.option("--timeout", value))
        pull.timeoutSeconds = value;
    else if (args.option("--max-spans", value))
        pull.maxSpans = value;
    else
        return false;
    if (!args.error().empty())
        error = args.error();
    return true;
}

int checkClickHouseArgs(const ClickHouseImportArgs &args, const char *command, const std::string &usage,
                        ClickHouseSourceRequest &source, std::ostream &err)
{
    std::string why;
    if (!lx::source::parseClickHouseUrl(args.from, source.endpoint, &why)) {
        err << command << ": " << why << '\n';
        return 1;
    }
    if (!args.user.empty())
        source.endpoint.user = args.user;
    lx::RequestFilter range;
    if (args.timeRange.empty() || !lx::parseTimeRange(args.timeRange, range, &why) || !lx::isMeasured(range.fromNs)
        || !lx::isMeasured(range.toNs)) {
        err << command << ": " << (args.timeRange.empty() || why.empty() ? "--time-range A..B (both sides) is required with --from" : why)
            << '\n' << usage;
        return 1;
    }
    if (args.services.empty()) {
        err << command << ": --service NAME is required with --from\n" << usage;
        return 1;
    }
    if (!args.timeoutSeconds.empty()) {
        const auto seconds = parseNumber<double>(args.timeoutSeconds);
        if (!seconds || !(*seconds > 0) || *seconds > 1e6) {
            err << command << ": --timeout takes a number of seconds above 0\n";
            return 1;
        }
        source.request.totalTimeoutMs = static_cast<long>(std::ceil(*seconds * 1000));
    }
    source.maxSpans = lx::source::kDefaultMaxPulledSpans;
    if (!args.maxSpans.empty()) {
        const auto most = parseNumber<std::uint64_t>(args.maxSpans);
        if (!most) {
            err << command << ": --max-spans takes a whole number of spans (0: no limit)\n";
            return 1;
        }
        source.maxSpans = *most;
    }
    source.window.services = args.services;
    source.window.fromNs = range.fromNs;
    source.window.toNs = range.toNs;
    // Ctrl-C stops every question of the command (the count, a pull, a push-down's queries) and, through
    // cancel_http_readonly_queries_on_client_close, the query on the server too.
    catchInterrupt();
    source.request.keepGoing = [](std::uint64_t) { return !interrupted(); };
    return 0;
}

int countBeforePull(ClickHouseSourceRequest &source, const char *command, std::ostream &err)
{
    if (source.maxSpans == 0)
        return 0;
    const lx::source::SpanCount count = lx::source::countSpans(source.endpoint, source.window, source.request);
    if (!count.ok()) {
        err << command << ": cannot count the window's spans: " << count.error << '\n';
        return count.cancelled() ? 130 : 2;
    }
    source.countedSpans = count.spans;
    if (count.spans <= source.maxSpans)
        return 0;
    err << command << ": the window holds " << count.spans << " spans, more than --max-spans " << source.maxSpans
        << " allows to pull: narrow --time-range or --service, raise --max-spans, or compute the report in ClickHouse with "
           "report --from ... --push-down (docs/CLICKHOUSE.md)\n";
    return 2;
}

lx::FileImport pullWithProgress(lx::Store &store, const ClickHouseSourceRequest &source, const std::string &mapping, std::ostream &err)
{
    lx::source::PullOptions options;
    options.request = source.request;
    options.spanMapping = mapping;
    options.progress = pullProgress(err, source.countedSpans);
    lx::FileImport pulled = lx::source::pullSpans(store, source.endpoint, source.window, options);
    if (stderrIsTerminal())
        err << "\r\033[K" << std::flush;
    return pulled;
}

int runClickHouseImport(const ClickHouseImportArgs &args, std::ostream &out, std::ostream &err)
{
    const std::string usage = std::string("Usage: ") + (kClickHouseImportSynopsis + 7) + kClickHouseImportUsage + kSpanMappingUsage;
    ClickHouseSourceRequest source;
    if (const int status = checkClickHouseArgs(args, "import", usage, source, err))
        return status;
    if (const std::string bad = checkSpanMapping(args.mapping); !bad.empty()) {
        err << "import: " << bad << '\n';
        return 2;
    }
    if (const int status = countBeforePull(source, "import", err))
        return status;
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openWritable(args.db, &why);
    if (!store) {
        err << args.db << ": " << why << '\n';
        return 2;
    }
    const std::vector<lx::FileImport> imports{pullWithProgress(*store, source, args.mapping, err)};
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
