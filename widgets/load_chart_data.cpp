// SPDX-License-Identifier: GPL-3.0-or-later
#include "load_chart_data.h"

#include "model/request.h"

LoadChartData computeLoadChartData(std::span<const lx::LatencyRow> rows, std::int64_t windowNs, bool includeErrors)
{
    lx::LoadOptions loadOptions;
    loadOptions.windowNs = windowNs;
    loadOptions.includeErrors = includeErrors;
    const lx::LoadProfile profile = lx::computeLoadProfile(rows, loadOptions);
    lx::KneeOptions kneeOptions;
    kneeOptions.includeErrors = includeErrors;
    LoadChartData data;
    kneeOptions.bucketBy = lx::LoadKey::ArrivalRate;
    data.byArrivalRate = lx::analyzeLoad(profile, rows, kneeOptions);
    kneeOptions.bucketBy = lx::LoadKey::InFlight;
    data.byInFlight = lx::analyzeLoad(profile, rows, kneeOptions);
    loadOptions.untilLastEnd = true;
    data.overTime = lx::computeLoadProfile(rows, loadOptions);
    // As the other time axes decide it (core/analysis/dominant_breakdown.cpp): relative when every start is.
    std::int64_t withStart = 0, relative = 0;
    for (const lx::LatencyRow &row : rows) {
        if (!lx::isMeasured(row.start))
            continue;
        ++withStart;
        relative += (row.flags & lx::kFlagRelativeTime) ? 1 : 0;
    }
    data.relativeTime = relative > 0 && relative == withStart;
    return data;
}

LoadChartData computeLoadChartData(const lx::Store &store, const lx::RequestFilter &filter, std::int64_t windowNs,
                                   bool includeErrors)
{
    const std::vector<lx::LatencyRow> rows = lx::readLatencyRows(store, filter);
    return computeLoadChartData(rows, windowNs, includeErrors);
}
