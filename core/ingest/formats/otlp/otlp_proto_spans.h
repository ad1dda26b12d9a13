// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/formats/otlp/otlp_span.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

/// \file otlp_proto_spans.h
/// The spans of one OTLP/protobuf TracesData / ExportTraceServiceRequest message (the two have the same
/// wire form: field 1, repeated ResourceSpans), read with the protobuf library's CodedInputStream into
/// otlp::Span. Only the fields the mapping needs are read (docs/OTLP.md lists their numbers, taken from the
/// OTLP specification); unknown fields are skipped. No .proto file is involved.

namespace lx::otlp {

/// Where the spans of a message go.
struct ProtoSpanHandler {
    /// A span read in full: `why` is empty, or the reason it must be rejected (already naming the span).
    /// `excerpt` describes it in text, for the rejection's excerpt.
    std::function<void(Span &&span, const std::string &why, const std::string &excerpt)> span;
    /// A part of the message that is not well-formed protobuf; its spans are lost. `offset` is the byte in
    /// the (decompressed) input where the problem is found.
    std::function<void(std::uint64_t offset, const std::string &reason, std::string_view bytes)> problem;
    /// Optional: after problem(), when the message's own framing is broken, so that nothing after that
    /// point can be read; `pastTheEnd` when a field runs past the message's end (cut off).
    std::function<void(const std::string &reason, bool pastTheEnd)> framing;
};

/// Reads `message`, which starts at byte `offset` of the input. A malformed span is one rejection; a
/// malformed ResourceSpans (or the message's own framing) is one problem, and reading goes on with the
/// next ResourceSpans whenever its length allows.
/// Spans keep the attributes `filter` keeps.
void readProtoTraces(std::string_view message, std::uint64_t offset, const AttributeFilter &filter, const ProtoSpanHandler &handler);

/// True when `bytes` (the start of a message, or all of it when `complete`) reads as a TracesData message
/// as far as it goes: field 1 length-delimited only, each ResourceSpans starting with one of its own fields.
bool looksLikeProtoTraces(std::string_view bytes, bool complete);

} // namespace lx::otlp
