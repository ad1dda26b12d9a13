// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "ingest/trace_reader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

/// \file workload_readers.h
/// Readers of arrival-only workload traces (Azure LLM inference 2023, Mooncake): an arrival time and token
/// counts per request, no latency at all, so that a load can be studied or replayed (docs/BENCHMARKS.md).
/// Each sniffer is defined beside its reader.

namespace lx::workload {

bool azureCanRead(std::string_view head);
std::unique_ptr<TraceReader> createAzureReader(const ReaderOptions &options);

bool mooncakeCanRead(std::string_view head);
std::unique_ptr<TraceReader> createMooncakeReader(const ReaderOptions &options);

/// "2023-11-16 18:17:03.9799600" (or with 'T', up to 9 fractional digits, an optional 'Z') as ns since the
/// epoch; no zone means UTC, as the Azure trace is. kNotMeasured when malformed or outside 1677-09-21 to
/// 2262-04-11 (time_range.h), which `outOfRange` then says.
std::int64_t parseUtcTimestamp(std::string_view text, bool *outOfRange = nullptr);

/// Fills an arrival-only record: the send time alone, so decompose() measures nothing but the start.
/// Returns the reason for rejection or empty.
std::string buildArrival(RequestRecord &record, std::int64_t arrival);

} // namespace lx::workload
