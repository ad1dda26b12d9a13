// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

/// \file duration_format.h
/// The one formatter of durations and numbers for people and for JSON, shared by the CLI, the tables
/// and the chart axes.

namespace lx {

/// Milliseconds from nanoseconds, for reports.
inline double nsToMs(double ns) { return ns / 1e6; }

/// A duration for people, with a unit that suits its size: "850 ns", "12.4 µs", "183 ms", "2.35 s", "4 min 12 s".
/// Three significant digits below a minute.
std::string formatDuration(double ns);

/// A JSON number with up to `decimals` decimals and no trailing zeros ("12.5", "3"), or "null".
std::string jsonNumber(std::optional<double> value, int decimals = 6);

} // namespace lx
