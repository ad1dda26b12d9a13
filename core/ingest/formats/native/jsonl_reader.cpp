// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/native/jsonl_reader.h"

#include "ingest/formats/native/native_fields.h"
#include "ingest/line_reader.h"
#include "ingest/plain_integer.h"

#include <simdjson.h>

#include <utility>
#include <vector>

namespace lx {

namespace sj = simdjson::ondemand;

namespace {

bool isTypeError(simdjson::error_code e)
{
    return e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE;
}

/// The value's JSON text as it stands in the line: kept verbatim as an attribute.
simdjson::simdjson_result<std::string_view> rawJson(sj::value &value)
{
    sj::json_type type;
    if (auto e = value.type().get(type))
        return e;
    std::string_view raw;
    if (type == sj::json_type::object) {
        sj::object object;
        if (auto e = value.get_object().get(object))
            return e;
        if (auto e = object.raw_json().get(raw))
            return e;
    } else if (type == sj::json_type::array) {
        sj::array array;
        if (auto e = value.get_array().get(array))
            return e;
        if (auto e = array.raw_json().get(raw))
            return e;
    } else {
        raw = value.raw_json_token();
    }
    // The text runs up to the next structural character: drop the whitespace before it.
    return raw.substr(0, raw.find_last_not_of(" \t\r\n") + 1);
}

std::string jsonTypeName(sj::value &value)
{
    sj::json_type type;
    if (value.type().get(type))
        return "invalid JSON";
    switch (type) {
    case sj::json_type::array: return "an array";
    case sj::json_type::object: return "an object";
    case sj::json_type::number: return "a number";
    case sj::json_type::string: return "a string";
    case sj::json_type::boolean: return "a boolean";
    case sj::json_type::null: return "null";
    }
    return "a value";
}

class JsonlReader final : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        while (lines.next(line, lineNumber)) {
            if (line.find_first_not_of(" \t") == std::string_view::npos)
                continue; // blank lines separate nothing and hold no record
            if (!sink.keepGoing())
                break;
            RequestRecord &record = sink.slot();
            record.sourceLine = lineNumber;
            std::string why = parseLine(line, lines.capacityAfter(line.data()), record);
            if (why.empty())
                sink.accept(line);
            else
                sink.reject(lineNumber, why, line);
        }
        return {};
    }

private:
    std::string parseLine(std::string_view line, std::size_t capacity, RequestRecord &record)
    {
        m_builder.reset(record);
        m_attributeKeys.clear();
        sj::document doc;
        if (auto e = m_parser.iterate(line.data(), line.size(), capacity).get(doc))
            return std::string("malformed JSON: ") + simdjson::error_message(e);
        sj::object object;
        if (auto e = doc.get_object().get(object)) {
            return e == simdjson::INCORRECT_TYPE ? std::string("not a JSON object")
                                                 : std::string("malformed JSON: ") + simdjson::error_message(e);
        }
        std::size_t position = 0;
        for (auto fieldOrError : object) {
            if (auto e = fieldOrError.error())
                return std::string("malformed JSON: ") + simdjson::error_message(e);
            // The field is used where the iterator made it, and its value passed on by reference: copies of
            // them read 16 bytes back just after they were written 8 and 4 at a time, which a processor
            // cannot forward from its store buffer. A profile of the 10M import put 64% of this function's
            // samples on those two copies. (simdjson gives the field of a result only as const or moved.)
            sj::field &field = const_cast<sj::field &>(fieldOrError.value_unsafe());
            const KnownKey *known = knownKeyAt(position++, field, line);
            if (!known)
                return m_keyError;
            if (std::string why = parseField(*known, field.value(), record); !why.empty())
                return why;
        }
        // On Demand stops at the object's end; anything after it on the line is not one record.
        const std::size_t last = line.find_last_not_of(" \t");
        if (last == std::string_view::npos || line[last] != '}')
            return "malformed JSON: trailing content after the object";
        return m_builder.finish();
    }

    /// A key as the lines write it: what it means, and its text as an attribute's key.
    struct KnownKey {
        std::string text;   ///< unescaped
        NativeKey kind;
        std::string asJson; ///< the text as appendJsonString() writes it, quotes included
        bool plain = false; ///< the line holds exactly the text between its quotes: comparable in place
    };

    /// The key of `field`, the position-th of its line. The lines of a file mostly repeat their keys in
    /// the same order, so the key the line before had at this place is compared in place first, without
    /// unescaping or classifying it again. Only the first kKnownPlaces places are remembered: a line of
    /// millions of keys would otherwise keep some 80 bytes for each 6 of its own. Null on malformed JSON,
    /// m_keyError saying why.
    const KnownKey *knownKeyAt(std::size_t position, sj::field &field, std::string_view line)
    {
        if (position < m_keys.size() && m_keys[position].plain && field.key().unsafe_is_equal(m_keys[position].text))
            return &m_keys[position];
        const char *raw = field.key().raw();
        std::string_view key;
        if (auto e = field.unescaped_key().get(key)) {
            m_keyError = std::string("malformed JSON: ") + simdjson::error_message(e);
            return nullptr;
        }
        if (position < kKnownPlaces && position >= m_keys.size())
            m_keys.resize(position + 1);
        KnownKey &known = position < kKnownPlaces ? m_keys[position] : m_pastTheKnownPlaces;
        known.text.assign(key);
        known.kind = classifyNativeKey(key);
        known.asJson.clear();
        appendJsonString(known.asJson, key);
        // Comparable in place only when the line holds the key's own bytes closed by a quote (no escape)
        // and appendJsonString() adds nothing but the quotes (no control character).
        const auto room = static_cast<std::size_t>(line.data() + line.size() - raw);
        known.plain = raw >= line.data() && key.size() < room && std::string_view(raw, key.size()) == key
                      && raw[key.size()] == '"' && known.asJson.size() == key.size() + 2;
        return &known;
    }

    std::string parseField(const KnownKey &known, sj::value &value, RequestRecord &record)
    {
        const std::string_view key = known.text;
        const NativeKey kind = known.kind;
        if (kind.field == NativeField::Attribute) {
            std::string_view raw;
            if (auto e = rawJson(value).get(raw))
                return std::string("malformed JSON: ") + simdjson::error_message(e);
            // A key given twice would make an object of two keys alike, whose value each reader of it picks
            // as it likes: refused, as a field of the format given twice is. Lines hold few attributes.
            const std::string_view attributes = record.attributesJson;
            for (const auto &[at, size] : m_attributeKeys) {
                if (attributes.substr(at, size) == known.asJson)
                    return NativeRecordBuilder::givenTwice(key);
            }
            m_attributeKeys.emplace_back(attributes.size() + 1, known.asJson.size()); // after the '{' or ','
            appendQuotedJsonKey(record.attributesJson, known.asJson);
            record.attributesJson.append(raw.data(), raw.size());
            return {};
        }
        if (!m_builder.firstTime(kind))
            return NativeRecordBuilder::givenTwice(key);
        bool isNull = false;
        if (!value.is_null().get(isNull) && isNull)
            return {}; // null means absent
        switch (kind.field) {
        case NativeField::Id:
        case NativeField::Status:
        case NativeField::Model:
        case NativeField::Route: {
            std::string_view text;
            if (auto e = value.get_string().get(text)) {
                std::int64_t number = 0;
                if (kind.field == NativeField::Id && !value.get_int64().get(number))
                    return m_builder.setInteger(kind, key, number);
                return typeError(e, key, "a string", value);
            }
            return m_builder.setText(kind, key, text);
        }
        case NativeField::SegmentMs:
        case NativeField::E2eMs: {
            double number = 0;
            if (auto e = value.get_double().get(number))
                return typeError(e, key, "a number of milliseconds", value);
            return m_builder.setNumber(kind, key, number);
        }
        case NativeField::TokenTimes: {
            sj::array array;
            if (auto e = value.get_array().get(array))
                return typeError(e, key, "an array of integers", value);
            record.tokenTimes.clear();
            for (auto element : array) {
                std::int64_t t = 0;
                if (auto e = element.get_int64().get(t))
                    return isTypeError(e) ? std::string(key) + ": expected an array of integers"
                                          : std::string("malformed JSON: ") + simdjson::error_message(e);
                record.tokenTimes.push_back(t);
            }
            return {};
        }
        default: {
            std::int64_t number = 0;
            if (readPlainInteger(value.raw_json_token(), number)) // the timestamps, without the digit loop
                return m_builder.setInteger(kind, key, number);
            if (auto e = value.get_int64().get(number)) {
                // 1.5e18, or an integer past int64: as a number, which says when a time is out of range.
                double d = 0;
                if ((e == simdjson::INCORRECT_TYPE || e == simdjson::NUMBER_OUT_OF_RANGE) && !value.get_double().get(d))
                    return m_builder.setNumber(kind, key, d);
                if (e == simdjson::NUMBER_OUT_OF_RANGE)
                    return std::string(key) + ": the number is out of range";
                return typeError(e, key, "an integer", value);
            }
            return m_builder.setInteger(kind, key, number);
        }
        }
    }

    static std::string typeError(simdjson::error_code e, std::string_view key, std::string_view wanted, sj::value &value)
    {
        if (!isTypeError(e))
            return std::string("malformed JSON: ") + simdjson::error_message(e);
        return std::string(key) + ": expected " + std::string(wanted) + ", got " + jsonTypeName(value);
    }

    sj::parser m_parser;
    NativeRecordBuilder m_builder;
    static constexpr std::size_t kKnownPlaces = 256;
    std::vector<KnownKey> m_keys;     ///< by place in the line: the keys the last lines had there
    KnownKey m_pastTheKnownPlaces;    ///< a key past them, read afresh each time
    std::string m_keyError;
    /// The attribute keys of the line so far, as places in its attributesJson: {offset, size}.
    std::vector<std::pair<std::size_t, std::size_t>> m_attributeKeys;
};

} // namespace

bool jsonlCanRead(std::string_view head)
{
    // One object per line: the first line opens an object and, unless it runs past the head, closes it.
    // A lone "{" is a pretty-printed JSON document, which is not this format.
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    const std::size_t end = head.find('\n', first);
    if (end == std::string_view::npos)
        return true;
    const std::string_view line = head.substr(first, end - first);
    const std::size_t last = line.find_last_not_of(" \t\r");
    return line[last] == '}' && mayBeNativeRecord(line);
}

bool mayBeNativeRecord(std::string_view line)
{
    // Only an object read whole and holding none of them says no: a line that does not parse is the
    // reader's to reject, with its line and reason.
    const simdjson::padded_string padded(line);
    sj::parser parser;
    sj::document doc;
    sj::object object;
    if (parser.iterate(padded).get(doc) || doc.get_object().get(object))
        return true;
    for (auto field : object) {
        std::string_view key;
        if (field.error() || field.unescaped_key().get(key))
            return true;
        switch (classifyNativeKey(key).field) {
        case NativeField::Id:
        case NativeField::TokenTimes:
        case NativeField::Stamp:
        case NativeField::StartNs:
        case NativeField::SegmentMs:
        case NativeField::E2eMs:
            return true;
        default:
            break;
        }
    }
    return false;
}

std::unique_ptr<TraceReader> createJsonlReader(const ReaderOptions &) { return std::make_unique<JsonlReader>(); }

} // namespace lx
