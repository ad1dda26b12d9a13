// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/row_halves.h"
#include "model/percentiles.h"
#include "model/rank_histogram.h"
#include "store/request_scan.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

/// \file grouped_e2e.h
/// The e2e statistic of each group of requests (a load window, a load bucket), exact, without holding the
/// e2e of every request at once: beside the rows of a report on 10M requests that array was 80 MB, and the
/// report's peak. The groups are taken a batch at a time, each batch one pass over the rows.

namespace lx {

/// At most this many e2e values are held at once: 4M (32 MB) keep a trace of 4M requests to one pass.
inline constexpr std::size_t kGroupedE2eValuesAtOnce = std::size_t(1) << 22;

/// The rows of one group in one half of the rows: how many, and the span of row indexes they lie in. A
/// trace's rows come in about the order of their start, so the rows of a time window lie close together
/// and a pass for a batch of windows need only read their span.
struct GroupRows {
    std::size_t count = 0;
    std::size_t first = SIZE_MAX, end = 0; ///< [first, end): empty while count is 0

    void add(std::size_t row)
    {
        ++count;
        first = std::min(first, row);
        end = std::max(end, row + 1);
    }
};

/// Up to this many groups of more values than a batch holds (the knee's load buckets) take a RankHistogram
/// each: two passes over the rows, where batches took a pass each (three at 10M requests) and a selection
/// over every value. A histogram is about 0.8 MB, two a group (one per half).
inline constexpr std::size_t kGroupedE2eHistograms = 16;

/// Calls done(g, statistic) for each group g in [0, groupCount) with rows, its statistic over the e2e of
/// the rows groupOf(i) puts in it: a RankHistogram a group and half of the rows, two passes on two threads.
template<typename GroupOf, typename Done>
void summarizeE2eByHistograms(std::span<const LatencyRow> rows, std::size_t groupCount, GroupOf &&groupOf,
                              const std::vector<double> &percentiles, Done &&done, std::size_t twoThreadsFrom)
{
    const auto pick = [&](std::size_t i, const LatencyRow &row, auto &&take) {
        if (const std::int64_t g = groupOf(i); g >= 0)
            take(static_cast<std::size_t>(g), row.e2e);
    };
    std::vector<std::optional<Statistic>> stats
        = histogramsOverHalves(rows, groupCount, pick, percentiles, twoThreadsFrom);
    for (std::size_t g = 0; g < groupCount; ++g) {
        std::optional<Statistic> &stat = stats[g];
        if (stat && stat->count == 0)
            continue;
        if (!stat) { // values much alike but not equal (rare): this group's read again, in place
            const auto onlyThis = [&](std::size_t i, const LatencyRow &row, auto &&take) {
                if (groupOf(i) == static_cast<std::int64_t>(g))
                    take(row.e2e);
            };
            stat = summarizeHalvesInPlace(rows, onlyThis, percentiles, twoThreadsFrom);
        }
        done(g, *stat);
    }
}

/// Each group's rows in each half of the rows (halves[0][g], halves[1][g]), split as row_halves.h splits
/// them with the same `twoThreadsFrom` (all in the first when the rows are too few for two threads).
using GroupRowsByHalf = std::array<std::vector<GroupRows>, 2>;

/// Calls done(g, statistic) for each group g with requests, its statistic over the e2e of the rows
/// groupOf(i) puts in it (i indexes `rows`; a negative group: none), with the `percentiles` asked. `groups`
/// counts each group's rows in each half; the two halves are read on two threads, each filling its own
/// places, and each only over the span of its rows that the batch's groups lie in. At most `valuesAtOnce`
/// values are held at once: a group of more is summarized in place (two passes over the rows of its own),
/// whose histogram keeps only the values near the percentiles (summarizeInPlace(): all of them only for
/// values much alike but not equal, rare). Up to `histogramsUpTo` groups of more values than a batch take
/// a RankHistogram each instead (summarizeE2eByHistograms()). Returns the most values a batch held at once
/// (the capacity it asked for; 0 with the histograms, about 0.8 MB a group), which tst_load_profile holds
/// to that bound.
template<typename GroupOf, typename Done>
std::size_t summarizeE2eByGroup(std::span<const LatencyRow> rows, const GroupRowsByHalf &groups, GroupOf &&groupOf,
                                const std::vector<double> &percentiles, Done &&done,
                                std::size_t valuesAtOnce = kGroupedE2eValuesAtOnce,
                                std::size_t twoThreadsFrom = kRowsForTwoThreads,
                                std::size_t histogramsUpTo = kGroupedE2eHistograms)
{
    const std::size_t groupCount = groups[0].size();
    const auto countOf = [&](std::size_t g) { return groups[0][g].count + groups[1][g].count; };
    std::vector<std::size_t> offsets(groupCount + 1, 0);
    for (std::size_t g = 0; g < groupCount; ++g)
        offsets[g + 1] = offsets[g] + countOf(g);
    if (groupCount <= histogramsUpTo && offsets.back() > valuesAtOnce) {
        summarizeE2eByHistograms(rows, groupCount, groupOf, percentiles, done, twoThreadsFrom);
        return 0;
    }
    std::vector<std::int64_t> values;
    std::size_t held = 0;
    for (std::size_t first = 0, last = 0; first < groupCount; first = last) {
        last = first + 1; // the groups [first, last) this pass
        if (countOf(first) > valuesAtOnce) {
            std::vector<std::int64_t>().swap(values); // the last batch's are not needed beside it
            const auto pick = [&](std::size_t i, const LatencyRow &row, auto &&take) {
                if (groupOf(i) == static_cast<std::int64_t>(first))
                    take(row.e2e);
            };
            done(first, summarizeHalvesInPlace(rows, pick, percentiles, twoThreadsFrom));
            continue;
        }
        while (last < groupCount && offsets[last + 1] - offsets[first] <= valuesAtOnce)
            ++last;
        // Sized exactly: resize() past the capacity would ask for twice the values while still holding the
        // old ones (three times what the pass needs: 95 MB at a report's peak on 10M requests).
        const std::size_t size = offsets[last] - offsets[first];
        if (size == 0)
            continue; // empty groups only: nothing to read
        if (size > values.capacity()) {
            std::vector<std::int64_t>().swap(values); // let the old ones go first
            values.reserve(size);
        }
        values.resize(size);
        held = std::max(held, values.capacity());
        // Where each half writes its next value of each group: the lower half's values first, in the rows'
        // order, as one thread would have written them. Each half reads the span its groups' rows lie in.
        std::array<std::vector<std::size_t>, 2> fill;
        std::array<GroupRows, 2> span;
        for (std::size_t g = first; g < last; ++g) {
            fill[0].push_back(offsets[g] - offsets[first]);
            fill[1].push_back(offsets[g] - offsets[first] + groups[0][g].count);
            for (std::size_t half = 0; half < 2; ++half) {
                const GroupRows &mine = groups[half][g];
                span[half].first = std::min(span[half].first, mine.first);
                span[half].end = std::max(span[half].end, mine.end);
            }
        }
        const auto fillHalf = [&](std::size_t half) {
            std::vector<std::size_t> &at = fill[half];
            for (std::size_t i = span[half].first; i < span[half].end; ++i) {
                const std::int64_t g = groupOf(i);
                if (g >= static_cast<std::int64_t>(first) && g < static_cast<std::int64_t>(last))
                    values[at[static_cast<std::size_t>(g) - first]++] = rows[i].e2e;
            }
        };
        if (span[1].first < span[1].end && span[0].first < span[0].end)
            onTwoThreads(fillHalf);
        else
            fillHalf(span[0].first < span[0].end ? 0 : 1);
        // Each group's selection on one of two threads, the groups split where half the values are.
        std::vector<Statistic> stats(last - first);
        const auto summarizeGroups = [&](std::size_t from, std::size_t to) {
            for (std::size_t g = from; g < to; ++g)
                if (countOf(g) > 0)
                    stats[g - first]
                        = summarize(std::span(values).subspan(offsets[g] - offsets[first], countOf(g)), percentiles);
        };
        std::size_t split = first;
        while (split < last && 2 * (offsets[split] - offsets[first]) < size)
            ++split;
        if (size >= twoThreadsFrom && split > first && split < last)
            onTwoThreads(
                [&](std::size_t half) { half == 0 ? summarizeGroups(first, split) : summarizeGroups(split, last); });
        else
            summarizeGroups(first, last);
        for (std::size_t g = first; g < last; ++g)
            if (countOf(g) > 0)
                done(g, stats[g - first]);
    }
    return held;
}

} // namespace lx
