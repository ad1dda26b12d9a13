// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_command.h"

#include "cli_args.h"
#include "filter_options.h"
#include "analysis/compare.h"
#include "open_investigation.h"

namespace {

constexpr const char *kCompareUsage =
    "Usage: latency-explorer-cli compare [OPTIONS] BASELINE INCIDENT\n"
    "       latency-explorer-cli compare [OPTIONS] --baseline-range A..B --incident-range C..D FILE_OR_STORE...\n"
    "An incident against a baseline: two investigations (each a trace file or a .lxdb), or two time windows of\n"
    "one. Per-segment percentile deltas, and which segment's change explains the change in e2e (shift-share).\n"
    "The filter options select the requests of both sides alike.\n"
    "\n"
    "  --json                  machine-readable output (milliseconds as numbers)\n"
    "  --baseline-range FROM..TO  the baseline's request starts (ns since the epoch or ISO-8601 UTC)\n"
    "  --incident-range FROM..TO  the incident's\n"
    "  --percentiles LIST      e.g. 50,90,99 (default 50,90,95,99,99.9)\n"
    "  --include-errors        latency statistics over error requests too\n"
    "  --mapping NAME|FILE     how OTLP spans become requests (see 'import --help')\n";

struct CompareRequest {
    bool json = false;
    std::string mapping;
    std::optional<std::string> baselineRange, incidentRange;
    lx::RequestFilter baselineWindow, incidentWindow; ///< the ranges' request starts
    FilterOptions filter; ///< --filter and its shorthands, for both sides
    lx::AnalysisOptions options;
    std::vector<std::string> inputs;
};

std::string parseCompareArgs(const std::vector<std::string> &arguments, CompareRequest &request, bool &help)
{
    CliArgs args(arguments);
    request.filter.allowTimeRange = false; // the windows are the ranges
    while (!args.atEnd()) {
        std::string value, why;
        if (args.flag("--help") || args.flag("-h")) {
            help = true;
            return {};
        }
        if (args.flag("--json")) {
            request.json = true;
        } else if (args.flag("--include-errors")) {
            request.options.includeErrors = true;
        } else if (args.single("--mapping", value)) {
            request.mapping = value;
        } else if (args.option("--percentiles", value)) {
            auto list = lx::parsePercentileList(value, &why);
            if (!list)
                return "--percentiles: " + why;
            request.options.percentiles = *list;
        } else if (parseFilterOption(args, request.filter, why)) {
            if (!why.empty())
                return why;
        } else if (args.option("--baseline-range", value)) {
            if (!lx::parseTimeRange(value, request.baselineWindow, &why))
                return "--baseline-range: " + why;
            request.baselineRange = value;
        } else if (args.option("--incident-range", value)) {
            if (!lx::parseTimeRange(value, request.incidentWindow, &why))
                return "--incident-range: " + why;
            request.incidentRange = value;
        } else if (args.positional(value)) {
            request.inputs.push_back(value);
        } else {
            return args.error().empty() ? "unknown option '" + args.current() + "'" : args.error();
        }
    }
    if (request.baselineRange.has_value() != request.incidentRange.has_value())
        return "give both --baseline-range and --incident-range, or neither";
    if (request.baselineRange && request.inputs.empty())
        return "no input: give trace files or .lxdb stores";
    if (!request.baselineRange && request.inputs.size() != 2)
        return "give two inputs, BASELINE and INCIDENT (or one investigation with --baseline-range and --incident-range)";
    return {};
}

} // namespace

int runCompareCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CompareRequest request;
    bool help = false;
    if (const std::string why = parseCompareArgs(arguments, request, help); !why.empty()) {
        err << "compare: " << why << "\n" << kCompareUsage << filterUsage(false);
        return 1;
    }
    if (help) {
        out << kCompareUsage << filterUsage(false);
        return 0;
    }
    if (!compileFilterOptions(request.filter, "compare", err))
        return 2;
    const lx::RequestFilter baselineFilter = withinWindow(request.filter, request.baselineWindow);
    const lx::RequestFilter incidentFilter = withinWindow(request.filter, request.incidentWindow);
    lx::Comparison comparison;
    bool inputFailed = false;
    if (request.baselineRange) {
        const OpenedInvestigation one = openInvestigation(request.inputs, request.mapping, "compare", err);
        if (!one.store)
            return one.exitStatus;
        inputFailed = one.inputFailed;
        comparison = lx::compareInvestigations(*one.store, baselineFilter, *one.store, incidentFilter, request.options);
    } else {
        const OpenedInvestigation baseline = openInvestigation({request.inputs[0]}, request.mapping, "compare", err);
        if (!baseline.store)
            return baseline.exitStatus;
        const OpenedInvestigation incident = openInvestigation({request.inputs[1]}, request.mapping, "compare", err);
        if (!incident.store)
            return incident.exitStatus;
        inputFailed = baseline.inputFailed || incident.inputFailed;
        comparison = lx::compareInvestigations(*baseline.store, baselineFilter, *incident.store, incidentFilter, request.options);
    }
    // A side of no request compares nothing: the reason alone, as a report of no request says only why.
    if (comparison.baseline.total == 0 || comparison.incident.total == 0) {
        for (const std::string &caution : lx::comparisonCautions(comparison))
            err << "compare: " << caution << '\n';
        return 2;
    }
    out << (request.json ? lx::comparisonToJson(comparison) : lx::comparisonToText(comparison));
    return inputFailed ? 2 : 0;
}
