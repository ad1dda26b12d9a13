// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_diagnosis.h"

#include "duration_parse.h"
#include "findings.h"
#include "incident_report.h"
#include "report_format.h"
#include "report_sections.h"
#include "slo.h"

#include <fstream>

bool parseDiagnosisOption(CliArgs &args, DiagnosisRequest &request, std::string &error)
{
    std::string value;
    if (args.option("--slo", value)) {
        std::string why;
        if (!lx::parseSlo(value, &why))
            error = "--slo: " + why;
        request.slos.push_back(value);
        return true;
    }
    if (args.option("--window", value)) {
        std::string why;
        const auto ns = lx::parseDurationNs(value, &why);
        if (!ns || *ns <= 0)
            error = "--window: " + (why.empty() ? std::string("a window must be longer than 0") : why);
        else
            request.windowNs = *ns;
        return true;
    }
    if (args.option("--buckets-by", value)) {
        if (value != "rate" && value != "in-flight")
            error = "--buckets-by takes rate or in-flight, not '" + value + "'";
        request.bucketBy = value == "rate" ? lx::LoadKey::ArrivalRate : lx::LoadKey::InFlight;
        return true;
    }
    if (args.option("--format", value)) {
        if (value != "text" && value != "json" && value != "md" && value != "html")
            error = "--format takes text, json, md or html, not '" + value + "'";
        request.format = value;
        return true;
    }
    if (args.option("--out", value)) {
        request.outPath = value;
        return true;
    }
    return false;
}

namespace {

bool writeFile(const std::string &path, const std::string &bytes)
{
    std::ofstream file(path, std::ios::binary);
    file << bytes;
    return static_cast<bool>(file.flush());
}

/// The path without its extension, for the chart files beside a Markdown report.
std::string stem(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    const std::size_t dot = path.find_last_of('.');
    return dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
}

} // namespace

int writeDiagnosedReport(const lx::Store &store, const lx::RequestFilter &filter, const lx::AnalysisOptions &options,
                         const DiagnosisRequest &request, std::ostream &out, std::ostream &err)
{
    std::vector<lx::SloTarget> targets;
    for (const std::string &text : request.slos) {
        std::string why;
        if (auto target = lx::parseSlo(text, &why))
            targets.push_back(std::move(*target));
        else {
            err << "report: --slo: " << why << '\n';
            return 1;
        }
    }
    // The load profile's rows come from the report's own scan.
    lx::LatencyRowCollector collector;
    collector.reserve(lx::requestIdRange(store));
    lx::AnalysisOptions withRows = options;
    withRows.alsoVisit = std::ref(collector);
    const lx::Report report = lx::analyze(store, filter, withRows);
    const std::vector<lx::LatencyRow> rows = collector.take();
    lx::LoadOptions loadOptions;
    loadOptions.windowNs = request.windowNs;
    loadOptions.includeErrors = options.includeErrors;
    lx::KneeOptions kneeOptions;
    kneeOptions.bucketBy = request.bucketBy;
    kneeOptions.includeErrors = options.includeErrors;
    const lx::LoadAnalysis load = lx::analyzeLoad(lx::computeLoadProfile(rows, loadOptions), rows, kneeOptions);
    lx::FindingsOptions findingsOptions;
    findingsOptions.includeErrors = options.includeErrors;
    const std::vector<lx::Finding> findings = lx::findFindings(rows, &load, findingsOptions);
    const std::vector<lx::SloResult> slos = lx::evaluateSlos(store, filter, targets, options.includeErrors);

    std::string text;
    std::vector<std::pair<std::string, std::string>> figureFiles;
    if (request.format == "json") {
        std::vector<std::pair<std::string, std::string>> members = {{"load", lx::loadToJson(load)},
                                                                     {"findings", lx::findingsToJson(findings)}};
        if (!targets.empty())
            members.emplace_back("slos", lx::slosToJson(slos));
        text = lx::withMembers(lx::reportToJson(report), members);
    } else if (request.format == "md" || request.format == "html") {
        lx::IncidentReport incident;
        incident.report = &report;
        incident.load = &load;
        incident.slos = slos;
        incident.findings = findings;
        // The CLI draws no charts: incident.figures stays empty until the GUI's chart widgets hand theirs in.
        if (request.format == "html") {
            text = lx::incidentReportHtml(incident);
        } else {
            const std::string base = request.outPath.empty() ? std::string() : stem(request.outPath);
            text = lx::incidentReportMarkdown(incident, base);
            figureFiles = lx::incidentFigureFiles(incident, base);
        }
    } else {
        text = lx::reportToText(report) + "\n" + lx::slosToText(slos) + (slos.empty() ? "" : "\n") + lx::loadToText(load) + "\n"
               + lx::findingsToText(findings);
    }
    if (request.outPath.empty()) {
        out << text;
        return 0;
    }
    if (!writeFile(request.outPath, text)) {
        err << request.outPath << ": cannot write the report\n";
        return 2;
    }
    for (const auto &[path, bytes] : figureFiles) {
        if (!writeFile(path, bytes)) {
            err << path << ": cannot write the chart\n";
            return 2;
        }
    }
    return 0;
}
