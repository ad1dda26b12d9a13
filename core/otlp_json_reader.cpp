// SPDX-License-Identifier: GPL-3.0-or-later
#include "otlp_json_reader.h"

#include "decompose.h"
#include "line_reader.h"
#include "native_fields.h"
#include "otlp_json_spans.h"

#include <simdjson.h>

#include <cmath>
#include <unordered_map>

namespace lx {

namespace dom = simdjson::dom;
using otlp::Span;

namespace {

/// A pretty document is read whole; beyond this it is surely not one and the import stops with a reason.
constexpr std::size_t kMaxDocumentBytes = std::size_t(512) << 20;

constexpr std::string_view kNoSpans = "no OTLP span in this JSON document: nothing to import (neither one request per "
                                      "line nor a trace with spans)";

std::string_view trimmed(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// Seconds as written to ns; false when not finite or out of range.
bool secondsToNs(double seconds, std::int64_t &ns)
{
    if (!std::isfinite(seconds) || std::fabs(seconds) > 9.2e9)
        return false;
    ns = std::llround(seconds * 1e9);
    return true;
}

/// The resourceSpans array of a TracesData object, looking inside a `{"result": {...}}` wrapper.
std::string findResourceSpans(dom::element root, dom::array &out)
{
    for (int depth = 0; depth < 2; ++depth) {
        dom::object object;
        if (root.get_object().get(object))
            return "not a JSON object";
        dom::element e;
        if (!object["resourceSpans"].get(e)) {
            if (e.get_array().get(out))
                return "resourceSpans is not an array";
            return {};
        }
        if (!object["resourceLogs"].get(e))
            return "OTLP logs (resourceLogs), not traces: only resourceSpans are read";
        if (!object["resourceMetrics"].get(e))
            return "OTLP metrics (resourceMetrics), not traces: only resourceSpans are read";
        if (object["result"].get(root))
            break;
    }
    return "no resourceSpans: not an OTLP/JSON TracesData object";
}

class OtlpJsonReader final : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        bool started = false;
        bool documentMode = false;
        std::int64_t firstLine = 0;
        while (lines.next(line, lineNumber)) {
            const std::string_view t = trimmed(line);
            if (t.empty() && !documentMode)
                continue;
            if (!started) {
                // The file exporter writes one object per line; anything else is one (pretty) document.
                started = true;
                documentMode = !(t.starts_with('{') && t.ends_with('}'));
                firstLine = lineNumber;
            }
            if (documentMode) {
                if (m_document.size() + line.size() + 1 > kMaxDocumentBytes)
                    return "the JSON document is larger than 512 MiB: write OTLP/JSON one object per line "
                           "(the Collector's file exporter) to import it";
                m_document.append(line).append(1, '\n');
                continue;
            }
            if (!sink.keepGoing())
                return {};
            dom::element root;
            const bool padded = lines.capacityAfter(line.data()) >= line.size() + simdjson::SIMDJSON_PADDING;
            if (auto e = m_parser.parse(line.data(), line.size(), !padded).get(root)) {
                ++m_unitRejections;
                sink.reject(lineNumber, std::string("malformed JSON: ") + simdjson::error_message(e), line);
                continue;
            }
            if (std::string why = readUnit(root, lineNumber, false, sink); !why.empty()) {
                ++m_unitRejections;
                sink.reject(lineNumber, why, line);
            }
        }
        if (documentMode) {
            dom::element root;
            if (auto e = m_parser.parse(m_document).get(root))
                return std::string("malformed JSON in the document starting at line ") + std::to_string(firstLine) + ": "
                       + simdjson::error_message(e);
            if (std::string why = readUnit(root, firstLine, true, sink); !why.empty())
                return why;
        }
        if (m_spansSeen == 0 && m_unitRejections == 0)
            return std::string(kNoSpans);
        return {};
    }

private:
    /// Reads the spans of one line or document and emits its requests. Returns why the whole unit is
    /// refused (no resourceSpans, ...), or empty; single bad spans are rejected through the sink.
    std::string readUnit(dom::element root, std::int64_t lineNumber, bool document, ImportSink &sink)
    {
        dom::array resources;
        if (std::string why = findResourceSpans(root, resources); !why.empty())
            return why;
        m_spans.clear();
        m_raw.clear();
        m_lines.clear();
        std::int64_t ordinal = 0;
        for (dom::element resource : resources) {
            const std::string service = otlp::serviceName(resource);
            dom::array scopes;
            if (resource["scopeSpans"].get(scopes) && resource["instrumentationLibrarySpans"].get(scopes))
                continue; // a resource without spans
            for (dom::element scope : scopes) {
                dom::array spans;
                if (scope["spans"].get(spans))
                    continue;
                for (dom::element element : spans) {
                    ++m_spansSeen;
                    // Within a document the span's ordinal is its "line": DOM parsing keeps no positions.
                    const std::int64_t where = document ? ++ordinal : lineNumber;
                    Span span;
                    std::string raw = simdjson::minify(element);
                    if (std::string why = otlp::parseSpan(element, service, span); !why.empty()) {
                        sink.reject(where, why, raw);
                        continue;
                    }
                    m_spans.push_back(std::move(span));
                    m_raw.push_back(std::move(raw));
                    m_lines.push_back(where);
                }
            }
        }
        emitRequests(sink);
        return {};
    }

    /// LLM spans are requests unless nested in another LLM span; any other span is a request when it is
    /// a root here (no parent, or a parent not in this unit) and no LLM span lies below it, so that one
    /// user request is never counted twice.
    void emitRequests(ImportSink &sink)
    {
        const std::size_t n = m_spans.size();
        constexpr std::size_t kNone = std::size_t(-1);
        std::unordered_map<std::string, std::size_t> byId;
        byId.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            byId.emplace(m_spans[i].traceId + m_spans[i].spanId, i);
        std::vector<std::size_t> parent(n, kNone);
        for (std::size_t i = 0; i < n; ++i) {
            if (m_spans[i].parentId.empty())
                continue;
            const auto it = byId.find(m_spans[i].traceId + m_spans[i].parentId);
            if (it != byId.end() && it->second != i)
                parent[i] = it->second;
        }
        std::vector<char> llmBelow(n, 0), nestedLlm(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (!m_spans[i].llm)
                continue;
            // Bounded by n steps: a parent cycle in a malformed file must not hang the import.
            std::size_t steps = 0;
            for (std::size_t p = parent[i]; p != kNone && steps < n; p = parent[p], ++steps) {
                llmBelow[p] = 1;
                if (m_spans[p].llm)
                    nestedLlm[i] = 1;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            const bool request = m_spans[i].llm ? !nestedLlm[i] : (parent[i] == kNone && !llmBelow[i]);
            if (!request)
                continue;
            if (!sink.keepGoing())
                return;
            RequestRecord &record = sink.slot();
            record.sourceLine = m_lines[i];
            if (std::string why = fill(m_spans[i], record); why.empty())
                sink.accept(m_raw[i]);
            else
                sink.reject(m_lines[i], "span \"" + m_spans[i].name + "\" (span id " + m_spans[i].spanId + "): " + why,
                            m_raw[i]);
        }
    }

    /// One request span in the durations form (docs/OTLP.md): the gen_ai.latency.* seconds become
    /// segments; what no attribute claims stays unattributed.
    static std::string fill(const Span &span, RequestRecord &record)
    {
        record.id = !span.requestId.empty() ? span.requestId : span.spanId;
        record.model = !span.responseModel.empty() ? span.responseModel : span.requestModel;
        record.status = span.error ? Status::Error : Status::Ok;
        record.inputTokens = span.inputTokens;
        record.outputTokens = span.outputTokens;
        if (span.inputTokens < -1 || span.outputTokens < -1)
            return "negative token count";
        appendJsonKey(record.attributesJson, "span.name");
        appendJsonString(record.attributesJson, span.name);
        if (!span.service.empty()) {
            appendJsonKey(record.attributesJson, "service.name");
            appendJsonString(record.attributesJson, span.service);
        }
        appendJsonKey(record.attributesJson, "trace_id");
        appendJsonString(record.attributesJson, span.traceId);

        static constexpr std::string_view kNames[otlp::kLatencyCount] = {
            "time_in_queue", "time_to_first_token", "e2e", "time_in_model_prefill", "time_in_model_decode"};
        std::array<std::int64_t, otlp::kLatencyCount> ns;
        for (int k = 0; k < otlp::kLatencyCount; ++k) {
            ns[k] = kNotMeasured;
            if (!span.latency[k])
                continue;
            if (!secondsToNs(*span.latency[k], ns[k]) || ns[k] < 0)
                return "gen_ai.latency." + std::string(kNames[k]) + " is negative or not finite";
        }
        DurationsInput in;
        in.startNs = span.startNs;
        const auto set = [&in](Segment s, std::int64_t v) { in.segments[static_cast<int>(s)] = v; };
        set(Segment::Queue, ns[otlp::TimeInQueue]);
        set(Segment::Prefill, ns[otlp::TimeInModelPrefill]);
        set(Segment::Decode, ns[otlp::TimeInModelDecode]);
        // Front-end work is what TTFT holds beyond queue and prefill; a negative rest means the three
        // were measured on different clocks, and a guess would be worse than "not measured".
        if (isMeasured(ns[otlp::TimeToFirstToken]) && isMeasured(ns[otlp::TimeInQueue])
            && isMeasured(ns[otlp::TimeInModelPrefill])) {
            const std::int64_t rest = ns[otlp::TimeToFirstToken] - ns[otlp::TimeInQueue] - ns[otlp::TimeInModelPrefill];
            if (rest >= 0)
                set(Segment::Preprocess, rest);
        }
        // The span's own duration is a measurement of the same stretch when vLLM's e2e is absent.
        in.e2e = isMeasured(ns[otlp::E2e]) ? ns[otlp::E2e] : span.endNs - span.startNs;
        std::int64_t covered = 0;
        for (std::int64_t d : in.segments)
            covered += isMeasured(d) ? d : 0;
        if (in.e2e < covered)
            return std::string(isMeasured(ns[otlp::E2e]) ? "gen_ai.latency.e2e" : "the span's duration")
                   + " is less than the sum of the measured segments";
        return decomposeDurations(record, in);
    }

    dom::parser m_parser;
    std::string m_document;
    std::vector<Span> m_spans;
    std::vector<std::string> m_raw;
    std::vector<std::int64_t> m_lines;
    std::int64_t m_spansSeen = 0;
    std::int64_t m_unitRejections = 0;
};

} // namespace

bool otlpJsonCanRead(std::string_view head)
{
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    std::size_t at = std::string_view::npos;
    for (std::string_view key : {"\"resourceSpans\"", "\"resourceLogs\"", "\"resourceMetrics\""})
        at = std::min(at, head.find(key));
    if (at == std::string_view::npos)
        return false;
    // A native record could hold such a key in an attribute; its own keys would come first.
    for (std::string_view native : {"\"id\"", "\"t_", "\"start_ns\""}) {
        if (head.find(native) < at)
            return false;
    }
    return true;
}

std::unique_ptr<TraceReader> createOtlpJsonReader() { return std::make_unique<OtlpJsonReader>(); }

void appendOtlpJsonFormats(std::vector<TraceFormat> &list)
{
    list.push_back({"otlp-json", "OpenTelemetry traces (OTLP/JSON)", otlpJsonCanRead, createOtlpJsonReader});
}

} // namespace lx
