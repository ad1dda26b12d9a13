// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "otlp_span.h"
#include "span_mapping.h"
#include "trace_reader.h"

#include <memory>
#include <string>
#include <vector>

/// \file otlp_requests.h
/// From spans to requests, the same for every OTLP encoding (docs/OTLP.md "From spans to requests"): the
/// spans read together are linked into traces by (trace id, parent span id); a span that a mapping's root
/// selectors claim is a request, measured by that mapping; a trace that no mapping claims still gives one
/// request per root span, all of its time unattributed.

namespace lx {

/// The spans read together (one line, one document, one protobuf message) and where each came from.
struct SpanBatch {
    std::vector<otlp::Span> spans;
    std::vector<std::string> raw;    ///< each span's text, for rejection excerpts
    std::vector<std::int64_t> lines; ///< each span's line (or ordinal) for rejections and source_line
    void clear()
    {
        spans.clear();
        raw.clear();
        lines.clear();
    }
};

/// Turns the batch's spans into requests through `mappings` (tried in order on each span) and hands them to
/// the sink; a request the mapping cannot measure consistently is rejected with the reason.
void emitSpanRequests(const SpanBatch &batch, const SpanMappings &mappings, ImportSink &sink);

/// A reader of OTLP spans: the importer hands it the mappings before read(); without, `auto` applies.
/// The spans of a whole file are collected before they become requests, so that a trace whose spans the
/// Collector exported in several batches (lines, messages) is one trace; past kMaxCollectedSpans the
/// spans so far are turned into requests first, which bounds the memory.
class OtlpSpanReader : public TraceReader {
public:
    static constexpr std::size_t kMaxCollectedSpans = std::size_t(1) << 17; // some 256 MB of vLLM spans

    void setSpanMappings(std::shared_ptr<const SpanMappings> mappings) { m_mappings = std::move(mappings); }

protected:
    void collect(otlp::Span &&span, std::string &&raw, std::int64_t line);
    /// Emits the requests of the spans collected so far when they are many, or always when `atEnd`.
    void emitCollected(ImportSink &sink, bool atEnd);

private:
    std::shared_ptr<const SpanMappings> m_mappings;
    SpanBatch m_batch;
};

} // namespace lx
