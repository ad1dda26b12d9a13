// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstdint>

namespace lx {
struct OpenPlan;
struct RequestFilter;
} // namespace lx

/// \file summary_first.h
/// When opening a trace file reads it twice, "summary first" (investigation_summary_first.cpp): once into a
/// throw-away store that holds the requests in memory, as `latency-explorer-cli report FILE` does, for the
/// Summary in the CLI's time; then into the investigation's own store, which the other views read. The
/// first pass only pays where it is exact and cheap: a new investigation of one trace file, unfiltered (the
/// scans read held rows only without a filter), and small enough for its requests to fit in memory.

/// No condition at all: every request counts.
bool isUnfiltered(const lx::RequestFilter &filter);

/// The memory the requests of trace file `path` would take held in memory (held_rows.h), estimated from
/// its size and whether it is zstd-compressed; 0 when it cannot be read.
std::uint64_t estimatedHeldBytes(const QString &path);

/// The estimate above which the first pass is skipped (estimatedHeldBytes()).
constexpr std::uint64_t kSummaryFirstMaxHeldBytes = std::uint64_t(1536) << 20;

/// Whether opening `plan` with `filter` reads the file for the summary first.
bool readsSummaryFirst(const lx::OpenPlan &plan, const lx::RequestFilter &filter);
