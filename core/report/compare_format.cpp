// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison as JSON and as text (compare.h).
#include "analysis/compare.h"

#include "ingest/formats/native/native_fields.h"
#include "model/duration_format.h"
#include "model/percentiles.h"

#include <cstdio>

namespace lx {

namespace {

std::string ms(std::optional<double> ns) { return jsonNumber(ns ? std::optional<double>(nsToMs(*ns)) : std::nullopt, 6); }

std::optional<double> delta(std::optional<double> a, std::optional<double> b)
{
    return a && b ? std::optional<double>(*b - *a) : std::nullopt;
}

/// {"count": [B, I], "mean": [B, I, D], "p50": [B, I, D], ...}: baseline, incident and their difference.
std::string statisticDelta(const Report &b, const Report &i, const MetricSummary &mb, const MetricSummary &mi)
{
    std::string out = "{\"count\": [" + std::to_string(mb.stat.count) + ", " + std::to_string(mi.stat.count) + "], \"mean\": ["
                      + ms(mb.stat.meanNs) + ", " + ms(mi.stat.meanNs) + ", " + ms(delta(mb.stat.meanNs, mi.stat.meanNs)) + "]";
    for (std::size_t k = 0; k < b.percentiles.size() && k < i.percentiles.size(); ++k)
        out += ", \"" + percentileKey(b.percentiles[k]) + "\": [" + ms(mb.stat.percentilesNs[k]) + ", " + ms(mi.stat.percentilesNs[k])
               + ", " + ms(delta(mb.stat.percentilesNs[k], mi.stat.percentilesNs[k])) + "]";
    return out + '}';
}

/// One side of a shift-share split: the composition and the report of the same requests, which says which
/// segments were measured at all.
struct SplitSide {
    const Composition &composition;
    const Report &report;

    /// The mean e2e, or nothing when no request is in the composition (a band with none in it).
    std::optional<double> e2eNs() const { return composition.count > 0 ? std::optional<double>(composition.e2eNs) : std::nullopt; }
    /// The segment's mean part, or nothing when no request of the side measured it: its 0 would read as a
    /// measured zero ("-" as everywhere else, null in JSON).
    std::optional<double> partNs(int s) const
    {
        const auto i = static_cast<std::size_t>(s);
        return composition.count > 0 && report.segments[i].stat.count > 0 ? std::optional<double>(composition.partNs[i]) : std::nullopt;
    }
};

/// The change's share of the total change, when both are known and the total is not zero.
std::optional<double> share(std::optional<double> d, std::optional<double> total)
{
    return d && total && *total != 0 ? std::optional<double>(*d / *total) : std::nullopt;
}

std::string durationOrDash(std::optional<double> ns) { return ns ? formatDuration(*ns) : "-"; }

/// "+1.57 s", "-615 µs", or "-" when not known.
std::string signedDuration(std::optional<double> ns) { return ns ? (*ns >= 0 ? "+" : "-") + formatDuration(std::abs(*ns)) : "-"; }

/// The shift-share split of one composition pair: each segment's part before, after, its change and its
/// share of the e2e change.
std::string splitJson(const SplitSide &b, const SplitSide &i)
{
    const std::optional<double> total = delta(b.e2eNs(), i.e2eNs());
    std::string out = "{\"baseline_ms\": " + ms(b.e2eNs()) + ", \"incident_ms\": " + ms(i.e2eNs()) + ", \"delta_ms\": " + ms(total)
                      + ", \"count\": [" + std::to_string(b.composition.count) + ", " + std::to_string(i.composition.count)
                      + "], \"segments\": {";
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::optional<double> d = delta(b.partNs(s), i.partNs(s));
        const std::optional<double> part = share(d, total);
        out += s ? ", \"" : "\"";
        out += std::string(segmentName(static_cast<Segment>(s))) + "\": {\"baseline_ms\": " + ms(b.partNs(s))
               + ", \"incident_ms\": " + ms(i.partNs(s)) + ", \"delta_ms\": " + ms(d)
               + ", \"share_of_delta\": " + jsonNumber(part, 6) + '}';
    }
    return out + "}}";
}

std::string splitText(const char *what, const SplitSide &b, const SplitSide &i)
{
    const std::optional<double> total = delta(b.e2eNs(), i.e2eNs());
    std::string out = std::string(what) + ": " + durationOrDash(b.e2eNs()) + " -> " + durationOrDash(i.e2eNs());
    out += total ? " (" + signedDuration(total) + ")\n" : "\n";
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::optional<double> d = delta(b.partNs(s), i.partNs(s));
        char line[160];
        std::snprintf(line, sizeof line, "  %-13s %12s -> %-12s %-13s", std::string(segmentName(static_cast<Segment>(s))).c_str(),
                      durationOrDash(b.partNs(s)).c_str(), durationOrDash(i.partNs(s)).c_str(), signedDuration(d).c_str());
        out += line;
        if (const std::optional<double> part = share(d, total)) {
            std::snprintf(line, sizeof line, " %5.1f%% of the change", 100.0 * *part);
            out += line;
        }
        out += '\n';
    }
    return out;
}

} // namespace

std::string comparisonToJson(const Comparison &c)
{
    std::string out = "{\n  \"baseline\": {\"total\": " + std::to_string(c.baseline.total) + ", \"ok\": " + std::to_string(c.baseline.ok)
                      + ", \"error\": " + std::to_string(c.baseline.error) + "},\n  \"incident\": {\"total\": "
                      + std::to_string(c.incident.total) + ", \"ok\": " + std::to_string(c.incident.ok)
                      + ", \"error\": " + std::to_string(c.incident.error) + "},\n  \"segments\": {";
    for (int s = 0; s < kSegmentCount; ++s) {
        out += s ? ",\n    \"" : "\n    \"";
        out += std::string(segmentName(static_cast<Segment>(s))) + "\": "
               + statisticDelta(c.baseline, c.incident, c.baseline.segments[static_cast<std::size_t>(s)],
                                c.incident.segments[static_cast<std::size_t>(s)]);
    }
    out += "\n  },\n  \"e2e\": " + statisticDelta(c.baseline, c.incident, c.baseline.e2e, c.incident.e2e);
    out += ",\n  \"tokens\": {\"ttft\": " + statisticDelta(c.baseline, c.incident, c.baseline.ttft, c.incident.ttft)
           + ",\n    \"tpot\": " + statisticDelta(c.baseline, c.incident, c.baseline.tpot, c.incident.tpot) + "}";
    out += ",\n  \"shift_share\": {\n    \"mean\": "
        + splitJson({ c.baselineMean, c.baseline }, { c.incidentMean, c.incident })
        + ",\n    \"p95_band\": " + splitJson({ c.baselineTail, c.baseline }, { c.incidentTail, c.incident }) + "\n  }";
    if (const std::vector<std::string> cautions = comparisonCautions(c); !cautions.empty()) {
        out += ",\n  \"cautions\": [";
        for (std::size_t i = 0; i < cautions.size(); ++i) {
            out += i ? ", " : "";
            appendJsonString(out, cautions[i]);
        }
        out += "]";
    }
    out += "\n}\n";
    return out;
}

std::string comparisonToText(const Comparison &c)
{
    std::string out = "Baseline: " + std::to_string(c.baseline.total) + " requests (" + std::to_string(c.baseline.ok)
        + " ok); incident: " + std::to_string(c.incident.total) + " requests (" + std::to_string(c.incident.ok)
        + " ok)\n";
    for (const std::string &caution : comparisonCautions(c))
        out += "Caution: " + caution + "\n";
    out += "\nPercentiles, baseline -> incident:\n";
    const auto row = [&](const std::string &name, const MetricSummary &b, const MetricSummary &i) {
        std::string line = "  " + name + std::string(name.size() < 13 ? 13 - name.size() : 0, ' ');
        for (std::size_t k = 0; k < c.baseline.percentiles.size() && k < c.incident.percentiles.size(); ++k) {
            const auto fb = b.stat.percentilesNs[k], fi = i.stat.percentilesNs[k];
            line += " " + percentileKey(c.baseline.percentiles[k]) + " " + (fb ? formatDuration(*fb) : "-") + " -> "
                    + (fi ? formatDuration(*fi) : "-") + ";";
        }
        out += line + "\n";
    };
    for (int s = 0; s < kSegmentCount; ++s)
        row(std::string(segmentName(static_cast<Segment>(s))), c.baseline.segments[static_cast<std::size_t>(s)],
            c.incident.segments[static_cast<std::size_t>(s)]);
    row("e2e", c.baseline.e2e, c.incident.e2e);
    // The token metrics, as the JSON has them: in an LLM incident TTFT is often the first figure asked.
    row("TTFT", c.baseline.ttft, c.incident.ttft);
    row("TPOT", c.baseline.tpot, c.incident.tpot);
    out += "\nWhich segment's change explains the change in e2e (shift-share; parts add up to e2e):\n";
    out += splitText("mean e2e", {c.baselineMean, c.baseline}, {c.incidentMean, c.incident});
    out += splitText("around p95 (e2e between p94 and p96)", {c.baselineTail, c.baseline}, {c.incidentTail, c.incident});
    return out;
}

} // namespace lx
