// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/diagnosis.h"

#include "store/latency_rows.h"
#include "analysis/load_profile.h"
#include "store/request_scan.h"

#include <algorithm>

namespace lx {

Diagnosis diagnose(const Store &store, const RequestFilter &filter, const DiagnosisOptions &options)
{
    Diagnosis d;
    LatencyRowCollector collector;
    collector.reserve(requestIdRange(store));
    AnalysisOptions withRows = options.analysis;
    withRows.rows = &collector;
    d.report = analyze(store, filter, withRows);
    const LatencyRows rows = collector.take();
    LoadOptions loadOptions;
    loadOptions.windowNs = options.windowNs;
    loadOptions.includeErrors = options.analysis.includeErrors;
    loadOptions.rowTimes = d.report.rowTimes; // of the rows collected: the scan counted them
    KneeOptions kneeOptions;
    kneeOptions.bucketBy = options.bucketBy;
    kneeOptions.includeErrors = options.analysis.includeErrors;
    const LoadProfile profile = computeLoadProfile(rows, loadOptions);
    d.load = analyzeLoad(profile, rows, kneeOptions);
    FindingsOptions findingsOptions;
    findingsOptions.includeErrors = options.analysis.includeErrors;
    // The tail's threshold is the report's own e2e percentile when it computed that one (p90 by default).
    const std::vector<double> &percentiles = d.report.percentiles;
    if (const auto at = std::find(percentiles.begin(), percentiles.end(), findingsOptions.tailPercentile);
        at != percentiles.end())
        findingsOptions.tailThresholdNs
            = d.report.e2e.stat.percentilesNs[static_cast<std::size_t>(at - percentiles.begin())];
    findingsOptions.windowTallies = profile.rowTallies; // what every request adds, counted already
    d.findings = findFindings(rows, &d.load, findingsOptions);
    d.slos = evaluateSlos(store, filter, options.slos, options.analysis.includeErrors);
    return d;
}

} // namespace lx
