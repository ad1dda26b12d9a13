// SPDX-License-Identifier: GPL-3.0-or-later
// Zipkin v2 JSON into the OTLP span model (docs/SPANS.md), then requests through the span mappings.

#include "ingest/formats/spanjson/zipkin_reader.h"

#include "ingest/formats/otlp/otlp_requests.h"
#include "ingest/formats/spanjson/span_document.h"
#include "model/time_range.h"

#include <simdjson.h>

#include <unordered_map>
#include <vector>

namespace lx {

namespace dom = simdjson::dom;
using otlp::Span;

namespace {

constexpr std::string_view kNoSpans = "no Zipkin span in this JSON array: nothing to import";

std::string shown(dom::element value)
{
    return simdjson::minify(value).substr(0, 48);
}

/// A µs field that Zipkin may leave out: absent, null or 0 is unknown (kNotMeasured).
std::string optionalMicros(dom::object span, const char *field, bool isTime, std::int64_t &ns)
{
    ns = kNotMeasured;
    dom::element e;
    if (span[field].get(e) || e.is_null())
        return {};
    std::int64_t value = 0;
    if (std::string why = spanjson::microsToNs(e, field, isTime, value); !why.empty())
        return why;
    if (!isTime && value < 0)
        return std::string(field) + " " + shown(e) + " is negative";
    if (value != 0)
        ns = value;
    return {};
}

std::string readTimes(dom::object span, Span &out)
{
    std::int64_t start = 0, length = 0;
    if (std::string why = optionalMicros(span, "timestamp", true, start); !why.empty())
        return why;
    if (std::string why = optionalMicros(span, "duration", false, length); !why.empty())
        return why;
    out.startNs = start;
    out.endNs = kNotMeasured;
    out.lengthNs = kNotMeasured;
    if (!isMeasured(start)) {
        out.lengthNs = length; // a duration without a start: the span's length, not its place in time
    } else if (isMeasured(length)) {
        const std::optional<std::int64_t> end = checkedAdd(start, length);
        if (!end)
            return timeOutOfRange("timestamp + duration", std::to_string(start / 1000) + " + " + std::to_string(length / 1000) + " µs");
        out.endNs = *end;
    }
    return {};
}

/// The tags (strings by the specification; other JSON values are read as what they are): `error` present
/// means an error, as Zipkin has it, and so does `otel.status_code` ERROR.
std::string readTags(dom::object span, const otlp::AttributeFilter &filter, Span &out)
{
    dom::object tags;
    if (span["tags"].get_object().get(tags))
        return {};
    for (auto [key, value] : tags) {
        std::string_view text;
        if (key == "error")
            out.error = true;
        if (key == "otel.status_code" && !value.get_string().get(text) && text == "ERROR")
            out.error = true;
        if (!filter.reads(key))
            continue;
        if (std::string why = otlp::applyAttribute(key, spanjson::attributeValue(value), out, filter); !why.empty())
            return why;
    }
    return {};
}

/// One span; the reason it must be rejected (naming it), or empty. `shared` is Zipkin's flag of the server
/// half of a client/server pair that shares the span id.
std::string parseSpan(dom::element element, const otlp::AttributeFilter &filter, Span &out, bool &shared)
{
    out = Span{};
    shared = false;
    dom::object span;
    if (element.get_object().get(span))
        return "a span that is not a JSON object";
    std::string_view text;
    if (!span["name"].get_string().get(text))
        out.name.assign(text);
    const auto named = [&out](const std::string &reason) { return otlp::spanReason(out, reason); };
    if (span["id"].get_string().get(text) || text.empty())
        return named("no id");
    if (!spanjson::hexId(text, 16, out.spanId)) {
        const std::string why = spanjson::badIdReason("id", text, 16);
        out.spanId.clear();
        return named(why);
    }
    if (span["traceId"].get_string().get(text) || text.empty())
        return named("no traceId");
    if (!spanjson::hexId(text, 32, out.traceId))
        return named(spanjson::badIdReason("traceId", text, 32));
    if (!span["parentId"].get_string().get(text) && !text.empty()) {
        if (!spanjson::hexId(text, 16, out.parentId))
            return named(spanjson::badIdReason("parentId", text, 16));
        if (spanjson::isZeroId(out.parentId))
            out.parentId.clear();
    }
    dom::element kind;
    if (!span["kind"].get(kind) && !kind.is_null()
        && (kind.get_string().get(text) || (out.kind = spanjson::kindOfName(text)) < 2))
        return named("kind " + shown(kind) + " is none of CLIENT, SERVER, PRODUCER, CONSUMER");
    if (!span["localEndpoint"]["serviceName"].get_string().get(text))
        out.service.assign(text);
    bool flag = false;
    shared = !span["shared"].get_bool().get(flag) && flag;
    if (std::string why = readTimes(span, out); !why.empty())
        return named(why);
    if (std::string why = readTags(span, filter, out); !why.empty())
        return named(why);
    return {};
}

/// The spans read, before they are linked.
struct ReadSpan {
    Span span;
    std::string raw;
    std::int64_t ordinal = 0;
    bool shared = false;
    std::string rejected; ///< why the span was rejected as it was read, empty when it was not
};

/// Zipkin gives the client and the server half of one RPC the same id (the server's marked `shared`); the
/// span model needs one id per span. The client half keeps its place and becomes `<id>-client`; the server
/// half keeps the id, so that the spans below it (which name that id) stay its children, and becomes the
/// client half's child, as in OpenTelemetry. Any other repeat of an id is rejected with `why`.
void separateSharedSpans(std::vector<ReadSpan> &spans, std::vector<std::string> &why)
{
    std::unordered_map<std::string, std::vector<std::size_t>> byId;
    for (std::size_t i = 0; i < spans.size(); ++i) {
        if (spans[i].rejected.empty())
            byId[spans[i].span.traceId + spans[i].span.spanId].push_back(i);
    }
    why.assign(spans.size(), {});
    for (auto &[key, group] : byId) {
        if (group.size() < 2)
            continue;
        // The server half: the span marked shared, else a SERVER span; the client half: another span that
        // is neither. Without such a pair the first span keeps the id.
        constexpr std::size_t kNone = std::size_t(-1);
        std::size_t server = kNone, client = kNone;
        for (std::size_t k = 0; k < group.size() && server == kNone; ++k)
            server = spans[group[k]].shared ? k : kNone;
        for (std::size_t k = 0; k < group.size() && server == kNone; ++k)
            server = spans[group[k]].span.kind == 2 ? k : kNone;
        for (std::size_t k = 0; k < group.size() && server != kNone && client == kNone; ++k) {
            const ReadSpan &s = spans[group[k]];
            client = k != server && !s.shared && s.span.kind != 2 ? k : kNone;
        }
        const std::size_t keep = client == kNone ? 0 : server;
        for (std::size_t k = 0; k < group.size(); ++k) {
            if (k != keep && k != client)
                why[group[k]] = "another span of its trace has this id, and the two are not the client and server halves of one call";
        }
        if (client != kNone) {
            Span &c = spans[group[client]].span;
            c.spanId += "-client";
            spans[group[server]].span.parentId = c.spanId;
        }
    }
}

class ZipkinReader final : public OtlpSpanReader {
public:
    explicit ZipkinReader(const ReaderOptions &options)
        : OtlpSpanReader(options.spanMappings), m_maxDocumentBytes(options.maxDocumentBytes)
    {
    }

    std::string read(LineReader &lines, ImportSink &sink) override
    {
        dom::element root;
        if (std::string why = spanjson::parseDocument(lines, m_maxDocumentBytes, m_text, m_parser, root); !why.empty())
            return why;
        dom::array array;
        if (root.get_array().get(array))
            return "not Zipkin v2 JSON: expected an array of spans";
        // The whole array is read before any span is linked: a shared span's halves may lie anywhere in it.
        std::vector<ReadSpan> spans;
        std::int64_t ordinal = 0;
        for (dom::element element : array) {
            if (!sink.keepGoing())
                return {};
            dom::array trace;
            if (!element.get_array().get(trace)) {
                for (dom::element inner : trace)
                    readOne(inner, ++ordinal, spans);
            } else {
                readOne(element, ++ordinal, spans);
            }
        }
        if (ordinal == 0)
            return std::string(kNoSpans);
        std::vector<std::string> why;
        separateSharedSpans(spans, why);
        // In the file's order, the rejections as read and those of repeated ids alike.
        for (std::size_t i = 0; i < spans.size(); ++i) {
            if (!spans[i].rejected.empty())
                sink.reject(spans[i].ordinal, spans[i].rejected, spans[i].raw);
            else if (!why[i].empty())
                sink.reject(spans[i].ordinal, otlp::spanReason(spans[i].span, why[i]), spans[i].raw);
            else
                collect(std::move(spans[i].span), std::move(spans[i].raw), spans[i].ordinal);
        }
        emitAllCollected(sink);
        return {};
    }

private:
    void readOne(dom::element element, std::int64_t ordinal, std::vector<ReadSpan> &spans)
    {
        ReadSpan read;
        read.raw = simdjson::minify(element);
        read.ordinal = ordinal;
        read.rejected = parseSpan(element, attributeFilter(), read.span, read.shared);
        spans.push_back(std::move(read));
    }

    std::size_t m_maxDocumentBytes;
    std::string m_text;
    dom::parser m_parser;
};

} // namespace

bool zipkinCanRead(std::string_view head)
{
    std::size_t at = head.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos || head[at] != '[')
        return false;
    at = head.find_first_not_of(" \t\r\n", at + 1);
    if (at != std::string_view::npos && head[at] == '[') // an array of traces
        at = head.find_first_not_of(" \t\r\n", at + 1);
    if (at == std::string_view::npos || head[at] != '{')
        return false;
    // Zipkin's keys: traceId (Jaeger writes traceID) and id.
    return head.find("\"traceId\"") != std::string_view::npos && head.find("\"id\"") != std::string_view::npos;
}

std::unique_ptr<TraceReader> createZipkinReader(const ReaderOptions &options)
{
    return std::make_unique<ZipkinReader>(options);
}

} // namespace lx
