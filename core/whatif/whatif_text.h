// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "whatif/whatif_run.h"

#include <string>
#include <vector>

/// \file whatif_text.h
/// What `whatif` says: the fitted model, the observed and predicted decomposition side by side (p50, p90,
/// p99 of every segment, e2e and TTFT), the knees, the SLO verdicts and one sentence, as text or JSON.

namespace lx::whatif {

/// "with 2 replicas (rr) p99 e2e 41 s → 6.2 s; queue stops dominating (decode now)"; with \a arrivals (an
/// external workload's name) "with the arrivals of azure.csv, 2 replicas (rr) ...".
std::string summarySentence(const ReplayChanges &changes, const Side &observed, const Side &predicted,
                            const std::string &arrivals = {});

/// One line per SLO target evaluated on both sides: "SLO e2e.p95<=2s: observed FAIL 3.1 s, predicted PASS 1.2 s".
std::vector<std::string> sloVerdictLines(const Side &observed, const Side &predicted);

/// The model in a few lines: each parameter with its ± standard error and n, or why it was not fitted.
std::string modelToText(const ServerFit &fit);

/// Why a prediction for the filtered requests alone may mislead (they shared the server with the rest);
/// empty without a filter. The text and the JSON ("caution") carry it.
std::string filterCaution(const WhatIfRequest &request);

/// The text output of a finished run (outcome.observed and outcome.predicted set).
std::string whatIfToText(const WhatIfRequest &request, const WhatIfOutcome &outcome);

/// {"model": {...}, "changes": {...}, "observed": <report --json with load and slos>, "predicted": ..., "summary": "..."}
std::string whatIfToJson(const WhatIfRequest &request, const WhatIfOutcome &outcome);

} // namespace lx::whatif
