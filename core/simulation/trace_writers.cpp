// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_writers.h"

#include "model/segments.h"

#include <array>
#include <charconv>

namespace lx::sim {

namespace {

constexpr std::array<std::string_view, kStampCount> kStampKeys = {
    "t_client_send_ns", "t_server_recv_ns",  "t_preprocess_done_ns", "t_sched_ns",
    "t_first_token_ns", "t_last_token_ns",   "t_server_send_ns",     "t_client_recv_ns",
};

void appendInt(std::string &out, std::int64_t value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

/// JSON string with the escapes JSON requires; the simulation's strings need none, but callers may
/// build a SimRequest themselves.
void appendJsonString(std::string &out, std::string_view text)
{
    out += '"';
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20) {
            constexpr std::string_view kHex = "0123456789abcdef";
            out.append("\\u00");
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        } else {
            out += c;
        }
    }
    out += '"';
}

void appendKey(std::string &out, std::string_view key, std::string_view suffix = {})
{
    out += '"';
    out.append(key);
    out.append(suffix);
    out.append("\":");
}

void appendIntMember(std::string &out, std::string_view key, std::int64_t value)
{
    out += ',';
    appendKey(out, key);
    appendInt(out, value);
}

void appendStringMember(std::string &out, std::string_view key, std::string_view value)
{
    out += ',';
    appendKey(out, key);
    appendJsonString(out, value);
}

/// `,"<name><suffix>":<ms>`, nothing when not measured; the key in two parts, so that none is allocated.
void appendMsMember(std::string &out, std::string_view name, std::string_view suffix, std::int64_t ns)
{
    if (!isMeasured(ns))
        return;
    out += ',';
    appendKey(out, name, suffix);
    appendMilliseconds(out, ns);
}

std::string_view statusName(Status s) { return s == Status::Ok ? "ok" : "error"; }

std::int64_t between(const SimRequest &r, Stamp from, Stamp to)
{
    const std::int64_t a = r.stamp(from), b = r.stamp(to);
    return isMeasured(a) && isMeasured(b) ? b - a : kNotMeasured;
}

/// ns as seconds with nine decimals, exact: 1500000 -> "0.001500000".
void appendSeconds(std::string &out, std::int64_t ns)
{
    if (ns < 0) {
        out += '-';
        ns = -ns;
    }
    appendInt(out, ns / 1'000'000'000);
    char digits[10];
    std::int64_t fraction = ns % 1'000'000'000;
    for (int i = 8; i >= 0; --i, fraction /= 10)
        digits[i] = static_cast<char>('0' + fraction % 10);
    out += '.';
    out.append(digits, 9);
}

/// Lower-case hex of `value`, `digits` long: OTLP/JSON's trace and span ids.
void appendHex(std::string &out, std::uint64_t value, int digits)
{
    constexpr std::string_view kHex = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i)
        out += i >= 16 ? '0' : kHex[(value >> (4 * i)) & 0xf];
}

void appendOtlpAttribute(std::string &out, bool &first, std::string_view key, std::string_view type, const std::string &value)
{
    out.append(first ? "{\"key\":\"" : ",{\"key\":\"");
    first = false;
    out.append(key);
    out.append("\",\"value\":{\"");
    out.append(type);
    out.append("\":");
    out.append(value);
    out.append("}}");
}

void appendCsvField(std::string &out, std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out.append(field);
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"'; // a quote inside a quoted field is doubled
        out += c;
    }
    out += '"';
}

} // namespace

std::optional<TraceForm> traceFormFromName(std::string_view name)
{
    if (name == "timestamps")
        return TraceForm::Timestamps;
    if (name == "durations")
        return TraceForm::Durations;
    if (name == "otlp")
        return TraceForm::Otlp;
    if (name == "csv")
        return TraceForm::Csv;
    if (name == "client")
        return TraceForm::Client;
    return std::nullopt;
}

void appendMilliseconds(std::string &out, std::int64_t ns)
{
    // Unsigned magnitude, so that even the most negative int64 has one.
    std::uint64_t magnitude = static_cast<std::uint64_t>(ns);
    if (ns < 0) {
        out += '-';
        magnitude = ~magnitude + 1;
    }
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, magnitude / 1'000'000);
    out.append(buffer, result.ptr);
    out += '.';
    const std::uint64_t fraction = magnitude % 1'000'000;
    char digits[6];
    std::uint64_t rest = fraction;
    for (int i = 5; i >= 0; --i) {
        digits[i] = static_cast<char>('0' + rest % 10);
        rest /= 10;
    }
    out.append(digits, sizeof digits);
}

void appendTimestampsLine(std::string &out, const SimRequest &r)
{
    out.append("{\"id\":");
    appendJsonString(out, r.id);
    appendStringMember(out, "status", statusName(r.status));
    appendStringMember(out, "model", r.model);
    appendStringMember(out, "route", r.route);
    appendIntMember(out, "input_tokens", r.inputTokens);
    appendIntMember(out, "output_tokens", r.outputTokens);
    for (int i = 0; i < kStampCount; ++i) {
        if (isMeasured(r.stamps[i]))
            appendIntMember(out, kStampKeys[i], r.stamps[i]);
    }
    if (!r.tokenTimes.empty()) {
        out.append(",\"token_times_ns\":[");
        for (std::size_t i = 0; i < r.tokenTimes.size(); ++i) {
            if (i > 0)
                out += ',';
            appendInt(out, r.tokenTimes[i]);
        }
        out += ']';
    }
    appendStringMember(out, "region", r.region);
    appendStringMember(out, "user_agent", r.userAgent);
    out.append("}\n");
}

void appendDurationsLine(std::string &out, const SimRequest &r)
{
    out.append("{\"id\":");
    appendJsonString(out, r.id);
    const bool hasNetwork = isMeasured(segmentDuration(Segment::Network, r.stamps));
    // start_ns is the client send where network is given, else the server receive (docs/DOMAIN.md).
    appendIntMember(out, "start_ns", r.stamp(hasNetwork ? Stamp::ClientSend : Stamp::ServerRecv));
    // Each segment between the stamps that bound it (model/segments.h); unattributed, which none bound,
    // is what e2e_ms leaves over.
    for (const SegmentDefinition &segment : kSegments)
        appendMsMember(out, segment.name, "_ms", segmentDuration(segment.segment, r.stamps));
    appendMsMember(out, "e2e", "_ms",
                   hasNetwork ? between(r, Stamp::ClientSend, Stamp::ClientRecv)
                              : between(r, Stamp::ServerRecv, Stamp::ServerSend));
    appendIntMember(out, "input_tokens", r.inputTokens);
    appendIntMember(out, "output_tokens", r.outputTokens);
    appendStringMember(out, "model", r.model);
    appendStringMember(out, "route", r.route);
    appendStringMember(out, "status", statusName(r.status));
    appendStringMember(out, "region", r.region);
    out.append("}\n");
}

// The CSV puts its columns in another order than the JSONL on purpose: importers map columns by name.
void appendCsvHeader(std::string &out)
{
    out.append("id,model,route,status,region,user_agent,input_tokens,output_tokens");
    for (std::string_view key : kStampKeys) {
        out += ',';
        out.append(key);
    }
    out += '\n';
}

void appendCsvRow(std::string &out, const SimRequest &r)
{
    appendCsvField(out, r.id);
    for (std::string_view field : {std::string_view(r.model), std::string_view(r.route), statusName(r.status),
                                   std::string_view(r.region), std::string_view(r.userAgent)}) {
        out += ',';
        appendCsvField(out, field);
    }
    out += ',';
    appendInt(out, r.inputTokens);
    out += ',';
    appendInt(out, r.outputTokens);
    for (std::int64_t stamp : r.stamps) {
        out += ',';
        if (isMeasured(stamp))
            appendInt(out, stamp);
    }
    out += '\n';
}

void appendOtlpLine(std::string &out, const SimRequest &r)
{
    const auto seconds = [](std::int64_t ns) {
        std::string text;
        appendSeconds(text, ns);
        return text;
    };
    const auto quoted = [](std::string_view text) {
        std::string json;
        appendJsonString(json, text);
        return json;
    };
    const std::int64_t start = r.stamp(Stamp::ServerRecv);
    const std::int64_t end = isMeasured(r.stamp(Stamp::ServerSend)) ? r.stamp(Stamp::ServerSend) : r.stamp(Stamp::LastToken);
    out.append("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"vllm\"}}]},"
               "\"scopeSpans\":[{\"scope\":{\"name\":\"vllm.llm_engine\"},\"spans\":[{\"traceId\":\"");
    appendHex(out, static_cast<std::uint64_t>(r.index) + 1, 32);
    out.append("\",\"spanId\":\"");
    appendHex(out, static_cast<std::uint64_t>(r.index) + 1, 16);
    out.append("\",\"name\":\"llm_request\",\"kind\":2,\"startTimeUnixNano\":\"");
    appendInt(out, start);
    out.append("\",\"endTimeUnixNano\":\"");
    appendInt(out, end);
    out.append("\",\"attributes\":[");
    bool first = true;
    appendOtlpAttribute(out, first, "gen_ai.request.id", "stringValue", quoted(r.id));
    appendOtlpAttribute(out, first, "gen_ai.response.model", "stringValue", quoted(r.model));
    appendOtlpAttribute(out, first, "gen_ai.usage.prompt_tokens", "intValue", quoted(std::to_string(r.inputTokens)));
    appendOtlpAttribute(out, first, "gen_ai.usage.completion_tokens", "intValue", quoted(std::to_string(r.outputTokens)));
    // vLLM's own latencies, in seconds; what a request did not reach is left out, as vLLM does.
    const Stamp queueStart = isMeasured(r.stamp(Stamp::PreprocessDone)) ? Stamp::PreprocessDone : Stamp::ServerRecv;
    const std::pair<std::string_view, std::int64_t> latencies[] = {
        {"gen_ai.latency.time_in_queue", between(r, queueStart, Stamp::Sched)},
        {"gen_ai.latency.time_to_first_token", between(r, Stamp::ServerRecv, Stamp::FirstToken)},
        {"gen_ai.latency.time_in_model_prefill", between(r, Stamp::Sched, Stamp::FirstToken)},
        {"gen_ai.latency.time_in_model_decode", between(r, Stamp::FirstToken, Stamp::LastToken)},
        {"gen_ai.latency.e2e", isMeasured(end) && isMeasured(start) ? end - start : kNotMeasured},
    };
    for (const auto &[key, ns] : latencies) {
        if (isMeasured(ns))
            appendOtlpAttribute(out, first, key, "doubleValue", seconds(ns));
    }
    out.append("],\"status\":{");
    if (r.status == Status::Error)
        out.append("\"code\":2");
    out.append("}}]}]}]}\n");
}

namespace {

/// An AIPerf metric {"value": v, "unit": u}, after a comma.
void appendAiperfMetric(std::string &out, bool &first, std::string_view key, std::int64_t value, std::string_view unit)
{
    if (!isMeasured(value))
        return;
    out.append(first ? "\"" : ",\"");
    first = false;
    out.append(key);
    out.append("\":{\"value\":");
    appendInt(out, value);
    out.append(",\"unit\":\"");
    out.append(unit);
    out.append("\"}");
}

} // namespace

void appendClientLine(std::string &out, const SimRequest &r)
{
    const std::int64_t send = r.stamp(Stamp::ClientSend);
    const std::int64_t delay = between(r, Stamp::ServerSend, Stamp::ClientRecv);
    const std::int64_t firstToken = r.stamp(Stamp::FirstToken);
    out.append("{\"metadata\":{\"x_request_id\":");
    appendJsonString(out, r.id);
    appendIntMember(out, "timestamp_ns", send);
    out.append(",\"credit_phase\":\"profiling\"},\"metrics\":{");
    bool first = true;
    appendAiperfMetric(out, first, "input_sequence_length", r.inputTokens, "tokens");
    appendAiperfMetric(out, first, "output_sequence_length", r.outputTokens, "tokens");
    appendAiperfMetric(out, first, "ttft", isMeasured(firstToken) && isMeasured(delay) ? firstToken - send + delay : kNotMeasured, "ns");
    appendAiperfMetric(out, first, "request_latency", between(r, Stamp::ClientSend, Stamp::ClientRecv), "ns");
    if (r.tokenTimes.size() > 1) {
        out.append(first ? "" : ",");
        out.append("\"inter_chunk_latency\":{\"value\":[");
        for (std::size_t i = 1; i < r.tokenTimes.size(); ++i) {
            if (i > 1)
                out += ',';
            appendInt(out, r.tokenTimes[i] - r.tokenTimes[i - 1]);
        }
        out.append("],\"unit\":\"ns\"}");
    }
    out.append(r.status == Status::Ok ? "},\"error\":null}\n"
                                      : "},\"error\":{\"code\":500,\"type\":\"InternalServerError\",\"message\":\"simulated failure\"}}\n");
}

void appendRecord(std::string &out, TraceForm form, const SimRequest &request)
{
    switch (form) {
    case TraceForm::Timestamps: appendTimestampsLine(out, request); return;
    case TraceForm::Durations: appendDurationsLine(out, request); return;
    case TraceForm::Csv: appendCsvRow(out, request); return;
    case TraceForm::Otlp: appendOtlpLine(out, request); return;
    case TraceForm::Client: appendClientLine(out, request); return;
    }
}

} // namespace lx::sim
