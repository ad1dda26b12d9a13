// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/rank_histogram.h"

#include <algorithm>
#include <cmath>

namespace lx {

double ExactSum::value() const
{
    if (m_high >= 0)
        return static_cast<double>(m_high) * 18446744073709551616.0 + static_cast<double>(m_low);
    // Negate first, so that a small negative sum is not lost to cancellation between the halves.
    const std::uint64_t negLow = ~m_low + 1;
    const auto negHigh = static_cast<std::uint64_t>(~m_high) + (negLow == 0 ? 1 : 0);
    return -(static_cast<double>(negHigh) * 18446744073709551616.0 + static_cast<double>(negLow));
}

RankHistogram::RankHistogram() : m_counts(kBuckets, 0), m_slotOf(kBuckets, -1) {}

void RankHistogram::addCounts(const RankHistogram &other)
{
    for (std::size_t k = 0; k < kBuckets; ++k)
        m_counts[k] += other.m_counts[k];
    m_n += other.m_n;
    m_sum.add(other.m_sum);
    m_max = std::max(m_max, other.m_max);
}

namespace {

/// The second pass keeps the values of the planned buckets when they are at most a quarter of all, or at
/// most this many (512 KiB) whatever their share.
constexpr std::int64_t kAlwaysKept = 65536;

/// The ranks (0-based) whose values percentile p needs: floor(h) and the one after (type 7).
std::pair<std::int64_t, std::int64_t> ranksOf(double percentile, std::int64_t n, double *h)
{
    *h = (static_cast<double>(n) - 1.0) * std::clamp(percentile, 0.0, 100.0) / 100.0;
    const auto lo = static_cast<std::int64_t>(std::floor(*h));
    return {lo, std::min(lo + 1, n - 1)};
}

} // namespace

std::int64_t RankHistogram::plan(const std::vector<double> &percentiles)
{
    m_percentiles = percentiles;
    std::fill(m_slotOf.begin(), m_slotOf.end(), -1);
    m_ranges.clear();
    m_kept.clear();
    if (m_n == 0)
        return 0;
    std::vector<std::int64_t> ranks;
    for (double p : percentiles) {
        double h = 0;
        const auto [lo, hi] = ranksOf(p, m_n, &h);
        ranks.push_back(lo);
        ranks.push_back(hi);
    }
    std::sort(ranks.begin(), ranks.end());
    std::int64_t before = 0, kept = 0;
    std::size_t next = 0;
    for (std::size_t k = 0; k < kBuckets && next < ranks.size(); ++k) {
        const auto in = static_cast<std::int64_t>(m_counts[k]);
        if (ranks[next] < before + in) {
            m_slotOf[k] = static_cast<std::int32_t>(m_ranges.size());
            m_ranges.emplace_back();
            kept += in;
            while (next < ranks.size() && ranks[next] < before + in)
                ++next;
        }
        before += in;
    }
    m_storing = kept <= std::max<std::int64_t>(m_n / 4, kAlwaysKept);
    if (m_storing)
        m_kept.reserve(static_cast<std::size_t>(kept));
    return kept;
}

void RankHistogram::addKept(const RankHistogram &part)
{
    m_kept.insert(m_kept.end(), part.m_kept.begin(), part.m_kept.end());
    for (std::size_t i = 0; i < m_ranges.size() && i < part.m_ranges.size(); ++i) {
        m_ranges[i].least = std::min(m_ranges[i].least, part.m_ranges[i].least);
        m_ranges[i].greatest = std::max(m_ranges[i].greatest, part.m_ranges[i].greatest);
    }
}

std::optional<std::int64_t> RankHistogram::valueAt(std::int64_t rank) const
{
    // The kept values, sorted, are the planned buckets one after the other in key order: the value of rank
    // r in bucket k is at r minus the values of the buckets before k that were not kept.
    std::int64_t before = 0, skipped = 0;
    for (std::size_t k = 0; k < kBuckets; ++k) {
        const auto in = static_cast<std::int64_t>(m_counts[k]);
        if (rank < before + in) {
            if (m_slotOf[k] < 0)
                return std::nullopt; // not planned: not reached for a rank plan() was given
            const Range &range = m_ranges[static_cast<std::size_t>(m_slotOf[k])];
            if (range.least == range.greatest)
                return range.least; // one value repeated: every rank in the bucket has it
            if (!m_storing)
                return std::nullopt;
            return m_kept[static_cast<std::size_t>(rank - skipped)];
        }
        if (m_slotOf[k] < 0)
            skipped += in;
        before += in;
    }
    return std::nullopt;
}

std::optional<Statistic> RankHistogram::finish()
{
    Statistic stat;
    stat.count = m_n;
    stat.percentilesNs.assign(m_percentiles.size(), std::nullopt);
    if (m_n == 0)
        return stat;
    stat.meanNs = m_sum.value() / static_cast<double>(m_n);
    stat.maxNs = static_cast<double>(m_max);
    std::sort(m_kept.begin(), m_kept.end());
    for (std::size_t i = 0; i < m_percentiles.size(); ++i) {
        double h = 0;
        const auto [lo, hi] = ranksOf(m_percentiles[i], m_n, &h);
        const std::optional<std::int64_t> lower = valueAt(lo);
        const std::optional<std::int64_t> upper = hi > lo && h > static_cast<double>(lo) ? valueAt(hi) : lower;
        if (!lower || !upper)
            return std::nullopt;
        const double low = static_cast<double>(*lower);
        stat.percentilesNs[i] = low + (h - static_cast<double>(lo)) * (static_cast<double>(*upper) - low);
    }
    return stat;
}

} // namespace lx
