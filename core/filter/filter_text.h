// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

/// \file filter_text.h
/// Bounds written for the filter language (docs/FILTER.md) the way a person would type them, for every
/// place that writes a filter for the user to read and edit (a click on a chart, a finding):
/// `start >= 2025-01-01T12:01:01.328Z`, `e2e < 8.627s`, never `e2e < 8626975926ns`. Each text reads back as
/// exactly the bound it was given; rounding a bound is a separate, explicit step (roundedWithin()).

namespace lx {

/// A duration exactly as the filter language reads it back, in the largest unit that writes it, without
/// trailing zeros: "8.627s", "183.5ms", "12us", "850ns", "0s", "-2s".
std::string filterDuration(std::int64_t ns);

/// A `start` bound exactly as the filter language reads it back: ISO-8601 UTC with the decimals of the
/// second it needs (none, 3, 6 or 9): "2025-01-01T12:01:01.328Z". For a trace whose times are offsets from
/// an unknown origin (`relative`, analysis/time_axis.h) a date would be a lie: the offset as a duration from
/// 0 instead ("61.5s").
std::string filterInstant(std::int64_t ns, bool relative);

/// `ns` rounded to the nearest whole ms, or failing that whole µs, that still lies in [lo, hi]: a bound
/// that may move anywhere in that range without changing what it selects, written short. `ns` itself
/// when neither fits.
std::int64_t roundedWithin(std::int64_t ns, std::int64_t lo, std::int64_t hi);

/// The bounds b for which `value < b` (and so `value >= b`) splits `sorted` (ascending) as `bound` does.
struct BoundRange {
    std::int64_t lo = 0; ///< just above the largest value below `bound`
    std::int64_t hi = 0; ///< the smallest value at or above `bound`
};

/// The range of bounds equivalent to `bound` over `sorted`, for roundedWithin(); unbounded on a side
/// without values.
BoundRange equivalentBounds(const std::vector<std::int64_t> &sorted, std::int64_t bound);

} // namespace lx
