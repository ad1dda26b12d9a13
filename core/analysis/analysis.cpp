// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/analysis.h"

#include "analysis/row_statistics.h"
#include "analysis/token_metric_chunks.h"
#include "model/decompose.h"
#include "model/huge_page_allocator.h"
#include "model/rank_histogram.h"
#include "store/held_rows.h"
#include "store/import_runs.h"
#include "store/latency_rows.h"
#include "store/request_columns.h"
#include "store/request_join.h"
#include "store/request_scan.h"
#include "store/store.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <span>

namespace lx {

namespace {

constexpr std::size_t kUnmatchedSample = 10; ///< unmatched records a report names; listUnmatched() has them all

/// Values of one metric and the scopes they were read on, gathered before summarizing. The values go
/// into memory the caller sized (see SampleColumns): no growth, no copy, no page touched twice. Without
/// `data` only counted: the values are read from the collected rows later (AnalysisOptions::rows).
struct Samples {
    std::int64_t *data = nullptr;
    /// Without `data`, the first pass of the values' RankHistogram when they are read again afterwards
    /// (token_metric_chunks.h), else none: they are read from the collected rows.
    std::unique_ptr<RankHistogram> histogram;
    std::size_t count = 0; ///< the values written into `data`; without it their count is the scopes'
    std::array<std::int64_t, 4> scopeCounts{};
    std::int64_t excluded = 0;

    // Called for every metric of every row the scan reads: each counter it increments is a load and a
    // store that the next row's increment waits for, so a value without `data` is counted once, by scope.
    void add(std::int64_t value, E2eScope scope)
    {
        if (data)
            data[count++] = value;
        else if (histogram)
            histogram->count(value);
        ++scopeCounts[static_cast<int>(scope)];
    }
};

/// Uninitialised arrays for the samples of every metric. Pages never written are never faulted in, so
/// sizing each for every row costs only what is used; first touches of fresh memory dominated a report.
class SampleColumns {
public:
    SampleColumns(std::size_t columns, std::size_t capacity) : m_capacity(capacity)
    {
        for (std::size_t i = 0; i < columns; ++i)
            m_columns.emplace_back(m_allocator.allocate(allocated(i)) + staggered(i));
    }
    ~SampleColumns()
    {
        for (std::size_t i = 0; i < m_columns.size(); ++i)
            m_allocator.deallocate(m_columns[i] - staggered(i), allocated(i));
    }
    SampleColumns(const SampleColumns &) = delete;
    SampleColumns &operator=(const SampleColumns &) = delete;

    std::int64_t *column(std::size_t i) const { return m_columns[i]; }

private:
    // Huge pages start 2 MiB apart, so every column's value of a row fell in the same set of the L1 and L2
    // caches: a scan writing eleven of them had them compete for 8 ways. Column i starts i cache lines in.
    static std::size_t staggered(std::size_t i) { return i * (64 / sizeof(std::int64_t)); }
    std::size_t allocated(std::size_t i) const { return std::max<std::size_t>(m_capacity, 1) + staggered(i); }

    HugePageAllocator<std::int64_t> m_allocator;
    std::vector<std::int64_t *> m_columns;
    std::size_t m_capacity;
};

/// The metric's summary from its statistic and the scopes its samples were read on.
MetricSummary describe(const Samples &samples, Statistic stat)
{
    MetricSummary m;
    m.stat = std::move(stat);
    m.excluded = samples.excluded;
    int scopesSeen = 0;
    for (int s = 1; s < 4; ++s) {
        if (samples.scopeCounts[s] == 0)
            continue;
        ++scopesSeen;
        m.scope = std::string(scopeName(static_cast<E2eScope>(s)));
        m.scopes[m.scope] = samples.scopeCounts[s];
    }
    if (scopesSeen > 1)
        m.scope = "mixed";
    else
        m.scopes.clear();
    return m;
}

MetricSummary summarizeSamples(Samples &samples, const std::vector<double> &percentiles)
{
    return describe(samples, summarize({samples.data, samples.count}, percentiles));
}


void readInputs(const Store &store, Report &report)
{
    for (ImportRun &run : listImportRuns(store)) {
        InputSummary in;
        in.path = std::move(run.path);
        in.format = std::move(run.format);
        in.accepted = run.accepted;
        in.rejected = run.rejected;
        in.outcome = std::move(run.outcome);
        in.message = std::move(run.message);
        report.rejected += in.rejected;
        report.inputs.push_back(std::move(in));
    }
}

/// Pools the gaps between consecutive token times of the requests in the statistics.
void readTokenGaps(const Store &store, const SqlCondition &where, bool includeErrors,
                   std::vector<std::int64_t, HugePageAllocator<std::int64_t>> &gaps, Samples &itl)
{
    scanTokenGaps(store, where, includeErrors, [&](std::int64_t gap, E2eScope scope) {
        gaps.push_back(gap);
        ++itl.scopeCounts[static_cast<int>(scope)];
    });
    itl.data = gaps.data();
    itl.count = gaps.size();
}

} // namespace

namespace {

/// What one scan of a range of rows gathers.
struct ScanPart {
    std::array<Samples, kSegmentCount> segments;
    Samples e2e, ttft, tpot, ttlt;
    std::int64_t total = 0, ok = 0, error = 0, clockSkew = 0;
    std::int64_t relativeTime = 0; ///< rows whose times are offsets from an unknown origin
    std::array<std::int64_t, kSegmentCount> dominantCounts{};
    RowTimes times;

    std::array<Samples *, kSegmentCount + 4> all()
    {
        return {&segments[0], &segments[1], &segments[2], &segments[3], &segments[4], &segments[5], &segments[6],
                &e2e, &ttft, &tpot, &ttlt};
    }
};

/// The clock a segment was measured on: network spans both; decode is read where the tokens were (a
/// benchmark client sees it too); unattributed is part of e2e; the rest only a server can see.
E2eScope segmentScope(Segment segment, E2eScope e2eScope, E2eScope tokenScope)
{
    switch (segment) {
    case Segment::Network: return E2eScope::Client;
    case Segment::Decode: return tokenScope;
    case Segment::Unattributed: return e2eScope;
    default: return E2eScope::Server;
    }
}

/// Gathers one row read by the scan (request_scan.h).
void addRow(const RequestRow &row, bool includeErrors, ScanPart &part)
{
    ++part.total;
    part.times.add(row.start, row.e2e, row.flags);
    row.ok ? ++part.ok : ++part.error;
    if (row.flags & kFlagRelativeTime)
        ++part.relativeTime; // counted over every matching row, as total is: it says what the time axis means
    // Over every matching row too, as the header says it ("2,000 requests: ... 49 with clock skew") and the
    // findings count it: it counted the ok ones alone, 48 beside a finding's 49.
    if (row.flags & kFlagClockSkew)
        ++part.clockSkew;
    if (!row.ok && !includeErrors)
        return;
    if (isMeasured(row.e2e))
        part.e2e.add(row.e2e, row.e2eScope);
    for (int s = 0; s < kSegmentCount; ++s) {
        const std::int64_t v = row.segments[static_cast<std::size_t>(s)];
        if (!isMeasured(v))
            continue;
        if (s == static_cast<int>(Segment::Network) && (row.flags & kFlagClockSkew)) {
            ++part.segments[s].excluded; // a negative network time is clock skew, not a latency
            continue;
        }
        // A joined request's decode is the server's, whatever clock its token metrics were read on.
        const E2eScope decodeScope = (row.flags & kFlagJoined) ? E2eScope::Server : row.tokenScope;
        part.segments[s].add(v, segmentScope(static_cast<Segment>(s), row.e2eScope, decodeScope));
    }
    if (isMeasured(row.ttft))
        part.ttft.add(row.ttft, tokenMetricScope(row.tokenScope, row.flags, kFlagServerTtft));
    if (isMeasured(row.tpot))
        part.tpot.add(row.tpot, tokenMetricScope(row.tokenScope, row.flags, kFlagServerTpot));
    if (isMeasured(row.ttlt))
        part.ttlt.add(row.ttlt, tokenMetricScope(row.tokenScope, row.flags, kFlagServerTtlt));
    // The dominant segment follows from the segments just read (the stored column is for SQL filters):
    // one column fewer to decode per row.
    if (const int d = dominantSegment(row.segments); d >= 0)
        ++part.dominantCounts[static_cast<std::size_t>(d)];
}

/// Appends `from`, whose values were written further on in the same columns, to `into`.
void mergeInto(ScanPart &into, ScanPart &from)
{
    auto target = into.all();
    auto source = from.all();
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i]->data && source[i]->data)
            std::memmove(target[i]->data + target[i]->count, source[i]->data, source[i]->count * sizeof(std::int64_t));
        if (target[i]->histogram && source[i]->histogram)
            target[i]->histogram->addCounts(*source[i]->histogram);
        target[i]->count += source[i]->count;
        for (std::size_t k = 0; k < target[i]->scopeCounts.size(); ++k)
            target[i]->scopeCounts[k] += source[i]->scopeCounts[k];
        target[i]->excluded += source[i]->excluded;
    }
    into.total += from.total;
    into.ok += from.ok;
    into.error += from.error;
    into.clockSkew += from.clockSkew;
    into.relativeTime += from.relativeTime;
    into.times.add(from.times);
    for (int s = 0; s < kSegmentCount; ++s)
        into.dominantCounts[s] += from.dominantCounts[s];
}

/// The metric of the collected rows (row_statistics.h) that metric `i` of ScanPart::all() is, if the rows
/// hold it: the segments, e2e and TPOT.
constexpr std::optional<std::size_t> rowMetricOf(std::size_t i)
{
    if (i <= kSegmentCount)
        return i; // the segments, then e2e: the rows' order
    if (i == kSegmentCount + 2)
        return kRowTpot;
    return std::nullopt;
}

/// Where each metric of a scan's values comes from when they are not gathered into its column.
struct ReadElsewhere {
    bool rowMetrics = false; ///< the segments, e2e and TPOT: from the collected rows (row_statistics.h)
    bool tokenMetrics = false; ///< TTFT and TTLT: from their columns of the chunks (token_metric_chunks.h)

    bool operator()(std::size_t i) const
    {
        return (rowMetrics && rowMetricOf(i)) || (tokenMetrics && (i == kTtftMetric || i == kTtltMetric));
    }
    static constexpr std::size_t kTtftMetric = kSegmentCount + 1, kTtltMetric = kSegmentCount + 3; // ScanPart::all()
};

/// Points each metric of `part` at its column, `offset` values in; those read elsewhere at none (they are
/// only counted, and their values read afterwards).
void placeIn(ScanPart &part, const SampleColumns &columns, std::size_t offset, ReadElsewhere elsewhere)
{
    const auto all = part.all();
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i]->data = elsewhere(i) ? nullptr : columns.column(i) + offset;
    if (elsewhere.tokenMetrics) {
        part.ttft.histogram = std::make_unique<RankHistogram>();
        part.ttlt.histogram = std::make_unique<RankHistogram>();
    }
}

/// Scans the matching rows; on a store of many rows the upper half on a second connection and thread,
/// writing into the upper part of the same columns.
std::unique_ptr<SampleColumns> scanAll(const Store &store, const SqlCondition &where, const RowIdRange &range,
                                       const AnalysisOptions &options, bool collectRows, bool tokenMetricsFromChunks,
                                       ScanPart &part)
{
    auto columns = std::make_unique<SampleColumns>(part.all().size(), static_cast<std::size_t>(range.rows()));
    ScanPart upper;
    const ReadElsewhere elsewhere { options.rows != nullptr, tokenMetricsFromChunks };
    placeIn(part, *columns, 0, elsewhere);
    // The upper half starts mid() - lo values in only when there is one; with one half (sparse ids
    // counted, say) that offset may lie past the columns' end.
    placeIn(upper, *columns, range.twoHalves ? static_cast<std::size_t>(range.mid() - range.lo) : 0, elsewhere);
    // A store's held rows read without a condition are the rows the collector would gather, in its order:
    // lent rather than copied (held_rows.h).
    const HeldRows *held = store.heldRows();
    const bool lend = options.rows && held && where.sql == "1";
    if (lend)
        options.rows->lend(held->latencyRows());
    const bool collect = collectRows && options.rows && !lend;
    scanRequestRows(store, where, range, [&](int half, const RequestRow &row) {
        addRow(row, options.includeErrors, half == 0 ? part : upper);
        if (collect)
            (*options.rows)(half, row);
        if (options.alsoVisit)
            options.alsoVisit(half, row);
    });
    mergeInto(part, upper);
    return columns;
}

} // namespace

Report analyze(const Store &store, const RequestFilter &filter, const AnalysisOptions &asked)
{
    // A store's held rows read without a condition are LatencyRows already: their statistics come from
    // them (row_statistics.h) even when the caller collects no rows, rather than from columns copied out
    // (the desktop application's first summary of a trace file, summary_first.h).
    const SqlCondition where = toSqlCondition(filter);
    LatencyRowCollector lentRows;
    AnalysisOptions options = asked;
    if (!options.rows && store.heldRows() && where.sql == "1")
        options.rows = &lentRows; // scanAll() lends it the held rows
    Report report;
    report.percentiles = options.percentiles;
    report.includeErrors = options.includeErrors;
    readInputs(store, report);
    report.join = readJoinSummary(store);
    report.unmatchedSample = listUnmatched(store, kUnmatchedSample);

    ScanPart part;
    // Many rows are collected after the columns of this scan are let go (AnalysisOptions::rowsInASecondScanFrom);
    // held rows are lent, never collected.
    const RowIdRange range = requestIdRange(store);
    bool secondScan
        = options.rows && !(store.heldRows() && where.sql == "1") && range.rows() >= options.rowsInASecondScanFrom;
    // Without a filter, on a store with column chunks, TTFT and TTLT are read from their own columns of the
    // chunks afterwards, so that the one scan collects the rows: never held beside them, and no second scan.
    const bool tokenMetricsFromChunks = secondScan && where.sql == "1" && readableRequestColumns(store.db(), range);
    if (tokenMetricsFromChunks)
        secondScan = false;
    auto columns = scanAll(store, where, range, options, !secondScan, tokenMetricsFromChunks, part);
    std::vector<std::int64_t, HugePageAllocator<std::int64_t>> gaps;
    Samples itl;
    readTokenGaps(store, where, options.includeErrors, gaps, itl);

    report.total = part.total;
    report.ok = part.ok;
    report.error = part.error;
    report.clockSkew = part.clockSkew;
    report.relativeTime = part.relativeTime;
    report.dominantTotal = std::accumulate(part.dominantCounts.begin(), part.dominantCounts.end(), std::int64_t { 0 });
    report.dominantCounts = part.dominantCounts;
    report.rowTimes = part.times;
    if (part.times.first <= part.times.last) {
        report.firstStartNs = part.times.first;
        report.lastStartNs = part.times.last;
    }

    // Eleven metrics plus ITL, each an O(n) selection per percentile: shared between two threads.
    std::array<MetricSummary *, kSegmentCount + 5> out = {
        &report.segments[0], &report.segments[1], &report.segments[2], &report.segments[3], &report.segments[4],
        &report.segments[5], &report.segments[6], &report.e2e, &report.ttft, &report.tpot, &report.ttlt, &report.itl};
    std::array<Samples *, kSegmentCount + 5> in;
    const auto parts = part.all();
    std::copy(parts.begin(), parts.end(), in.begin());
    in.back() = &itl;
    if (!options.rows) {
        onTwoThreads([&](std::size_t first) {
            for (std::size_t i = first; i < in.size(); i += 2)
                *out[i] = summarizeSamples(*in[i], options.percentiles);
        });
        return report;
    }
    // TTFT, TTLT and ITL from their columns, which are then let go; the metrics the rows hold from the rows.
    const ReadElsewhere elsewhere { true, tokenMetricsFromChunks };
    onTwoThreads([&](std::size_t first) {
        for (std::size_t i = first; i < in.size(); i += 2)
            if (!elsewhere(i))
                *out[i] = summarizeSamples(*in[i], options.percentiles);
    });
    if (tokenMetricsFromChunks) {
        std::array<Statistic, 2> stats
            = summarizeTokenMetricChunks(store, range, { part.ttft.histogram.get(), part.ttlt.histogram.get() },
                                         options.includeErrors, options.percentiles);
        report.ttft = describe(part.ttft, std::move(stats[0]));
        report.ttlt = describe(part.ttlt, std::move(stats[1]));
    }
    columns.reset();
    gaps = {};
    if (secondScan)
        scanRequestRows(store, where, range, *options.rows);
    std::array<Statistic, kRowMetrics> fromRows = summarizeRows(options.rows->collected(), options.includeErrors, options.percentiles);
    for (std::size_t i = 0; i < in.size(); ++i)
        if (const std::optional<std::size_t> m = rowMetricOf(i))
            *out[i] = describe(*in[i], std::move(fromRows[*m]));
    return report;
}

} // namespace lx
