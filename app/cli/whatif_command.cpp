// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif_command.h"

#include "report_diagnosis.h"

#include "cli_args.h"
#include "filter_options.h"
#include "open_investigation.h"
#include "store/store.h"
#include "whatif/whatif_text.h"

#include <charconv>
#include <filesystem>
#include <locale>
#include <optional>
#include <sstream>

namespace {

constexpr const char *kWhatIfUsage =
    "Usage: latency-explorer-cli whatif [OPTIONS] STORE_OR_FILE...\n"
    "Fits a server model to the investigation (concurrency limit, prefill per input token, time per output\n"
    "token per request in the batch, the observed network, preprocess and postprocess), replays its arrivals\n"
    "through it with the changes and prints the observed and predicted decomposition side by side\n"
    "(docs/WHATIF.md). Without a change it replays the trace as it was: the model's own error.\n"
    "\n"
    "  --replicas K            K replicas of the server, each with the concurrency limit (1-10000; default 1)\n"
    "  --router rr|least-loaded  how requests are spread over the replicas (default rr: round robin)\n"
    "  --arrivals xF|FILE      the observed arrivals times F (0 < F <= 100: thinned below 1, duplicated above),\n"
    "                          or the arrivals of a workload file (Azure LLM inference CSV, Mooncake JSONL, or\n"
    "                          any trace with input and output token counts)\n"
    "  --max-concurrency N     requests in service at once per replica (default: the fitted limit)\n"
    "  --cap-input-tokens N    prompts cut to at most N tokens\n"
    "  --postprocess-speedup F postprocess F times as fast (0.001 <= F <= 1000000)\n"
    "  --seed S                random seed, an unsigned 64-bit integer (default 42)\n"
    "  --slo TARGET            e.g. \"e2e.p95<=2s\", evaluated on both sides (repeatable)\n"
    "  --json                  machine-readable output (milliseconds as numbers)\n"
    "  --out FILE.lxdb         keep the simulated investigation there (a new file; flagged simulated)\n";
constexpr const char *kFilterHeading =
    "\nThe observed requests the model is fitted to, whose arrivals are replayed (default: all of them):\n";


struct WhatIfArgs {
    lx::whatif::ReplayChanges changes;
    std::string arrivalsFile;
    std::vector<std::string> slos;
    std::vector<std::string> inputs;
    std::string outPath;
    FilterOptions filter; ///< the observed requests fitted and replayed
    bool json = false;
    bool help = false;
};

std::string parseWhatIfArgs(const std::vector<std::string> &arguments, WhatIfArgs &a)
{
    CliArgs args(arguments);
    while (!args.atEnd()) {
        std::string value;
        if (args.flag("--help") || args.flag("-h")) {
            a.help = true;
            return {};
        }
        if (args.flag("--json")) {
            a.json = true;
        } else if (args.option("--replicas", value)) {
            const auto n = parseNumber<int>(value);
            if (!n || *n < 1 || *n > lx::whatif::kMaxReplicas)
                return "--replicas needs a whole number from 1 to " + std::to_string(lx::whatif::kMaxReplicas) + ", got '" + value + "'";
            a.changes.replicas = *n;
        } else if (args.option("--router", value)) {
            if (value == "rr" || value == "round-robin")
                a.changes.router = lx::whatif::Router::RoundRobin;
            else if (value == "least-loaded")
                a.changes.router = lx::whatif::Router::LeastLoaded;
            else
                return "--router needs rr or least-loaded, got '" + value + "'";
        } else if (args.option("--arrivals", value)) {
            if (value.size() > 1 && (value[0] == 'x' || value[0] == 'X') && parseNumber<double>(value.substr(1))) {
                const double f = *parseNumber<double>(value.substr(1));
                if (!(f > 0) || f > lx::whatif::kMaxArrivalFactor)
                    return "--arrivals x" + value.substr(1) + ": the factor must be above 0 and at most 100";
                a.changes.arrivalFactor = f;
            } else if (value.empty()) {
                return "--arrivals needs xF (e.g. x1.5) or a workload file";
            } else {
                a.arrivalsFile = value;
            }
        } else if (args.option("--max-concurrency", value)) {
            const auto n = parseNumber<int>(value);
            if (!n || *n < 1 || *n > 1'000'000)
                return "--max-concurrency needs a whole number from 1 to 1000000, got '" + value + "'";
            a.changes.concurrencyLimit = *n;
        } else if (args.option("--cap-input-tokens", value)) {
            const auto n = parseNumber<std::int64_t>(value);
            if (!n || *n < 1)
                return "--cap-input-tokens needs a positive number of tokens, got '" + value + "'";
            a.changes.inputTokenCap = *n;
        } else if (args.option("--postprocess-speedup", value)) {
            const auto f = parseNumber<double>(value);
            if (!f || !(*f >= lx::whatif::kMinPostprocessSpeedup) || *f > lx::whatif::kMaxPostprocessSpeedup)
                return "--postprocess-speedup needs a factor from 0.001 to 1000000, got '" + value + "'";
            a.changes.postprocessSpeedup = *f;
        } else if (args.option("--seed", value)) {
            const auto s = parseNumber<std::uint64_t>(value);
            if (!s)
                return "--seed needs an unsigned 64-bit integer, got '" + value + "'";
            a.changes.seed = *s;
        } else if (args.option("--slo", value)) {
            a.slos.push_back(value);
        } else if (args.single("--out", value)) {
            a.outPath = value;
        } else if (std::string why; parseFilterOption(args, a.filter, why)) {
            if (!why.empty())
                return why;
        } else if (args.positional(value)) {
            a.inputs.push_back(value);
        } else {
            return args.error().empty() ? "unknown option '" + args.current() + "'" : args.error();
        }
    }
    if (a.inputs.empty())
        return "no input: give the observed investigation (a .lxdb store or trace files)";
    // `whatif --json --out w.json` wrote a store named w.json and printed the JSON: --out is not the report's.
    if (const std::string suffix = lowerSuffix(a.outPath); !a.outPath.empty() && suffix != "lxdb")
        return "--out " + a.outPath
            + ": whatif writes the simulated investigation there, a store: name it .lxdb "
              "(the prediction itself goes to standard output; redirect it to keep it)";
    return {};
}

} // namespace

int runWhatIfCommand(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    WhatIfArgs a;
    if (const std::string why = parseWhatIfArgs(arguments, a); !why.empty()) {
        err << "whatif: " << why << "\n" << kWhatIfUsage << kFilterHeading << filterUsage(true);
        return 1;
    }
    if (a.help) {
        out << kWhatIfUsage << kFilterHeading << filterUsage(true);
        return 0;
    }
    if (!compileFilterOptions(a.filter, "whatif", err))
        return 2;
    lx::whatif::WhatIfRequest request;
    request.changes = a.changes;
    request.filter = a.filter.filter;
    request.filterText = givenText(a.filter);
    for (const std::string &text : a.slos) {
        std::string why;
        auto target = lx::parseSlo(text, &why);
        if (!target) {
            err << "whatif: --slo '" << text << "': " << why << '\n';
            return 1;
        }
        request.slos.push_back(std::move(*target));
    }
    std::error_code ec;
    if (!a.outPath.empty() && std::filesystem::exists(a.outPath, ec)) {
        err << "whatif: --out " << a.outPath << ": the file exists: a simulated investigation is written into a new file\n";
        return 2;
    }

    const OpenedInvestigation observed = openInvestigation(a.inputs, {}, "whatif", err);
    if (!observed.store)
        return observed.exitStatus;
    request.observedName = a.inputs.size() == 1 ? a.inputs.front() : std::to_string(a.inputs.size()) + " inputs";
    OpenedInvestigation arrivals;
    if (!a.arrivalsFile.empty()) {
        arrivals = openInvestigation({a.arrivalsFile}, {}, "whatif", err);
        if (!arrivals.store)
            return arrivals.exitStatus;
        request.arrivals = arrivals.store.get();
        request.arrivalsName = a.arrivalsFile;
    }

    std::string why;
    std::unique_ptr<lx::Store> simulated
        = a.outPath.empty() ? lx::Store::openTemporary(&why) : lx::Store::openWritable(a.outPath, &why);
    if (!simulated) {
        err << "whatif: " << (a.outPath.empty() ? std::string() : a.outPath + ": ") << why << '\n';
        return 2;
    }
    const lx::whatif::WhatIfOutcome outcome = lx::whatif::runWhatIf(*observed.store, *simulated, request);
    if (!outcome.refused.empty()) {
        err << "whatif: " << (outcome.storeUnwritten ? std::string() : request.observedName + ": ") << outcome.refused
            << '\n';
        simulated.reset();
        if (!a.outPath.empty())
            std::filesystem::remove(a.outPath, ec); // made by this run: nothing of it is worth keeping
        return 2;
    }
    if (!outcome.fit.limitReached && request.changes.concurrencyLimit == 0)
        err << "whatif: note: " << outcome.fit.concurrencyLimit.refused
            << "; the replay puts no limit, so predictions past the observed load are optimistic (give --max-concurrency N)\n";
    out << (a.json ? lx::whatif::whatIfToJson(request, outcome) : lx::whatif::whatIfToText(request, outcome));
    if (!a.outPath.empty() && !a.json)
        out << "Simulated investigation written to " << a.outPath << '\n';
    return observed.inputFailed || arrivals.inputFailed ? 2 : 0;
}
