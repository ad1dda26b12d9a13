// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/native/native_fields.h"
#include "platform/float_from_chars.h"

#include "model/time_range.h"

#include <charconv>
#include <cstdio>
#include <cmath>

namespace lx {

namespace {

bool parseInt64(std::string_view text, std::int64_t &out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

bool parseDouble(std::string_view text, double &out)
{
    const auto [end, ec] = lx::fromChars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty() && std::isfinite(out);
}

/// An integer that does not fit int64 (too many digits), which parseInt64 refuses.
bool isIntegerOutOfRange(std::string_view text)
{
    std::int64_t ignored = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
    return ec == std::errc::result_out_of_range && end == text.data() + text.size();
}

std::string expected(std::string_view name, std::string_view what, std::string_view got)
{
    std::string why(name);
    why += ": expected ";
    why += what;
    why += ", got ";
    why += got.size() > 40 ? std::string(got.substr(0, 40)) + "..." : std::string(got);
    return why;
}

bool isTime(NativeField field) { return field == NativeField::Stamp || field == NativeField::StartNs; }

} // namespace

NativeKey classifyNativeKey(std::string_view key)
{
    if (key == "id")
        return {NativeField::Id, 0};
    if (key == "status")
        return {NativeField::Status, 0};
    if (key == "model")
        return {NativeField::Model, 0};
    if (key == "route")
        return {NativeField::Route, 0};
    if (key == "input_tokens")
        return {NativeField::InputTokens, 0};
    if (key == "output_tokens")
        return {NativeField::OutputTokens, 0};
    if (key == "token_times_ns")
        return {NativeField::TokenTimes, 0};
    if (key == "start_ns")
        return {NativeField::StartNs, 0};
    if (key == "e2e_ms")
        return {NativeField::E2eMs, 0};
    if (key.starts_with("t_") && key.ends_with("_ns")) {
        const std::string_view stem = key.substr(0, key.size() - 3);
        for (int i = 0; i < kStampCount; ++i) {
            if (stampName(static_cast<Stamp>(i)) == stem)
                return {NativeField::Stamp, i};
        }
    } else if (key.ends_with("_ms")) {
        if (const auto seg = segmentFromName(key.substr(0, key.size() - 3)); seg && *seg != Segment::Unattributed)
            return {NativeField::SegmentMs, static_cast<int>(*seg)};
    }
    return {NativeField::Attribute, 0};
}

void NativeRecordBuilder::reset(RequestRecord &target)
{
    record = &target;
    durations.clear();
    hasStamp = hasDuration = hasId = false;
    given = 0;
}

bool NativeRecordBuilder::firstTime(const NativeKey &key)
{
    // The eight stamps, the seven segments, then the other fields: 27 bits.
    static_assert(static_cast<int>(NativeField::E2eMs) + kStampCount + kSegmentCount < 32);
    const int bit = key.field == NativeField::Stamp ? key.index
        : key.field == NativeField::SegmentMs       ? kStampCount + key.index
                                                    : kStampCount + kSegmentCount + static_cast<int>(key.field);
    const std::uint32_t mask = std::uint32_t { 1 } << bit;
    const bool first = (given & mask) == 0;
    given |= mask;
    return first;
}

std::string NativeRecordBuilder::givenTwice(std::string_view name)
{
    return std::string(name) + " is given twice in the record: which of the two values is meant cannot be told";
}

std::string NativeRecordBuilder::setInteger(const NativeKey &key, std::string_view name, std::int64_t value)
{
    RequestRecord &r = *record;
    switch (key.field) {
    case NativeField::Id:
        r.id = std::to_string(value);
        hasId = true;
        return {};
    case NativeField::InputTokens:
    case NativeField::OutputTokens:
        if (value < 0)
            return std::string(name) + " is negative";
        (key.field == NativeField::InputTokens ? r.inputTokens : r.outputTokens) = value;
        return {};
    case NativeField::Stamp:
        if (!isMeasured(value)) // INT64_MIN is how "not measured" is held, never a time
            return timeOutOfRange(name, std::to_string(value));
        r.stamps[key.index] = value;
        hasStamp = true;
        return {};
    case NativeField::StartNs:
        if (!isMeasured(value))
            return timeOutOfRange(name, std::to_string(value));
        durations.startNs = value;
        hasDuration = true;
        return {};
    case NativeField::SegmentMs:
    case NativeField::E2eMs:
        return setNumber(key, name, static_cast<double>(value));
    default:
        return expected(name, "a string", std::to_string(value));
    }
}

std::string NativeRecordBuilder::setNumber(const NativeKey &key, std::string_view name, double value)
{
    if (key.field == NativeField::SegmentMs || key.field == NativeField::E2eMs) {
        if (!std::isfinite(value))
            return std::string(name) + " is not a finite number";
        const std::optional<std::int64_t> ns = scaledToNs(value, 1e6);
        if (!ns)
            return durationOutOfRange(name, numberText(value));
        (key.field == NativeField::E2eMs ? durations.e2e : durations.segments[key.index]) = *ns;
        hasDuration = true;
        return {};
    }
    // Integers written as 1.0 are fine; a fraction of a nanosecond or a token is not.
    if (std::isfinite(value) && value == std::floor(value)) {
        if (const std::optional<std::int64_t> whole = scaledToNs(value, 1))
            return setInteger(key, name, *whole);
        if (isTime(key.field))
            return timeOutOfRange(name, numberText(value));
    }
    return expected(name, "an integer", std::to_string(value));
}

std::string NativeRecordBuilder::setText(const NativeKey &key, std::string_view name, std::string_view text)
{
    RequestRecord &r = *record;
    switch (key.field) {
    case NativeField::Id:
        r.id.assign(text);
        hasId = !text.empty();
        return {};
    case NativeField::Status:
        if (text == "ok" || text == "OK")
            r.status = Status::Ok;
        else if (text == "error" || text == "ERROR")
            r.status = Status::Error;
        else
            return expected(name, "\"ok\" or \"error\"", text);
        return {};
    case NativeField::Model:
        r.model.assign(text);
        return {};
    case NativeField::Route:
        r.route.assign(text);
        return {};
    case NativeField::InputTokens:
    case NativeField::OutputTokens:
    case NativeField::Stamp:
    case NativeField::StartNs: {
        std::int64_t v = 0;
        if (parseInt64(text, v))
            return setInteger(key, name, v);
        // 1.7e18 or an integer past int64: read as a number, so that a time out of range says so.
        if (isTime(key.field) && isIntegerOutOfRange(text))
            return timeOutOfRange(name, text);
        double d = 0;
        if (parseDouble(text, d))
            return setNumber(key, name, d);
        return expected(name, "an integer", text);
    }
    case NativeField::SegmentMs:
    case NativeField::E2eMs: {
        double v = 0;
        if (!parseDouble(text, v))
            return expected(name, "a number of milliseconds", text);
        return setNumber(key, name, v);
    }
    case NativeField::TokenTimes: {
        // In CSV a list of integers separated by spaces, semicolons or commas, optionally in brackets.
        r.tokenTimes.clear();
        std::size_t pos = 0;
        while (pos < text.size()) {
            const std::size_t start = text.find_first_not_of(" ;,[]", pos);
            if (start == std::string_view::npos)
                break;
            std::size_t end = text.find_first_of(" ;,[]", start);
            if (end == std::string_view::npos)
                end = text.size();
            std::int64_t v = 0;
            if (!parseInt64(text.substr(start, end - start), v))
                return expected(name, "a list of integers", text.substr(start, end - start));
            r.tokenTimes.push_back(v);
            pos = end;
        }
        return {};
    }
    case NativeField::Attribute:
        break;
    }
    return {};
}

std::string NativeRecordBuilder::finish()
{
    if (!hasId)
        return "missing id";
    if (hasStamp && hasDuration)
        return "mixes the timestamps form (t_*_ns) and the durations form (start_ns, *_ms)";
    if (hasDuration) {
        if (!isMeasured(durations.startNs))
            return "durations form without start_ns";
        return decomposeDurations(*record, durations);
    }
    if (!hasStamp && record->tokenTimes.empty())
        return "no timestamps: expected t_*_ns fields or the durations form";
    return decompose(*record);
}

void appendJsonString(std::string &out, std::string_view text)
{
    out += '"';
    for (char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void appendJsonKey(std::string &object, std::string_view key)
{
    object += object.empty() ? '{' : ',';
    appendJsonString(object, key);
    object += ':';
}

void appendQuotedJsonKey(std::string &object, std::string_view quotedKey)
{
    object += object.empty() ? '{' : ',';
    object += quotedKey;
    object += ':';
}

} // namespace lx
