// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_command.h"

#include "analysis/analysis.h"
#include "cli_args.h"
#include "filter_options.h"
#include "import_summary.h"
#include "open_investigation.h"
#include "report_diagnosis.h"
#include "report_from.h"
#include "report/report_format.h"
#include "store/store.h"
#include "store/store_merge.h"
#include "terminal_progress.h"

namespace {

constexpr const char *kReportUsage =
    "Usage: latency-explorer-cli report [OPTIONS] FILE_OR_STORE...\n"
    "       latency-explorer-cli report [OPTIONS] --from URL --service NAME --time-range A..B [--push-down [--approximate]]\n"
    "Trace files are imported into a temporary store; .lxdb investigations are read as they are.\n"
    "Several inputs form one investigation.\n"
    "\n"
    "  --json                 machine-readable output (milliseconds as numbers)\n"
    "  --percentiles LIST     e.g. 50,90,99,99.9 (default 50,90,95,99,99.9)\n"
    "  --include-errors       latency statistics over error requests too\n";

struct ReportRequest {
    bool json = false;
    std::string mapping; ///< --mapping, for the trace files imported
    FilterOptions filter; ///< --filter and its shorthands
    lx::AnalysisOptions options;
    DiagnosisRequest diagnosis; ///< load, findings, SLOs, output form
    std::vector<std::string> inputs;
    ReportFromArgs from; ///< --from and its options: a window of a trace store instead of inputs
};

/// Parses the options; returns an error message, empty when all is well.
std::string parseReportArgs(const std::vector<std::string> &arguments, ReportRequest &request, bool &help)
{
    CliArgs args(arguments);
    while (!args.atEnd()) {
        std::string value;
        std::string why;
        if (args.flag("--help") || args.flag("-h")) {
            help = true;
            return {};
        }
        if (args.flag("--json")) {
            if (std::string refused = chooseFormat(request.diagnosis, "json"); !refused.empty())
                return refused;
            request.json = true;
        } else if (args.flag("--include-errors")) {
            request.options.includeErrors = true;
        } else if (args.option("--percentiles", value)) {
            auto list = lx::parsePercentileList(value, &why);
            if (!list)
                return "--percentiles: " + why;
            request.options.percentiles = *list;
        } else if (parseClickHouseOption(args, request.from.pull, false, why)) {
            if (!why.empty())
                return why;
        } else if (args.flag("--push-down")) {
            request.from.pushDown = true;
        } else if (args.flag("--approximate")) {
            request.from.approximate = true;
        } else if (parseFilterOption(args, request.filter, why)) {
            if (!why.empty())
                return why;
        } else if (args.single("--mapping", value)) {
            request.mapping = value;
        } else if (parseDiagnosisOption(args, request.diagnosis, why)) {
            if (!why.empty())
                return why;
        } else if (args.positional(value)) {
            request.inputs.push_back(value);
        } else {
            return args.error().empty() ? "unknown option '" + args.current() + "'" : args.error();
        }
    }
    const ReportFromArgs &from = request.from;
    if (!from.pull.from.empty() && !request.inputs.empty())
        return "--from reports on a trace store: give no files with it";
    if (from.pull.from.empty() && (from.pull.anyWindowOption() || from.pushDown))
        return from.pushDown ? "--push-down goes with --from" : "--service, --user, --timeout and --max-spans go with --from";
    if (from.approximate && !from.pushDown)
        return "--approximate goes with --push-down";
    if (request.inputs.empty() && from.pull.from.empty())
        return "no input: give trace files or .lxdb stores";
    return settleOutput(request.diagnosis, request.inputs);
}

} // namespace

int runReportCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    ReportRequest request;
    bool help = false;
    if (const std::string why = parseReportArgs(arguments, request, help); !why.empty()) {
        err << "report: " << why << "\n" << kReportUsage << filterUsage(true) << kDiagnosisUsage << kSpanMappingUsage << kReportFromUsage;
        return 1;
    }
    if (help) {
        out << kReportUsage << filterUsage(true) << kDiagnosisUsage << kSpanMappingUsage << kReportFromUsage;
        return 0;
    }
    if (const std::string why = checkSpanMapping(request.mapping); !why.empty()) {
        err << "report: " << why << '\n';
        return 2;
    }
    if (!compileFilterOptions(request.filter, "report", err))
        return 2;
    if (!request.from.pull.from.empty())
        return runReportFrom(request.from, request.filter, request.mapping, request.options, request.diagnosis, out, err);
    request.diagnosis.filterText = givenText(request.filter);

    // A store read as it is gets its integrity check beside the report (it took as long as the report on a
    // million requests); nothing is written before it says the file is sound.
    // Trace files go into a store that this report alone reads, so it keeps only what the report reads: the
    // details of a request (source id, raw stamps, attributes) where the join needs them or a filter
    // expression may ask for an attribute (a third of an import); and, with no filter at all and no figures
    // to draw, the requests of one file in memory instead of in the table (most of the rest).
    const lx::RequestFilter &filter = request.filter.filter;
    const bool unfiltered = filter.empty();
    ThrowAwayStore throwAway;
    throwAway.detailRows = filter.expression ? lx::DetailRows::All : lx::DetailRows::JoinCandidates;
    throwAway.holdRows = unfiltered && request.diagnosis.format != "md" && request.diagnosis.format != "html";
    throwAway.rewriteColumnChunks = false; // after a join, its one report reads the rows rather than write them again
    const OpenedInvestigation opened = openInvestigation(request.inputs, request.mapping, "report", err, true, throwAway);
    if (!opened.store)
        return opened.exitStatus;
    request.diagnosis.unmerged = opened.unmerged;
    if (const int status = writeDiagnosedReport(*opened.store, request.filter.filter, request.options, request.diagnosis, out, err,
                                                [&opened, &err] { return opened.sound(err); }))
        return status;
    return opened.inputFailed ? 2 : 0;
}
