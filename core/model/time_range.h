// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// \file time_range.h
/// The one place where a time or a duration from an input becomes int64 nanoseconds. Every stamp is an
/// int64 count of ns since 1970-01-01 (INT64_MIN means "not measured"), so the times that can be held run
/// from 1677-09-21 to 2262-04-11: a value outside is a rejected record with its reason, never a wrapped
/// number. The checked arithmetic below is what readers use when they add or scale what they read.

namespace lx {

/// The earliest and latest times (and the largest durations) a record may hold.
inline constexpr std::int64_t kEarliestTimeNs = kNotMeasured + 1;          // 1677-09-21T00:12:43.145224193Z
inline constexpr std::int64_t kLatestTimeNs = std::numeric_limits<std::int64_t>::max(); // 2262-04-11T23:47:16.854775807Z

/// The range as people read it, for messages: "1677-09-21 to 2262-04-11".
inline constexpr std::string_view kTimeRangeText = "1677-09-21 to 2262-04-11";

/// value × nsPerUnit rounded to the nearest ns; nullopt when not finite or outside int64 ns (except
/// INT64_MIN, which means "not measured").
std::optional<std::int64_t> scaledToNs(double value, double nsPerUnit);

/// a + b, a - b, a × b; nullopt when the result does not fit, or would be INT64_MIN ("not measured").
std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> checkedSub(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b);

/// a + b clamped to [kEarliestTimeNs, kLatestTimeNs]: for statistics over values that are already
/// stored, where a foreign store may hold anything and nothing may wrap.
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b);

/// The reason for a time that does not fit: "<field> <value> is outside the times that can be held
/// (1677-09-21 to 2262-04-11, int64 ns since 1970)". `value` is the text as read.
std::string timeOutOfRange(std::string_view field, std::string_view value);
/// The reason for a duration that does not fit int64 ns: "<field> <value> is too large a duration (at
/// most 292 years in ns)".
std::string durationOutOfRange(std::string_view field, std::string_view value);
/// A number as it reads in a message or JSON (printf's %.10g, in any locale): "9.223372037e+18", "-1e+18", "1.5".
std::string numberText(double value);

} // namespace lx
