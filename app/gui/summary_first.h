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
/// Summary in the CLI's time (and the charts, until the store lands); then into the investigation's own
/// store, which every view reads once it has landed. The first pass only pays where it is exact and cheap:
/// a new investigation of one trace file, opened unfiltered (pass 1 analyses the unfiltered view; a filter
/// typed later is analysed on its held rows when they can decide it), and small enough for its requests to
/// be held (held_rows.h).

/// The requests trace file `path` holds, estimated from its size and whether it is zstd-compressed; 0 when
/// it cannot be read.
std::uint64_t estimatedRequests(const QString &path);

/// Whether opening `plan` with `filter` reads the file for the summary first.
bool readsSummaryFirst(const lx::OpenPlan &plan, const lx::RequestFilter &filter);
