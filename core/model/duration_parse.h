// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// \file duration_parse.h
/// Durations as people type them, in the units of the filter language (docs/FILTER.md): ns, us (µs), ms,
/// s, m (min), h; a bare number is milliseconds, the unit of every report.

namespace lx {

/// ns per unit: "ms" -> 1e6, "" -> 1e6 (a bare number is ms); nullopt for an unknown unit.
std::optional<std::int64_t> durationUnitNs(std::string_view unit);

/// "2s", "1.5 s", "500ms", "250" (ms) to ns, rounded to the nearest ns; nullopt and a reason when it is no
/// duration or out of range.
std::optional<std::int64_t> parseDurationNs(std::string_view text, std::string *error = nullptr);

} // namespace lx
