// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file percentiles.h
/// Exact order statistics over int64 nanosecond samples: linear interpolation between closest ranks
/// (Hyndman-Fan type 7, numpy's default), in O(n) per percentile, never a full sort.

namespace lx {

/// The default percentile list of every report: p50, p90, p95, p99, p99.9.
const std::vector<double> &defaultPercentiles();

/// Summary of one metric. With count 0 every value is absent (reported as null).
struct Statistic {
    std::int64_t count = 0;
    std::optional<double> meanNs;
    std::optional<double> maxNs;
    std::vector<std::optional<double>> percentilesNs; ///< one per requested percentile, same order
};

/// Computes count, mean, max and the requested percentiles (each in [0, 100]) of the samples. The span is
/// reordered in place (that is the point: no copy of a million values). From 65,536 samples on they are
/// counted into a RankHistogram instead (rank_histogram.h: the same figures, three times as fast) and
/// left in their order, unless their values are so alike that the histogram would keep most of them.
Statistic summarize(std::span<std::int64_t> samples, const std::vector<double> &percentiles);

/// Type-7 percentile of already sorted values; for tests and small inputs.
double percentileOfSorted(std::span<const std::int64_t> sorted, double percentile);

/// Parses "50,90,99.9" (an optional leading 'p' on each) into numbers; nullopt and a reason on error.
std::optional<std::vector<double>> parsePercentileList(const std::string &text, std::string *error);

/// The key a percentile is reported under: 50 -> "p50", 99.9 -> "p99.9".
std::string percentileKey(double percentile);

} // namespace lx
