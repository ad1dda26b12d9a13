// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

/// \file count_text.h
/// Counts written with their noun in the number it needs ("1 request", "2 requests"): a benchmark of one
/// request, a band of one request or a filter that leaves one are common, and "1 requests" reads as a bug.

/// "1 request", "12,345 requests" (digits grouped as the locale groups them).
QString requestsText(std::int64_t n);
/// The verb after requestsText(n): `singular` for one, `plural` otherwise ("matches"/"match").
QString agreeing(std::int64_t n, const QString &singular, const QString &plural);
