// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: benchmark results that are one JSON document (vLLM bench serve, LLMPerf), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(benchmark_docs)
{
    lxfuzz::readAs(data, size, {"vllm-bench", "llmperf", "aiperf-summary", "llmperf-summary", "vllm-summary"});
    return 0;
}
