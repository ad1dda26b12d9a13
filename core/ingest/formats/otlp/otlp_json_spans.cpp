// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_json_spans.h"
#include "model/text_util.h"
#include "platform/float_from_chars.h"

#include "model/time_range.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace lx::otlp {

namespace dom = simdjson::dom;

namespace {

int base64Digit(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62; // '-' and '_' are the URL-safe alphabet, which some mappers use
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

bool decodeBase64(std::string_view text, std::size_t bytes, std::string &hex)
{
    // Padded base64 of n bytes is 4 * ceil(n / 3) characters: 24 for a trace id, 12 for a span id. The
    // lengths differ from the hex forms (32, 16), so an id is never ambiguous.
    if (text.size() != 4 * ((bytes + 2) / 3))
        return false;
    static constexpr char kHex[] = "0123456789abcdef";
    hex.clear();
    std::uint32_t acc = 0;
    int bits = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] != '='; ++i) {
        const int d = base64Digit(text[i]);
        if (d < 0)
            return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(d);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            const auto byte = static_cast<unsigned>((acc >> bits) & 0xFF);
            hex += kHex[byte >> 4];
            hex += kHex[byte & 0xF];
        }
    }
    for (std::size_t j = i; j < text.size(); ++j) {
        if (text[j] != '=')
            return false;
    }
    return hex.size() == 2 * bytes;
}

bool isDecimal(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

/// A time written as a whole number (or a string of digits) that does not fit int64 ns.
bool isTimeOutOfRange(dom::element element)
{
    std::uint64_t u = 0;
    if (!element.get_uint64().get(u))
        return u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    double d = 0;
    if (!element.get_double().get(d))
        return !scaledToNs(d, 1);
    std::string_view text;
    if (element.get_string().get(text))
        return false;
    const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
    std::int64_t ignored = 0;
    return isDecimal(digits) && std::from_chars(text.data(), text.data() + text.size(), ignored).ec == std::errc::result_out_of_range;
}

/// A double written as a JSON number or a numeric string (protobuf JSON allows both).
bool readDouble(dom::element element, double &out)
{
    if (!element.get_double().get(out))
        return true;
    std::string_view text;
    if (element.get_string().get(text))
        return false;
    const auto r = lx::fromChars(text.data(), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

AttributeValue readValue(dom::element any)
{
    AttributeValue v;
    dom::element inner;
    std::string_view text;
    if (!any["stringValue"].get(inner) && !inner.get_string().get(text))
        v.text.assign(text); // not a string after all: treated as absent
    if (!any["intValue"].get(inner)) {
        std::int64_t i = 0;
        if (readInt64(inner, i)) {
            v.integer = i;
            v.number = static_cast<double>(i);
        }
    }
    if (!any["doubleValue"].get(inner)) {
        double d = 0;
        if (readDouble(inner, d)) {
            v.number = d;
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e18)
                v.integer = static_cast<std::int64_t>(d);
        }
    }
    return v;
}

std::string readAttributes(dom::element span, const AttributeFilter &filter, Span &out)
{
    dom::array attributes;
    if (span["attributes"].get(attributes))
        return {}; // absent (or not an array: unknown shapes are ignored like unknown fields)
    for (dom::element kv : attributes) {
        std::string_view key;
        dom::element any;
        if (kv["key"].get_string().get(key) || !filter.reads(key) || kv["value"].get(any))
            continue;
        if (std::string why = applyAttribute(key, readValue(any), out, filter); !why.empty())
            return why;
    }
    return {};
}

/// The SpanKind as its number 0-5, or -1 when it is neither such a number nor a SPAN_KIND_* name.
int readKind(dom::element kind)
{
    std::int64_t number = 0;
    if (!kind.get_int64().get(number))
        return number >= 0 && number <= 5 ? static_cast<int>(number) : -1;
    std::string_view name;
    if (kind.get_string().get(name))
        return -1;
    int i = 0;
    for (std::string_view known : {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT",
                                   "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"}) {
        if (name == known)
            return i;
        ++i;
    }
    return -1;
}

/// Reads an id field; empty result when absent. Returns an error when present but invalid.
std::string readId(dom::element span, const char *field, std::size_t bytes, std::string &hex)
{
    hex.clear();
    dom::element e;
    if (span[field].get(e))
        return {};
    std::string_view text;
    if (e.get_string().get(text))
        return std::string(field) + " is not a string";
    if (text.empty())
        return {};
    if (!decodeId(text, bytes, hex)) {
        std::string shown(text.substr(0, 48));
        return std::string(field) + " \"" + shown + "\" is neither " + std::to_string(2 * bytes) + " hex digits nor base64 of "
               + std::to_string(bytes) + " bytes";
    }
    return {};
}

} // namespace

bool decodeId(std::string_view text, std::size_t bytes, std::string &hex)
{
    if (text.size() == 2 * bytes) {
        hex.clear();
        for (char c : text) {
            const int d = hexDigit(c);
            if (d < 0)
                return decodeBase64(text, bytes, hex);
            hex += "0123456789abcdef"[d];
        }
        return true;
    }
    return decodeBase64(text, bytes, hex);
}

bool readInt64(dom::element element, std::int64_t &out)
{
    if (!element.get_int64().get(out))
        return true;
    std::string_view text;
    if (element.get_string().get(text))
        return false;
    std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
    if (!isDecimal(digits))
        return false;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

std::string serviceName(dom::element resourceSpans)
{
    dom::array attributes;
    if (resourceSpans["resource"]["attributes"].get(attributes))
        return {};
    for (dom::element kv : attributes) {
        std::string_view key;
        dom::element any;
        if (kv["key"].get_string().get(key) || key != "service.name" || kv["value"].get(any))
            continue;
        return readValue(any).text;
    }
    return {};
}

std::string parseSpan(dom::element element, std::string_view service, const AttributeFilter &filter, Span &out)
{
    out = Span{};
    out.service.assign(service);
    dom::object object;
    if (element.get_object().get(object))
        return "a span that is not a JSON object";
    std::string_view name;
    if (!object["name"].get_string().get(name))
        out.name.assign(name);
    std::string why = readId(element, "spanId", 8, out.spanId);
    // The reason names the span by what is known of it, so that a user can find it in the file.
    const auto named = [&](const std::string &reason) { return spanReason(out, reason); };
    if (!why.empty())
        return named(why);
    if (why = readId(element, "traceId", 16, out.traceId); !why.empty())
        return named(why);
    if (out.traceId.empty())
        return named("no traceId");
    if (why = readId(element, "parentSpanId", 8, out.parentId); !why.empty())
        return named(why);
    dom::element e;
    if (!object["kind"].get(e) && (out.kind = readKind(e)) < 0)
        return named("invalid kind " + simdjson::minify(e).substr(0, 48));
    // Proto3 leaves a zero time unset, so "0" is as missing as an absent field.
    for (auto [field, ns] : {std::pair<const char *, std::int64_t *>{"startTimeUnixNano", &out.startNs}, {"endTimeUnixNano", &out.endNs}}) {
        // An absent field leaves `e` a default element, which no accessor may be called on (ubsan; a
        // span without an end time, found by fuzz target otlp_json).
        const bool present = !object[field].get(e);
        if (!present || !readInt64(e, *ns) || *ns <= 0)
            return named(present && isTimeOutOfRange(e) ? timeOutOfRange(field, simdjson::minify(e).substr(0, 48))
                                                        : std::string("no valid ") + field);
    }
    if (out.endNs < out.startNs)
        return named("ends before it starts (endTimeUnixNano < startTimeUnixNano)");
    if (!object["status"]["code"].get(e)) {
        std::int64_t code = 0;
        std::string_view text;
        out.error = (readInt64(e, code) && code == 2) || (!e.get_string().get(text) && text == "STATUS_CODE_ERROR");
    }
    if (why = readAttributes(element, filter, out); !why.empty())
        return named(why);
    return {};
}

} // namespace lx::otlp
