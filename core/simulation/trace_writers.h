// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server_simulation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// \file trace_writers.h
/// Writes simulated requests in the native forms of docs/DOMAIN.md. Each function appends to a string
/// the caller reuses, so writing a million requests allocates almost nothing; integers go through
/// std::to_chars, so the text is exact and independent of the locale.
///
/// Example lines (the first request of sample_traces/rising_load.jsonl in the timestamps form, and in the
/// durations form, both shortened; a CSV row from sample_traces/rising_load.csv):
/// \code
/// {"id":"req-0000001","status":"ok","model":"qwen2.5-14b-instruct","route":"/v1/completions","input_tokens":322,"output_tokens":181,"t_client_send_ns":1735732801292330465,"t_server_recv_ns":1735732801294388791,...,"t_client_recv_ns":1735732804157206973,"region":"eu-west","user_agent":"curl/8.5.0"}
/// {"id":"req-0000001","start_ns":1735732801292330465,"network_ms":3.976773,"preprocess_ms":1.584081,"queue_ms":0.000000,"prefill_ms":32.180883,"decode_ms":2823.050095,...,"e2e_ms":2864.876508,"input_tokens":322,"output_tokens":181,"model":"qwen2.5-14b-instruct","route":"/v1/completions","status":"ok","region":"eu-west"}
/// req-0000001,mistral-7b-instruct-v0.3,/v1/chat/completions,ok,ap-south,openai-python/1.40.0,1036,129,1735732801300919792,...
/// \endcode

namespace lx::sim {

/// The output forms of the generator.
enum class TraceForm {
    Timestamps, ///< JSONL, one object per request with the t_*_ns stamps
    Durations,  ///< JSONL, start_ns and <segment>_ms durations
    Csv,        ///< CSV with a header row; the same names as the timestamps form, no token times
    Otlp,       ///< OTLP/JSON as the Collector's file exporter writes it: a vLLM `llm_request` span per line
    Client,     ///< what a benchmark client saw, as AIPerf's profile_export.jsonl: ids match the Otlp form's
};

/// "timestamps", "durations", "csv", "otlp" or "client" to a form; nullopt for anything else.
std::optional<TraceForm> traceFormFromName(std::string_view name);

/// Appends one line (with its '\n') in the timestamps form: id, status, model, route, token counts, the
/// measured stamps (absent ones are left out), token_times_ns when the request has them, and the
/// attributes region and user_agent, which the importers keep as unknown keys.
void appendTimestampsLine(std::string &out, const SimRequest &request);

/// Appends one line (with its '\n') in the durations form: start_ns (the client send), every measurable
/// <segment>_ms, e2e_ms (client scope; a remainder over the segments is unattributed), token counts,
/// model, route, status and region.
void appendDurationsLine(std::string &out, const SimRequest &request);

/// Appends the CSV header row (with its '\n').
void appendCsvHeader(std::string &out);

/// Appends one CSV row (with its '\n'), quoting any field with a comma, quote or line break as RFC 4180
/// says. An absent stamp is an empty field.
void appendCsvRow(std::string &out, const SimRequest &request);

/// Appends one line (with its '\n') of OTLP/JSON: `{"resourceSpans":[...]}` holding the request's vLLM-style
/// `llm_request` SERVER span from server receive to server send, with gen_ai.latency.* in seconds
/// (time_in_queue, time_to_first_token, time_in_model_prefill, time_in_model_decode, e2e) and
/// gen_ai.request.id, gen_ai.response.model and token counts; status code 2 for an error request.
void appendOtlpLine(std::string &out, const SimRequest &request);

/// Appends one line (with its '\n') of what a benchmark client observed, as AIPerf writes profile_export.jsonl:
/// metadata.x_request_id (the request id, which the Otlp form's gen_ai.request.id carries too: the two
/// forms join), metadata.timestamp_ns (client send, client clock) and, in ns, request_latency (client
/// receive - client send), ttft and inter_chunk_latency (the token gaps, when the request has token times).
/// The client sees each chunk one network delay after the server made it; the delay is taken to be that of
/// the complete response (client receive - server send), so client TTFT = first token - client send + it.
/// An error request carries AIPerf's `error` object.
void appendClientLine(std::string &out, const SimRequest &request);

/// Appends the request in \a form (for CSV: the row only; write the header once first).
void appendRecord(std::string &out, TraceForm form, const SimRequest &request);

/// Appends \a ns as milliseconds with six decimals, which is exact: "-1.000250" for -1000250.
void appendMilliseconds(std::string &out, std::int64_t ns);

} // namespace lx::sim
