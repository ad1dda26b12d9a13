// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "model/time_range.h"

#include <simdjson.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// \file benchmark_json_util.h
/// simdjson DOM helpers of the benchmark readers: their files are small, so the DOM's simplicity wins.

namespace lx::bench {

namespace dom = simdjson::dom;

/// A JSON number as double; nullopt for null, absent or another type (NaN and Infinity arrive as null).
inline std::optional<double> numberOf(dom::element e)
{
    double d = 0;
    if (!e.get_double().get(d))
        return d;
    std::int64_t i = 0;
    if (!e.get_int64().get(i))
        return static_cast<double>(i);
    std::uint64_t u = 0;
    if (!e.get_uint64().get(u))
        return static_cast<double>(u);
    return std::nullopt;
}

/// A JSON integer (a whole double counts too); nullopt otherwise.
inline std::optional<std::int64_t> integerOf(dom::element e)
{
    std::int64_t i = 0;
    if (!e.get_int64().get(i))
        return i;
    double d = 0;
    if (!e.get_double().get(d) && d == std::floor(d))
        return scaledToNs(d, 1); // nullopt past int64, never a wrapped value
    return std::nullopt;
}

/// The member `key` of an object, or a null element's absence as nullopt.
inline std::optional<dom::element> member(dom::object o, std::string_view key)
{
    dom::element e;
    if (o.at_key(key).get(e) || e.is_null())
        return std::nullopt;
    return e;
}

/// An array's elements, for indexing (dom::array::at() is linear).
inline std::vector<dom::element> elementsOf(std::optional<dom::element> e)
{
    std::vector<dom::element> out;
    dom::array array;
    if (e && !e->get_array().get(array)) {
        for (dom::element x : array)
            out.push_back(x);
    }
    return out;
}

/// Appends `"key":<json>` to the record's open attribute object.
void addAttribute(RequestRecord &record, std::string_view key, dom::element value);
void addAttributeText(RequestRecord &record, std::string_view key, std::string_view text);

} // namespace lx::bench
