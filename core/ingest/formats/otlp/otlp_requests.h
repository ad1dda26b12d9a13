// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/formats/otlp/otlp_span.h"
#include "ingest/formats/otlp/span_census.h"
#include "ingest/span_mapping.h"
#include "ingest/trace_reader.h"

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
/// the sink; a request the mapping cannot measure consistently is rejected with the reason. Each span is
/// counted in `census` (when given) with whether a mapping claimed it.
void emitSpanRequests(const SpanBatch &batch, const SpanMappings &mappings, ImportSink &sink, SpanCensus *census = nullptr);

/// A reader of OTLP spans, made with the mappings its factory was given (ReaderOptions); without, `auto`
/// applies.
/// A trace's spans are collected until its root (a span without a parent) has come, so that a trace whose
/// spans the Collector exported in several batches (lines, messages), children first, is one trace.
/// Traces whose root is not in the file wait for the end of the file, or until kMaxCollectedSpans spans
/// wait, which bounds the memory.
class OtlpSpanReader : public TraceReader {
public:
    static constexpr std::size_t kMaxCollectedSpans = std::size_t(1) << 17; // some 256 MB of vLLM spans

    /// `mappings` null: the `auto` mappings, loaded when the first span needs them.
    explicit OtlpSpanReader(std::shared_ptr<const SpanMappings> mappings);

    /// That no mapping claimed any of the file's spans, naming the spans seen (unclaimedSpansNotice()).
    std::string notice() const override;
    EarlyStop stoppedEarly() const override { return m_stop; }

protected:
    /// Says why reading stopped before the end of the input (TraceReader::stoppedEarly()); the first one said stands.
    void stopEarly(std::string reason, bool cutOff)
    {
        if (m_stop.reason.empty())
            m_stop = { std::move(reason), cutOff };
    }
    /// The attributes the mappings read: what a span keeps.
    const otlp::AttributeFilter &attributeFilter();
    /// Keeps the span until its trace is emitted; of `raw` only what a rejection's excerpt can show. A span
    /// without id gets one made up here (docs/OTLP.md): the trace id, '-' and its number among the file's
    /// spans without id, so that both encodings make up the same.
    void collect(otlp::Span &&span, std::string &&raw, std::int64_t line);
    /// At the end of a line or message: emits the requests of the traces whose root has come (all of
    /// them when kMaxCollectedSpans spans wait).
    void emitCompleteTraces(ImportSink &sink);
    /// At the end of the file: emits the requests of every span still waiting.
    void emitAllCollected(ImportSink &sink);

private:
    void setSpanMappings(std::shared_ptr<const SpanMappings> mappings);
    const SpanMappings &mappings();

    std::shared_ptr<const SpanMappings> m_mappings;
    otlp::AttributeFilter m_filter;
    SpanBatch m_batch;
    std::size_t m_unitStart = 0; ///< the first span of m_batch that the current line or message brought
    std::uint64_t m_madeUpIds = 0; ///< spans of the file without id so far
    SpanCensus m_census;
    EarlyStop m_stop;
};

} // namespace lx
