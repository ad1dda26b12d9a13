// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_duration_string.h"
#include "platform/float_from_chars.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace lx::otlp {

namespace {

/// The unit at the start of `text` and its length, longest spelling first ("ms" before "m").
bool readUnit(std::string_view text, std::int64_t &factor, std::size_t &length)
{
    struct Unit {
        std::string_view spelling;
        std::int64_t ns;
    };
    static constexpr Unit kUnits[] = {
        {"ns", 1},          {"us", 1000},          {"\xC2\xB5s", 1000}, // µs, MICRO SIGN, as Rust writes it
        {"\xCE\xBCs", 1000}, // μs, GREEK SMALL LETTER MU
        {"ms", 1000000},    {"s", 1000000000},     {"m", 60000000000},  {"h", 3600000000000},
    };
    for (const Unit &unit : kUnits) {
        if (text.starts_with(unit.spelling)) {
            factor = unit.ns;
            length = unit.spelling.size();
            return true;
        }
    }
    return false;
}

} // namespace

std::optional<std::int64_t> parseDurationString(std::string_view text)
{
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (text.empty())
        return std::nullopt;
    std::int64_t total = 0;
    while (!text.empty()) {
        const std::size_t digits = text.find_first_not_of("0123456789");
        const std::string_view whole = text.substr(0, digits);
        std::string_view fraction;
        std::size_t used = whole.size();
        if (used < text.size() && text[used] == '.') {
            const std::size_t end = text.find_first_not_of("0123456789", used + 1);
            fraction = text.substr(used + 1, end == std::string_view::npos ? std::string_view::npos : end - used - 1);
            used += 1 + fraction.size();
            if (fraction.empty())
                return std::nullopt;
        }
        if (whole.empty() && fraction.empty())
            return std::nullopt;
        std::int64_t factor = 0;
        std::size_t unitLength = 0;
        if (used >= text.size() || !readUnit(text.substr(used), factor, unitLength))
            return std::nullopt;
        std::int64_t integer = 0;
        if (!whole.empty()) {
            const auto r = std::from_chars(whole.data(), whole.data() + whole.size(), integer);
            if (r.ec != std::errc())
                return std::nullopt;
        }
        if (integer > kMax / factor)
            return std::nullopt;
        std::int64_t part = integer * factor;
        if (!fraction.empty()) {
            // The fraction on its own: below one unit, so a double holds it to well under a nanosecond.
            const std::string decimal = "0." + std::string(fraction.substr(0, 30));
            double value = 0;
            lx::fromChars(decimal.data(), decimal.data() + decimal.size(), value);
            const auto ns = static_cast<std::int64_t>(std::llround(value * static_cast<double>(factor)));
            if (part > kMax - ns)
                return std::nullopt;
            part += ns;
        }
        if (total > kMax - part)
            return std::nullopt;
        total += part;
        text.remove_prefix(used + unitLength);
    }
    return total;
}

} // namespace lx::otlp
