// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_sections.h"

#include "model/duration_format.h"
#include "ingest/formats/native/native_fields.h"
#include "model/percentiles.h"

#include <cstdio>

namespace lx {

namespace {

std::string ms(std::optional<double> ns) { return jsonNumber(ns ? std::optional<double>(nsToMs(*ns)) : std::nullopt, 6); }

std::string segmentsJson(const std::array<double, kSegmentCount> &valuesNs, bool asShares)
{
    std::string out = "{";
    for (int s = 0; s < kSegmentCount; ++s) {
        out += s ? ", \"" : "\"";
        out += std::string(segmentName(static_cast<Segment>(s))) + "\": ";
        out += asShares ? jsonNumber(valuesNs[static_cast<std::size_t>(s)], 6) : ms(valuesNs[static_cast<std::size_t>(s)]);
    }
    return out + '}';
}

std::string shareJson(const SegmentShare &share)
{
    if (share.segment < 0)
        return "null";
    return "{\"dominant\": \"" + std::string(segmentName(static_cast<Segment>(share.segment))) + "\", \"share\": "
           + jsonNumber(share.share, 6) + ", \"count\": " + std::to_string(share.count) + '}';
}

std::string quoted(std::string_view text)
{
    std::string out;
    appendJsonString(out, text);
    return out;
}

std::string percent(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
    return text;
}

} // namespace

std::string loadToJson(const LoadAnalysis &load)
{
    std::string out = "{\"window_ms\": " + ms(static_cast<double>(load.profile.windowNs)) + ", \"windows\": [";
    for (std::size_t i = 0; i < load.profile.windows.size(); ++i) {
        const LoadWindow &w = load.profile.windows[i];
        out += i ? ",\n    " : "\n    ";
        out += "{\"start\": " + quoted(formatInstantIso(w.startNs, load.profile.relativeTime))
            + ", \"start_ns\": " + std::to_string(w.startNs) + ", \"arrivals\": " + std::to_string(w.arrivals)
            + ", \"arrival_rps\": " + jsonNumber(w.arrivalRps, 3) + ", \"completions\": "
            + std::to_string(w.completions) + ", \"throughput_rps\": " + jsonNumber(w.throughputRps, 3)
            + ", \"in_flight\": " + jsonNumber(w.meanInFlight, 2) + ", \"count\": " + std::to_string(w.count)
            + ", \"segments\": " + segmentsJson(w.segmentMeanNs, false) + ", \"e2e_mean\": " + ms(w.e2eMeanNs)
            + ", \"e2e_p95\": " + ms(w.e2eP95Ns) + '}';
    }
    out += load.profile.windows.empty() ? "]" : "\n  ]";
    out += ",\n  \"bucket_by\": \"" + std::string(loadKeyName(load.bucketBy)) + "\", \"geometric_buckets\": "
           + (load.geometricBuckets ? "true" : "false") + ", \"buckets\": [";
    for (std::size_t i = 0; i < load.buckets.size(); ++i) {
        const LoadBucket &b = load.buckets[i];
        out += i ? ",\n    " : "\n    ";
        out += "{\"load_from\": " + jsonNumber(b.loadLo, 3) + ", \"load_to\": " + jsonNumber(b.loadHi, 3) + ", \"windows\": "
               + std::to_string(b.windows) + ", \"count\": " + std::to_string(b.count) + ", \"segments\": "
               + segmentsJson(b.segmentMeanNs, false) + ", \"e2e_mean\": " + ms(b.e2eMeanNs) + ", \"e2e_p95\": " + ms(b.e2eP95Ns) + '}';
    }
    out += load.buckets.empty() ? "]" : "\n  ]";
    out += ",\n  \"knee\": ";
    if (load.knee)
        out += "{\"rate_rps\": " + jsonNumber(load.knee->rateRps, 3) + ", \"in_flight\": "
            + jsonNumber(load.knee->inFlight, 2) + ", \"time_ns\": " + std::to_string(load.knee->timeNs)
            + ", \"time\": " + quoted(formatInstantIso(load.knee->timeNs, load.profile.relativeTime)) + '}';
    else
        out += "null";
    out += ", \"below\": " + shareJson(load.below) + ", \"above\": " + shareJson(load.above);
    // Past the knee by band (up to twice its requests in flight, and beyond), the queue's share below it and
    // the time per output token on both sides: the three parts of the load's story (docs/LOAD.md).
    out += ",\n  \"just_past\": " + shareJson(load.justPast) + ", \"far_past\": " + shareJson(load.farPast)
           + ", \"queue_share_below\": " + jsonNumber(load.queueShareBelow, 6) + ", \"tpot_below_ms\": "
           + ms(load.tpotBelowNs) + ", \"tpot_above_ms\": " + ms(load.tpotAboveNs);
    if (!load.knee)
        out += ", \"no_knee_reason\": " + quoted(load.noKneeText());
    out += ",\n  \"sentence\": " + quoted(load.sentence()) + '}';
    return out;
}

std::string findingsToJson(const std::vector<Finding> &findings)
{
    std::string out = "[";
    for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding &f = findings[i];
        out += i ? ",\n    " : "\n    ";
        out += "{\"id\": " + quoted(f.id) + ", \"title\": " + quoted(f.title) + ", \"evidence\": " + quoted(f.evidence)
               + ", \"fix\": " + quoted(f.fix) + ", \"filter\": " + quoted(f.filter) + ", \"tail_share\": "
               + jsonNumber(f.tailShare, 6) + ", \"count\": " + std::to_string(f.count) + '}';
    }
    return out + (findings.empty() ? "]" : "\n  ]");
}

std::string slosToJson(const std::vector<SloResult> &slos)
{
    std::string out = "[";
    for (std::size_t i = 0; i < slos.size(); ++i) {
        const SloResult &r = slos[i];
        out += i ? ",\n    " : "\n    ";
        out += "{\"slo\": " + quoted(r.target.text) + ", \"metric\": " + quoted(r.target.metric) + ", \"percentile\": "
               + jsonNumber(r.target.percentile, 3) + ", \"threshold_ms\": " + ms(static_cast<double>(r.target.thresholdNs))
               + ", \"value_ms\": " + ms(r.valueNs) + ", \"count\": " + std::to_string(r.count) + ", \"pass\": "
               + (r.valueNs ? (r.pass ? "true" : "false") : "null") + ", \"margin_ms\": "
               + ms(r.valueNs ? std::optional<double>(r.marginNs) : std::nullopt) + ", \"filter\": " + quoted(r.target.filter)
               + ", \"budget\": ";
        if (r.budgetDominant >= 0)
            out += "{\"band_ms\": [" + ms(r.bandLoNs) + ", " + ms(r.bandHiNs) + "], \"count\": " + std::to_string(r.bandCount)
                   + ", \"shares\": " + segmentsJson(r.budgetShare, true) + ", \"dominant\": \""
                   + std::string(segmentName(static_cast<Segment>(r.budgetDominant))) + "\", \"sentence\": "
                   + quoted(r.budgetSentence()) + '}';
        else
            out += "null";
        out += '}';
    }
    return out + (slos.empty() ? "]" : "\n  ]");
}

std::string loadToText(const LoadAnalysis &load)
{
    std::string out = "Load: " + load.sentence() + "\n";
    const auto counted
        = [](std::size_t n, const char *what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    if (!load.profile.windows.empty()) {
        out += "  " + counted(load.profile.windows.size(), "window") + " of "
            + formatDuration(static_cast<double>(load.profile.windowNs)) + "; e2e by "
            + (load.bucketBy == LoadKey::ArrivalRate ? "arrival rate" : "requests in flight") + " in "
            + counted(load.buckets.size(), "bucket") + (load.buckets.empty() ? "\n" : " (--json has them)\n");
    }
    if (load.knee)
        out += "  knee reached at " + formatInstant(load.knee->timeNs, load.profile.relativeTime, 3) + "\n";
    return out;
}

std::string findingsToText(const std::vector<Finding> &findings, std::size_t most)
{
    if (findings.empty())
        return "Findings: none\n";
    std::string out = "Findings (by share of the slow requests explained):\n";
    for (std::size_t i = 0; i < findings.size() && i < most; ++i) {
        const Finding &f = findings[i];
        out += "  " + std::to_string(i + 1) + ". " + f.title + " [" + percent(f.tailShare) + " of the tail]\n     " + f.evidence
               + "\n     fix: " + f.fix + "\n     filter: " + f.filter + "\n";
    }
    if (findings.size() > most)
        out += "  (" + std::to_string(findings.size() - most) + " more in --json)\n";
    return out;
}

std::string slosToText(const std::vector<SloResult> &slos)
{
    std::string out = slos.empty() ? "" : "SLOs:\n";
    for (const SloResult &r : slos) {
        out += "  " + std::string(!r.valueNs ? "NO DATA" : r.pass ? "PASS" : "FAIL") + "  " + r.target.text;
        if (r.valueNs) {
            out += ": " + percentileKey(r.target.percentile) + " = " + formatDuration(*r.valueNs) + " (" + std::to_string(r.count)
                   + (r.target.metric == "itl" ? " gaps), " : " requests), ")
                   + (r.marginNs >= 0 ? formatDuration(r.marginNs) + " to spare" : formatDuration(-r.marginNs) + " over");
        }
        if (r.budgetDominant >= 0)
            out += "; " + r.budgetSentence();
        out += '\n';
    }
    return out;
}

std::string withMembers(std::string jsonObject, const std::vector<std::pair<std::string, std::string>> &members)
{
    const std::size_t close = jsonObject.rfind('}');
    if (close == std::string::npos || members.empty())
        return jsonObject;
    std::string more;
    for (const auto &[key, value] : members)
        more += ",\n  " + quoted(key) + ": " + value;
    // Before the closing brace, after the last member's trailing white space is trimmed.
    std::size_t end = close;
    while (end > 0 && (jsonObject[end - 1] == '\n' || jsonObject[end - 1] == ' '))
        --end;
    jsonObject.insert(end, more);
    return jsonObject;
}

} // namespace lx
