// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/otel_traces_rows.h"

#include "model/time_range.h"
#include "platform/float_from_chars.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace lx::source {

namespace {

using simdjson::dom::element;

/// The exporter writes `SpanKind` and `StatusCode` as pdata's names ("Server", "Error"); older versions
/// wrote the protobuf enum names ("SPAN_KIND_SERVER", "STATUS_CODE_ERROR"). Both are read.
int spanKind(std::string_view name)
{
    if (name.starts_with("SPAN_KIND_"))
        name.remove_prefix(10);
    const auto is = [&](std::string_view a, std::string_view b) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const char c = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
            if (c != b[i])
                return false;
        }
        return true;
    };
    if (name.empty() || is(name, "unspecified"))
        return 0;
    if (is(name, "internal"))
        return 1;
    if (is(name, "server"))
        return 2;
    if (is(name, "client"))
        return 3;
    if (is(name, "producer"))
        return 4;
    if (is(name, "consumer"))
        return 5;
    return -1;
}

bool isErrorStatus(std::string_view code)
{
    return code == "Error" || code == "STATUS_CODE_ERROR" || code == "ERROR";
}

/// Lower-case hex of `digits` digits, or empty when `id` is not that.
std::string hexId(std::string_view id, std::size_t digits)
{
    if (id.size() != digits)
        return {};
    std::string out(id);
    for (char &c : out) {
        if (c >= 'A' && c <= 'F')
            c = static_cast<char>(c - 'A' + 'a');
        else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return {};
    }
    return out;
}

/// An integer column: ClickHouse quotes 64-bit integers in JSON (output_format_json_quote_64bit_integers).
bool integerColumn(element row, const char *name, std::int64_t &value)
{
    element cell;
    if (row[name].get(cell))
        return false;
    if (cell.is_string()) {
        const std::string_view text = cell.get_string().value_unsafe();
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        return ec == std::errc() && end == text.data() + text.size();
    }
    if (cell.is_int64())
        return !cell.get_int64().get(value);
    std::uint64_t unsignedValue = 0;
    if (cell.is_uint64() && !cell.get_uint64().get(unsignedValue) && unsignedValue <= static_cast<std::uint64_t>(INT64_MAX)) {
        value = static_cast<std::int64_t>(unsignedValue);
        return true;
    }
    return false;
}

bool textColumn(element row, const char *name, std::string_view &value)
{
    return !row[name].get_string().get(value);
}

/// A string attribute as the mappings read it: its text, and the number it spells when it spells one whole.
otlp::AttributeValue attributeValue(std::string_view text)
{
    otlp::AttributeValue value;
    value.text = std::string(text);
    std::int64_t integer = 0;
    const char *end = text.data() + text.size();
    if (auto [at, ec] = std::from_chars(text.data(), end, integer); !text.empty() && ec == std::errc() && at == end) {
        value.integer = integer;
        value.number = static_cast<double>(integer);
        return value;
    }
    double number = 0;
    if (auto [at, ec] = fromChars(text.data(), end, number); !text.empty() && ec == std::errc() && at == end) {
        value.number = number;
        if (std::isfinite(number) && number == std::trunc(number) && std::fabs(number) < 9.2e18)
            value.integer = static_cast<std::int64_t>(number);
    }
    return value;
}

} // namespace

namespace {

/// Adds the window's bound parameters to `query` (once: a push-down over several mappings names the window
/// more than once) and returns `FROM table WHERE` the window's condition.
std::string windowClauses(const ClickHouseEndpoint &endpoint, const SpanWindow &window, ClickHouseQuery &query)
{
    const bool bound = std::any_of(query.params.begin(), query.params.end(), [](const auto &p) { return p.first == "from_ns"; });
    if (!bound)
        query.params.insert(query.params.end(), {{"database", endpoint.database},
                                                 {"table", endpoint.table},
                                                 {"from_ns", std::to_string(window.fromNs)},
                                                 {"to_ns", std::to_string(window.toNs)}});
    // Each service is a parameter of its own: an Array(String) parameter would need ClickHouse's quoting
    // inside the value, which is exactly what binding is there to avoid.
    std::string services;
    for (std::size_t i = 0; i < window.services.size(); ++i) {
        const std::string name = "service" + std::to_string(i);
        services += (i ? ", {" : "{") + name + ":String}";
        if (!bound)
            query.params.emplace_back(name, window.services[i]);
    }
    return "FROM " + std::string(kOtelTracesTable) + "\n"
           "WHERE Timestamp >= fromUnixTimestamp64Nano({from_ns:Int64})\n"
           "  AND Timestamp < fromUnixTimestamp64Nano({to_ns:Int64})"
           + (services.empty() ? std::string() : "\n  AND ServiceName IN (" + services + ")");
}

} // namespace

std::string windowTraceIds(const ClickHouseEndpoint &endpoint, const SpanWindow &window, ClickHouseQuery &query)
{
    return "SELECT TraceId " + windowClauses(endpoint, window, query);
}

ClickHouseQuery otelTracesWindowSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window)
{
    ClickHouseQuery query;
    query.sql = windowClauses(endpoint, window, query);
    return query;
}

ClickHouseQuery otelTracesPulledSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window)
{
    ClickHouseQuery query;
    const std::string traceIds = windowTraceIds(endpoint, window, query);
    query.sql = "FROM " + std::string(kOtelTracesTable) + "\nWHERE TraceId IN (" + traceIds + ")";
    return query;
}

ClickHouseQuery otelTracesQuery(const ClickHouseEndpoint &endpoint, const SpanWindow &window)
{
    ClickHouseQuery query = otelTracesPulledSpans(endpoint, window);
    query.sql = "SELECT toString(toUnixTimestamp64Nano(Timestamp)) AS StartNs, toString(Duration) AS DurationNs, TraceId, "
                "SpanId, ParentSpanId, SpanName, SpanKind, ServiceName, StatusCode, SpanAttributes\n"
                + query.sql + "\nORDER BY TraceId, Timestamp, SpanId";
    query.format = "JSONEachRow";
    return query;
}

std::string readOtelTracesRow(std::string_view row, const otlp::AttributeFilter &filter, otlp::Span &span)
{
    // One parser per thread: a row is small, and the parser's buffers are kept from row to row.
    thread_local simdjson::dom::parser parser;
    const simdjson::padded_string padded(row);
    element object;
    if (const simdjson::error_code error = parser.parse(padded).get(object); error)
        return "not a JSON object: " + std::string(simdjson::error_message(error));
    if (!object.is_object())
        return "not a JSON object";
    std::int64_t start = 0;
    std::int64_t duration = 0;
    std::string_view traceId, spanId, parentId, name, kind, service, status;
    if (!integerColumn(object, "StartNs", start) || !integerColumn(object, "DurationNs", duration)
        || !textColumn(object, "TraceId", traceId) || !textColumn(object, "SpanId", spanId)
        || !textColumn(object, "ParentSpanId", parentId) || !textColumn(object, "SpanName", name)
        || !textColumn(object, "SpanKind", kind) || !textColumn(object, "ServiceName", service)
        || !textColumn(object, "StatusCode", status))
        return "a column of the otel_traces query is missing or not of its type";
    span.name = std::string(name);
    span.service = std::string(service);
    span.spanId = spanId.empty() ? std::string() : hexId(spanId, 16);
    if (!spanId.empty() && span.spanId.empty())
        return otlp::spanReason(span, "SpanId '" + std::string(spanId.substr(0, 40)) + "' is not 16 hex digits");
    span.traceId = hexId(traceId, 32);
    if (span.traceId.empty())
        return otlp::spanReason(span, traceId.empty() ? "no TraceId" : "TraceId '" + std::string(traceId.substr(0, 40)) + "' is not 32 hex digits");
    span.parentId = parentId.empty() ? std::string() : hexId(parentId, 16);
    if (!parentId.empty() && span.parentId.empty())
        return otlp::spanReason(span, "ParentSpanId '" + std::string(parentId.substr(0, 40)) + "' is not 16 hex digits");
    span.kind = spanKind(kind);
    if (span.kind < 0)
        return otlp::spanReason(span, "SpanKind '" + std::string(kind.substr(0, 40)) + "' is not a span kind");
    span.error = isErrorStatus(status);
    // A zero Timestamp is what the exporter writes for a span that had no start: the OTLP readers reject
    // such a span, and so does this one.
    if (start <= 0)
        return otlp::spanReason(span, "no start time (Timestamp is the epoch or before)");
    if (duration < 0 || duration > kLatestTimeNs - start)
        return otlp::spanReason(span, "its Duration ends past what int64 ns can hold (2262)");
    span.startNs = start;
    span.endNs = start + duration;

    simdjson::dom::object attributes;
    if (object["SpanAttributes"].get(attributes))
        return otlp::spanReason(span, "SpanAttributes is not a map");
    for (auto [key, value] : attributes) {
        std::string_view text;
        if (!filter.reads(key) || value.get_string().get(text))
            continue;
        if (std::string why = otlp::applyAttribute(key, attributeValue(text), span, filter); !why.empty())
            return otlp::spanReason(span, why);
    }
    return {};
}

} // namespace lx::source
