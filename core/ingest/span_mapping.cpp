// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/span_mapping.h"

#include "model/segments.h"
#include "platform/utf8_path.h"
#include "span_mapping_presets.h"

#include <simdjson.h>

#include <fstream>
#include <sstream>

namespace lx {

namespace dom = simdjson::dom;

namespace {

/// The index of a segment a mapping can fill, by its name in the segment table; -1 for any other name.
int segmentIndex(std::string_view name)
{
    const std::optional<Segment> segment = segmentFromName(name);
    return segment && static_cast<int>(*segment) < kMappedSegments ? static_cast<int>(*segment) : -1;
}

/// Reads a string or an array of strings.
bool readNames(dom::element e, std::vector<std::string> &out)
{
    std::string_view one;
    if (!e.get_string().get(one)) {
        out.emplace_back(one);
        return true;
    }
    dom::array list;
    if (e.get_array().get(list))
        return false;
    for (dom::element item : list) {
        if (item.get_string().get(one))
            return false;
        out.emplace_back(one);
    }
    return !out.empty();
}

bool readString(dom::element e, std::string &out)
{
    std::string_view text;
    if (e.get_string().get(text) || text.empty())
        return false;
    out.assign(text);
    return true;
}

std::string readSelector(dom::element e, SpanSelector &out)
{
    dom::object object;
    if (e.get_object().get(object))
        return "a span selector is not an object";
    for (auto [key, value] : object) {
        bool ok = true;
        if (key == "name") {
            ok = readNames(value, out.names);
        } else if (key == "attribute") {
            ok = readString(value, out.attribute);
        } else if (key == "attribute_prefix") {
            ok = readString(value, out.attributePrefix);
        } else if (key == "child") {
            ok = readNames(value, out.childNames);
        } else if (key == "kind") {
            std::string_view kind;
            static constexpr std::string_view kKinds[] = {"unspecified", "internal", "server", "client", "producer", "consumer"};
            ok = !value.get_string().get(kind);
            for (int i = 0; ok && i < 6; ++i) {
                if (kKinds[i] == kind)
                    out.kind = i;
            }
            ok = ok && out.kind >= 0;
        } else if (key == "parent") {
            std::string_view parent;
            ok = !value.get_string().get(parent) && parent == "none";
            out.noParent = ok;
        } else if (key == "service") {
            std::string_view service;
            ok = !value.get_string().get(service) && service == "other";
            out.otherService = ok;
        } else {
            return "unknown key \"" + std::string(key) + "\" in a span selector (name, attribute, attribute_prefix, "
                   "kind, parent, service, child)";
        }
        if (!ok)
            return "invalid value of \"" + std::string(key) + "\" in a span selector: " + simdjson::minify(value).substr(0, 80);
    }
    return {};
}

std::string readSelectors(dom::element e, std::string_view what, std::vector<SpanSelector> &out)
{
    dom::array list;
    if (e.get_array().get(list))
        return "\"" + std::string(what) + "\" is not an array of span selectors";
    for (dom::element item : list) {
        out.emplace_back();
        if (std::string why = readSelector(item, out.back()); !why.empty())
            return "\"" + std::string(what) + "\": " + why;
    }
    return {};
}

std::string readSource(dom::element e, SegmentSource &out)
{
    dom::object object;
    if (e.get_object().get(object))
        return "a source is not an object";
    int kinds = 0;
    for (auto [key, value] : object) {
        bool ok = true;
        if (key == "attribute") {
            out.kind = SegmentSource::Kind::Attribute;
            ++kinds;
            ok = readString(value, out.attribute);
        } else if (key == "unit") {
            std::string_view unit;
            ok = !value.get_string().get(unit);
            if (unit == "s")
                out.unit = ValueUnit::Seconds;
            else if (unit == "ms")
                out.unit = ValueUnit::Milliseconds;
            else if (unit == "us")
                out.unit = ValueUnit::Microseconds;
            else if (unit == "ns")
                out.unit = ValueUnit::Nanoseconds;
            else if (unit == "duration")
                out.unit = ValueUnit::DurationString;
            else
                ok = false;
        } else if (key == "on") {
            std::string_view on;
            ok = !value.get_string().get(on) && (on == "root" || on == "inner");
            out.onRoot = on == "root";
        } else if (key == "minus") {
            std::vector<std::string> names;
            ok = readNames(value, names);
            for (const std::string &name : names) {
                const int index = segmentIndex(name);
                ok = ok && index >= 0;
                out.minus.push_back(index);
            }
        } else if (key == "spans") {
            out.kind = SegmentSource::Kind::Spans;
            ++kinds;
            ok = readNames(value, out.spanNames);
        } else if (key == "before" || key == "after") {
            out.kind = key == "before" ? SegmentSource::Kind::BeforeInner : SegmentSource::Kind::AfterInner;
            ++kinds;
            std::string_view of;
            ok = !value.get_string().get(of) && of == "inner";
        } else {
            return "unknown key \"" + std::string(key) + "\" in a source (attribute, unit, on, minus, spans, before, after)";
        }
        if (!ok)
            return "invalid value of \"" + std::string(key) + "\" in a source: " + simdjson::minify(value).substr(0, 80);
    }
    if (kinds != 1)
        return "a source needs exactly one of \"attribute\", \"spans\", \"before\", \"after\"";
    if (!out.minus.empty() && out.kind != SegmentSource::Kind::Attribute)
        return "\"minus\" applies to an attribute source only";
    return {};
}

std::string readSources(dom::element e, std::string_view what, std::vector<SegmentSource> &out)
{
    dom::array list;
    if (e.get_array().get(list))
        return "\"" + std::string(what) + "\" is not an array of sources";
    for (dom::element item : list) {
        out.emplace_back();
        if (std::string why = readSource(item, out.back()); !why.empty())
            return "\"" + std::string(what) + "\": " + why;
    }
    return {};
}

std::string readMapping(dom::element e, SpanMapping &out)
{
    dom::object object;
    if (e.get_object().get(object))
        return "a mapping is not a JSON object";
    bool hasRoot = false;
    for (auto [key, value] : object) {
        std::string why;
        if (key == "name") {
            if (!readString(value, out.name))
                why = "\"name\" is not a non-empty string";
        } else if (key == "description") {
            // for people only
        } else if (key == "root") {
            hasRoot = true;
            why = readSelectors(value, "root", out.root);
        } else if (key == "inner") {
            why = readSelectors(value, "inner", out.inner);
        } else if (key == "e2e") {
            why = readSources(value, "e2e", out.e2e);
        } else if (key == "segments") {
            dom::object segments;
            if (value.get_object().get(segments))
                return "\"segments\" is not an object";
            for (auto [segment, sources] : segments) {
                const int index = segmentIndex(segment);
                if (index < 0)
                    return "unknown segment \"" + std::string(segment) + "\" ("
                           + joinSegmentNames(", ", ", ", kMappedSegments) + ")";
                if (why = readSources(sources, segment, out.segments[index]); !why.empty())
                    break;
            }
        } else {
            why = "unknown key \"" + std::string(key) + "\" (name, description, root, inner, e2e, segments)";
        }
        if (!why.empty())
            return why;
    }
    if (!hasRoot || out.root.empty())
        return "no \"root\" selectors: a mapping must say which span is the request";
    // A subtraction reads segments measured before it: only segments without subtractions of their own.
    for (const auto &sources : out.segments) {
        for (const SegmentSource &source : sources) {
            for (int m : source.minus) {
                for (const SegmentSource &other : out.segments[m]) {
                    if (!other.minus.empty())
                        return "\"minus\" names " + std::string(segmentName(static_cast<Segment>(m))) + ", which subtracts itself";
                }
            }
        }
    }
    for (const auto &sources : out.segments) {
        for (const SegmentSource &source : sources) {
            const bool needsInner = source.kind == SegmentSource::Kind::BeforeInner || source.kind == SegmentSource::Kind::AfterInner;
            if (needsInner && out.inner.empty())
                return "\"before\" / \"after\" need \"inner\" selectors";
        }
    }
    return {};
}

} // namespace

std::shared_ptr<const SpanMappings> parseSpanMappingJson(std::string_view json, std::string *error)
{
    dom::parser parser;
    dom::element root;
    if (auto e = parser.parse(json.data(), json.size()).get(root)) {
        *error = std::string("malformed JSON: ") + simdjson::error_message(e);
        return nullptr;
    }
    auto mappings = std::make_shared<SpanMappings>();
    dom::array list;
    std::vector<dom::element> items;
    if (!root.get_array().get(list)) {
        for (dom::element item : list)
            items.push_back(item);
    } else {
        items.push_back(root);
    }
    if (items.empty()) {
        *error = "an empty list: no mapping";
        return nullptr;
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        mappings->emplace_back();
        if (std::string why = readMapping(items[i], mappings->back()); !why.empty()) {
            *error = items.size() > 1 ? "mapping " + std::to_string(i + 1) + ": " + why : why;
            return nullptr;
        }
        if (mappings->back().name.empty())
            mappings->back().name = "mapping " + std::to_string(i + 1);
    }
    return mappings;
}

std::vector<std::string_view> spanMappingPresetNames()
{
    std::vector<std::string_view> names;
    for (const auto &preset : kSpanMappingPresets)
        names.push_back(preset.name);
    return names;
}

std::shared_ptr<const SpanMappings> loadSpanMappings(const std::string &nameOrFile, std::string *error)
{
    const auto preset = [&](std::string_view name) -> std::shared_ptr<const SpanMappings> {
        for (const auto &p : kSpanMappingPresets) {
            if (p.name == name) {
                std::string why;
                auto parsed = parseSpanMappingJson(p.json, &why);
                if (!parsed)
                    *error = "preset " + std::string(name) + ": " + why; // a build defect; tests keep it from shipping
                return parsed;
            }
        }
        return nullptr;
    };
    if (nameOrFile.empty() || nameOrFile == "auto") {
        auto all = std::make_shared<SpanMappings>();
        for (std::string_view name : {"vllm", "sglang", "tgi"}) {
            auto one = preset(name);
            if (!one)
                return nullptr;
            all->insert(all->end(), one->begin(), one->end());
        }
        return all;
    }
    for (const auto &p : kSpanMappingPresets) {
        if (p.name == nameOrFile)
            return preset(p.name);
    }
    std::ifstream file(utf8Path(nameOrFile), std::ios::binary);
    if (!file) {
        std::string names = "auto";
        for (std::string_view name : spanMappingPresetNames())
            names += ", " + std::string(name);
        *error = "mapping file " + nameOrFile + ": no such preset (" + names + ") and no readable file";
        return nullptr;
    }
    // A mapping is a few hundred bytes: a larger file (or /dev/zero) is not one, and is not read whole.
    std::string text(kMaxSpanMappingBytes + 1, '\0');
    file.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(file.gcount()));
    if (text.size() > kMaxSpanMappingBytes) {
        *error = "mapping file " + nameOrFile + ": larger than 1 MiB, so not a span mapping";
        return nullptr;
    }
    std::string why;
    auto parsed = parseSpanMappingJson(text, &why);
    if (!parsed)
        *error = "mapping file " + nameOrFile + ": " + why;
    return parsed;
}

} // namespace lx
