// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// \file otlp_span.h
/// One OpenTelemetry span as the span-to-request mapping sees it, whatever it was read from (OTLP/JSON or
/// OTLP/protobuf): ids as lower-case hex, times as int64 ns, attributes with their value in the forms the
/// mapping can use. Both parsers fill it through applyAttribute(), so that they agree key by key.

namespace lx::otlp {

/// The parts of an attribute's AnyValue that a mapping can read.
struct AttributeValue {
    std::string text;                   ///< string_value, empty otherwise
    std::optional<double> number;       ///< int_value or double_value
    std::optional<std::int64_t> integer; ///< int_value, or a double_value that is a whole number
};

struct Span {
    std::string traceId;  ///< 32 lower-case hex digits
    std::string spanId;   ///< 16 lower-case hex digits, or an id the reader made up (idMadeUp)
    std::string parentId; ///< 16 lower-case hex digits, empty when the span has no parent
    std::string name;
    std::string service; ///< the resource's service.name, empty when absent
    int kind = 0;        ///< SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer
    /// kNotMeasured when the file gave none: only Zipkin v2 allows a span without timestamp or duration
    /// (the OTLP readers reject such a span).
    std::int64_t startNs = 0;
    std::int64_t endNs = 0; ///< kNotMeasured when the start or the duration is unknown
    /// A duration the file gave without a start to count it from (Zipkin), else kNotMeasured.
    std::int64_t lengthNs = kNotMeasured;
    bool error = false; ///< status.code is 2 (STATUS_CODE_ERROR)
    /// The file gave no span id: spanId is made up (never hex, so no parent id can name it). Such a span
    /// can be nobody's parent; it is rejected only when its trace has a span whose parent cannot be found.
    bool idMadeUp = false;
    std::string requestId, responseModel, requestModel;
    std::int64_t inputTokens = -1;
    std::int64_t outputTokens = -1;
    std::vector<std::pair<std::string, AttributeValue>> attributes; ///< every attribute, in file order

    /// end - start, else lengthNs: kNotMeasured when the file did not say how long the span took.
    std::int64_t durationNs() const { return isMeasured(startNs) && isMeasured(endNs) ? endNs - startNs : lengthNs; }
    /// The attribute `key`, or null.
    const AttributeValue *attribute(std::string_view key) const;
    /// True when some attribute's key starts with `prefix`.
    bool hasAttributePrefix(std::string_view prefix) const;
};

/// The attributes a span keeps: those its mappings read (keys, or key prefixes). Keeping every attribute
/// of every span would cost more than the parsing (allocations for a file's worth of spans).
struct AttributeFilter {
    std::vector<std::string> keys;
    std::vector<std::string> prefixes;

    bool keeps(std::string_view key) const;
    /// True when the attribute must be read at all: kept, or a gen_ai.* key of the typed fields.
    bool reads(std::string_view key) const { return key.starts_with("gen_ai.") || keeps(key); }
};

/// Records the attribute on the span when `filter` keeps it, and the gen_ai.* keys in its typed fields.
/// Returns why the span must be rejected (a gen_ai.latency.* value that is no number, a token count that is
/// no integer), or empty.
std::string applyAttribute(std::string_view key, AttributeValue value, Span &span, const AttributeFilter &filter);

/// `reason` prefixed with the span's name and, when the file gave one, its id: what a user needs to find it
/// in the file.
std::string spanReason(const Span &span, std::string_view reason);

/// `bytes` as lower-case hex.
std::string toHex(std::string_view bytes);

} // namespace lx::otlp
