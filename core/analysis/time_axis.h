// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

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

} // namespace lx
