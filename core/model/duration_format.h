// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>

/// \file duration_format.h
/// The one formatter of durations and numbers for people and for JSON, shared by the CLI, the tables
/// and the chart axes.

namespace lx {

/// Milliseconds from nanoseconds, for reports.
inline double nsToMs(double ns) { return ns / 1e6; }

/// How the views show durations: a unit that suits each value, or always milliseconds (a user setting).
enum class DurationUnit { Auto, Milliseconds };

/// A duration for people, with a unit that suits its size: "850 ns", "12.4 µs", "183 ms", "2.35 s", "4 min 12 s".
/// Three significant digits below a minute.
std::string formatDuration(double ns);

/// formatDuration(), or with DurationUnit::Milliseconds always in ms with three decimals ("2350.000 ms").
std::string formatDuration(double ns, DurationUnit unit);

/// A timestamp in ns since the epoch as ISO-8601 UTC with `fractionDigits` (0..9) decimals of the second,
/// truncated: "2025-01-01T12:00:00.123456Z" with 6. Times before 1970 work too.
std::string formatTimestamp(std::int64_t ns, int fractionDigits = 6);

/// An instant for people: formatTimestamp(), or where the times are offsets from an unknown origin
/// (kFlagRelativeTime, time_axis.h) the offset, "+5.00 s", not a date near 1970.
std::string formatInstant(std::int64_t ns, bool offset, int fractionDigits = 6);

/// An instant for machines: formatTimestamp(ns, 3), or an offset as an ISO-8601 duration, "PT5.000S".
std::string formatInstantIso(std::int64_t ns, bool offset);

/// A JSON number with up to `decimals` decimals and no trailing zeros ("12.5", "3"), or "null".
std::string jsonNumber(std::optional<double> value, int decimals = 6);

} // namespace lx
