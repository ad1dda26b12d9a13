// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <simdjson.h>

#include "ingest/formats/otlp/otlp_span.h"

#include <cstdint>
#include <string>
#include <string_view>

/// \file span_document.h
/// What the readers of Jaeger's trace JSON and of Zipkin v2 JSON share (docs/SPANS.md): the whole input as
/// one document under the document cap, malformed JSON named by its byte offset, ids normalised to the
/// span model's lower-case hex, microseconds to checked nanoseconds, and tag values as attribute values.
/// Both are whole-file JSON of spans, so they are read into the OTLP span model (otlp_span.h) and become
/// requests through the same span mappings (otlp_requests.h).

namespace lx {

class LineReader;

namespace spanjson {

/// Reads the whole input into `text` (its bytes as they are, a byte-order mark blanked so that offsets stay
/// those of the file) and parses it into `root`. Returns why the file cannot be read: larger than
/// `maxBytes` (refused as it is read), unreadable input, or malformed JSON with its byte offset.
std::string parseDocument(LineReader &lines, std::size_t maxBytes, std::string &text, simdjson::dom::parser &parser,
                          simdjson::dom::element &root);

/// Why `text` is not JSON, for a document simdjson refused with `error`: "malformed JSON at byte 1234 (line
/// 56): <simdjson's reason>". The offset is where simdjson's On Demand walk stopped; errors found before any
/// value is read (an unclosed string, invalid UTF-8) have no offset and say so.
std::string malformedJsonReason(simdjson::padded_string_view text, simdjson::error_code error);

/// `text` as `digits` lower-case hex digits: 1 to `digits` hex digits of either case, left-padded with
/// zeros (Jaeger drops a 128-bit trace id's leading zeros, Zipkin has 64-bit trace ids). False otherwise.
bool hexId(std::string_view text, std::size_t digits, std::string &out);
/// True for an id of zeros only, which B3 and old Jaeger exports write for "no parent".
bool isZeroId(std::string_view hex);
/// The reason an id is not one: `<field> "<text>" is not 1 to <digits> hex digits`.
std::string badIdReason(std::string_view field, std::string_view text, std::size_t digits);

/// A time or duration in microseconds (a JSON integer, a whole or fractional number, or a decimal string)
/// as ns. Returns why it cannot be: not a number, or outside int64 ns (the time_range.h messages).
std::string microsToNs(simdjson::dom::element value, std::string_view field, bool isTime, std::int64_t &ns);

/// A tag's value as the mapping reads attributes: a string's text (and its number when the whole text is
/// one: Zipkin's tags are all strings), a number as number (and integer when whole), a bool as "true" or
/// "false".
otlp::AttributeValue attributeValue(simdjson::dom::element value);

/// The SpanKind number of a kind name of either case (`server`, `CLIENT`, ...), -1 for any other name.
int kindOfName(std::string_view name);

} // namespace spanjson
} // namespace lx
