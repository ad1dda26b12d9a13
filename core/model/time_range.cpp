// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/time_range.h"

#include <cmath>
#include <cstdio>
#include <locale>
#include <sstream>

namespace lx {

std::optional<std::int64_t> scaledToNs(double value, double nsPerUnit)
{
    const double ns = std::nearbyint(value * nsPerUnit);
    // 2^63 is the first double past INT64_MAX; the lowest int64 means "not measured" and is refused too.
    if (!std::isfinite(ns) || ns >= 9223372036854775808.0 || ns <= -9223372036854775808.0)
        return std::nullopt;
    return static_cast<std::int64_t>(ns);
}

std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b)
{
    if ((b > 0 && a > kLatestTimeNs - b) || (b < 0 && a < kEarliestTimeNs - b))
        return std::nullopt;
    return a + b;
}

std::optional<std::int64_t> checkedSub(std::int64_t a, std::int64_t b)
{
    if (b == kNotMeasured)
        return std::nullopt; // -INT64_MIN does not exist
    return checkedAdd(a, -b);
}

std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a == kNotMeasured || b == kNotMeasured)
        return std::nullopt;
    // |a| × |b| fits when |a| <= INT64_MAX / |b|; the sign is applied after.
    const std::uint64_t ua = a < 0 ? static_cast<std::uint64_t>(-a) : static_cast<std::uint64_t>(a);
    const std::uint64_t ub = b < 0 ? static_cast<std::uint64_t>(-b) : static_cast<std::uint64_t>(b);
    if (ua > static_cast<std::uint64_t>(kLatestTimeNs) / ub)
        return std::nullopt;
    const auto product = static_cast<std::int64_t>(ua * ub);
    return (a < 0) != (b < 0) ? -product : product;
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    if (const auto sum = checkedAdd(a, b))
        return *sum;
    return b > 0 ? kLatestTimeNs : kEarliestTimeNs;
}

std::string timeOutOfRange(std::string_view field, std::string_view value)
{
    return std::string(field) + " " + std::string(value) + " is outside the times that can be held ("
           + std::string(kTimeRangeText) + ", int64 ns since 1970)";
}

std::string durationOutOfRange(std::string_view field, std::string_view value)
{
    return std::string(field) + " " + std::string(value) + " is too large a duration (at most 292 years in int64 ns)";
}

std::string numberText(double value)
{
    // printf's %.10g, in the classic locale whatever the process's (a GUI sets it from the environment).
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(10);
    out << value;
    return out.str();
}

} // namespace lx
