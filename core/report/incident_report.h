// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "analysis/findings.h"
#include "analysis/load_analysis.h"
#include "analysis/slo.h"

#include <string>
#include <utility>
#include <vector>

/// \file incident_report.h
/// The incident report: summary, SLOs, findings, the knee and the charts, as Markdown or as one
/// self-contained HTML file (inline CSS, images as data URIs, no external link). The charts are drawn by
/// the GUI's chart widgets; the caller hands them in as figures (the CLI has none to give).

namespace lx {

/// One chart as the caller rendered it.
struct ReportFigure {
    std::string title;
    std::string mime;  ///< "image/png" or "image/svg+xml"
    std::string bytes; ///< the file's bytes
};

struct IncidentReport {
    std::string title = "Latency incident report";
    const Report *report = nullptr;     ///< required
    const LoadAnalysis *load = nullptr; ///< optional
    std::vector<SloResult> slos;
    std::vector<Finding> findings;
    std::vector<ReportFigure> figures;
    /// What widens the load windows, for the reason there is no knee: the CLI's option, the GUI's box.
    std::string widthControl = "--window";
};

/// The report as one HTML document; figures embedded as base64 data URIs (SVG too, so no script runs).
std::string incidentReportHtml(const IncidentReport &input);

/// The report in Markdown. With a non-empty `figureBase` each figure is linked as the file
/// `<figureBase>-<n>.png` or `.svg` (incidentFigureFiles() gives them to write next to the .md); with an
/// empty one the figures are left out with a note.
std::string incidentReportMarkdown(const IncidentReport &input, const std::string &figureBase);

/// The figure files the Markdown links to: {file name, bytes}.
std::vector<std::pair<std::string, std::string>> incidentFigureFiles(const IncidentReport &input, const std::string &figureBase);

/// RFC 4648 base64 with padding.
std::string base64(std::string_view bytes);

} // namespace lx
