// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_json_reader.h"

#include "ingest/accept_rules.h"
#include "ingest/formats/otlp/otlp_json_spans.h"
#include "ingest/formats/otlp/otlp_requests.h"
#include "ingest/line_reader.h"

#include <simdjson.h>


namespace lx {

namespace dom = simdjson::dom;
using otlp::Span;

namespace {

constexpr std::string_view kNoSpans = "no OTLP span in this JSON document: nothing to import (neither one request per "
                                      "line nor a trace with spans)";

std::string_view trimmed(std::string_view s)
{
    const std::size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
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

class OtlpJsonReader final : public OtlpSpanReader {
public:
    using OtlpSpanReader::OtlpSpanReader;

    void setMaxDocumentBytes(std::size_t bytes) { m_maxDocumentBytes = bytes; }

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
                // A pretty document is read whole; beyond the bound the import stops with a reason.
                if (m_document.size() + line.size() + 1 > m_maxDocumentBytes)
                    return documentTooLargeReason(m_maxDocumentBytes)
                           + "; write OTLP/JSON one object per line (the Collector's file exporter) to import it";
                m_document.append(line).append(1, '\n');
                continue;
            }
            if (!sink.keepGoing())
                return {};
            dom::element root;
            const bool padded = lines.capacityAfter(line.data()) >= line.size() + simdjson::SIMDJSON_PADDING;
            if (auto e = m_parser.parse(line.data(), line.size(), !padded).get(root)) {
                ++m_unitRejections;
                const std::string why = std::string("malformed JSON: ") + simdjson::error_message(e);
                if (lines.endsInsideLastLine()) { // a file the Collector was still writing, copied
                    sink.reject(lineNumber, endsInsideReason(why), line);
                    stopEarly("the file ends inside line " + std::to_string(lineNumber)
                                  + ", with no line end, and it was rejected",
                              true);
                } else {
                    sink.reject(lineNumber, why, line);
                }
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
        emitAllCollected(sink);
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
                    if (std::string why = otlp::parseSpan(element, service, attributeFilter(), span); !why.empty()) {
                        sink.reject(where, why, raw);
                        continue;
                    }
                    collect(std::move(span), std::move(raw), where);
                }
            }
        }
        emitCompleteTraces(sink);
        return {};
    }

    std::size_t m_maxDocumentBytes = kMaxDocumentBytes;
    dom::parser m_parser;
    std::string m_document;
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

std::unique_ptr<TraceReader> createOtlpJsonReader(const ReaderOptions &options)
{
    auto reader = std::make_unique<OtlpJsonReader>(options.spanMappings);
    reader->setMaxDocumentBytes(options.maxDocumentBytes);
    return reader;
}

} // namespace lx
