// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/compare.h"

#include "model/percentiles.h"

#include <algorithm>
#include <tuple>

namespace lx {

Composition composition(std::span<const LatencyRow> rows, bool includeErrors, double loNs, double hiNs)
{
    Composition c;
    for (const LatencyRow &r : rows) {
        if (!inLatencyStats(r, includeErrors))
            continue;
        const auto e2e = static_cast<double>(r.e2e);
        if (e2e < loNs || e2e > hiNs)
            continue;
        ++c.count;
        c.e2eNs += e2e;
        for (int s = 0; s < kSegmentCount; ++s)
            c.partNs[static_cast<std::size_t>(s)] += static_cast<double>(r.part(s));
    }
    if (c.count > 0) {
        c.e2eNs /= static_cast<double>(c.count);
        for (double &part : c.partNs)
            part /= static_cast<double>(c.count);
    }
    return c;
}

Composition compositionAround(std::span<const LatencyRow> rows, double q, bool includeErrors)
{
    std::vector<std::int64_t> e2e;
    for (const LatencyRow &r : rows)
        if (inLatencyStats(r, includeErrors))
            e2e.push_back(r.e2e);
    const Statistic band = summarize(e2e, {std::max(0.0, q - 1), std::min(100.0, q + 1)});
    if (!band.percentilesNs[0])
        return {};
    return composition(rows, includeErrors, *band.percentilesNs[0], *band.percentilesNs[1]);
}

Comparison compareInvestigations(const Store &baseline, const RequestFilter &baselineFilter, const Store &incident,
                                 const RequestFilter &incidentFilter, const AnalysisOptions &options)
{
    Comparison c;
    const auto side = [&](const Store &store, const RequestFilter &filter, Report &report, Composition &mean, Composition &tail) {
        LatencyRowCollector collector;
        collector.reserve(requestIdRange(store));
        AnalysisOptions withRows = options;
        withRows.rows = &collector;
        report = analyze(store, filter, withRows);
        const LatencyRows rows = collector.take();
        mean = composition(rows, options.includeErrors);
        tail = compositionAround(rows, 95, options.includeErrors);
    };
    side(baseline, baselineFilter, c.baseline, c.baselineMean, c.baselineTail);
    side(incident, incidentFilter, c.incident, c.incidentMean, c.incidentTail);
    return c;
}

std::vector<std::string> comparisonCautions(const Comparison &c)
{
    std::vector<std::string> cautions;
    for (const auto &[side, report, mean] : { std::tuple { "baseline", &c.baseline, &c.baselineMean },
                                              std::tuple { "incident", &c.incident, &c.incidentMean } }) {
        if (report->total == 0)
            cautions.push_back(std::string("the ") + side + " holds no request: nothing is compared");
        else if (mean->count == 0)
            cautions.push_back(std::string("the ") + side
                               + " has no request in the latency statistics (errors count "
                                 "only with --include-errors): only its counts are compared");
    }
    if (!cautions.empty())
        return cautions;
    for (const auto &[side, report] : { std::pair { "baseline", &c.baseline }, std::pair { "incident", &c.incident } })
        if (report->simulated())
            cautions.push_back(std::string("the ") + side
                               + " is simulated (a what-if replay): its difference from the other side is the model's "
                                 "prediction and the model's own error, not a measurement");
    const std::string &was = c.baseline.e2e.scope, &is = c.incident.e2e.scope;
    if (was != is)
        cautions.push_back("e2e is measured on different clocks (baseline: " + was + ", incident: " + is
                           + "): its change mixes in time one side does not see, such as the network");
    std::string oneSided;
    for (int s = 0; s < kSegmentCount; ++s) {
        const bool before = c.baseline.segments[static_cast<std::size_t>(s)].stat.count > 0;
        const bool after = c.incident.segments[static_cast<std::size_t>(s)].stat.count > 0;
        if (before != after)
            oneSided += (oneSided.empty() ? "" : ", ") + std::string(segmentName(static_cast<Segment>(s))) + " ("
                + (before ? "baseline" : "incident") + ")";
    }
    if (!oneSided.empty())
        cautions.push_back("measured on one side only: " + oneSided
                           + "; their part of the split is what one side has and the other does not, not a change");
    return cautions;
}

} // namespace lx
