// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/duration_parse.h"

#include "model/time_range.h"

#include <cmath>
#include <utility>

namespace lx {

std::optional<std::int64_t> durationUnitNs(std::string_view unit)
{
    static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
        {"ns", 1}, {"us", 1'000}, {"\xC2\xB5s", 1'000}, {"\xCE\xBCs", 1'000}, // micro sign, Greek mu
        {"ms", 1'000'000}, {"", 1'000'000}, {"s", 1'000'000'000}, {"m", 60'000'000'000}, {"min", 60'000'000'000},
        {"h", 3'600'000'000'000}};
    for (const auto &[name, ns] : kUnits)
        if (name == unit)
            return ns;
    return std::nullopt;
}

std::optional<std::int64_t> parseDurationNs(std::string_view text, std::string *error)
{
    const auto fail = [&](std::string why) -> std::optional<std::int64_t> {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    std::size_t i = 0;
    // Digits with at most one decimal point, read exactly: whole part and fraction as integers.
    std::int64_t whole = 0;
    std::string fraction;
    bool digits = false, point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            digits = true;
            if (point)
                fraction += c;
            else if (whole > (INT64_MAX - 9) / 10)
                return fail("the duration \"" + std::string(text) + "\" is out of range");
            else
                whole = whole * 10 + (c - '0');
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (!digits)
        return fail("expected a duration such as 2s or 500ms, not \"" + std::string(text) + "\"");
    std::string_view unit = text.substr(i);
    while (!unit.empty() && unit.front() == ' ')
        unit.remove_prefix(1);
    const std::optional<std::int64_t> factor = durationUnitNs(unit);
    if (!factor)
        return fail("unit \"" + std::string(unit) + "\" is not one of ns, us (µs), ms, s, m (min), h");
    if (whole > INT64_MAX / *factor)
        return fail("the duration \"" + std::string(text) + "\" is out of range");
    double rest = 0, scale = 1;
    for (char c : fraction) {
        scale /= 10;
        rest += (c - '0') * scale;
    }
    // The fraction may still carry the sum past int64 ("9223372036.9s"): checked, never wrapped.
    const std::optional<std::int64_t> ns = checkedAdd(whole * *factor, static_cast<std::int64_t>(std::llround(rest * static_cast<double>(*factor))));
    if (!ns)
        return fail("the duration \"" + std::string(text) + "\" is out of range");
    return *ns;
}

} // namespace lx
