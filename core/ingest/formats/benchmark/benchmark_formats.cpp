// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark formats' registration, and the refusals of the tools' aggregate-only summary files (their
// sniffers beside their messages). Each canRead() looks for keys or a header that only its tool writes, so
// native JSON lines ("id", "t_*_ns", "*_ms") and native CSV fall through to the native readers.

#include "ingest/format_registry.h"

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"

#include <string_view>

namespace lx {

namespace bench {
namespace {

bool aiperfAggregateCsv(std::string_view head) { return startsWithNoCase(firstLine(head), "Metric,avg,"); }

bool aiperfAggregateJson(std::string_view head)
{
    return startsWith(head, '{') && hasKey(head, "records") && hasKey(head, "tag") && hasKey(head, "avg");
}

bool llmperfSummary(std::string_view head)
{
    return startsWith(head, '{')
           && (hasKey(head, "num_concurrent_requests") || head.find("\"results_ttft_s_") != std::string_view::npos);
}

bool llmperfTransposedCsv(std::string_view head)
{
    return !startsWith(head, '{') && !startsWith(head, '[')
           && (head.find("\nconcurrency,") != std::string_view::npos
               || head.find("mean_input_token_length,") != std::string_view::npos
               || head.find("time_to_first_token_in_ms_(ttft)") != std::string_view::npos);
}

bool vllmResultTable(std::string_view head)
{
    return startsWith(head, '[')
           && (hasKey(head, "Test name") || hasKey(head, "Median TTFT (ms)") || hasKey(head, "P99 ITL (ms)"));
}

constexpr char kAiperfCsv[] = "an AIPerf aggregate table (profile_export_aiperf.csv: statistics per metric, not per "
                              "request): load profile_export.jsonl from the same artifacts directory instead";
constexpr char kAiperfJson[] = "an AIPerf aggregate summary (profile_export_aiperf.json: statistics per metric, not "
                               "per request): load profile_export.jsonl from the same artifacts directory instead";
constexpr char kLlmperfSummary[] = "an LLMPerf summary (*_summary.json: quantiles only, not per request): load the "
                                   "*_individual_responses.json written next to it instead";
constexpr char kLlmperfCsv[] = "an LLMPerf aggregate table (one column per concurrency level, not per request): load "
                               "the runs' *_individual_responses.json files instead";
constexpr char kVllmTable[] = "a vLLM benchmark results table (one summary row per test, not per request): load the "
                              "serving_*.json files saved with `vllm bench serve --save-result --save-detailed` instead";

} // namespace
} // namespace bench

void appendBenchmarkFormats(std::vector<TraceFormat> &list)
{
    using namespace bench;
    list.push_back({"vllm-bench", "vLLM bench serve result (--save-detailed)", kShapeJsonDocument, vllmDetailedCanRead,
                    createVllmDetailedReader});
    list.push_back({"aiperf", "AIPerf profile_export.jsonl", kShapeJsonLines, aiperfCanRead, createAiperfReader});
    list.push_back({"llmperf", "LLMPerf individual responses", kShapeJsonDocument, llmperfCanRead, createLlmperfReader});
    list.push_back({"aiperf-summary", "AIPerf aggregate CSV", kShapeNone, aiperfAggregateCsv, createRefusal<kAiperfCsv>});
    list.push_back({"aiperf-summary", "AIPerf aggregate JSON", kShapeNone, aiperfAggregateJson, createRefusal<kAiperfJson>});
    list.push_back({"llmperf-summary", "LLMPerf summary", kShapeNone, llmperfSummary, createRefusal<kLlmperfSummary>});
    list.push_back({"llmperf-summary", "LLMPerf aggregate CSV", kShapeNone, llmperfTransposedCsv, createRefusal<kLlmperfCsv>});
    list.push_back({"vllm-summary", "vLLM benchmark results table", kShapeNone, vllmResultTable, createRefusal<kVllmTable>});
}

} // namespace lx
