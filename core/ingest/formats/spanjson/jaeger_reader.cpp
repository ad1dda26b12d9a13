// SPDX-License-Identifier: GPL-3.0-or-later
// Jaeger's trace JSON into the OTLP span model (docs/SPANS.md), then requests through the span mappings.

#include "ingest/formats/spanjson/jaeger_reader.h"

#include "ingest/formats/otlp/otlp_requests.h"
#include "ingest/formats/spanjson/span_document.h"
#include "model/time_range.h"

#include <simdjson.h>

#include <unordered_map>

namespace lx {

namespace dom = simdjson::dom;
using otlp::Span;

namespace {

constexpr std::string_view kNoSpans = "no Jaeger span in this JSON document: nothing to import";

std::string shown(dom::element value)
{
    return simdjson::minify(value).substr(0, 48);
}

/// processID -> serviceName of one trace's `processes`.
using Services = std::unordered_map<std::string, std::string>;

Services servicesOf(dom::object trace)
{
    Services services;
    dom::object processes;
    if (trace["processes"].get_object().get(processes))
        return services;
    for (auto [id, process] : processes) {
        std::string_view name;
        if (!process["serviceName"].get_string().get(name))
            services.emplace(std::string(id), std::string(name));
    }
    return services;
}

/// The parent: the first CHILD_OF reference within the span's trace, else the first FOLLOWS_FROM one (a
/// reference to another trace is a link, not a parent); older exports' `parentSpanID` when there is none.
std::string readParent(dom::object span, Span &out)
{
    dom::element e;
    if (!span["references"].get(e)) {
        dom::array references;
        if (e.get_array().get(references))
            return "references is not an array";
        std::string childOf, followsFrom, hex, trace;
        int i = 0;
        for (dom::element reference : references) {
            const std::string where = "references[" + std::to_string(i++) + "]";
            std::string_view type, spanText, traceText;
            if (reference["refType"].get_string().get(type))
                return where + " has no refType";
            if (type != "CHILD_OF" && type != "FOLLOWS_FROM")
                return where + ".refType \"" + std::string(type.substr(0, 48)) + "\" is neither CHILD_OF nor FOLLOWS_FROM";
            if (reference["spanID"].get_string().get(spanText))
                return where + " has no spanID";
            if (!spanjson::hexId(spanText, 16, hex))
                return spanjson::badIdReason(where + ".spanID", spanText, 16);
            if (!reference["traceID"].get_string().get(traceText)) {
                if (!spanjson::hexId(traceText, 32, trace))
                    return spanjson::badIdReason(where + ".traceID", traceText, 32);
                if (trace != out.traceId)
                    continue;
            }
            std::string &slot = type == "CHILD_OF" ? childOf : followsFrom;
            if (slot.empty() && !spanjson::isZeroId(hex))
                slot = hex;
        }
        out.parentId = !childOf.empty() ? childOf : followsFrom;
    }
    std::string_view parentText;
    if (out.parentId.empty() && !span["parentSpanID"].get_string().get(parentText) && !parentText.empty()) {
        if (!spanjson::hexId(parentText, 16, out.parentId))
            return spanjson::badIdReason("parentSpanID", parentText, 16);
        if (spanjson::isZeroId(out.parentId))
            out.parentId.clear();
    }
    return {};
}

/// The typed tags: `span.kind` gives the kind, `error` (true) and `otel.status_code` (ERROR) an error,
/// and every tag a mapping reads an attribute.
std::string readTags(dom::object span, const otlp::AttributeFilter &filter, Span &out)
{
    dom::array tags;
    if (span["tags"].get_array().get(tags))
        return {};
    for (dom::element tag : tags) {
        std::string_view key, text;
        dom::element value;
        if (tag["key"].get_string().get(key) || tag["value"].get(value))
            continue;
        bool flag = false;
        if (key == "span.kind" && (value.get_string().get(text) || (out.kind = spanjson::kindOfName(text)) < 0))
            return "span.kind tag " + shown(value) + " is none of server, client, producer, consumer, internal";
        if (key == "error")
            out.error = out.error || (!value.get_bool().get(flag) && flag) || (!value.get_string().get(text) && text == "true");
        if (key == "otel.status_code" && !value.get_string().get(text) && text == "ERROR")
            out.error = true;
        if (!filter.reads(key))
            continue;
        if (std::string why = otlp::applyAttribute(key, spanjson::attributeValue(value), out, filter); !why.empty())
            return why;
    }
    return {};
}

std::string readTimes(dom::object span, Span &out)
{
    dom::element start, duration;
    if (span["startTime"].get(start))
        return "no startTime";
    if (span["duration"].get(duration))
        return "no duration";
    std::int64_t length = 0;
    if (std::string why = spanjson::microsToNs(start, "startTime", true, out.startNs); !why.empty())
        return why;
    if (std::string why = spanjson::microsToNs(duration, "duration", false, length); !why.empty())
        return why;
    if (length < 0)
        return "duration " + shown(duration) + " is negative";
    const std::optional<std::int64_t> end = checkedAdd(out.startNs, length);
    if (!end)
        return timeOutOfRange("startTime + duration", shown(start) + " + " + shown(duration) + " µs");
    out.endNs = *end;
    return {};
}

/// One span of a trace; the reason it must be rejected (naming it), or empty.
std::string parseSpan(dom::element element, const Services &services, std::string_view traceOfTrace,
                      const otlp::AttributeFilter &filter, Span &out)
{
    out = Span{};
    dom::object span;
    if (element.get_object().get(span))
        return "a span that is not a JSON object";
    std::string_view text;
    if (!span["operationName"].get_string().get(text))
        out.name.assign(text);
    const auto named = [&out](const std::string &reason) { return otlp::spanReason(out, reason); };
    if (span["spanID"].get_string().get(text) || text.empty())
        return named("no spanID");
    if (!spanjson::hexId(text, 16, out.spanId)) {
        const std::string why = spanjson::badIdReason("spanID", text, 16);
        out.spanId.clear();
        return named(why);
    }
    // Each span repeats its trace's id; one that does not belongs to the trace that holds it.
    if (span["traceID"].get_string().get(text) || text.empty())
        text = traceOfTrace;
    if (text.empty())
        return named("no traceID");
    if (!spanjson::hexId(text, 32, out.traceId))
        return named(spanjson::badIdReason("traceID", text, 32));
    if (!span["process"]["serviceName"].get_string().get(text)) {
        out.service.assign(text);
    } else if (!span["processID"].get_string().get(text)) {
        if (const auto it = services.find(std::string(text)); it != services.end())
            out.service = it->second;
    }
    for (auto part : {readParent, readTimes}) {
        if (std::string why = part(span, out); !why.empty())
            return named(why);
    }
    if (std::string why = readTags(span, filter, out); !why.empty())
        return named(why);
    return {};
}

class JaegerReader final : public OtlpSpanReader {
public:
    explicit JaegerReader(const ReaderOptions &options)
        : OtlpSpanReader(options.spanMappings), m_maxDocumentBytes(options.maxDocumentBytes)
    {
    }

    std::string read(LineReader &lines, ImportSink &sink) override
    {
        dom::element root;
        if (std::string why = spanjson::parseDocument(lines, m_maxDocumentBytes, m_text, m_parser, root); !why.empty())
            return why;
        dom::object object;
        if (root.get_object().get(object))
            return "not Jaeger trace JSON: expected an object";
        dom::element data;
        if (!object["data"].get(data)) {
            dom::array traces;
            if (data.get_array().get(traces))
                return "not Jaeger trace JSON: \"data\" is not an array of traces";
            for (dom::element trace : traces) {
                if (!sink.keepGoing())
                    return {};
                readTrace(trace, sink);
            }
        } else if (!object["spans"].get(data)) {
            readTrace(root, sink);
        } else {
            return "not Jaeger trace JSON: neither a \"data\" array of traces nor a trace with \"spans\"";
        }
        emitAllCollected(sink);
        if (m_ordinal == 0)
            return std::string(kNoSpans);
        return {};
    }

private:
    /// One trace object; its spans are numbered on from the previous traces' (DOM parsing keeps no
    /// positions: a span's "line" is its ordinal in the document).
    void readTrace(dom::element element, ImportSink &sink)
    {
        dom::object trace;
        dom::array spans;
        if (element.get_object().get(trace) || trace["spans"].get_array().get(spans)) {
            sink.reject(m_ordinal + 1, "a trace that is not an object with a \"spans\" array", simdjson::minify(element));
            return;
        }
        std::string_view traceId;
        if (trace["traceID"].get_string().get(traceId))
            traceId = {};
        const Services services = servicesOf(trace);
        for (dom::element element : spans) {
            ++m_ordinal;
            Span span;
            std::string raw = simdjson::minify(element);
            if (std::string why = parseSpan(element, services, traceId, attributeFilter(), span); !why.empty()) {
                sink.reject(m_ordinal, why, raw);
                continue;
            }
            collect(std::move(span), std::move(raw), m_ordinal);
        }
        emitCompleteTraces(sink);
    }

    std::size_t m_maxDocumentBytes;
    std::string m_text;
    dom::parser m_parser;
    std::int64_t m_ordinal = 0;
};

} // namespace

bool jaegerCanRead(std::string_view head)
{
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    const std::size_t at = head.find("\"traceID\"");
    if (at == std::string_view::npos)
        return false;
    if (head.find("\"spans\"") == std::string_view::npos && head.find("\"spanID\"") == std::string_view::npos)
        return false;
    // A native record could hold such a key in an attribute; its own keys would come first.
    for (std::string_view native : {"\"id\"", "\"t_", "\"start_ns\"", "\"resourceSpans\""}) {
        if (head.find(native) < at)
            return false;
    }
    return true;
}

std::unique_ptr<TraceReader> createJaegerReader(const ReaderOptions &options)
{
    return std::make_unique<JaegerReader>(options);
}

} // namespace lx
