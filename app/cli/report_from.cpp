// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_from.h"

#include "import_summary.h"
#include "interrupt_signal.h"
#include "no_request.h"
#include "source/clickhouse_pushdown.h"
#include "store/store.h"

const char *const kReportFromUsage =
    "From a trace store (docs/CLICKHOUSE.md; the password from LX_CLICKHOUSE_PASSWORD):\n"
    "  --from URL             clickhouse://HOST[:PORT]/DB?table=T: report on a window of its spans, pulled into\n"
    "                         a temporary store (with --service NAME..., --time-range A..B as the window, --user,\n"
    "                         --timeout, --max-spans as import --from)\n"
    "  --push-down            compute the figures in ClickHouse instead of pulling (with --mapping as a pull);\n"
    "                         the load buckets, knee, findings and SLOs need pulled requests\n"
    "  --approximate          with --push-down: quantilesTDigest percentiles, bounded memory, labelled approximate\n";

namespace {

/// The --time-range given to the filter, as written: with --from it is the pull's window, not a filter.
std::string takeTimeRange(FilterOptions &filter)
{
    std::string range;
    for (auto it = filter.given.begin(); it != filter.given.end();) {
        if (it->starts_with("--time-range ")) {
            range = it->substr(13);
            it = filter.given.erase(it);
        } else {
            ++it;
        }
    }
    filter.filter.fromNs = lx::kNotMeasured;
    filter.filter.toNs = lx::kNotMeasured;
    return range;
}

int pushDown(const ReportFromArgs &args, const ClickHouseSourceRequest &source, const FilterOptions &filter, const std::string &mapping,
             const lx::AnalysisOptions &options, const DiagnosisRequest &diagnosis, std::ostream &out, std::ostream &err)
{
    if (!filter.given.empty() || !filter.expressions.empty()) {
        err << "report: --push-down computes the whole window; narrow it with --service and --time-range, not with "
            << (filter.given.empty() ? std::string("--filter") : filter.given.front()) << '\n';
        return 1;
    }
    if (!diagnosis.slos.empty() || (diagnosis.format != "text" && diagnosis.format != "json")) {
        err << "report: --push-down writes the text or JSON report; SLOs and the incident report need pulled requests\n";
        return 1;
    }
    lx::source::PushDownOptions pushOptions;
    pushOptions.spanMapping = mapping;
    pushOptions.percentiles = options.percentiles;
    pushOptions.includeErrors = options.includeErrors;
    pushOptions.mode = args.approximate ? lx::source::QuantileMode::Approximate : lx::source::QuantileMode::Exact;
    pushOptions.windowNs = diagnosis.windowNs;
    pushOptions.request = source.request;
    const lx::source::PushDownResult result = lx::source::pushDownReport(source.endpoint, source.window, pushOptions);
    if (interrupted()) {
        err << "report: cancelled\n";
        return 130;
    }
    if (!result.ok()) {
        err << "report: " << result.error << '\n';
        return 2;
    }
    const std::string text = diagnosis.format == "json" ? lx::source::pushDownToJson(result) : lx::source::pushDownToText(result);
    if (diagnosis.outPath.empty()) {
        out << text;
    } else if (!writeWholeFile(diagnosis.outPath, text)) {
        err << diagnosis.outPath << ": cannot write the report\n";
        return 2;
    }
    if (result.report.total == 0) {
        err << "report: no request in the window\n";
        return 2;
    }
    return 0;
}

} // namespace

int runReportFrom(ReportFromArgs args, FilterOptions filter, const std::string &mapping, const lx::AnalysisOptions &options,
                  const DiagnosisRequest &diagnosis, std::ostream &out, std::ostream &err)
{
    args.pull.timeRange = takeTimeRange(filter);
    const std::string usage = std::string("Usage: latency-explorer-cli report --from URL --service NAME --time-range A..B [OPTIONS]\n")
                              + kReportFromUsage;
    ClickHouseSourceRequest source;
    if (const int status = checkClickHouseArgs(args.pull, "report", usage, source, err))
        return status;
    if (args.pushDown)
        return pushDown(args, source, filter, mapping, options, diagnosis, out, err);
    if (const int status = countBeforePull(source, "report", err))
        return status;
    // The temporary store `report FILE` imports into (lx::openInputs()): gone when closed.
    std::string why;
    std::unique_ptr<lx::Store> store = lx::Store::openTemporary(&why);
    if (!store) {
        err << "report: " << why << '\n';
        return 2;
    }
    const std::vector<lx::FileImport> imports{pullWithProgress(*store, source, mapping, err)};
    printImportSummary(imports, err, err, RejectionsKept::NotKept); // the pull's store is this report's own
    if (interrupted() || imports.front().outcome == lx::FileImport::Outcome::Cancelled) {
        err << "report: cancelled\n";
        return 130;
    }
    if (!anyRequestImported(imports)) {
        err << "report: " << noRequestReason({}, {}, imports) << '\n';
        return 2;
    }
    // The pull's window (--service, --time-range) chose what was read; what is left of the options filters it.
    DiagnosisRequest stated = diagnosis;
    stated.filterText = givenText(filter);
    if (const int status = writeDiagnosedReport(*store, filter.filter, options, stated, out, err))
        return status;
    return anyInputFailed(imports) ? 2 : 0;
}
