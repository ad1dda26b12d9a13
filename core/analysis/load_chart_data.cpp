// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/load_chart_data.h"

#include "analysis/time_axis.h"
#include "analysis/time_grid.h"

#include <algorithm>
#include <cmath>

namespace lx {

namespace {

/// The buckets' windows, found the way analyzeLoad() fills them (load_analysis.cpp): a window takes part
/// when it lies mostly inside the trace and holds enough requests with an e2e p95, and its load places it
/// in a bucket by the same arithmetic over the buckets' outer edges. tst_load_chart_data checks that the
/// requests counted here are each bucket's count.
std::vector<int> bucketOfWindows(const LoadAnalysis &load, std::int64_t minWindowRequests)
{
    const auto &windows = load.profile.windows;
    std::vector<int> out(windows.size(), -1);
    if (load.buckets.empty())
        return out;
    const double lo = load.buckets.front().loadLo;
    const double hi = load.buckets.back().loadHi;
    const auto n = static_cast<int>(load.buckets.size());
    const std::int64_t width = load.profile.windowNs;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const LoadWindow &w = windows[i];
        if (!(2 * w.coveredNs >= width && w.count >= minWindowRequests && w.e2eP95Ns))
            continue;
        const double x = load.bucketBy == LoadKey::ArrivalRate ? w.arrivalRps : w.meanInFlight;
        if (n == 1) {
            out[i] = 0;
            continue;
        }
        const double at = load.geometricBuckets ? std::log(x / lo) / std::log(hi / lo) : (x - lo) / (hi - lo);
        out[i] = std::clamp(static_cast<int>(at * n), 0, n - 1);
    }
    return out;
}

std::vector<LoadBucketDetail> bucketDetails(const LoadAnalysis &load, std::span<const LatencyRow> rows,
                                            std::span<const TokenMetricsRow> tokens, const KneeOptions &options)
{
    std::vector<LoadBucketDetail> out(load.buckets.size());
    for (std::size_t b = 0; b < load.buckets.size(); ++b) {
        const LoadBucket &bucket = load.buckets[b];
        if (bucket.count == 0 || !bucket.e2eMeanNs || *bucket.e2eMeanNs <= 0)
            continue;
        for (int s = 0; s < kSegmentCount; ++s)
            out[b].segmentShare[static_cast<std::size_t>(s)] = bucket.segmentMeanNs[static_cast<std::size_t>(s)] / *bucket.e2eMeanNs;
    }
    const auto &windows = load.profile.windows;
    if (windows.empty() || load.buckets.empty())
        return out;
    const std::vector<int> bucketOfWindow = bucketOfWindows(load, options.minWindowRequests);
    const std::int64_t origin = windows.front().startNs;
    const std::int64_t width = load.profile.windowNs;
    const auto lastWindow = static_cast<std::int64_t>(windows.size()) - 1;
    std::vector<std::vector<std::int64_t>> ttft(out.size()), tpot(out.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const LatencyRow &row = rows[i];
        if (!isMeasured(row.start) || row.start < origin || !inLatencyStats(row, options.includeErrors) || row.e2e < 0)
            continue;
        // Unsigned: the trace's times may lie more than INT64_MAX apart (time_grid.h).
        const auto window = std::min<std::uint64_t>(timeDistance(origin, row.start) / static_cast<std::uint64_t>(width),
                                                    static_cast<std::uint64_t>(lastWindow));
        const int b = bucketOfWindow[static_cast<std::size_t>(window)];
        if (b < 0)
            continue;
        ++out[static_cast<std::size_t>(b)].requests;
        if (i >= tokens.size())
            continue;
        if (isMeasured(tokens[i].ttft))
            ttft[static_cast<std::size_t>(b)].push_back(tokens[i].ttft);
        if (isMeasured(tokens[i].tpot))
            tpot[static_cast<std::size_t>(b)].push_back(tokens[i].tpot);
    }
    for (std::size_t b = 0; b < out.size(); ++b) {
        out[b].ttft = summarize(ttft[b], kBucketTokenPercentiles);
        out[b].tpot = summarize(tpot[b], kBucketTokenPercentiles);
    }
    return out;
}

/// Collects the rows of a scan as LatencyRowCollector does (in huge pages) and their token metrics beside
/// them; one vector per half (two threads).
class LoadRowCollector {
public:
    explicit LoadRowCollector(const RowIdRange &range)
    {
        m_rows.reserve(range);
        // The lower half gets room for every row, so that take() appends the upper half without moving it.
        // The ids' range is only a bound on the rows (a store with ids 1 and 2^62 holds two): past kMaxReserve
        // the vectors grow as rows come, rather than asking for memory no store of real rows needs.
        constexpr std::int64_t kMaxReserve = std::int64_t{1} << 27;
        m_tokens[0].reserve(static_cast<std::size_t>(std::clamp<std::int64_t>(range.rows(), 0, kMaxReserve)));
        m_tokens[1].reserve(static_cast<std::size_t>(std::clamp<std::int64_t>(range.hi - range.mid() + 1, 0, kMaxReserve)));
    }
    void operator()(int half, const RequestRow &row)
    {
        m_rows(half, row);
        m_tokens[half == 0 ? 0 : 1].push_back({row.ttft, row.tpot});
    }
    LoadRows take()
    {
        LoadRows out;
        out.rows = m_rows.take();
        out.tokens = std::move(m_tokens[0]);
        out.tokens.insert(out.tokens.end(), m_tokens[1].begin(), m_tokens[1].end());
        return out;
    }

private:
    LatencyRowCollector m_rows;
    std::array<std::vector<TokenMetricsRow>, 2> m_tokens;
};

} // namespace

bool bucketsSpanTenfold(const LoadAnalysis &load)
{
    double smallest = INFINITY, largest = 0;
    for (const LoadBucket &bucket : load.buckets) {
        if (bucket.count == 0 || !bucket.e2eMeanNs || *bucket.e2eMeanNs <= 0)
            continue;
        smallest = std::min(smallest, *bucket.e2eMeanNs);
        largest = std::max(largest, *bucket.e2eMeanNs);
    }
    return largest > 10 * smallest;
}

LoadRows readLoadRows(const Store &store, const RequestFilter &filter)
{
    const RowIdRange range = requestIdRange(store);
    LoadRowCollector collector(range);
    scanRequestRows(store, toSqlCondition(filter), range, collector);
    return collector.take();
}

LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::span<const TokenMetricsRow> tokens,
                                   std::int64_t windowNs, bool includeErrors)
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
    data.arrivalRateDetails = bucketDetails(data.byArrivalRate, rows, tokens, kneeOptions);
    kneeOptions.bucketBy = LoadKey::InFlight;
    data.byInFlight = analyzeLoad(profile, rows, kneeOptions);
    data.inFlightDetails = bucketDetails(data.byInFlight, rows, tokens, kneeOptions);
    loadOptions.untilLastEnd = true;
    data.overTime = computeLoadProfile(rows, loadOptions);
    TimeAxisCount axis;
    for (const LatencyRow &row : rows)
        axis.add(row.start, row.flags);
    data.relativeTime = axis.relative();
    return data;
}

LoadChartData computeLoadChartData(std::span<const LatencyRow> rows, std::int64_t windowNs, bool includeErrors)
{
    return computeLoadChartData(rows, {}, windowNs, includeErrors);
}

LoadChartData computeLoadChartData(const Store &store, const RequestFilter &filter, std::int64_t windowNs,
                                   bool includeErrors)
{
    const LoadRows loaded = readLoadRows(store, filter);
    return computeLoadChartData(loaded.rows, loaded.tokens, windowNs, includeErrors);
}

} // namespace lx
