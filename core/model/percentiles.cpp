// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/percentiles.h"

#include "model/rank_histogram.h"
#include "platform/float_from_chars.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

namespace lx {

const std::vector<double> &defaultPercentiles()
{
    static const std::vector<double> list = {50.0, 90.0, 95.0, 99.0, 99.9};
    return list;
}

double percentileOfSorted(std::span<const std::int64_t> sorted, double percentile)
{
    const double h = (static_cast<double>(sorted.size()) - 1.0) * percentile / 100.0;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double lower = static_cast<double>(sorted[lo]);
    return lower + (h - static_cast<double>(lo)) * static_cast<double>(sorted[hi] - sorted[lo]);
}

namespace {

/// From this many samples on, summarize() counts them into a RankHistogram rather than selecting in place:
/// below it, the histogram's 512 KiB of counts cost more than the values.
constexpr std::size_t kHistogramFrom = std::size_t{1} << 16;

/// summarize() with a RankHistogram; nothing when the histogram cannot tell (values much alike but not
/// equal), where selecting in place needs no memory at all.
std::optional<Statistic> summarizeByHistogram(std::span<const std::int64_t> samples, const std::vector<double> &percentiles)
{
    RankHistogram histogram;
    for (std::int64_t v : samples)
        histogram.count(v);
    histogram.plan(percentiles);
    for (std::int64_t v : samples)
        histogram.keep(v);
    return histogram.finish();
}

} // namespace

Statistic summarize(std::span<std::int64_t> samples, const std::vector<double> &percentiles)
{
    if (samples.size() >= kHistogramFrom)
        if (std::optional<Statistic> stat = summarizeByHistogram(samples, percentiles))
            return *stat;
    Statistic stat;
    stat.count = static_cast<std::int64_t>(samples.size());
    stat.percentilesNs.assign(percentiles.size(), std::nullopt);
    if (samples.empty())
        return stat;

    ExactSum sum;
    std::int64_t max = samples[0];
    for (std::int64_t v : samples) {
        sum.add(v);
        max = std::max(max, v);
    }
    stat.meanNs = sum.value() / static_cast<double>(samples.size());
    stat.maxNs = static_cast<double>(max);

    // Select ranks in ascending order so each nth_element only works on the part right of the previous one.
    std::vector<std::size_t> order(percentiles.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return percentiles[a] < percentiles[b]; });
    const std::size_t n = samples.size();
    std::size_t settled = 0; // samples[0, settled) hold the smallest values, in place
    for (std::size_t index : order) {
        const double h = (static_cast<double>(n) - 1.0) * std::clamp(percentiles[index], 0.0, 100.0) / 100.0;
        const auto lo = static_cast<std::size_t>(std::floor(h));
        auto first = samples.begin() + static_cast<std::ptrdiff_t>(settled);
        auto nth = samples.begin() + static_cast<std::ptrdiff_t>(lo);
        if (lo >= settled)
            std::nth_element(first, nth, samples.end());
        settled = lo;
        const double lower = static_cast<double>(samples[lo]);
        double upper = lower;
        if (lo + 1 < n && h > static_cast<double>(lo))
            upper = static_cast<double>(*std::min_element(nth + 1, samples.end()));
        stat.percentilesNs[index] = lower + (h - static_cast<double>(lo)) * (upper - lower);
    }
    return stat;
}

std::optional<std::vector<double>> parsePercentileList(const std::string &text, std::string *error)
{
    std::vector<double> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        std::string item = text.substr(pos, comma - pos);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty() && (item[0] == 'p' || item[0] == 'P'))
            item.erase(0, 1);
        double value = 0;
        const auto [end, ec] = fromChars(item.data(), item.data() + item.size(), value);
        if (item.empty() || ec != std::errc() || end != item.data() + item.size() || !(value >= 0.0 && value <= 100.0)) {
            if (error)
                *error = "'" + text.substr(pos, comma - pos) + "' is not a percentile between 0 and 100";
            return std::nullopt;
        }
        out.push_back(value);
        pos = comma + 1;
    }
    return out;
}

std::string percentileKey(double percentile)
{
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, percentile);
    // Appended rather than "p" + std::string(...): GCC 12 at -O3 warns falsely (-Wrestrict) on the latter.
    std::string key = "p";
    key.append(buf, ec == std::errc() ? end : buf);
    return key;
}

} // namespace lx
