// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/spanjson/span_document.h"
#include "platform/float_from_chars.h"

#include "ingest/input_file.h"
#include "ingest/line_reader.h"
#include "ingest/trace_reader.h"
#include "model/time_range.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace lx::spanjson {

namespace dom = simdjson::dom;
namespace ondemand = simdjson::ondemand;

namespace {

/// Visits every value under `value` so that On Demand, which validates as it goes, meets the first error;
/// returns it (SUCCESS when the whole value is well-formed).
simdjson::error_code walk(ondemand::value value)
{
    ondemand::json_type type;
    if (auto e = value.type().get(type))
        return e;
    switch (type) {
    case ondemand::json_type::object: {
        ondemand::object object;
        if (auto e = value.get_object().get(object))
            return e;
        for (auto field : object) {
            std::string_view key;
            if (auto e = field.unescaped_key().get(key))
                return e;
            ondemand::value inner;
            if (auto e = field.value().get(inner))
                return e;
            if (auto e = walk(inner))
                return e;
        }
        return simdjson::SUCCESS;
    }
    case ondemand::json_type::array: {
        ondemand::array array;
        if (auto e = value.get_array().get(array))
            return e;
        for (auto element : array) {
            ondemand::value inner;
            if (auto e = element.get(inner))
                return e;
            if (auto e = walk(inner))
                return e;
        }
        return simdjson::SUCCESS;
    }
    case ondemand::json_type::string: {
        std::string_view s;
        return value.get_string().get(s);
    }
    case ondemand::json_type::number: {
        ondemand::number n;
        return value.get_number().get(n);
    }
    case ondemand::json_type::boolean: {
        bool b = false;
        return value.get_bool().get(b);
    }
    case ondemand::json_type::null: {
        bool isNull = false;
        if (auto e = value.is_null().get(isNull))
            return e;
        return isNull ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
    }
    return simdjson::INCORRECT_TYPE;
}

bool isDecimal(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::string shown(dom::element value)
{
    return simdjson::minify(value).substr(0, 48);
}

} // namespace

std::string parseDocument(LineReader &lines, std::size_t maxBytes, std::string &text, dom::parser &parser, dom::element &root)
{
    // The bytes as they are (not lines joined again): the offset of a JSON error is then the file's.
    text.clear();
    for (std::string_view chunk = lines.nextBytes(); !chunk.empty(); chunk = lines.nextBytes()) {
        if (text.size() + chunk.size() > maxBytes) {
            text.clear();
            text.shrink_to_fit();
            return documentTooLargeReason(maxBytes);
        }
        text.append(chunk);
    }
    if (lines.input() && !lines.input()->error().empty())
        return lines.input()->error();
    if (text.starts_with("\xEF\xBB\xBF"))
        text.replace(0, 3, "   "); // whitespace to JSON, and the offsets stay the file's
    // simdjson reads past the end: with the padding reserved here, neither parse copies the document.
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    if (auto e = parser.parse(text.data(), text.size(), false).get(root))
        return malformedJsonReason(simdjson::padded_string_view(text.data(), text.size(), text.capacity()), e);
    return {};
}

std::string malformedJsonReason(simdjson::padded_string_view padded, simdjson::error_code error)
{
    // The DOM parser says what is wrong but not where; On Demand, walked to its first error, says where.
    const std::string_view text(padded.data(), padded.size());
    ondemand::parser parser;
    ondemand::document doc;
    std::size_t offset = std::string_view::npos;
    if (!parser.iterate(padded).get(doc)) {
        ondemand::json_type type;
        simdjson::error_code found = doc.type().get(type);
        if (!found && (type == ondemand::json_type::object || type == ondemand::json_type::array)) {
            ondemand::value value;
            found = doc.get_value().get(value);
            if (!found)
                found = walk(value);
            const char *rest = nullptr; // past the root value, a location is the start of what trails it
            if (!found && !doc.current_location().get(rest))
                found = simdjson::TRAILING_CONTENT;
        }
        const char *at = nullptr;
        if (found && !doc.current_location().get(at) && at >= padded.data() && at <= padded.data() + padded.size()) {
            offset = static_cast<std::size_t>(at - padded.data());
            error = found;
        }
    }
    if (offset == std::string_view::npos)
        return std::string("malformed JSON (found before any value was read, so no byte offset is known): ")
               + simdjson::error_message(error);
    offset = std::min(offset, text.size());
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
    return "malformed JSON at byte " + std::to_string(offset) + " (line " + std::to_string(line)
           + "): " + simdjson::error_message(error);
}

bool hexId(std::string_view text, std::size_t digits, std::string &out)
{
    if (text.empty() || text.size() > digits)
        return false;
    out.assign(digits - text.size(), '0');
    for (char c : text) {
        if (c >= '0' && c <= '9')
            out += c;
        else if (c >= 'a' && c <= 'f')
            out += c;
        else if (c >= 'A' && c <= 'F')
            out += static_cast<char>(c - 'A' + 'a');
        else
            return false;
    }
    return true;
}

bool isZeroId(std::string_view hex)
{
    return hex.find_first_not_of('0') == std::string_view::npos;
}

std::string badIdReason(std::string_view field, std::string_view text, std::size_t digits)
{
    return std::string(field) + " \"" + std::string(text.substr(0, 48)) + "\" is not 1 to " + std::to_string(digits)
           + " hex digits";
}

std::string microsToNs(dom::element value, std::string_view field, bool isTime, std::int64_t &ns)
{
    const auto outOfRange = [&] {
        return isTime ? timeOutOfRange(field, shown(value)) : durationOutOfRange(field, shown(value));
    };
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0;
    std::string_view text;
    if (!value.get_int64().get(i)) {
        const std::optional<std::int64_t> scaled = checkedMul(i, 1000);
        if (!scaled)
            return outOfRange();
        ns = *scaled;
        return {};
    }
    if (!value.get_uint64().get(u))
        return outOfRange(); // above INT64_MAX µs
    if (!value.get_double().get(d)) {
        const std::optional<std::int64_t> scaled = scaledToNs(d, 1000);
        if (!scaled)
            return outOfRange();
        ns = *scaled;
        return {};
    }
    if (!value.get_string().get(text)) {
        const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
        if (isDecimal(digits)) {
            const auto r = std::from_chars(text.data(), text.data() + text.size(), i);
            const std::optional<std::int64_t> scaled = r.ec == std::errc() ? checkedMul(i, 1000) : std::nullopt;
            if (!scaled)
                return outOfRange();
            ns = *scaled;
            return {};
        }
    }
    return std::string(field) + " " + shown(value) + " is not a number of microseconds";
}

otlp::AttributeValue attributeValue(dom::element value)
{
    otlp::AttributeValue v;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0;
    bool b = false;
    std::string_view text;
    const auto setDouble = [&v](double x) {
        v.number = x;
        if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9e18)
            v.integer = static_cast<std::int64_t>(x);
    };
    if (!value.get_string().get(text)) {
        v.text.assign(text);
        // Zipkin's tags are strings: a whole text that is a number is that number too.
        const char *end = text.data() + text.size();
        if (const auto r = std::from_chars(text.data(), end, i); r.ec == std::errc() && r.ptr == end) {
            v.integer = i;
            v.number = static_cast<double>(i);
        } else if (const auto q = lx::fromChars(text.data(), end, d); q.ec == std::errc() && q.ptr == end) {
            setDouble(d);
        }
    } else if (!value.get_int64().get(i)) {
        v.integer = i;
        v.number = static_cast<double>(i);
    } else if (!value.get_uint64().get(u)) {
        v.number = static_cast<double>(u);
    } else if (!value.get_double().get(d)) {
        setDouble(d);
    } else if (!value.get_bool().get(b)) {
        v.text = b ? "true" : "false";
    }
    return v;
}

int kindOfName(std::string_view name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    int i = 0;
    for (std::string_view known : {"unspecified", "internal", "server", "client", "producer", "consumer"}) {
        if (lower == known)
            return i;
        ++i;
    }
    return -1;
}

} // namespace lx::spanjson
