// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "analysis/load_analysis.h"
#include "analysis/slo.h"
#include "whatif/replay.h"
#include "whatif/server_fit.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

/// \file whatif_run.h
/// The whole "what if" as one call, for the CLI's `whatif` and a background job of the app: fit the model
/// to an observed investigation, replay (its arrivals or an external workload's) with the changes into a
/// new store flagged simulated, and analyse both sides the same way (the report, the load and its knee,
/// the SLOs). Qt-free; a cancel flag and a progress callback let a worker thread stop it.

namespace lx {
class Store;
}

namespace lx::whatif {

/// One side of the comparison: what every view shows of an investigation.
struct Side {
    Report report;
    LoadAnalysis load;
    std::vector<SloResult> slos;
};

/// The report (p50, p90, p99), the load with its knee and the SLOs of the requests of a store that \a filter
/// keeps, as `report` computes them.
Side analyzeSide(const Store &store, const std::vector<SloTarget> &slos, const RequestFilter &filter = {});

struct WhatIfRequest {
    ReplayChanges changes;
    /// The observed requests the model is fitted to, whose arrivals are replayed and whose side is shown
    /// (the app's filter, the CLI's --filter): "what if" for one model or one window of the trace.
    RequestFilter filter;
    std::string filterText;            ///< the filter in words, for the output and the marker; empty for none
    std::vector<SloTarget> slos;       ///< evaluated on both sides
    const Store *arrivals = nullptr;   ///< an external workload's investigation; null replays the observed arrivals
    std::string arrivalsName;          ///< its file name, for the marker and the messages
    std::string observedName;          ///< the observed investigation's name, for the marker
};

struct WhatIfOutcome {
    ServerFit fit;                     ///< without its residuals, which the replay alone needs
    ReplayResult replayed;             ///< its requests are let go once written
    std::optional<Side> observed, predicted;
    std::string refused;               ///< why there is no prediction; empty when there is one
    bool storeUnwritten = false; ///< refused because the simulated store could not be written (named in refused)
    bool cancelled = false;
};

/// Fits \a observed, replays into \a out (a new, empty store: a file of `--out` or a temporary one) and
/// analyses both. \a progress sees the replay's requests; returning false cancels, as \a cancel does.
WhatIfOutcome runWhatIf(const Store &observed, Store &out, const WhatIfRequest &request,
                        const std::atomic<bool> *cancel = nullptr, const ReplayProgress &progress = {});

/// \a text as a JSON string, a control character as a space: the names and filters in the marker and output.
std::string jsonString(const std::string &text);

/// The changes in words: "2 replicas (rr), arrivals ×1.5"; "no change" for none.
std::string changesText(const ReplayChanges &changes);
/// The changes as a JSON object.
std::string changesJson(const ReplayChanges &changes);

} // namespace lx::whatif
