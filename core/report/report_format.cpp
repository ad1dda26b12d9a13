// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_format.h"

#include "report/dominant_order.h"
#include "report/text_table.h"
#include "model/duration_format.h"
#include "ingest/formats/native/native_fields.h"
#include "store/request_join.h"

#include <utility>

namespace lx {

namespace {

std::string statisticJson(const MetricSummary &m, const std::vector<double> &percentiles)
{
    const Statistic &s = m.stat;
    const auto ms = [](std::optional<double> ns) { return jsonNumber(ns ? std::optional<double>(nsToMs(*ns)) : std::nullopt); };
    std::string out = "{\"count\": " + std::to_string(s.count) + ", \"mean\": " + ms(s.meanNs);
    for (std::size_t i = 0; i < percentiles.size(); ++i)
        out += ", \"" + percentileKey(percentiles[i]) + "\": " + ms(s.percentilesNs[i]);
    out += ", \"max\": " + ms(s.maxNs);
    if (!m.scope.empty()) {
        out += ", \"scope\": ";
        appendJsonString(out, m.scope);
    }
    if (!m.scopes.empty()) {
        out += ", \"scopes\": {";
        bool first = true;
        for (const auto &[scope, count] : m.scopes) {
            out += first ? "" : ", ";
            appendJsonString(out, scope);
            out += ": " + std::to_string(count);
            first = false;
        }
        out += '}';
    }
    if (m.excluded > 0)
        out += ", \"excluded_clock_skew\": " + std::to_string(m.excluded);
    out += '}';
    return out;
}

std::string inputsJson(const Report &report)
{
    std::string out = "[";
    for (std::size_t i = 0; i < report.inputs.size(); ++i) {
        const InputSummary &in = report.inputs[i];
        out += i ? ",\n    {" : "\n    {";
        out += "\"path\": ";
        appendJsonString(out, in.path);
        out += ", \"format\": ";
        appendJsonString(out, in.format);
        out += ", \"accepted\": " + std::to_string(in.accepted) + ", \"rejected\": " + std::to_string(in.rejected)
               + ", \"outcome\": ";
        appendJsonString(out, in.outcome);
        if (!in.message.empty()) {
            out += ", \"message\": ";
            appendJsonString(out, in.message);
        }
        out += '}';
    }
    out += report.inputs.empty() ? "]" : "\n  ]";
    return out;
}

/// The join of client and server records and the relative-time count, as JSON members after a comma:
/// `"join": {"matched", "client_only", "server_only", "ambiguous"}` (null when nothing was joined) and
/// `"relative_time"`.
std::string joinAndTimeJson(const Report &report)
{
    std::string out = ",\n  \"join\": ";
    const JoinSummary &j = report.join;
    out += j.active ? "{\"matched\": " + std::to_string(j.matched) + ", \"client_only\": " + std::to_string(j.clientOnly)
                          + ", \"server_only\": " + std::to_string(j.serverOnly) + ", \"ambiguous\": " + std::to_string(j.ambiguous) + "}"
                    : std::string("null");
    out += ",\n  \"unmatched_sample\": [";
    for (std::size_t i = 0; i < report.unmatchedSample.size(); ++i) {
        const UnmatchedRecord &u = report.unmatchedSample[i];
        out += i ? ",\n    {\"side\": " : "\n    {\"side\": ";
        out += u.side == JoinSide::Client ? "\"client\"" : "\"server\"";
        out += ", \"id\": ";
        appendJsonString(out, u.sourceId);
        out += ", \"path\": ";
        appendJsonString(out, u.sourcePath);
        out += ", \"line\": " + std::to_string(u.sourceLine) + ", \"ambiguous\": " + (u.ambiguous ? "true" : "false") + "}";
    }
    out += report.unmatchedSample.empty() ? "]" : "\n  ]";
    out += ",\n  \"relative_time\": " + std::to_string(report.relativeTime);
    if (report.simulated()) // only then, so that a measured investigation's JSON is as it was
        out += ",\n  \"simulated\": true";
    return out;
}

/// The same as lines of text, each starting with a blank line; empty when there is nothing to say.
std::string joinAndTimeText(const Report &report)
{
    std::string out;
    const JoinSummary &j = report.join;
    if (j.active) {
        out += "\n\n" + joinSentence(j);
        for (const UnmatchedRecord &u : report.unmatchedSample)
            out += "\n  unmatched " + std::string(u.side == JoinSide::Client ? "client" : "server") + " record \"" + u.sourceId
                   + "\" (" + u.sourcePath + ":" + std::to_string(u.sourceLine) + "): " + unmatchedReason(u);
        const std::int64_t unmatched = j.clientOnly + j.serverOnly + j.ambiguous;
        if (unmatched > static_cast<std::int64_t>(report.unmatchedSample.size()))
            out += "\n  ... and " + std::to_string(unmatched - static_cast<std::int64_t>(report.unmatchedSample.size()))
                   + " more (table join_unmatched_readable of the store)";
    }
    if (report.relativeTime > 0)
        out += "\n\n" + relativeTimeSentence(report.relativeTime);
    return out;
}


std::vector<std::string> tableRow(const std::string &name, const MetricSummary &m, std::size_t percentiles)
{
    const auto cell = [](std::optional<double> ns) { return ns ? formatDuration(*ns) : std::string("-"); };
    std::vector<std::string> row{name, std::to_string(m.stat.count), cell(m.stat.meanNs)};
    for (std::size_t i = 0; i < percentiles; ++i)
        row.push_back(cell(i < m.stat.percentilesNs.size() ? m.stat.percentilesNs[i] : std::nullopt));
    row.push_back(cell(m.stat.maxNs));
    std::string scope = m.scope.empty() ? std::string("-") : m.scope;
    if (m.excluded > 0)
        scope += " (" + std::to_string(m.excluded) + " skewed left out)";
    row.push_back(std::move(scope));
    return row;
}

/// The statistics of the segments, e2e and the token metrics. Columns grow with their widest value (hours
/// of queueing) so that neighbours never touch; the usual widths keep short tables as they always looked.
std::string statisticsTable(const Report &report)
{
    using Align = TextTable::Align;
    std::vector<TextTable::Column> columns{{"", Align::Left, 14}, {"count", Align::Right, 9}, {"mean", Align::Right, 11}};
    for (double q : report.percentiles)
        columns.push_back({percentileKey(q), Align::Right, 11});
    columns.push_back({"max", Align::Right, 11});
    columns.push_back({"scope", Align::Left, 0});
    TextTable table(std::move(columns));
    const std::size_t n = report.percentiles.size();
    for (int s = 0; s < kSegmentCount; ++s)
        table.addRow(tableRow(std::string(segmentName(static_cast<Segment>(s))), report.segments[s], n));
    table.addRow(tableRow("e2e", report.e2e, n));
    table.addBlankLine();
    table.addRow(tableRow("TTFT", report.ttft, n));
    table.addRow(tableRow("TPOT", report.tpot, n));
    table.addRow(tableRow("ITL", report.itl, n));
    table.addRow(tableRow("TTLT", report.ttlt, n));
    return table.render();
}

} // namespace

std::string reportToJson(const Report &report)
{
    const auto &p = report.percentiles;
    std::string out = "{\n  \"requests\": {\"total\": " + std::to_string(report.total)
        + ", \"ok\": " + std::to_string(report.ok) + ", \"error\": " + std::to_string(report.error) + ", \"rejected\": "
        + std::to_string(report.rejected) + ", \"clock_skew\": " + std::to_string(report.clockSkew);
    if (!report.filter.empty()) {
        out += ", \"filter\": ";
        appendJsonString(out, report.filter);
    }
    if (report.includeErrors)
        out += ", \"errors_included\": true";
    out += "},\n  \"segments\": {";
    for (int s = 0; s < kSegmentCount; ++s) {
        out += s ? ",\n    \"" : "\n    \"";
        out += std::string(segmentName(static_cast<Segment>(s))) + "\": " + statisticJson(report.segments[s], p);
    }
    out += "\n  },\n  \"e2e\": " + statisticJson(report.e2e, p);
    out += ",\n  \"tokens\": {\n    \"ttft\": " + statisticJson(report.ttft, p) + ",\n    \"tpot\": " + statisticJson(report.tpot, p)
           + ",\n    \"itl\": " + statisticJson(report.itl, p) + ",\n    \"ttlt\": " + statisticJson(report.ttlt, p) + "\n  },";
    out += "\n  \"dominant\": {";
    for (int s = 0; s < kSegmentCount; ++s) {
        out += s ? ", \"" : "\"";
        out += std::string(segmentName(static_cast<Segment>(s))) + "\": " + jsonNumber(report.dominantShare(s), 6);
    }
    out += "},\n  \"dominant_count\": " + std::to_string(report.dominantTotal);
    out += joinAndTimeJson(report);
    out += ",\n  \"inputs\": " + inputsJson(report) + "\n}\n";
    return out;
}

std::string reportToText(const Report &report)
{
    std::string out = "Requests: " + std::to_string(report.total) + " (" + std::to_string(report.ok) + " ok, "
                      + std::to_string(report.error) + " error), " + std::to_string(report.rejected) + " rejected at import";
    if (report.clockSkew > 0)
        out += ", " + std::to_string(report.clockSkew) + " with clock skew";
    if (report.simulated())
        out += "\n" + simulatedSentence();
    if (!report.filter.empty())
        out += "\nFilter: " + report.filter + " (the counts and statistics are of the requests it keeps)";
    out += report.includeErrors ? "\nLatency statistics over every request, errors included; \"-\" means not measured.\n\n"
                                : "\nLatency statistics over the ok requests; \"-\" means not measured.\n\n";
    if (const std::string none = noLatencySentence(report); !none.empty())
        out += none + "\n\n";

    out += statisticsTable(report);

    out += "\nDominant segment (share of " + std::to_string(report.dominantTotal) + " requests):";
    for (Segment s : dominantSegmentsByShare(report))
        out += "  " + std::string(segmentName(s)) + " " + shareText(report.dominantShare(static_cast<int>(s)));
    out += joinAndTimeText(report);
    out += "\n\nInputs:\n";
    for (const InputSummary &in : report.inputs) {
        out += "  " + in.path + "  [" + (in.format.empty() ? std::string("?") : in.format) + "]  "
               + std::to_string(in.accepted) + " accepted, " + std::to_string(in.rejected) + " rejected, " + in.outcome;
        if (!in.message.empty())
            out += ": " + in.message;
        out += '\n';
    }
    return out;
}

std::string noLatencySentence(const Report &report)
{
    // With the errors left out of the statistics, their times, if any, are not counted here: say nothing.
    if (report.total == 0 || (report.error > 0 && !report.includeErrors))
        return {};
    std::int64_t measured = report.e2e.stat.count + report.ttft.stat.count + report.tpot.stat.count + report.itl.stat.count
                            + report.ttlt.stat.count;
    for (const MetricSummary &segment : report.segments)
        measured += segment.stat.count + segment.excluded;
    if (measured > 0)
        return {};
    return "No time is measured in these " + std::to_string(report.total)
           + " requests: the input holds their arrivals (and token counts), as a workload trace does. Its arrivals "
             "can drive a prediction from a measured trace: whatif --arrivals FILE TRACE (docs/WHATIF.md).";
}

std::string joinSentence(const JoinSummary &j)
{
    std::string out = "Client and server records joined: " + std::to_string(j.matched) + " matched, "
        + std::to_string(j.clientOnly) + " client only, " + std::to_string(j.serverOnly) + " server only";
    if (j.ambiguous > 0)
        out += ", " + std::to_string(j.ambiguous) + " ambiguous (a key shared by several records)";
    return out + " (network = client e2e - server e2e)";
}

std::string simulatedSentence()
{
    // A report on whatif's store had nothing to say so, and a finding of it advised synchronising clocks.
    return "Simulated: a what-if replay (whatif), not measured on a server; its figures and findings are the model's "
           "prediction.";
}

std::string relativeTimeSentence(std::int64_t requests)
{
    if (requests <= 0)
        return {};
    return "Times of " + std::to_string(requests)
           + " requests are relative to the start of their trace or request (no wall-clock date).";
}

} // namespace lx
