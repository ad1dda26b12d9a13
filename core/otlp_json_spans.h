// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

/// \file otlp_json_spans.h
/// One OTLP/JSON span read from a simdjson DOM element into the few fields the request mapping needs
/// (docs/OTLP.md). Kept apart from the reader so that the mapping sees validated, normalised values only:
/// ids as lower-case hex, times as int64 ns, attribute values whatever their JSON encoding.

namespace lx::otlp {

/// The vLLM / SGLang `gen_ai.latency.*` attributes the mapping uses, in seconds.
enum Latency : int { TimeInQueue, TimeToFirstToken, E2e, TimeInModelPrefill, TimeInModelDecode };
inline constexpr int kLatencyCount = 5;

struct Span {
    std::string traceId;  ///< 32 lower-case hex digits
    std::string spanId;   ///< 16 lower-case hex digits
    std::string parentId; ///< 16 lower-case hex digits, empty when the span has no parent
    std::string name;
    std::string service; ///< the resource's service.name, empty when absent
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool error = false; ///< status.code is 2 (STATUS_CODE_ERROR)
    bool llm = false;   ///< named llm_request or carries any gen_ai.latency.* attribute
    std::string requestId, responseModel, requestModel;
    std::int64_t inputTokens = -1;
    std::int64_t outputTokens = -1;
    std::array<std::optional<double>, kLatencyCount> latency; ///< seconds, as written
};

/// Reads `element` as a span of the resource whose service.name is `service`. Returns the reason it must
/// be rejected (naming the span), or empty.
std::string parseSpan(simdjson::dom::element element, std::string_view service, Span &out);

/// The resource's service.name attribute, empty when absent.
std::string serviceName(simdjson::dom::element resourceSpans);

/// `text` as `bytes` bytes of lower-case hex: accepted as hex digits of either case (the OTLP/JSON rule)
/// or as standard base64 (what generic protobuf JSON mappers write). False when it is neither.
bool decodeId(std::string_view text, std::size_t bytes, std::string &hex);

/// A 64-bit integer written as a JSON number or as a decimal string (OTLP/JSON writes the latter).
bool readInt64(simdjson::dom::element element, std::int64_t &out);

} // namespace lx::otlp
