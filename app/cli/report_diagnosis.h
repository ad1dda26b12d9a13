// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "cli_args.h"
#include "analysis/load_analysis.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

/// \file report_diagnosis.h
/// What `report` says beyond the decomposition: the load and its knee, the findings, the SLOs (--slo), and
/// the incident report (--format md|html, --out FILE).

namespace lx {
class Store;
}

constexpr const char *kDiagnosisUsage
    = "  --slo TARGET           e.g. \"e2e.p95<=2s\" or \"ttft.p99<500ms where model = x\" (repeatable)\n"
      "  --window DURATION      load profile window, e.g. 10s (default: a round width, at most 200 windows;\n"
      "                         one that would make more than 100,000 is widened, with a notice)\n"
      "  --buckets-by rate|in-flight  load buckets by arrival rate (default) or requests in flight\n"
      "  --format text|json|md|html  output form (--json is --format json); md and html are the incident report\n"
      "  --out FILE             write there instead of standard output; .json, .md or .html choose the form\n"
      "                         unless --format does (md: charts go beside it); never over a store\n";

struct DiagnosisRequest {
    std::vector<std::string> slos;
    std::int64_t windowNs = 0;
    std::string windowText; ///< --window as it was written, for the notice when it is widened
    lx::LoadKey bucketBy = lx::LoadKey::ArrivalRate;
    std::string format = "text"; ///< text, json, md or html
    bool formatGiven = false; ///< by --format or --json: the other may not say otherwise
    std::string outPath;
    /// The stores given that could not be merged: listed first among the report's inputs, which otherwise
    /// are the store's import runs and would not name them.
    std::vector<lx::InputSummary> unmerged;
    std::string filterText; ///< the filter options as given (givenText()), which the report states
};

/// Sets the report's format (`--format VALUE`, or `--json` for "json"); why not when another was given.
std::string chooseFormat(DiagnosisRequest &request, const std::string &value);

/// Consumes one of the options above when it is next; `error` says why its value is wrong.
bool parseDiagnosisOption(CliArgs &args, DiagnosisRequest &request, std::string &error);

/// Settles --out: the report's form from the file's suffix (.json, .md, .html) unless --format or --json
/// gave it; and why the file cannot be written, empty when it can: it is one of the inputs (the same file
/// by any path), or an investigation store, either of which the report would replace.
std::string settleOutput(DiagnosisRequest &request, const std::vector<std::string> &inputs);

/// Whether the file at `path` is an SQLite database (a store): its first 16 bytes say so.
bool isSqliteDatabase(const std::string &path);

/// The file name's suffix after its last dot, in lower case ("json" of "R.JSON"); empty without one.
std::string lowerSuffix(const std::string &path);

/// Writes `bytes` as the file at `path`, whole or not at all (QSaveFile): a full disk leaves no half report,
/// and an older file at `path` stays as it was.
bool writeWholeFile(const std::string &path, const std::string &bytes);

/// Analyses the store (one scan for the report and the load), finds the findings, evaluates the SLOs and
/// writes the chosen form. \a sound, when given, is asked after the analysis and before anything is
/// written (the store's deferred integrity check: OpenedInvestigation::sound()). Returns 0, 1 for a bad
/// SLO, 2 when the store is not sound or the output cannot be written.
int writeDiagnosedReport(const lx::Store &store, const lx::RequestFilter &filter, const lx::AnalysisOptions &options,
                         const DiagnosisRequest &request, std::ostream &out, std::ostream &err,
                         const std::function<bool()> &sound = {});
