// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "ingest/trace_reader.h"

#include <memory>
#include <string>
#include <string_view>

/// \file benchmark_readers_impl.h
/// The benchmark readers' factories and messages, shared between their files and the registry.

namespace lx::bench {

/// A vLLM result saved without --save-detailed holds only aggregates.
inline constexpr char kVllmSummaryMessage[] =
    "a vLLM benchmark result without per-request data (no \"ttfts\" array: saved without --save-detailed): "
    "rerun `vllm bench serve --save-result --save-detailed` and load that file";

/// Accepts the record or rejects it for `why`.
void finish(ImportSink &sink, RequestRecord &record, const std::string &why, std::string_view raw);

/// "2023-11-16 18:17:03.9799600" as ns since the epoch, UTC; kNotMeasured when malformed.
std::int64_t parseUtcTimestamp(std::string_view text);

std::unique_ptr<TraceReader> createVllmDetailedReader();
std::unique_ptr<TraceReader> createLlmperfReader();
std::unique_ptr<TraceReader> createAiperfReader();
std::unique_ptr<TraceReader> createAzureReader();
std::unique_ptr<TraceReader> createMooncakeReader();

} // namespace lx::bench
