// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_chart_data.h"

#include "analysis/time_axis.h"

namespace lx {

LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::int64_t windowNs, bool includeErrors)
{
    LoadOptions loadOptions;
    loadOptions.windowNs = windowNs;
    loadOptions.includeErrors = includeErrors;
    const LoadProfile profile = computeLoadProfile(rows, loadOptions);
    KneeOptions kneeOptions;
    kneeOptions.includeErrors = includeErrors;
    LoadChartData data;
    kneeOptions.bucketBy = LoadKey::ArrivalRate;
    data.byArrivalRate = analyzeLoad(profile, rows, kneeOptions);
    kneeOptions.bucketBy = LoadKey::InFlight;
    data.byInFlight = analyzeLoad(profile, rows, kneeOptions);
    loadOptions.untilLastEnd = true;
    data.overTime = computeLoadProfile(rows, loadOptions);
    TimeAxisCount axis;
    for (const LatencyRow &row : rows)
        axis.add(row.start, row.flags);
    data.relativeTime = axis.relative();
    return data;
}

LoadChartData computeLoadChartData(const Store &store, const RequestFilter &filter, std::int64_t windowNs,
                                   bool includeErrors)
{
    const std::vector<LatencyRow> rows = readLatencyRows(store, filter);
    return computeLoadChartData(rows, windowNs, includeErrors);
}

} // namespace lx
