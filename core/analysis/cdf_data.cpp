// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/cdf_data.h"

#include "model/percentiles.h"
#include "model/radix_sort.h"
#include "store/request_scan.h"
#include "store/store.h"

#include <algorithm>
#include <thread>

namespace lx {

namespace {

/// Up to this many samples a curve keeps every one.
constexpr std::size_t kExactSamples = 4096;
/// Samples at the very top (above p99.9) kept one by one before thinning.
constexpr std::size_t kTailSamples = 1000;

/// The ranks a curve keeps: every 0.1 % up to p99, every 0.001 % up to p99.9, then the last thousand
/// samples (or a thousand evenly spaced ones above p99.9). Ascending, possibly repeated.
std::vector<std::size_t> keptRanks(std::size_t n)
{
    std::vector<std::size_t> ranks;
    if (n <= kExactSamples) {
        ranks.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            ranks[i] = i;
        return ranks;
    }
    const auto rankAt = [n](std::size_t step, std::size_t steps) { return step * (n - 1) / steps; };
    for (std::size_t k = 0; k < 990; ++k) // p0 ... p98.9
        ranks.push_back(rankAt(k, 1000));
    for (std::size_t k = 99000; k < 99900; ++k) // p99 ... p99.899
        ranks.push_back(rankAt(k, 100000));
    const std::size_t tailStart = rankAt(999, 1000);
    const std::size_t tail = n - 1 - tailStart;
    for (std::size_t k = 0; k <= kTailSamples; ++k)
        ranks.push_back(tail <= kTailSamples ? std::min(tailStart + k, n - 1) : tailStart + k * tail / kTailSamples);
    return ranks;
}

/// The values one half of the scan gathered, per metric; the halves run on two threads.
struct Gathered {
    std::array<std::vector<std::int64_t>, kCdfMetricCount> values;
    std::int64_t requests = 0;
    std::int64_t clockSkew = 0;

    void add(const RequestRow &row, bool includeErrors)
    {
        if (!row.ok && !includeErrors)
            return;
        ++requests;
        for (int s = 0; s < kSegmentCount; ++s) {
            const std::int64_t v = row.segments[static_cast<std::size_t>(s)];
            if (!isMeasured(v))
                continue;
            if (s == static_cast<int>(Segment::Network) && (row.flags & kFlagClockSkew)) {
                ++clockSkew; // a negative network time is clock skew, not a latency (as in the report)
                continue;
            }
            values[static_cast<std::size_t>(s)].push_back(v);
        }
        if (isMeasured(row.e2e))
            values[kCdfE2e].push_back(row.e2e);
        if (isMeasured(row.ttft))
            values[kCdfTtft].push_back(row.ttft);
    }
};

} // namespace

std::string_view cdfMetricName(int metric)
{
    if (metric == kCdfE2e)
        return "e2e";
    if (metric == kCdfTtft)
        return "ttft";
    return segmentName(static_cast<Segment>(metric));
}

double CdfCurve::fractionAt(double valueNs) const
{
    if (points.empty() || valueNs < static_cast<double>(points.front().valueNs))
        return 0.0;
    if (valueNs >= static_cast<double>(points.back().valueNs))
        return 1.0;
    const auto next = std::upper_bound(points.begin(), points.end(), valueNs,
                                       [](double v, const CdfPoint &p) { return v < static_cast<double>(p.valueNs); });
    const CdfPoint &before = *(next - 1);
    const double t = (valueNs - static_cast<double>(before.valueNs))
                     / static_cast<double>(next->valueNs - before.valueNs);
    return before.fraction + t * (next->fraction - before.fraction);
}

CdfCurve cdfCurveOfSorted(std::span<const std::int64_t> sorted)
{
    CdfCurve curve;
    curve.count = static_cast<std::int64_t>(sorted.size());
    if (sorted.empty())
        return curve;
    const auto n = static_cast<double>(sorted.size());
    curve.points.push_back({sorted.front(), 0.0});
    for (std::size_t rank : keptRanks(sorted.size())) {
        const std::int64_t value = sorted[rank];
        if (curve.points.size() > 1 && curve.points.back().valueNs == value)
            continue;
        // The ECDF at a value counts every tie of it, wherever the kept rank fell among them.
        const auto atMost = std::upper_bound(sorted.begin() + static_cast<std::ptrdiff_t>(rank), sorted.end(), value);
        curve.points.push_back({value, static_cast<double>(atMost - sorted.begin()) / n});
    }
    for (std::size_t i = 0; i < kCdfGuidePercentiles.size(); ++i)
        curve.guidesNs[i] = percentileOfSorted(sorted, kCdfGuidePercentiles[i]);
    return curve;
}

CdfData computeCdfData(const Store &store, const RequestFilter &filter, const AnalysisOptions &options)
{
    std::array<Gathered, 2> halves;
    scanRequestRows(store, toSqlCondition(filter), requestIdRange(store),
                    [&](int half, const RequestRow &row) { halves[half == 0 ? 0 : 1].add(row, options.includeErrors); });

    CdfData data;
    data.includeErrors = options.includeErrors;
    data.requests = halves[0].requests + halves[1].requests;
    std::array<std::vector<std::int64_t>, kCdfMetricCount> &values = halves[0].values;
    for (int m = 0; m < kCdfMetricCount; ++m) {
        auto &upper = halves[1].values[static_cast<std::size_t>(m)];
        values[static_cast<std::size_t>(m)].insert(values[static_cast<std::size_t>(m)].end(), upper.begin(), upper.end());
        upper = {};
    }
    // Nine sorts of up to a million values each, shared between two threads as the report's selections
    // are; radix sorts, since std::sort took several times as long on 64-bit keys.
    const auto sortEvery = [&](int first) {
        std::vector<std::int64_t> scratch;
        for (int m = first; m < kCdfMetricCount; m += 2) {
            auto &v = values[static_cast<std::size_t>(m)];
            scratch.resize(v.size());
            const std::int64_t *sorted = radixSort(v.data(), scratch.data(), v.size(), orderedKey);
            data.curves[static_cast<std::size_t>(m)] = cdfCurveOfSorted({sorted, v.size()});
            v = {};
        }
    };
    std::thread worker(sortEvery, 1);
    sortEvery(0);
    worker.join();
    data.curves[static_cast<std::size_t>(Segment::Network)].excluded = halves[0].clockSkew + halves[1].clockSkew;
    return data;
}

} // namespace lx
