// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <simdjson.h>

#include "ingest/formats/otlp/otlp_span.h"

#include <cstdint>
#include <string>
#include <string_view>

/// \file otlp_json_spans.h
/// One OTLP/JSON span read from a simdjson DOM element into an otlp::Span (docs/OTLP.md). Kept apart from
/// the reader so that the mapping sees validated, normalised values only: ids as lower-case hex, times as
/// int64 ns, attribute values whatever their JSON encoding.

namespace lx::otlp {

/// Reads `element` as a span of the resource whose service.name is `service`, keeping the attributes
/// `filter` keeps. Returns the reason it must be rejected (naming the span), or empty.
std::string parseSpan(simdjson::dom::element element, std::string_view service, const AttributeFilter &filter, Span &out);

/// The resource's service.name attribute, empty when absent.
std::string serviceName(simdjson::dom::element resourceSpans);

/// `text` as `bytes` bytes of lower-case hex: accepted as hex digits of either case (the OTLP/JSON rule)
/// or as standard base64 (what generic protobuf JSON mappers write). False when it is neither.
bool decodeId(std::string_view text, std::size_t bytes, std::string &hex);

/// A 64-bit integer written as a JSON number or as a decimal string (OTLP/JSON writes the latter).
bool readInt64(simdjson::dom::element element, std::int64_t &out);

} // namespace lx::otlp
