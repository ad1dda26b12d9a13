// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/duration_format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace lx {

namespace {

std::string significant(double value, const char *unit)
{
    // Three significant digits: 1.23, 12.3, 123.
    const int decimals = value < 10 ? 2 : value < 100 ? 1 : 0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value, unit);
    return buf;
}

} // namespace

std::string formatDuration(double ns)
{
    if (!std::isfinite(ns))
        return "-";
    if (ns == 0)
        return "0";
    const double a = std::fabs(ns);
    const char *sign = ns < 0 ? "-" : "";
    // Built by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on const char * + std::string.
    std::string out = sign;
    if (a < 1e3)
        return out.append(significant(a, "ns"));
    if (a < 1e6)
        return out.append(significant(a / 1e3, "µs"));
    if (a < 1e9)
        return out.append(significant(a / 1e6, "ms"));
    if (a < 60e9)
        return out.append(significant(a / 1e9, "s"));
    const auto totalSeconds = static_cast<long long>(std::llround(a / 1e9));
    char buf[64];
    if (totalSeconds < 3600)
        std::snprintf(buf, sizeof buf, "%s%lld min %lld s", sign, totalSeconds / 60, totalSeconds % 60);
    else
        std::snprintf(buf, sizeof buf, "%s%lld h %lld min", sign, totalSeconds / 3600, (totalSeconds % 3600) / 60);
    return buf;
}

std::string formatDuration(double ns, DurationUnit unit)
{
    if (unit == DurationUnit::Auto || !std::isfinite(ns))
        return formatDuration(ns);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
    return buf;
}

std::string formatTimestamp(std::int64_t ns, int fractionDigits)
{
    using namespace std::chrono;
    // Floor division: a time before the epoch still has its fraction in [0, 1 s).
    const std::int64_t seconds = ns / 1'000'000'000 - (ns % 1'000'000'000 < 0 ? 1 : 0);
    std::int64_t fraction = ns - seconds * 1'000'000'000;
    const sys_seconds t{std::chrono::seconds{seconds}};
    const auto day = floor<days>(t);
    const year_month_day date{day};
    const hh_mm_ss time{t - day};
    fractionDigits = std::clamp(fractionDigits, 0, 9);
    for (int d = 9; d > fractionDigits; --d)
        fraction /= 10;
    char buf[64];
    if (fractionDigits == 0) {
        std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                      static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                      static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                      static_cast<int>(time.seconds().count()));
    } else {
        std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%0*lldZ", static_cast<int>(date.year()),
                      static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                      static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                      static_cast<int>(time.seconds().count()), fractionDigits, static_cast<long long>(fraction));
    }
    return buf;
}

std::string formatInstant(std::int64_t ns, bool offset, int fractionDigits)
{
    if (!offset)
        return formatTimestamp(ns, fractionDigits);
    return (ns < 0 ? "-" : "+") + formatDuration(std::abs(static_cast<double>(ns)));
}

std::string formatInstantIso(std::int64_t ns, bool offset)
{
    if (!offset)
        return formatTimestamp(ns, 3);
    char text[48];
    const std::int64_t ms = ns / 1'000'000; // truncated, as formatTimestamp() truncates
    std::snprintf(text, sizeof text, "%sPT%lld.%03lldS", ms < 0 ? "-" : "", static_cast<long long>(std::abs(ms) / 1000),
                  static_cast<long long>(std::abs(ms) % 1000));
    return text;
}

std::string jsonNumber(std::optional<double> value, int decimals)
{
    if (!value || !std::isfinite(*value))
        return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, *value);
    std::string text = buf;
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.')
            text.pop_back();
    }
    if (text == "-0")
        text = "0";
    return text;
}

} // namespace lx
