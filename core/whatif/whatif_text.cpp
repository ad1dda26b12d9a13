// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/whatif_text.h"

#include "analysis/knee_text.h"
#include "model/duration_format.h"
#include "model/segments.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/text_table.h"

#include <locale>
#include <sstream>

namespace lx::whatif {

namespace {

/// The segment with the largest mean time: where most of a request's time goes.
int largestSegment(const Report &report)
{
    int best = -1;
    double bestMean = 0;
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::optional<double> &mean = report.segments[static_cast<std::size_t>(s)].stat.meanNs;
        if (mean && *mean > bestMean) {
            bestMean = *mean;
            best = s;
        }
    }
    return best;
}

std::string percentileText(const MetricSummary &m, std::size_t k)
{
    if (k >= m.stat.percentilesNs.size() || !m.stat.percentilesNs[k])
        return "-";
    return formatDuration(*m.stat.percentilesNs[k]);
}

std::optional<double> percentileOf(const MetricSummary &m, std::size_t k)
{
    return k < m.stat.percentilesNs.size() ? m.stat.percentilesNs[k] : std::nullopt;
}

std::string plusMinus(const Estimate &e, double scale, const char *unit, int precision)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.setf(std::ios::fixed);
    out.precision(precision);
    out << e.value / scale << " \u00b1 " << e.stdError / scale << unit;
    return out.str();
}

std::string kneeCell(const Side &side)
{
    if (side.load.knee)
        return kneeText(*side.load.knee);
    return "none";
}

std::string sloCell(const SloResult &r)
{
    if (!r.valueNs)
        return "no samples";
    return std::string(r.pass ? "PASS " : "FAIL ") + formatDuration(*r.valueNs);
}

} // namespace

std::string summarySentence(const ReplayChanges &changes, const Side &observed, const Side &predicted, const std::string &arrivals)
{
    std::string out = "with ";
    if (!arrivals.empty()) {
        const std::string changed = changesText(changes);
        out += "the arrivals of " + arrivals + (changed == "no change" ? std::string() : ", " + changed);
    } else {
        out += changesText(changes);
    }
    const std::optional<double> before = percentileOf(observed.report.e2e, 2), after = percentileOf(predicted.report.e2e, 2);
    out += " p99 e2e " + (before ? formatDuration(*before) : std::string("-")) + " \u2192 "
           + (after ? formatDuration(*after) : std::string("-"));
    const int was = largestSegment(observed.report), now = largestSegment(predicted.report);
    if (was >= 0 && now >= 0) {
        const std::string wasName(segmentName(static_cast<Segment>(was))), nowName(segmentName(static_cast<Segment>(now)));
        // Of most requests, not of the tail beside it: "queue stops dominating" stood next to a p99 that was
        // still mostly queue.
        out += was == now ? "; " + wasName + " still dominates most requests"
                          : "; " + wasName + " no longer dominates most requests (" + nowName + " does)";
    }
    return out;
}

std::vector<std::string> sloVerdictLines(const Side &observed, const Side &predicted)
{
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < observed.slos.size() && i < predicted.slos.size(); ++i)
        lines.push_back("SLO " + observed.slos[i].target.text + ": observed " + sloCell(observed.slos[i]) + ", predicted "
                        + sloCell(predicted.slos[i]));
    return lines;
}

std::string modelToText(const ServerFit &fit)
{
    constexpr double kMs = 1e6;
    std::ostringstream out;
    if (fit.inferredFromClient)
        out << "Model fitted from " << fit.served << " of " << fit.requests
            << " requests, their server stamps inferred from the client's times (a FIFO with the fewest slots that "
               "schedules no more than 2% after their first token: "
            << static_cast<int>(fit.inconsistentShare * 1000 + 0.5) / 10.0 << "% did; network, preprocess and postprocess are inside queue, prefill and decode):\n";
    else if (fit.stampsFromSegments)
        out << "Model fitted from " << fit.served << " of " << fit.requests
            << " requests, their stamps rebuilt from their segments (the network split in halves):\n";
    else
        out << "Model fitted from " << fit.served << " of " << fit.requests << " requests (with server stamps):\n";
    out << "  concurrency limit  " << static_cast<long long>(fit.concurrencyLimit.value) << " in service"
        << (fit.limitReached ? " (reached: requests waited on a full server)"
                            : " (not reached: " + fit.concurrencyLimit.refused + "; the replay puts no limit)")
        << '\n';
    out << "  prefill            " << plusMinus(fit.prefillBaseNs, kMs, " ms", 2) << " + ";
    if (fit.prefillPerTokenNs.ok())
        out << plusMinus(fit.prefillPerTokenNs, kMs / 1000, " ms per 1000 input tokens", 2);
    else
        out << "0 (" << fit.prefillPerTokenNs.refused << ")";
    out << "  (n " << fit.prefillBaseNs.n << ")\n";
    out << "  time per token     " << plusMinus(fit.tpotBaseNs, kMs, " ms", 2) << " + ";
    if (fit.tpotPerRequestNs.ok())
        out << plusMinus(fit.tpotPerRequestNs, kMs, " ms per request in the batch", 3);
    else
        out << "0 (" << fit.tpotPerRequestNs.refused << ")";
    out << "  (n " << fit.tpotBaseNs.n << ")\n";
    const auto dist = [&](const char *name, const EmpiricalDistribution &d) {
        out << "  " << name;
        if (d.ok())
            out << "p50 " << formatDuration(d.at(0.5)) << ", p99 " << formatDuration(d.at(0.99)) << "  (n " << d.n << ")\n";
        else
            out << d.refused << '\n';
    };
    dist("network in         ", fit.networkIn);
    dist("network out        ", fit.networkOut);
    dist("preprocess         ", fit.preprocess);
    dist("postprocess        ", fit.postprocess);
    dist("admission wait     ", fit.admissionWait);
    return out.str();
}

std::string filterCaution(const WhatIfRequest &request)
{
    if (request.filterText.empty())
        return {};
    // A fit to one route's requests predicted p99 38 s -> 16 s "with no change" without a word: the requests
    // the filter hides were queued on the same server, and the fit never saw them.
    return "the model is fitted to the requests the filter keeps, and only their arrivals are replayed; the "
           "requests it hides held the server's slots too, so the prediction holds only if these requests had a "
           "server of their own. Run it without a filter to fit the whole investigation (docs/WHATIF.md); the "
           "no-change replay of the same filter shows the model's own error.";
}

std::string whatIfToText(const WhatIfRequest &request, const WhatIfOutcome &outcome)
{
    const Side &obs = *outcome.observed, &pred = *outcome.predicted;
    std::string out = "What if: " + changesText(request.changes) + " (arrivals: "
                      + (request.arrivals ? request.arrivalsName : std::string("observed")) + ", seed "
                      + std::to_string(request.changes.seed) + ")\n"
                      + (request.filterText.empty() ? std::string() : "Observed requests: " + request.filterText + '\n')
                      + '\n' + modelToText(outcome.fit) + '\n';
    TextTable table({{"", TextTable::Align::Left},
                     {"obs p50"}, {"obs p90"}, {"obs p99"}, {"pred p50"}, {"pred p90"}, {"pred p99"}});
    const auto row = [&](const std::string &name, const MetricSummary &o, const MetricSummary &p) {
        table.addRow({name, percentileText(o, 0), percentileText(o, 1), percentileText(o, 2), percentileText(p, 0),
                      percentileText(p, 1), percentileText(p, 2)});
    };
    row("e2e", obs.report.e2e, pred.report.e2e);
    row("ttft", obs.report.ttft, pred.report.ttft);
    table.addBlankLine();
    for (int s = 0; s < kSegmentCount; ++s)
        row(std::string(segmentName(static_cast<Segment>(s))), obs.report.segments[static_cast<std::size_t>(s)],
            pred.report.segments[static_cast<std::size_t>(s)]);
    out += "Requests: " + std::to_string(obs.report.total) + " observed, " + std::to_string(pred.report.total) + " predicted\n";
    out += table.render();
    out += "\nKnee: observed " + kneeCell(obs) + "; predicted " + kneeCell(pred) + '\n';
    for (const std::string &line : sloVerdictLines(obs, pred))
        out += line + '\n';
    out += "\n" + summarySentence(request.changes, obs, pred, request.arrivals ? request.arrivalsName : std::string()) + '\n';
    if (const std::string caution = filterCaution(request); !caution.empty())
        out += "\nCaution: " + caution + '\n';
    return out;
}

std::string whatIfToJson(const WhatIfRequest &request, const WhatIfOutcome &outcome)
{
    const Side &obs = *outcome.observed, &pred = *outcome.predicted;
    const auto side = [](const Side &s) {
        return withMembers(reportToJson(s.report), {{"load", loadToJson(s.load)}, {"slos", slosToJson(s.slos)}});
    };
    std::string summary;
    for (char c : summarySentence(request.changes, obs, pred, request.arrivals ? request.arrivalsName : std::string())) {
        if (c == '"' || c == '\\')
            summary += '\\';
        summary += c;
    }
    // Whose arrivals were replayed, as the simulated store's marker says it: a workload file's name, or "observed".
    return "{\"model\":" + outcome.fit.toJson() + ",\"changes\":" + changesJson(request.changes)
        + ",\"arrivals\":" + (request.arrivals ? jsonString(request.arrivalsName) : std::string("\"observed\""))
        + ",\"filter\":" + (request.filterText.empty() ? std::string("null") : jsonString(request.filterText))
        + (request.filterText.empty() ? std::string() : ",\"caution\":" + jsonString(filterCaution(request)))
        + ",\"observed\":" + side(obs) + ",\"predicted\":" + side(pred) + ",\"summary\":\"" + summary + "\"}\n";
}

} // namespace lx::whatif
