// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

#include <vector>

/// \file benchmark_readers.h
/// Readers of LLM benchmark outputs (vLLM bench serve, AIPerf, LLMPerf) and arrival-only workload traces
/// (Azure LLM inference 2023, Mooncake), plus refusals of their aggregate-only summary files. The mapping
/// of each tool's fields onto our metrics is documented in docs/BENCHMARKS.md.

namespace lx {

/// Appends the benchmark formats. Each canRead() is specific to its tool, so native JSON lines and native
/// CSV never match; the registry puts these before the native readers.
void appendBenchmarkFormats(std::vector<TraceFormat> &list);

} // namespace lx
