// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/otlp_proto_spans.h"

#include "model/time_range.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace lx::otlp {

namespace {

using google::protobuf::io::CodedInputStream;
using WireFormat = google::protobuf::internal::WireFormatLite;

// Field numbers of the OTLP trace messages (opentelemetry/proto/trace/v1, common/v1, resource/v1), as the
// OTLP specification numbers them. Only these are read.
namespace field {
constexpr int kResourceSpans = 1;              // TracesData, ExportTraceServiceRequest
constexpr int kResource = 1;                   // ResourceSpans
constexpr int kScopeSpans = 2;                 // ResourceSpans
constexpr int kInstrumentationLibrarySpans = 1000; // ResourceSpans, before OTLP 1.0
constexpr int kResourceAttributes = 1;         // Resource
constexpr int kSpans = 2;                      // ScopeSpans, InstrumentationLibrarySpans
constexpr int kTraceId = 1, kSpanId = 2, kParentSpanId = 4, kName = 5, kKind = 6, kStart = 7, kEnd = 8,
              kAttributes = 9, kStatus = 15; // Span
constexpr int kStatusCode = 3;               // Status
constexpr int kKey = 1, kValue = 2;          // KeyValue
constexpr int kString = 1, kBool = 2, kInt = 3, kDouble = 4; // AnyValue
} // namespace field

/// One field of a message: its number and wire type, its payload's bytes for a length-delimited field,
/// and where it starts.
struct Field {
    int number = 0;
    WireFormat::WireType type = WireFormat::WIRETYPE_VARINT;
    std::string_view bytes; ///< length-delimited fields only
    std::uint64_t varint = 0;
    std::uint64_t fixed64 = 0;
    std::uint64_t offset = 0; ///< of the payload, in the input
};

std::string_view typeName(WireFormat::WireType type)
{
    switch (type) {
    case WireFormat::WIRETYPE_VARINT: return "varint";
    case WireFormat::WIRETYPE_FIXED64: return "fixed64";
    case WireFormat::WIRETYPE_LENGTH_DELIMITED: return "length-delimited";
    case WireFormat::WIRETYPE_START_GROUP:
    case WireFormat::WIRETYPE_END_GROUP: return "group";
    case WireFormat::WIRETYPE_FIXED32: return "fixed32";
    }
    return "unknown";
}

/// Calls `onField` for each field of the message in `bytes` (at `offset` of the input); fields of the
/// fixed32 and group types are skipped. Returns why the message is not well-formed, or empty; with
/// `pastTheEnd`, whether it is so because a field runs past the end of `bytes` (cut off, rather than an
/// invalid tag).
template<class OnField>
std::string forEachField(std::string_view bytes, std::uint64_t offset, std::string_view message, OnField &&onField,
                         bool *pastTheEnd = nullptr)
{
    CodedInputStream in(reinterpret_cast<const std::uint8_t *>(bytes.data()), static_cast<int>(bytes.size()));
    const auto at = [&] { return offset + static_cast<std::uint64_t>(in.CurrentPosition()); };
    const auto where = [&](std::uint64_t byte) { return "at byte " + std::to_string(byte) + " in a " + std::string(message) + ": "; };
    while (static_cast<std::size_t>(in.CurrentPosition()) < bytes.size()) {
        const std::uint64_t tagAt = at();
        const std::uint32_t tag = in.ReadTag();
        const int number = WireFormat::GetTagFieldNumber(tag);
        if (tag == 0 || number == 0)
            return where(tagAt) + "invalid field tag";
        Field f;
        f.number = number;
        f.type = WireFormat::GetTagWireType(tag);
        bool ok = true;
        switch (f.type) {
        case WireFormat::WIRETYPE_VARINT: ok = in.ReadVarint64(&f.varint); break;
        case WireFormat::WIRETYPE_FIXED64: ok = in.ReadLittleEndian64(&f.fixed64); break;
        case WireFormat::WIRETYPE_LENGTH_DELIMITED: {
            std::uint32_t length = 0;
            if (!in.ReadVarint32(&length)) {
                ok = false;
                break;
            }
            const std::size_t pos = static_cast<std::size_t>(in.CurrentPosition());
            if (length > bytes.size() - pos) {
                if (pastTheEnd)
                    *pastTheEnd = true;
                return where(tagAt) + "field " + std::to_string(number) + " says " + std::to_string(length) + " bytes, only "
                       + std::to_string(bytes.size() - pos) + " remain (truncated or corrupt)";
            }
            f.bytes = bytes.substr(pos, length);
            f.offset = offset + pos;
            in.Skip(static_cast<int>(length));
            break;
        }
        default: ok = WireFormat::SkipField(&in, tag); break;
        }
        if (!ok && pastTheEnd) // a varint or fixed64 read fails only where the bytes end
            *pastTheEnd = true;
        if (!ok)
            return where(tagAt) + "field " + std::to_string(number) + " (" + std::string(typeName(f.type)) + ") is cut off or invalid";
        if (f.type == WireFormat::WIRETYPE_VARINT || f.type == WireFormat::WIRETYPE_FIXED64
            || f.type == WireFormat::WIRETYPE_LENGTH_DELIMITED) {
            if (f.offset == 0)
                f.offset = tagAt;
            if (std::string why = onField(f); !why.empty())
                return where(tagAt) + why;
        }
    }
    return {};
}

/// A known field with the wrong wire type is malformed, not unknown.
std::string expect(const Field &f, WireFormat::WireType type, std::string_view name)
{
    if (f.type == type)
        return {};
    return std::string(name) + " (field " + std::to_string(f.number) + ") is " + std::string(typeName(f.type)) + ", expected "
           + std::string(typeName(type));
}

std::string readAnyValue(std::string_view bytes, std::uint64_t offset, AttributeValue &value)
{
    return forEachField(bytes, offset, "AnyValue", [&](const Field &f) -> std::string {
        switch (f.number) {
        case field::kString:
            value.text.assign(f.bytes);
            return expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "string_value");
        case field::kBool: return expect(f, WireFormat::WIRETYPE_VARINT, "bool_value");
        case field::kInt:
            value.integer = static_cast<std::int64_t>(f.varint);
            value.number = static_cast<double>(*value.integer);
            return expect(f, WireFormat::WIRETYPE_VARINT, "int_value");
        case field::kDouble: {
            const double d = std::bit_cast<double>(f.fixed64);
            value.number = d;
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e18)
                value.integer = static_cast<std::int64_t>(d);
            return expect(f, WireFormat::WIRETYPE_FIXED64, "double_value");
        }
        }
        return {};
    });
}

/// A KeyValue: its key and value.
std::string readKeyValue(std::string_view bytes, std::uint64_t offset, std::string &key, AttributeValue &value)
{
    return forEachField(bytes, offset, "KeyValue", [&](const Field &f) -> std::string {
        if (f.number == field::kKey) {
            key.assign(f.bytes);
            return expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "key");
        }
        if (f.number == field::kValue) {
            if (std::string why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "value"); !why.empty())
                return why;
            return readAnyValue(f.bytes, f.offset, value);
        }
        return {};
    });
}

/// An id of `size` bytes, as hex; empty when absent (proto3 leaves empty bytes unset).
std::string readId(const Field &f, std::size_t size, std::string_view name, std::string &hex)
{
    if (std::string why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, name); !why.empty())
        return why;
    if (!f.bytes.empty() && f.bytes.size() != size)
        return std::string(name) + " is " + std::to_string(f.bytes.size()) + " bytes, not " + std::to_string(size);
    hex = toHex(f.bytes);
    return {};
}

/// The span's fields in a text line, for the excerpt of a rejection (the bytes themselves say nothing).
std::string describe(const Span &span, std::uint64_t offset)
{
    return "span at byte " + std::to_string(offset) + ": name \"" + span.name + "\", trace_id " + span.traceId + ", span_id "
           + span.spanId + (span.parentId.empty() ? "" : ", parent_span_id " + span.parentId) + ", start "
           + std::to_string(span.startNs) + ", end " + std::to_string(span.endNs) + ", " + std::to_string(span.attributes.size())
           + " attributes";
}

/// Reads a Span; the reasons mirror the OTLP/JSON reader's, in the same order of checks.
std::string readSpan(std::string_view bytes, std::uint64_t offset, const AttributeFilter &filter, Span &span)
{
    std::string idError, kindError, attributeError;
    std::uint64_t start = 0, end = 0;
    std::vector<std::pair<std::string, AttributeValue>> attributes;
    const std::string malformed = forEachField(bytes, offset, "Span", [&](const Field &f) -> std::string {
        std::string why;
        switch (f.number) {
        case field::kTraceId: why = readId(f, 16, "trace_id", span.traceId); break;
        case field::kSpanId: why = readId(f, 8, "span_id", span.spanId); break;
        case field::kParentSpanId: why = readId(f, 8, "parent_span_id", span.parentId); break;
        case field::kName:
            span.name.assign(f.bytes);
            return expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "name");
        case field::kKind:
            if (f.varint > 5 && kindError.empty())
                kindError = "invalid kind " + std::to_string(f.varint);
            span.kind = static_cast<int>(f.varint & 0xFF);
            return expect(f, WireFormat::WIRETYPE_VARINT, "kind");
        case field::kStart:
            start = f.fixed64;
            return expect(f, WireFormat::WIRETYPE_FIXED64, "start_time_unix_nano");
        case field::kEnd:
            end = f.fixed64;
            return expect(f, WireFormat::WIRETYPE_FIXED64, "end_time_unix_nano");
        case field::kAttributes: {
            if (why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "attributes"); !why.empty())
                return why;
            attributes.emplace_back();
            return readKeyValue(f.bytes, f.offset, attributes.back().first, attributes.back().second);
        }
        case field::kStatus:
            if (why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "status"); !why.empty())
                return why;
            return forEachField(f.bytes, f.offset, "Status", [&](const Field &s) -> std::string {
                if (s.number == field::kStatusCode) {
                    span.error = s.varint == 2;
                    return expect(s, WireFormat::WIRETYPE_VARINT, "code");
                }
                return {};
            });
        }
        // An invalid id is a rejection, like in OTLP/JSON, but reading goes on: the span's name and id may come later.
        if (!why.empty() && idError.empty())
            idError = why;
        return {};
    });
    if (!malformed.empty())
        return "malformed protobuf " + malformed;
    if (!idError.empty())
        return idError;
    if (span.traceId.empty())
        return "no trace_id";
    if (!kindError.empty())
        return kindError;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (start > kMax)
        return timeOutOfRange("start_time_unix_nano", std::to_string(start));
    if (end > kMax)
        return timeOutOfRange("end_time_unix_nano", std::to_string(end));
    if (start == 0)
        return "no valid start_time_unix_nano";
    if (end == 0)
        return "no valid end_time_unix_nano";
    span.startNs = static_cast<std::int64_t>(start);
    span.endNs = static_cast<std::int64_t>(end);
    if (span.endNs < span.startNs)
        return "ends before it starts (end_time_unix_nano < start_time_unix_nano)";
    for (auto &[key, value] : attributes) {
        if (!filter.reads(key))
            continue;
        if (std::string why = applyAttribute(key, std::move(value), span, filter); !why.empty())
            return why;
    }
    return {};
}

/// The service.name attribute of a Resource, empty when absent.
std::string readServiceName(std::string_view bytes, std::uint64_t offset, std::string &service)
{
    return forEachField(bytes, offset, "Resource", [&](const Field &f) -> std::string {
        if (f.number != field::kResourceAttributes || f.type != WireFormat::WIRETYPE_LENGTH_DELIMITED)
            return {};
        std::string key;
        AttributeValue value;
        if (std::string why = readKeyValue(f.bytes, f.offset, key, value); !why.empty())
            return why;
        if (key == "service.name")
            service = value.text;
        return {};
    });
}

/// The spans (bytes and offset) of a ResourceSpans and its service name.
std::string readResourceSpans(std::string_view bytes, std::uint64_t offset, std::string &service, std::vector<Field> &spans)
{
    return forEachField(bytes, offset, "ResourceSpans", [&](const Field &f) -> std::string {
        if (f.number == field::kResource) {
            if (std::string why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "resource"); !why.empty())
                return why;
            return readServiceName(f.bytes, f.offset, service);
        }
        if (f.number != field::kScopeSpans && f.number != field::kInstrumentationLibrarySpans)
            return {};
        if (std::string why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "scope_spans"); !why.empty())
            return why;
        return forEachField(f.bytes, f.offset, "ScopeSpans", [&](const Field &s) -> std::string {
            if (s.number != field::kSpans)
                return {};
            spans.push_back(s);
            return expect(s, WireFormat::WIRETYPE_LENGTH_DELIMITED, "spans");
        });
    });
}

} // namespace

void readProtoTraces(std::string_view message, std::uint64_t offset, const AttributeFilter &filter, const ProtoSpanHandler &handler)
{
    std::vector<Field> spanFields;
    bool framingPastTheEnd = false;
    const std::string framing = forEachField(
        message, offset, "TracesData",
        [&](const Field &f) -> std::string {
            if (f.number != field::kResourceSpans)
                return {};
            if (std::string why = expect(f, WireFormat::WIRETYPE_LENGTH_DELIMITED, "resource_spans"); !why.empty())
                return why;
            std::string service;
            spanFields.clear();
            if (std::string why = readResourceSpans(f.bytes, f.offset, service, spanFields); !why.empty()) {
                // This ResourceSpans is lost as a whole; its length is known, so the next one is read.
                handler.problem(f.offset, "malformed protobuf " + why, f.bytes);
                return {};
            }
            for (const Field &s : spanFields) {
                Span span;
                span.service = service;
                std::string why = readSpan(s.bytes, s.offset, filter, span);
                if (!why.empty())
                    why = spanReason(span, why);
                const std::string excerpt = describe(span, s.offset);
                handler.span(std::move(span), why, excerpt);
            }
            return {};
        },
        &framingPastTheEnd);
    if (framing.empty())
        return;
    handler.problem(offset, "malformed protobuf " + framing, message);
    if (handler.framing)
        handler.framing(framing, framingPastTheEnd);
}

bool looksLikeProtoTraces(std::string_view bytes, bool complete)
{
    CodedInputStream in(reinterpret_cast<const std::uint8_t *>(bytes.data()), static_cast<int>(bytes.size()));
    bool any = false;
    while (static_cast<std::size_t>(in.CurrentPosition()) < bytes.size()) {
        std::uint32_t length = 0;
        if (in.ReadTag() != WireFormat::MakeTag(field::kResourceSpans, WireFormat::WIRETYPE_LENGTH_DELIMITED)
            || !in.ReadVarint32(&length))
            return !complete && any;
        const std::size_t pos = static_cast<std::size_t>(in.CurrentPosition());
        if (length > 0 && pos < bytes.size()) {
            // A ResourceSpans starts with resource (1), scope_spans (2), schema_url (3) or the old field 1000.
            const auto first = static_cast<unsigned char>(bytes[pos]);
            if (first != 0x0A && first != 0x12 && first != 0x1A && first != 0xC2)
                return false;
        }
        if (length > bytes.size() - pos)
            return !complete;
        in.Skip(static_cast<int>(length));
        any = true;
    }
    return true;
}

} // namespace lx::otlp
