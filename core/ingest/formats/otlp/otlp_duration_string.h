// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

/// \file otlp_duration_string.h
/// Durations written as text in span attributes: TGI records its `queue_time`, `inference_time`, ... with
/// Rust's Debug format of a Duration ("12.3ms", "1.2s", "450µs", "15ns"); Go services write the compound
/// form ("1m30.5s"). Both are read here, exactly to the nanosecond where the text has that many digits.

namespace lx::otlp {

/// `text` in ns: one or more <decimal number><unit> parts with unit h, m, s, ms, us / µs / μs or ns, summed.
/// Empty for anything else: no unit, an unknown unit, a sign, spaces, or more than about 292 years.
std::optional<std::int64_t> parseDurationString(std::string_view text);

} // namespace lx::otlp
