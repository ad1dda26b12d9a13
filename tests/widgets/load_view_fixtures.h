// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated traces the load view's suites draw (tst_load_view, tst_load_view_legibility).

#include "analysis/load_chart_data.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "test_support.h"

#include <QTemporaryDir>

#include <memory>

namespace lxtest {

/// A simulated trace imported into a temporary store, and core's load data over it.
struct Simulated {
    explicit Simulated(const lx::sim::SimConfig &config)
    {
        std::string text;
        lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) { lx::sim::appendTimestampsLine(text, r); });
        imported = importPaths({writeFile(dir, QStringLiteral("trace.jsonl"), QByteArray::fromStdString(text))});
        if (imported.store)
            data = std::make_shared<const lx::LoadChartData>(lx::computeLoadChartData(*imported.store, {}));
    }
    QTemporaryDir dir;
    Imported imported;
    std::shared_ptr<const lx::LoadChartData> data;
};

/// 32 slots, the offered load rising from 1 to 18 req/s: the knee is crossed near 9 req/s (tests/core/tst_load_analysis.cpp).
inline const Simulated &withKnee()
{
    static const Simulated simulated([] {
        lx::sim::SimConfig config;
        config.requests = 6000;
        return config;
    }());
    return simulated;
}

/// The same server, never loaded past 60% of its capacity.
inline const Simulated &withoutKnee()
{
    static const Simulated simulated([] {
        lx::sim::SimConfig config;
        config.endRateRps = 0.6 * lx::sim::estimatedCapacityRps(config);
        config.requests = 3000;
        return config;
    }());
    return simulated;
}

/// The load data of `from` with no knee and no bucket, for `reason` (core's noKneeReason), widerWindowsHelp
/// set: what a trace of too few full windows gives, the charts' empty state.
inline std::shared_ptr<const lx::LoadChartData> withoutBuckets(const lx::LoadChartData &from, const std::string &reason)
{
    auto data = std::make_shared<lx::LoadChartData>(from);
    for (lx::LoadAnalysis *load : { &data->byArrivalRate, &data->byInFlight }) {
        load->knee.reset();
        load->buckets.clear();
        load->noKneeReason = reason;
        load->widerWindowsHelp = true;
    }
    return data;
}

} // namespace lxtest
