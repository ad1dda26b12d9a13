// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/decompose.h"

#include <string>
#include <string_view>

/// \file native_fields.h
/// The names of the native JSONL and CSV forms (docs/DOMAIN.md) and what each one fills, shared by both
/// readers so that a column means the same in either.

namespace lx {

enum class NativeField : int {
    Attribute, ///< any other name: kept as an attribute
    Id,
    Status,
    Model,
    Route,
    InputTokens,
    OutputTokens,
    TokenTimes,
    Stamp,      ///< t_<name>_ns; `index` says which Stamp
    StartNs,    ///< durations form
    SegmentMs,  ///< <segment>_ms; `index` says which Segment
    E2eMs,      ///< durations form
};

struct NativeKey {
    NativeField field = NativeField::Attribute;
    int index = 0;
};

NativeKey classifyNativeKey(std::string_view key);

/// Collects one record's fields whatever the syntax they came in, then validates and decomposes it.
struct NativeRecordBuilder {
    RequestRecord *record = nullptr;
    DurationsInput durations;
    bool hasStamp = false;
    bool hasDuration = false;
    bool hasId = false;
    std::uint32_t given = 0; ///< a bit per field (and per stamp, per segment) that the record gave

    void reset(RequestRecord &target);
    /// True the first time the record gives this field, false the second (a JSON object with a key twice:
    /// RFC 8259 leaves which value counts to the reader, and readers differ): rejected with givenTwice().
    bool firstTime(const NativeKey &key);
    static std::string givenTwice(std::string_view name);
    /// Sets a field from text (CSV cells, JSON strings of known fields); returns an error or empty.
    std::string setText(const NativeKey &key, std::string_view name, std::string_view text);
    std::string setInteger(const NativeKey &key, std::string_view name, std::int64_t value);
    std::string setNumber(const NativeKey &key, std::string_view name, double value);
    /// Validates (id present, one form only) and decomposes; returns the reason for rejection or empty.
    std::string finish();
};

/// Appends `"key":` with JSON escaping to a JSON object under construction ('{' or ',' first).
void appendJsonKey(std::string &object, std::string_view key);
/// The same for a key already written as JSON, quotes included (appendJsonString()'s text of it).
void appendQuotedJsonKey(std::string &object, std::string_view quotedKey);
/// Appends text as a JSON string value with escaping.
void appendJsonString(std::string &out, std::string_view text);

} // namespace lx
