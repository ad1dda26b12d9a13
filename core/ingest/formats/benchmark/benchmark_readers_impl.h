// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "ingest/trace_reader.h"

#include <memory>
#include <string>
#include <string_view>

/// \file benchmark_readers_impl.h
/// The benchmark readers' sniffers, factories and messages, shared between their files and the
/// registration (benchmark_formats.cpp).

namespace lx::bench {

/// A vLLM result saved without --save-detailed holds only aggregates.
inline constexpr char kVllmSummaryMessage[] =
    "a vLLM benchmark result without per-request data (no \"ttfts\" array: saved without --save-detailed): "
    "rerun `vllm bench serve --save-result --save-detailed` and load that file";

/// Accepts the record or rejects it for `why`.
void finish(ImportSink &sink, RequestRecord &record, const std::string &why, std::string_view raw);

// Each sniffer is defined beside its reader. Each is specific to its tool, so native JSON lines and native
// CSV never match.
bool vllmDetailedCanRead(std::string_view head);
std::unique_ptr<TraceReader> createVllmDetailedReader(const ReaderOptions &options);
bool llmperfCanRead(std::string_view head);
std::unique_ptr<TraceReader> createLlmperfReader(const ReaderOptions &options);
bool aiperfCanRead(std::string_view head);
std::unique_ptr<TraceReader> createAiperfReader(const ReaderOptions &options);

} // namespace lx::bench
