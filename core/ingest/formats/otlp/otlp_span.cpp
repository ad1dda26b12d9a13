// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_span.h"

namespace lx::otlp {

const AttributeValue *Span::attribute(std::string_view key) const
{
    for (const auto &[k, v] : attributes) {
        if (k == key)
            return &v;
    }
    return nullptr;
}

bool Span::hasAttributePrefix(std::string_view prefix) const
{
    for (const auto &kv : attributes) {
        if (kv.first.starts_with(prefix))
            return true;
    }
    return false;
}

bool AttributeFilter::keeps(std::string_view key) const
{
    for (const std::string &k : keys) {
        if (key == k)
            return true;
    }
    for (const std::string &prefix : prefixes) {
        if (key.starts_with(prefix))
            return true;
    }
    return false;
}

std::string applyAttribute(std::string_view key, AttributeValue value, Span &span, const AttributeFilter &filter)
{
    if (key.starts_with("gen_ai.latency.") && !value.number)
        return std::string(key) + " is not a number";
    if (key == "gen_ai.request.id") {
        if (!value.text.empty())
            span.requestId = value.text;
        else if (value.integer)
            span.requestId = std::to_string(*value.integer);
    } else if (key == "gen_ai.response.model") {
        span.responseModel = value.text;
    } else if (key == "gen_ai.request.model") {
        span.requestModel = value.text;
    } else if (key == "gen_ai.usage.prompt_tokens" || key == "gen_ai.usage.input_tokens") {
        if (!value.integer)
            return std::string(key) + " is not an integer";
        span.inputTokens = *value.integer;
    } else if (key == "gen_ai.usage.completion_tokens" || key == "gen_ai.usage.output_tokens") {
        if (!value.integer)
            return std::string(key) + " is not an integer";
        span.outputTokens = *value.integer;
    }
    if (filter.keeps(key))
        span.attributes.emplace_back(std::string(key), std::move(value));
    return {};
}

std::string spanReason(const Span &span, std::string_view reason)
{
    std::string label = "span \"" + span.name + "\"";
    if (!span.spanId.empty() && !span.idMadeUp)
        label += " (span id " + span.spanId + ")";
    return label + ": " + std::string(reason);
}

std::string toHex(std::string_view bytes)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * bytes.size());
    for (char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        hex += kHex[u >> 4];
        hex += kHex[u & 0xF];
    }
    return hex;
}

} // namespace lx::otlp
