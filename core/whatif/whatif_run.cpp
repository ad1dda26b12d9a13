// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/whatif_run.h"

#include "filter/request_filter.h"
#include "model/time_range.h"
#include "report/report_format.h"
#include "store/import_runs.h"
#include "store/stamp_scan.h"
#include "store/store.h"
#include "whatif/simulated_store.h"


namespace lx::whatif {

std::string jsonString(const std::string &text)
{
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            out += ' ';
            continue;
        }
        out += c;
    }
    return out + '"';
}

namespace {

} // namespace

Side analyzeSide(const Store &store, const std::vector<SloTarget> &slos, const RequestFilter &filter)
{
    Side side;
    AnalysisOptions options;
    options.percentiles = {50, 90, 99};
    side.report = analyze(store, filter, options);
    side.load = analyzeLoad(store, filter);
    side.slos = evaluateSlos(store, filter, slos);
    return side;
}

std::string changesText(const ReplayChanges &c)
{
    std::vector<std::string> parts;
    if (c.replicas != 1)
        parts.push_back(std::to_string(c.replicas) + " replicas (" + routerName(c.router) + ")");
    if (c.arrivalFactor != 1)
        parts.push_back("arrivals \u00d7" + numberText(c.arrivalFactor));
    if (c.concurrencyLimit > 0)
        parts.push_back("a limit of " + std::to_string(c.concurrencyLimit) + " in service");
    if (c.inputTokenCap > 0)
        parts.push_back("prompts capped at " + std::to_string(c.inputTokenCap) + " tokens");
    if (c.postprocessSpeedup != 1)
        parts.push_back("postprocess " + numberText(c.postprocessSpeedup) + "\u00d7 as fast");
    if (parts.empty())
        return "no change";
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? ", " : "") + parts[i];
    return out;
}

std::string changesJson(const ReplayChanges &c)
{
    return "{\"replicas\":" + std::to_string(c.replicas) + ",\"router\":\"" + routerName(c.router)
           + "\",\"arrival_factor\":" + numberText(c.arrivalFactor) + ",\"max_concurrency\":"
           + (c.concurrencyLimit > 0 ? std::to_string(c.concurrencyLimit) : "null") + ",\"cap_input_tokens\":"
           + (c.inputTokenCap > 0 ? std::to_string(c.inputTokenCap) : "null") + ",\"postprocess_speedup\":"
           + numberText(c.postprocessSpeedup) + ",\"seed\":" + std::to_string(c.seed) + "}";
}

WhatIfOutcome runWhatIf(const Store &observed, Store &out, const WhatIfRequest &request, const std::atomic<bool> *cancel,
                        const ReplayProgress &progress)
{
    WhatIfOutcome outcome;
    if (std::optional<std::string> marker = simulatedMarker(observed)) {
        outcome.refused = "this is a simulated investigation: a model is fitted from observed requests only";
        return outcome;
    }
    if (std::string why = validateChanges(request.changes); !why.empty()) {
        outcome.refused = why;
        return outcome;
    }
    std::vector<StampRow> rows;
    std::string error;
    std::optional<ServerFit> fit = fitServer(observed, request.filter, &rows, &error);
    if (!fit) {
        outcome.refused = error;
        return outcome;
    }
    outcome.fit = std::move(*fit);
    if (!outcome.fit.ok()) {
        outcome.refused = outcome.fit.refused;
        return outcome;
    }
    std::vector<StampRow> external;
    if (request.arrivals) {
        if (simulatedMarker(*request.arrivals)) {
            outcome.refused = request.arrivalsName + ": a simulated investigation is no workload to replay";
            return outcome;
        }
        auto scanned = scanStampRows(*request.arrivals, &error);
        if (!scanned) {
            outcome.refused = request.arrivalsName + ": " + error;
            return outcome;
        }
        external = std::move(*scanned);
        if (external.empty()) {
            outcome.refused = request.arrivalsName + ": no request to replay";
            return outcome;
        }
        for (const StampRow &r : external) {
            if (r.inputTokens >= 0 && r.outputTokens >= 0)
                continue;
            // Named by its file: the arrivals may be several files, or a store of them.
            std::string file = request.arrivalsName;
            for (const ImportRun &run : listImportRuns(*request.arrivals))
                if (run.id == r.runId)
                    file = run.path;
            outcome.refused = file + ", line " + std::to_string(r.sourceLine) + ": no "
                              + (r.inputTokens < 0 ? "input" : "output")
                              + " token count: prefill and decode are computed from the token counts";
            return outcome;
        }
    }
    outcome.replayed = replay(outcome.fit, rows, external, request.changes, cancel, progress);
    // What the replay read goes before the store is written and both sides analysed: the peak is the
    // replay's (rows, residuals and replayed requests, about 1 KB a request).
    std::vector<StampRow>().swap(rows);
    std::vector<StampRow>().swap(external);
    std::vector<Residuals>().swap(outcome.fit.residuals);
    if (!outcome.replayed.refused.empty()) {
        outcome.cancelled = outcome.replayed.cancelled;
        outcome.refused = outcome.replayed.refused;
        return outcome;
    }
    const std::string marker = "{\"source\":" + jsonString(request.observedName) + ",\"filter\":"
                               + (request.filterText.empty() ? std::string("null") : jsonString(request.filterText)) + ",\"arrivals\":"
                               + (request.arrivals ? jsonString(request.arrivalsName) : std::string("\"observed\""))
                               + ",\"changes\":" + changesJson(request.changes) + ",\"model\":" + outcome.fit.toJson() + "}";
    const std::string source = "whatif: " + (request.arrivals ? request.arrivalsName : request.observedName);
    if (!writeSimulatedStore(out, outcome.replayed.requests, source, marker, &error)) {
        // The fault of the output, not of the investigation read: said of the store written, by its path.
        outcome.refused = "cannot write the simulated investigation " + out.fileName() + ": " + error;
        outcome.storeUnwritten = true;
        return outcome;
    }
    outcome.replayed.requests = {}; // in the store now: its memory goes before the analyses take theirs
    if (cancel && cancel->load()) {
        outcome.cancelled = true;
        outcome.refused = "cancelled";
        return outcome;
    }
    outcome.observed = analyzeSide(observed, request.slos, request.filter);
    outcome.predicted = analyzeSide(out, request.slos);
    return outcome;
}

} // namespace lx::whatif
