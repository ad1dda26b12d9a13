// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/incident_report.h"

#include "model/duration_format.h"
#include "model/percentiles.h"
#include "report/dominant_order.h"
#include "report/report_format.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

namespace lx {

namespace {

std::string percent(double share)
{
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
    return text;
}

/// The sentence with a capital letter, as a paragraph's first word.
std::string capitalized(std::string text)
{
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z')
        text[0] = static_cast<char>(text[0] - 'a' + 'A');
    return text;
}

std::string duration(std::optional<double> ns) { return ns ? formatDuration(*ns) : std::string("-"); }

/// The value of percentile q in a statistic, when the report computed it.
std::optional<double> percentileOf(const Report &report, const Statistic &stat, double q)
{
    for (std::size_t i = 0; i < report.percentiles.size(); ++i)
        if (report.percentiles[i] == q)
            return stat.percentilesNs[i];
    return std::nullopt;
}

/// A table as rows of cells; the first row is the header. Rendered once for each output format.
using Table = std::vector<std::vector<std::string>>;

/// The percentile a one-line summary quotes: p95 when it was computed, else the highest one that was
/// (a report asked for --percentiles 25,75 has no p95 to quote).
std::optional<double> headlinePercentile(const Report &r)
{
    if (std::find(r.percentiles.begin(), r.percentiles.end(), 95.0) != r.percentiles.end())
        return 95.0;
    if (r.percentiles.empty())
        return std::nullopt;
    return *std::max_element(r.percentiles.begin(), r.percentiles.end());
}

/// The statistics table, one column for each percentile the report computed (as the text report has).
Table segmentTable(const Report &r)
{
    std::vector<std::string> header{"", "count", "mean"};
    for (double q : r.percentiles)
        header.push_back(percentileKey(q));
    header.push_back("max");
    Table t{header};
    const auto row = [&](const std::string &name, const MetricSummary &m) {
        std::vector<std::string> cells{name, std::to_string(m.stat.count), duration(m.stat.meanNs)};
        for (double q : r.percentiles)
            cells.push_back(duration(percentileOf(r, m.stat, q)));
        cells.push_back(duration(m.stat.maxNs));
        t.push_back(std::move(cells));
    };
    for (int s = 0; s < kSegmentCount; ++s)
        row(std::string(segmentName(static_cast<Segment>(s))), r.segments[static_cast<std::size_t>(s)]);
    row("e2e", r.e2e);
    row("TTFT", r.ttft);
    row("TPOT", r.tpot);
    return t;
}

Table sloTable(const std::vector<SloResult> &slos)
{
    Table t{{"SLO", "result", "value", "margin", "budget at the percentile"}};
    for (const SloResult &s : slos)
        t.push_back({s.target.text, !s.valueNs ? "no data" : s.pass ? "pass" : "FAIL", duration(s.valueNs),
                     s.valueNs ? (s.marginNs >= 0 ? formatDuration(s.marginNs) + " to spare" : formatDuration(-s.marginNs) + " over") : "-",
                     s.budgetSentence()});
    return t;
}

Table bucketTable(const LoadAnalysis &load)
{
    Table t{{load.bucketBy == LoadKey::ArrivalRate ? "arrival rate (req/s)" : "in flight", "requests", "e2e mean", "e2e p95",
             "largest segment"}};
    for (const LoadBucket &b : load.buckets) {
        if (b.count == 0)
            continue;
        char range[64];
        std::snprintf(range, sizeof range, "%.3g - %.3g", b.loadLo, b.loadHi);
        std::size_t top = 0;
        for (std::size_t s = 1; s < b.segmentMeanNs.size(); ++s)
            if (b.segmentMeanNs[s] > b.segmentMeanNs[top])
                top = s;
        const double share = b.e2eMeanNs && *b.e2eMeanNs > 0 ? b.segmentMeanNs[top] / *b.e2eMeanNs : 0.0;
        t.push_back({range, std::to_string(b.count), duration(b.e2eMeanNs), duration(b.e2eP95Ns),
                     std::string(segmentName(static_cast<Segment>(top))) + " " + percent(share)});
    }
    return t;
}

/// The files the figures come from, as the text report lists them: whoever reads the report later can
/// tell which dump it describes, and whether every file of it was read whole.
Table inputsTable(const Report &r)
{
    Table t { { "file", "format", "accepted", "rejected", "outcome" } };
    for (const InputSummary &in : r.inputs)
        t.push_back({ in.path, in.format.empty() ? "?" : in.format, std::to_string(in.accepted),
                      std::to_string(in.rejected), in.message.empty() ? in.outcome : in.outcome + ": " + in.message });
    return t;
}

std::string summaryLine(const Report &r)
{
    std::string out = std::to_string(r.total) + " requests (" + std::to_string(r.ok) + " ok, " + std::to_string(r.error)
                      + " error)";
    if (!r.filter.empty())
        out += " kept by the filter " + r.filter + (r.firstStartNs != kNotMeasured ? "," : "");
    if (r.firstStartNs != kNotMeasured)
        out += " from " + formatInstant(r.firstStartNs, r.timesAreOffsets(), 0) + " to "
            + formatInstant(r.lastStartNs, r.timesAreOffsets(), 0);
    out += ".";
    if (r.rejected > 0)
        out += " " + std::to_string(r.rejected) + " records were rejected at import.";
    if (r.includeErrors)
        out += " The latency figures count the error requests too.";
    if (r.simulated())
        out += " " + simulatedSentence();
    const std::optional<double> headline = headlinePercentile(r);
    out += " e2e " + (headline ? percentileKey(*headline) + " " + duration(percentileOf(r, r.e2e.stat, *headline)) + ", " : std::string())
           + "mean " + duration(r.e2e.stat.meanNs) + ".";
    std::string dominant; // as the text report says it: by share, a rare segment never "0%"
    for (const Segment s : dominantSegmentsByShare(r))
        dominant += (dominant.empty() ? "" : ", ") + std::string(segmentName(s)) + " "
                    + shareText(r.dominantShare(static_cast<int>(s)));
    if (!dominant.empty())
        out += " Largest segment of each request: " + dominant + ".";
    if (const std::string none = noLatencySentence(r); !none.empty())
        out += " " + none;
    return out;
}

// ----------------------------------------------------------------------------------------- Markdown

std::string markdownCell(std::string text)
{
    std::string out;
    for (char c : text)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string markdownTable(const Table &t)
{
    std::string out;
    for (std::size_t r = 0; r < t.size(); ++r) {
        out += "|";
        for (const std::string &cell : t[r])
            out += " " + markdownCell(cell) + " |";
        out += "\n";
        if (r == 0) {
            out += "|";
            for (std::size_t c = 0; c < t[0].size(); ++c)
                out += c == 0 ? " --- |" : " ---: |";
            out += "\n";
        }
    }
    return out;
}

std::string figureExtension(const ReportFigure &f) { return f.mime == "image/svg+xml" ? ".svg" : ".png"; }

/// A PNG's width and height in pixels, from its IHDR chunk (which the format puts first); none for any
/// other file.
std::optional<std::pair<std::uint32_t, std::uint32_t>> pngSize(std::string_view bytes)
{
    constexpr std::string_view kSignature("\x89PNG\r\n\x1a\n", 8);
    if (bytes.size() < 24 || bytes.substr(0, 8) != kSignature || bytes.substr(12, 4) != "IHDR")
        return std::nullopt;
    const auto be32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i)
            v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
        return v;
    };
    return std::pair(be32(16), be32(20));
}

// --------------------------------------------------------------------------------------------- HTML

std::string html(std::string_view text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string htmlTable(const Table &t)
{
    std::string out = "<table>\n";
    for (std::size_t r = 0; r < t.size(); ++r) {
        out += "<tr>";
        for (std::size_t c = 0; c < t[r].size(); ++c) {
            const char *tag = r == 0 ? "th" : "td";
            out += std::string("<") + tag + (c > 0 && r > 0 ? " class=\"num\"" : "") + ">" + html(t[r][c]) + "</" + tag + ">";
        }
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

constexpr const char *kCss =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .7em;border-bottom:1px solid #eee;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f5f5f5}"
    ".fail{color:#b00020;font-weight:600}.pass{color:#1b5e20}.knee{font-size:1.1em;background:#fff8e1;padding:.6em;border-left:4px solid #f9a825}"
    "code{background:#f3f3f3;padding:.1em .3em;border-radius:3px}"
    // A chart is shown at its own pixel size, so that its text is as large as in the app, and may be wider
    // than the text column: centred on it, no wider than the window. Its caption is its heading, above it,
    // close to it, and far from the chart before.
    "figure{margin:2.2em 0 1em;position:relative;left:50%;transform:translateX(-50%);max-width:calc(100vw - 2em)}"
    "figure img{display:block;width:100%;height:auto;border:1px solid #eee}"
    "figcaption{font-weight:600;margin:0 0 .4em}img{max-width:100%}"
    "li{margin-bottom:.6em}.muted{color:#666}";

} // namespace

std::string base64(std::string_view bytes)
{
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const auto n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16
                       | static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8
                       | static_cast<unsigned char>(bytes[i + 2]);
        out += kAlphabet[n >> 18 & 63];
        out += kAlphabet[n >> 12 & 63];
        out += kAlphabet[n >> 6 & 63];
        out += kAlphabet[n & 63];
    }
    if (i < bytes.size()) {
        std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        out += kAlphabet[n >> 18 & 63];
        out += kAlphabet[n >> 12 & 63];
        out += i + 1 < bytes.size() ? kAlphabet[n >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> incidentFigureFiles(const IncidentReport &input, const std::string &figureBase)
{
    std::vector<std::pair<std::string, std::string>> files;
    if (figureBase.empty())
        return files;
    for (std::size_t i = 0; i < input.figures.size(); ++i)
        files.emplace_back(figureBase + "-" + std::to_string(i + 1) + figureExtension(input.figures[i]), input.figures[i].bytes);
    return files;
}

std::string incidentReportMarkdown(const IncidentReport &input, const std::string &figureBase)
{
    const Report &r = *input.report;
    std::string out = "# " + input.title + "\n\n## Summary\n\n" + summaryLine(r) + "\n\n" + markdownTable(segmentTable(r));
    if (!input.slos.empty())
        out += "\n## SLOs\n\n" + markdownTable(sloTable(input.slos));
    out += "\n## Findings\n\n";
    if (input.findings.empty())
        out += "None.\n";
    for (std::size_t i = 0; i < input.findings.size(); ++i) {
        const Finding &f = input.findings[i];
        out += std::to_string(i + 1) + ". **" + f.title + "** (" + percent(f.tailShare) + " of the tail). " + f.evidence
               + ".  \n   Fix: " + f.fix + ".  \n   Filter: `" + f.filter + "`\n";
    }
    if (input.load) {
        out += "\n## Load and the knee\n\n**" + capitalized(input.load->sentence(input.widthControl)) + "**\n\n";
        if (input.load->knee)
            out += "The load reached the knee at "
                + formatInstant(input.load->knee->timeNs, input.load->profile.relativeTime, 0) + ".\n\n";
        out += markdownTable(bucketTable(*input.load));
    }
    if (!input.figures.empty()) {
        out += "\n## Charts\n\n";
        const auto files = incidentFigureFiles(input, figureBase);
        if (files.empty())
            out += "_" + std::to_string(input.figures.size()) + " charts left out: written to standard output, the report has no folder for them._\n";
        for (std::size_t i = 0; i < files.size(); ++i) {
            const std::string name = files[i].first.substr(files[i].first.find_last_of('/') + 1);
            out += "![" + input.figures[i].title + "](" + name + ")\n\n";
        }
    }
    if (!r.inputs.empty())
        out += "\n## Inputs\n\n" + markdownTable(inputsTable(r));
    return out;
}

std::string incidentReportHtml(const IncidentReport &input)
{
    const Report &r = *input.report;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html(input.title)
                      + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n<h1>" + html(input.title) + "</h1>\n";
    out += "<h2>Summary</h2>\n<p>" + html(summaryLine(r)) + "</p>\n" + htmlTable(segmentTable(r));
    if (input.load)
        out += "<p class=\"knee\">" + html(capitalized(input.load->sentence(input.widthControl))) + "</p>\n";
    if (!input.slos.empty()) {
        out += "<h2>SLOs</h2>\n<ul>\n";
        for (const SloResult &s : input.slos) {
            const bool failed = s.valueNs && !s.pass;
            out += std::string("<li><span class=\"") + (failed ? "fail" : "pass") + "\">"
                   + (!s.valueNs ? "no data" : s.pass ? "pass" : "FAIL") + "</span> <code>" + html(s.target.text) + "</code>: "
                   + html(duration(s.valueNs));
            if (s.valueNs)
                out += html(s.marginNs >= 0 ? ", " + formatDuration(s.marginNs) + " to spare" : ", " + formatDuration(-s.marginNs) + " over");
            if (s.budgetDominant >= 0)
                out += "; " + html(s.budgetSentence());
            out += "</li>\n";
        }
        out += "</ul>\n";
    }
    out += "<h2>Findings</h2>\n";
    if (input.findings.empty())
        out += "<p>None.</p>\n";
    else
        out += "<ol>\n";
    for (const Finding &f : input.findings)
        out += "<li><strong>" + html(f.title) + "</strong> <span class=\"muted\">(" + percent(f.tailShare) + " of the tail)</span><br>"
               + html(f.evidence) + ".<br>Fix: " + html(f.fix) + ".<br>Filter: <code>" + html(f.filter) + "</code></li>\n";
    if (!input.findings.empty())
        out += "</ol>\n";
    if (input.load) {
        out += "<h2>Load and the knee</h2>\n";
        if (input.load->knee)
            out += "<p>The load reached the knee at "
                + html(formatInstant(input.load->knee->timeNs, input.load->profile.relativeTime, 0)) + ".</p>\n";
        out += htmlTable(bucketTable(*input.load));
    }
    if (!input.figures.empty()) {
        out += "<h2>Charts</h2>\n";
        for (const ReportFigure &f : input.figures) {
            const auto size = pngSize(f.bytes);
            const std::string width = size ? std::to_string(size->first) : std::string();
            out += (size ? "<figure style=\"width:" + width + "px\">" : std::string("<figure>")) + "<figcaption>" + html(f.title)
                   + "</figcaption><img alt=\"" + html(f.title) + "\"";
            if (size)
                out += " width=\"" + width + "\" height=\"" + std::to_string(size->second) + "\"";
            out += " src=\"data:" + html(f.mime) + ";base64," + base64(f.bytes) + "\"></figure>\n";
        }
    }
    if (!r.inputs.empty())
        out += "<h2>Inputs</h2>\n" + htmlTable(inputsTable(r));
    out += "<p class=\"muted\">Made by Latency Explorer.</p>\n</body>\n</html>\n";
    return out;
}

} // namespace lx
