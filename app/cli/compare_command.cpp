// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_command.h"

#include "cli_args.h"
#include "analysis/compare.h"
#include "open_investigation.h"

namespace {

constexpr const char *kCompareUsage =
    "Usage: latency-explorer-cli compare [OPTIONS] BASELINE INCIDENT\n"
    "       latency-explorer-cli compare [OPTIONS] --baseline-range A..B --incident-range C..D FILE_OR_STORE...\n"
    "An incident against a baseline: two investigations (each a trace file or a .lxdb), or two time windows of\n"
    "one. Per-segment percentile deltas, and which segment's change explains the change in e2e (shift-share).\n"
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
    lx::RequestFilter baselineFilter, incidentFilter;
    lx::AnalysisOptions options;
    std::vector<std::string> inputs;
};

std::string parseCompareArgs(const std::vector<std::string> &arguments, CompareRequest &request, bool &help)
{
    CliArgs args(arguments);
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
        } else if (args.option("--mapping", value)) {
            request.mapping = value;
        } else if (args.option("--percentiles", value)) {
            auto list = lx::parsePercentileList(value, &why);
            if (!list)
                return "--percentiles: " + why;
            request.options.percentiles = *list;
        } else if (args.option("--baseline-range", value)) {
            if (!lx::parseTimeRange(value, request.baselineFilter, &why))
                return "--baseline-range: " + why;
            request.baselineRange = value;
        } else if (args.option("--incident-range", value)) {
            if (!lx::parseTimeRange(value, request.incidentFilter, &why))
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
        err << "compare: " << why << "\n" << kCompareUsage;
        return 1;
    }
    if (help) {
        out << kCompareUsage;
        return 0;
    }
    lx::Comparison comparison;
    bool inputFailed = false;
    if (request.baselineRange) {
        const OpenedInvestigation one = openInvestigation(request.inputs, request.mapping, "compare", err);
        if (!one.store)
            return one.exitStatus;
        inputFailed = one.inputFailed;
        comparison = lx::compareInvestigations(*one.store, request.baselineFilter, *one.store, request.incidentFilter, request.options);
    } else {
        const OpenedInvestigation baseline = openInvestigation({request.inputs[0]}, request.mapping, "compare", err);
        if (!baseline.store)
            return baseline.exitStatus;
        const OpenedInvestigation incident = openInvestigation({request.inputs[1]}, request.mapping, "compare", err);
        if (!incident.store)
            return incident.exitStatus;
        inputFailed = baseline.inputFailed || incident.inputFailed;
        comparison = lx::compareInvestigations(*baseline.store, {}, *incident.store, {}, request.options);
    }
    out << (request.json ? lx::comparisonToJson(comparison) : lx::comparisonToText(comparison));
    return inputFailed ? 2 : 0;
}
