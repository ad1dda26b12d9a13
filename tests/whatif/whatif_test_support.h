// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rows of a simulated trace as the what-if fit reads them (store/stamp_scan.h), straight from the
// generator without a store, so that traces of thousands of requests stay quick in the suites.

#include "model/decompose.h"
#include "simulation/server_simulation.h"
#include "store/stamp_scan.h"

#include <vector>

namespace whatiftest {

inline std::vector<lx::StampRow> simulatedStampRows(const lx::sim::SimConfig &config)
{
    std::vector<lx::StampRow> rows;
    lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) {
        lx::StampRow row;
        row.rowId = r.index + 1;
        row.sourceLine = r.index + 1;
        row.status = r.status;
        row.stamps = r.stamps;
        row.inputTokens = r.inputTokens;
        row.outputTokens = r.outputTokens;
        row.model = r.model;
        rows.push_back(std::move(row));
    });
    return rows;
}

/// A ramp from \a startShare to \a endShare of the generator's estimated capacity.
inline lx::sim::SimConfig rampConfig(int slotCount, double startShare, double endShare, int requests, std::uint64_t seed)
{
    lx::sim::SimConfig config;
    config.decodeSlots = slotCount;
    config.requests = requests;
    config.seed = seed;
    const double capacity = lx::sim::estimatedCapacityRps(config);
    config.startRateRps = startShare * capacity;
    config.endRateRps = endShare * capacity;
    return config;
}

/// The decomposition of the rows, as an import would make it.
inline std::vector<lx::RequestRecord> decomposed(const std::vector<lx::StampRow> &rows)
{
    std::vector<lx::RequestRecord> out;
    for (const lx::StampRow &row : rows) {
        lx::RequestRecord r;
        r.status = row.status;
        r.stamps = row.stamps;
        r.inputTokens = row.inputTokens;
        r.outputTokens = row.outputTokens;
        if (lx::decompose(r).empty())
            out.push_back(std::move(r));
    }
    return out;
}

} // namespace whatiftest
