// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "clickhouse_import.h"
#include "filter_options.h"
#include "report_diagnosis.h"

#include <ostream>
#include <string>

/// \file report_from.h
/// `latency-explorer-cli report --from clickhouse://...` (docs/CLICKHOUSE.md): the window pulled into a
/// temporary store and reported as `report FILE` reports a file, or with --push-down its figures computed
/// in ClickHouse (core/source/clickhouse_pushdown.h), labelled so.

/// What report takes beside its own options when it reads from a trace store.
struct ReportFromArgs {
    ClickHouseImportArgs pull; ///< --from, --service, --user, --timeout, --max-spans (--time-range is the filter's)
    bool pushDown = false;     ///< --push-down
    bool approximate = false;  ///< --approximate (with --push-down): quantilesTDigest
};

/// The usage lines of these options.
extern const char *const kReportFromUsage;

/// Reports the window; returns the exit status (0; 1 usage; 2 the store's or ClickHouse's failure, a
/// refused mapping or window, no request; 130 cancelled).
int runReportFrom(ReportFromArgs args, FilterOptions filter, const std::string &mapping, const lx::AnalysisOptions &options,
                  const DiagnosisRequest &diagnosis, std::ostream &out, std::ostream &err);
