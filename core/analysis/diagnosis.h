// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "analysis/findings.h"
#include "analysis/load_analysis.h"
#include "analysis/slo.h"

#include <vector>

/// \file diagnosis.h
/// Everything an incident report says, from one scan of the requests: the decomposition report, the load
/// and its knee, the findings and the SLO verdicts. `report` and the desktop app's report export share it.

namespace lx {

class Store;

struct DiagnosisOptions {
    AnalysisOptions analysis;
    std::vector<SloTarget> slos;
    std::int64_t windowNs = 0; ///< the load profile's window; 0: a round automatic width
    LoadKey bucketBy = LoadKey::ArrivalRate;
};

struct Diagnosis {
    Report report;
    LoadAnalysis load;
    std::vector<Finding> findings;
    std::vector<SloResult> slos;
};

/// Analyses the requests matching `filter`: the load profile's rows come from the report's own scan.
Diagnosis diagnose(const Store &store, const RequestFilter &filter, const DiagnosisOptions &options = {});

} // namespace lx
