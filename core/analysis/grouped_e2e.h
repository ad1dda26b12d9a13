// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/percentiles.h"
#include "model/rank_histogram.h"
#include "store/request_scan.h"

#include <algorithm>
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

/// Calls done(g, statistic) for each group g with requests, its statistic over the e2e of the rows
/// groupOf(i) puts in it (i indexes `rows`; a negative group: none), with the `percentiles` asked.
/// counts[g] is the number of rows of group g. At most `valuesAtOnce` values are held at once: a group of
/// more is summarized in place (two passes over the rows of its own), whose histogram keeps only the values
/// near the percentiles (summarizeInPlace(): all of them only for values much alike but not equal, rare).
/// Returns the most values a batch held at once (the capacity it asked for), which tst_load_profile holds
/// to that bound.
template<typename GroupOf, typename Done>
std::size_t summarizeE2eByGroup(std::span<const LatencyRow> rows, std::span<const std::size_t> counts, GroupOf &&groupOf,
                                const std::vector<double> &percentiles, Done &&done,
                                std::size_t valuesAtOnce = kGroupedE2eValuesAtOnce)
{
    std::vector<std::size_t> offsets(counts.size() + 1, 0);
    for (std::size_t g = 0; g < counts.size(); ++g)
        offsets[g + 1] = offsets[g] + counts[g];
    std::vector<std::int64_t> values;
    std::size_t held = 0;
    for (std::size_t first = 0, last = 0; first < counts.size(); first = last) {
        last = first + 1; // the groups [first, last) this pass
        if (counts[first] > valuesAtOnce) {
            std::vector<std::int64_t>().swap(values); // the last batch's are not needed beside it
            const auto forEachE2e = [&](auto &&visit) {
                for (std::size_t i = 0; i < rows.size(); ++i)
                    if (groupOf(i) == static_cast<std::int64_t>(first))
                        visit(rows[i].e2e);
            };
            done(first, summarizeInPlace(forEachE2e, percentiles));
            continue;
        }
        while (last < counts.size() && offsets[last + 1] - offsets[first] <= valuesAtOnce)
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
        std::vector<std::size_t> fill(last - first);
        for (std::size_t g = first; g < last; ++g)
            fill[g - first] = offsets[g] - offsets[first];
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const std::int64_t g = groupOf(i);
            if (g >= static_cast<std::int64_t>(first) && g < static_cast<std::int64_t>(last))
                values[fill[static_cast<std::size_t>(g) - first]++] = rows[i].e2e;
        }
        for (std::size_t g = first; g < last; ++g) {
            if (counts[g] > 0)
                done(g, summarize(std::span(values).subspan(offsets[g] - offsets[first], counts[g]), percentiles));
        }
    }
    return held;
}

} // namespace lx
