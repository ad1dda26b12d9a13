// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

/// \file time_grid.h
/// Windows of one width over a stretch of time, aligned to multiples of the width since the epoch: the
/// arithmetic the load profile and the dominant segment's windows share. Times are int64 ns, and two of
/// them may lie more than INT64_MAX apart (1677 and 2262 in one trace), so distances are unsigned and the
/// last window's end saturates: nothing here overflows, whatever a store holds.

namespace lx {

/// last - first as an unsigned count of ns (exact for any last >= first).
inline std::uint64_t timeDistance(std::int64_t first, std::int64_t last)
{
    return static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
}

struct TimeGrid {
    std::int64_t origin = 0;  ///< the first window's start: first rounded down to a multiple of width
    std::int64_t width = 1;
    std::uint64_t count = 0;  ///< windows from the one holding first to the one holding last

    /// The grid over [first, last] (first <= last, width > 0). Aligned to the epoch unless that start
    /// would lie before 1677-09-21, the earliest time: then it starts at first.
    static TimeGrid over(std::int64_t first, std::int64_t last, std::int64_t width);
    /// The windows a grid over [first, last] would have, without making it.
    static std::uint64_t windowsOver(std::int64_t first, std::int64_t last, std::int64_t width);

    /// The window holding t (origin <= t); may be count or more past the last.
    std::uint64_t indexOf(std::int64_t t) const { return timeDistance(origin, t) / static_cast<std::uint64_t>(width); }
    /// The start of window i (i < count).
    std::int64_t startOf(std::uint64_t i) const
    {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(origin) + i * static_cast<std::uint64_t>(width));
    }
    /// The end of window i (exclusive), at most INT64_MAX.
    std::int64_t endOf(std::uint64_t i) const;
};

/// indexOf() of a grid, exactly, by a multiplication with the width's inverse rather than a division: a
/// pass over 10M requests takes a window index or three of each, and a 64-bit division costs tens of cycles
/// (a fifth of the samples of the load profile's passes).
class WindowIndexer {
public:
    explicit WindowIndexer(const TimeGrid &grid);

    std::uint64_t operator()(std::int64_t t) const
    {
        const std::uint64_t d = timeDistance(m_origin, t);
        if (d >= m_fastBelow)
            return d / m_width; // past the grid (or a grid too long for the double's precision): divide
        // The double's quotient is within one of the true one for quotients below 2^40: one step corrects it.
        std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(d) * m_inverse);
        if (q * m_width > d)
            --q;
        else if (d - q * m_width >= m_width)
            ++q;
        return q;
    }

private:
    std::int64_t m_origin;
    std::uint64_t m_width;
    double m_inverse;
    std::uint64_t m_fastBelow; ///< distances below this (the grid's span) are multiplied; 0: always divided
};

} // namespace lx
