// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/time_grid.h"

#include "model/time_range.h"

namespace lx {

namespace {

/// a rounded down to a multiple of b (b > 0); nullopt when that lies before the earliest time.
std::optional<std::int64_t> floorToMultiple(std::int64_t a, std::int64_t b)
{
    const std::int64_t q = a / b - (a % b < 0 ? 1 : 0);
    return checkedMul(q, b);
}

} // namespace

TimeGrid TimeGrid::over(std::int64_t first, std::int64_t last, std::int64_t width)
{
    TimeGrid grid;
    grid.width = width;
    grid.origin = floorToMultiple(first, width).value_or(first);
    grid.count = grid.indexOf(last) + 1;
    return grid;
}

std::uint64_t TimeGrid::windowsOver(std::int64_t first, std::int64_t last, std::int64_t width)
{
    return over(first, last, width).count;
}

std::int64_t TimeGrid::endOf(std::uint64_t i) const { return saturatingAdd(startOf(i), width); }

WindowIndexer::WindowIndexer(const TimeGrid &grid)
    : m_origin(grid.origin)
    , m_width(grid.width > 0 ? static_cast<std::uint64_t>(grid.width) : 1)
    , m_inverse(1.0 / static_cast<double>(m_width))
    , m_fastBelow(0)
{
    // A grid of no windows (a profile of no rows has width 0) is never asked: its width stands at 1 so
    // that nothing here divides by zero. The fast path needs q * width to fit for every quotient it gives
    // (at most count), and quotients below 2^40, where the double's error stays under one.
    constexpr std::uint64_t kMaxFastWindows = std::uint64_t { 1 } << 40;
    if (grid.count < kMaxFastWindows && grid.count <= UINT64_MAX / m_width)
        m_fastBelow = grid.count * m_width;
}

} // namespace lx
