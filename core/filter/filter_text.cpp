// SPDX-License-Identifier: GPL-3.0-or-later
#include "filter/filter_text.h"

#include "filter/request_filter.h"
#include "model/duration_format.h"
#include "platform/float_from_chars.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace lx {

namespace {

struct Unit {
    std::int64_t ns;
    int decimals; ///< the decimals that write a whole number of ns in this unit
    std::string_view name;
};

constexpr std::array<Unit, 4> kUnits = {{{1'000'000'000, 9, "s"}, {1'000'000, 6, "ms"}, {1'000, 3, "us"}, {1, 0, "ns"}}};

/// `magnitude` ns in `unit`, exact, trailing zeros of the fraction dropped.
std::string inUnit(std::uint64_t magnitude, const Unit &unit)
{
    std::string text = std::to_string(magnitude / static_cast<std::uint64_t>(unit.ns));
    if (unit.decimals == 0)
        return text;
    std::string fraction = std::to_string(magnitude % static_cast<std::uint64_t>(unit.ns));
    fraction.insert(0, static_cast<std::size_t>(unit.decimals) - fraction.size(), '0');
    while (!fraction.empty() && fraction.back() == '0')
        fraction.pop_back();
    if (!fraction.empty())
        text += "." + fraction;
    return text;
}

/// Whether the filter language reads `number` in `unit` back as `ns`. Its parser (scaled() in
/// filter_expression.cpp) multiplies a decimal fraction as a double and rounds to whole ns, which is exact
/// up to about 15 significant digits: past that the caller falls back to a finer unit.
bool readsBackAs(const std::string &number, const Unit &unit, std::int64_t ns)
{
    if (number.find('.') == std::string::npos)
        return true; // an integer is multiplied exactly (the magnitude came from ns, so it does not overflow)
    double value = 0;
    fromChars(number.data(), number.data() + number.size(), value);
    const double scaled = value * static_cast<double>(unit.ns);
    return std::fabs(scaled) < 9.2e18 && std::llround(scaled) == ns; // the parser's range, too
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/// The multiple of `step` nearest `ns` (halves up), or `ns` when that multiple would not fit in 64 bits.
std::int64_t nearestMultiple(std::int64_t ns, std::int64_t step)
{
    const std::int64_t below = floorDiv(ns, step) * step;
    if ((ns - below) * 2 < step || below > std::numeric_limits<std::int64_t>::max() - step)
        return below;
    return below + step;
}

} // namespace

std::string filterDuration(std::int64_t ns)
{
    const bool negative = ns < 0;
    // Unsigned, so that the most negative value has a magnitude too.
    const std::uint64_t magnitude = negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    for (const Unit &unit : kUnits) {
        if (magnitude < static_cast<std::uint64_t>(unit.ns) && unit.ns > 1 && magnitude != 0)
            continue; // "0.5s" is "500ms": the largest unit with a whole part
        const std::string number = (negative ? "-" : "") + inUnit(magnitude, unit);
        if (readsBackAs(number, unit, ns))
            return number + std::string(unit.name);
    }
    return std::to_string(ns) + "ns"; // not reached: whole ns always read back
}

std::string filterInstant(std::int64_t ns, bool relative)
{
    if (relative)
        return filterDuration(ns);
    const std::int64_t fraction = ns - floorDiv(ns, 1'000'000'000) * 1'000'000'000;
    const int decimals = fraction == 0 ? 0 : fraction % 1'000'000 == 0 ? 3 : fraction % 1000 == 0 ? 6 : 9;
    const std::string text = formatTimestamp(ns, decimals);
    // Years outside 0000..9999 have no ISO-8601 text the language reads: ns since the epoch are exact too.
    RequestFilter parsed;
    std::string why;
    if (parseTimeRange(text + "..", parsed, &why) && parsed.fromNs == ns)
        return text;
    return std::to_string(ns);
}

std::int64_t roundedWithin(std::int64_t ns, std::int64_t lo, std::int64_t hi)
{
    for (std::int64_t step : {std::int64_t{1'000'000}, std::int64_t{1'000}}) {
        const std::int64_t rounded = nearestMultiple(ns, step);
        if (rounded >= lo && rounded <= hi)
            return rounded;
    }
    return ns;
}

BoundRange equivalentBounds(const std::vector<std::int64_t> &sorted, std::int64_t bound)
{
    const auto at = std::lower_bound(sorted.begin(), sorted.end(), bound);
    BoundRange range{std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    if (at != sorted.end())
        range.hi = *at;
    if (at != sorted.begin())
        range.lo = *(at - 1) + 1;
    return range;
}

} // namespace lx
