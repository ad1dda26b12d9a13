// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "model/time_range.h"

#include <cstdint>

/// \file time_axis.h
/// The one answer to "are these requests' times dates or offsets?", for every view with a time axis (the
/// waterfall, the dominant segment's windows, the load over time). A request whose times are offsets from
/// an unknown origin carries kFlagRelativeTime (a Mooncake trace, a benchmark without send times).

namespace lx {

/// Counts what the answer depends on, request by request; counts of parts (the halves of a scan) add up.
struct TimeAxisCount {
    std::int64_t withStart = 0;      ///< requests whose start is measured
    std::int64_t relativeStarts = 0; ///< of those, the ones whose times are offsets

    /// Counts one request; one without a start is not on the axis and changes nothing.
    void add(std::int64_t start, std::uint32_t flags)
    {
        if (!isMeasured(start))
            return;
        ++withStart;
        relativeStarts += (flags & kFlagRelativeTime) != 0 ? 1 : 0;
    }
    void add(const TimeAxisCount &other)
    {
        withStart += other.withStart;
        relativeStarts += other.relativeStarts;
    }

    /// The rule: the axis is relative when some request is on it and every request on it is relative.
    /// Mixed dates and offsets stay on a date axis: an offset would show near 1970 there, which is
    /// visibly odd, while a date read as an offset would be silently wrong.
    bool relative() const { return withStart > 0 && relativeStarts == withStart; }
};

/// The times of a set of requests that a load profile starts from: the first and last start, the last end
/// and the time axis. Counted request by request; counts of parts add up. A report's scan counts them for
/// the rows it collects (Report::rowTimes), so that the load profile need not read the rows for them.
struct RowTimes {
    std::int64_t first = INT64_MAX, last = INT64_MIN, lastEnd = INT64_MIN;
    TimeAxisCount axis;

    void add(std::int64_t start, std::int64_t e2e, std::uint32_t flags)
    {
        axis.add(start, flags);
        if (!isMeasured(start))
            return;
        first = start < first ? start : first;
        last = start > last ? start : last;
        // Saturating: a foreign store may hold a start and an e2e whose sum passes 2262.
        const std::int64_t end = isMeasured(e2e) && e2e > 0 ? saturatingAdd(start, e2e) : start;
        lastEnd = end > lastEnd ? end : lastEnd;
    }
    void add(const RowTimes &other)
    {
        first = other.first < first ? other.first : first;
        last = other.last > last ? other.last : last;
        lastEnd = other.lastEnd > lastEnd ? other.lastEnd : lastEnd;
        axis.add(other.axis);
    }
};

} // namespace lx
