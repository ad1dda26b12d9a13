// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_diagnosis.h"

#include "analysis/diagnosis.h"
#include "analysis/findings.h"
#include "analysis/slo.h"
#include "headless_charts.h"
#include "model/duration_format.h"
#include "model/duration_parse.h"
#include "no_request.h"
#include "platform/utf8_path.h"
#include "report/incident_report.h"
#include "report/report_format.h"
#include "report/report_sections.h"

#include <QSaveFile>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>

std::string chooseFormat(DiagnosisRequest &request, const std::string &value)
{
    // --format given twice is refused before this (CliArgs::single()): a second format here is --json's.
    if (request.formatGiven && request.format != value)
        return "--json and --format " + (value == "json" ? request.format : value) + " ask for two formats: give one";
    request.format = value;
    request.formatGiven = true;
    return {};
}

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
        request.windowText = value;
        return true;
    }
    if (args.option("--buckets-by", value)) {
        if (value != "rate" && value != "in-flight")
            error = "--buckets-by takes rate or in-flight, not '" + value + "'";
        request.bucketBy = value == "rate" ? lx::LoadKey::ArrivalRate : lx::LoadKey::InFlight;
        return true;
    }
    if (args.single("--format", value)) {
        if (value != "text" && value != "json" && value != "md" && value != "html")
            error = "--format takes text, json, md or html, not '" + value + "'";
        else
            error = chooseFormat(request, value);
        return true;
    }
    if (args.single("--out", value)) {
        request.outPath = value;
        return true;
    }
    return false;
}

std::string settleOutput(DiagnosisRequest &request, const std::vector<std::string> &inputs)
{
    if (request.outPath.empty())
        return {};
    for (const std::string &input : inputs) {
        std::error_code ec;
        if (input == request.outPath
            || std::filesystem::equivalent(lx::utf8Path(input), lx::utf8Path(request.outPath), ec))
            return "--out " + request.outPath + " is one of the inputs: the report would replace it";
    }
    // A report written over an investigation lost it, without a word: `report --out x.lxdb` for `--db`.
    if (isSqliteDatabase(request.outPath))
        return "--out " + request.outPath
            + " is an investigation store (SQLite): the report would replace it; give the report another file name";
    // `--out r.json` wrote the text report into r.json: the name's suffix says the form unless --format does.
    if (!request.formatGiven) {
        const std::string suffix = lowerSuffix(request.outPath);
        if (suffix == "json" || suffix == "md" || suffix == "html")
            request.format = suffix;
        else if (suffix == "htm")
            request.format = "html";
    }
    return {};
}

bool isSqliteDatabase(const std::string &path)
{
    char head[16] = {};
    std::FILE *file = lx::openFile(path, "rb");
    if (!file)
        return false;
    const bool read = std::fread(head, 1, sizeof head, file) == sizeof head;
    std::fclose(file);
    return read && std::memcmp(head, "SQLite format 3", sizeof head) == 0; // the 16 bytes, its NUL included
}

std::string lowerSuffix(const std::string &path)
{
    const std::string name = lx::utf8Name(lx::utf8Path(path).filename());
    const std::size_t dot = name.find_last_of('.');
    std::string suffix = dot == std::string::npos ? std::string() : name.substr(dot + 1);
    for (char &c : suffix)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return suffix;
}

bool writeWholeFile(const std::string &path, const std::string &bytes)
{
    // QSaveFile writes beside the file and renames it over once every write succeeded (as chart exports do).
    QSaveFile file(QString::fromStdString(path));
    return file.open(QIODevice::WriteOnly)
        && file.write(bytes.data(), static_cast<qint64>(bytes.size())) == static_cast<qint64>(bytes.size())
        && file.commit();
}

namespace {

const char *const kMaxWindowsText = "100,000"; // lx::kMaxProfileWindows, as the README's "Limits" writes it
static_assert(lx::kMaxProfileWindows == 100'000);

/// The path without its extension, for the chart files beside a Markdown report.
std::string stem(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    const std::size_t dot = path.find_last_of('.');
    return dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
}

} // namespace

int writeDiagnosedReport(const lx::Store &store, const lx::RequestFilter &filter, const lx::AnalysisOptions &options,
                         const DiagnosisRequest &request, std::ostream &out, std::ostream &err, const std::function<bool()> &sound)
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
    lx::DiagnosisOptions diagnosisOptions;
    diagnosisOptions.analysis = options;
    diagnosisOptions.slos = targets;
    diagnosisOptions.windowNs = request.windowNs;
    diagnosisOptions.bucketBy = request.bucketBy;
    lx::Diagnosis diagnosis = lx::diagnose(store, filter, diagnosisOptions);
    if (sound && !sound())
        return 2; // what was read of a damaged file is not said
    diagnosis.report.inputs.insert(diagnosis.report.inputs.begin(), request.unmerged.begin(), request.unmerged.end());
    diagnosis.report.filter = request.filterText;
    const lx::Report &report = diagnosis.report;
    // A report of dashes and "Findings: none" said nothing of why: a misspelt model, a range beside the trace.
    if (report.total == 0 && !filter.empty())
        if (const std::string hint = noMatchHint(store); !hint.empty())
            err << "report: " << hint << '\n';
    const lx::LoadAnalysis &load = diagnosis.load;
    const std::vector<lx::Finding> &findings = diagnosis.findings;
    const std::vector<lx::SloResult> &slos = diagnosis.slos;
    if (load.profile.requestedWindowNs > 0) {
        // Said, not refused: the report is still worth having, at the narrowest width the bound allows.
        err << "report: --window " << request.windowText << " would make more than " << kMaxWindowsText << " windows over this trace; widened to "
            << lx::formatDuration(static_cast<double>(load.profile.windowNs)) << '\n';
    }

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
        incident.figures = drawReportFigures(store, filter); // the GUI's own charts, drawn offscreen
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
    if (!writeWholeFile(request.outPath, text)) {
        err << request.outPath << ": cannot write the report\n";
        return 2;
    }
    for (const auto &[path, bytes] : figureFiles) {
        if (!writeWholeFile(path, bytes)) {
            err << path << ": cannot write the chart\n";
            return 2;
        }
    }
    return 0;
}
