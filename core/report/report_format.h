// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"

#include <string>

/// \file report_format.h
/// The report as JSON (the shape scripts rely on, documented in README.md) and as a table for people.

namespace lx {

/// {"requests": {...}, "segments": {...}, "e2e": S, "tokens": {...}, "dominant": {...}, ...}; times in ms.
std::string reportToJson(const Report &report);

/// A readable plain-text table of the same numbers.
std::string reportToText(const Report &report);

} // namespace lx
