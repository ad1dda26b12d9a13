// SPDX-License-Identifier: GPL-3.0-or-later
// The registry of benchmark formats. Each canRead() looks for keys or a header that only its tool writes,
// so native JSON lines ("id", "t_*_ns", "*_ms") and native CSV fall through to the native readers.

#include "ingest/formats/benchmark/benchmark_readers.h"

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace lx {

namespace bench {
namespace {

/// The first line as JSON lines have it: an object on one line (it may run past the head).
std::string_view firstObjectLine(std::string_view head)
{
    const std::string_view line = firstLine(head);
    return startsWith(line, '{') ? line : std::string_view{};
}

bool vllmDetailed(std::string_view head)
{
    // json.dump writes the whole result on one line; the column arrays may start past the head when the
    // run had many prompts, so the run's own keys count too.
    return startsWith(head, '{')
           && (hasKey(head, "ttfts") || hasKey(head, "input_lens")
               || (hasKey(head, "backend") && hasKey(head, "num_prompts") && hasKey(head, "model_id")));
}

bool aiperfRecords(std::string_view head)
{
    const std::string_view line = firstObjectLine(head);
    return hasKey(line, "metadata") && hasKey(line, "metrics")
           && (hasKey(line, "timestamp_ns") || hasKey(line, "x_request_id"));
}

bool llmperfRecords(std::string_view head)
{
    return startsWith(head, '[') && hasKey(head, "ttft_s") && hasKey(head, "end_to_end_latency_s");
}

bool mooncake(std::string_view head)
{
    const std::string_view line = firstObjectLine(head);
    return hasKey(line, "timestamp") && hasKey(line, "input_length") && hasKey(line, "output_length");
}

bool azure(std::string_view head)
{
    std::string header;
    for (char c : firstLine(head)) {
        if (c != ' ' && c != '"')
            header += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return header.starts_with("timestamp,") && header.find("contexttokens") != std::string::npos
           && header.find("generatedtokens") != std::string::npos;
}

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
    list.push_back({"vllm-bench", "vLLM bench serve result (--save-detailed)", vllmDetailed, createVllmDetailedReader});
    list.push_back({"aiperf", "AIPerf profile_export.jsonl", aiperfRecords, createAiperfReader});
    list.push_back({"llmperf", "LLMPerf individual responses", llmperfRecords, createLlmperfReader});
    list.push_back({"azure-llm", "Azure LLM inference trace (arrivals only)", azure, createAzureReader});
    list.push_back({"mooncake", "Mooncake trace (arrivals only)", mooncake, createMooncakeReader});
    list.push_back({"aiperf-summary", "AIPerf aggregate CSV", aiperfAggregateCsv, createRefusal<kAiperfCsv>});
    list.push_back({"aiperf-summary", "AIPerf aggregate JSON", aiperfAggregateJson, createRefusal<kAiperfJson>});
    list.push_back({"llmperf-summary", "LLMPerf summary", llmperfSummary, createRefusal<kLlmperfSummary>});
    list.push_back({"llmperf-summary", "LLMPerf aggregate CSV", llmperfTransposedCsv, createRefusal<kLlmperfCsv>});
    list.push_back({"vllm-summary", "vLLM benchmark results table", vllmResultTable, createRefusal<kVllmTable>});
}

} // namespace lx
