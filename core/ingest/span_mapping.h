// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// \file span_mapping.h
/// Which span of a trace is a request and which spans or attributes mark each of its segments: a mapping
/// file (JSON, docs/OTLP.md "Mapping files") or one of the presets shipped in the binary (vllm, sglang, tgi,
/// http-gateway). The OTLP readers apply it (otlp_requests.h); what it does not claim stays unattributed.

namespace lx {

/// The largest span mapping file read (README "Limits"); a larger one is refused unread.
inline constexpr std::size_t kMaxSpanMappingBytes = std::size_t{1} << 20;

/// A condition on a span; every condition given must hold. A selector list matches when any selector does.
struct SpanSelector {
    std::vector<std::string> names;      ///< the span's name is one of these (any name when empty)
    std::string attribute;               ///< the span carries this attribute key
    std::string attributePrefix;         ///< the span carries an attribute whose key starts with this
    int kind = -1;                       ///< the span's SpanKind (2 server, ...), -1 for any
    bool noParent = false;               ///< the span's parent is not among the spans read with it
    bool otherService = false;           ///< (inner selectors) its service.name differs from the root's
    std::vector<std::string> childNames; ///< one of its direct children has one of these names
};

/// How an attribute's value is written.
enum class ValueUnit { Seconds, Milliseconds, Microseconds, Nanoseconds, DurationString };

/// One way to measure a segment (or the e2e); a segment's sources are tried in order and the first that
/// measures something wins.
struct SegmentSource {
    enum class Kind {
        Attribute,   ///< an attribute of the inner span (or of the root, `on: root`) in `unit`
        Spans,       ///< the summed durations of the root's descendants named in `spanNames`
        BeforeInner, ///< from the root's start to the inner span's start
        AfterInner,  ///< from the inner span's end to the root's end
    };
    Kind kind = Kind::Attribute;
    std::string attribute;
    ValueUnit unit = ValueUnit::Seconds;
    bool onRoot = false;
    std::vector<int> minus; ///< Segment values subtracted from the attribute (all must be measured, result >= 0)
    std::vector<std::string> spanNames;
};

/// The segments a mapping can fill: every one in pipeline order but the last, unattributed, which is what
/// the others leave over of e2e.
inline constexpr int kMappedSegments = kSegmentCount - 1;
static_assert(static_cast<int>(Segment::Unattributed) == kMappedSegments, "unattributed is the last segment");

struct SpanMapping {
    std::string name;
    std::vector<SpanSelector> root;  ///< which spans are requests
    std::vector<SpanSelector> inner; ///< the span below the root that the server's attributes are on; empty: the root
    std::vector<SegmentSource> e2e;  ///< tried in order; the root span's duration when none measures
    std::array<std::vector<SegmentSource>, kMappedSegments> segments;
};

/// The mappings an import applies, tried in order on each span.
using SpanMappings = std::vector<SpanMapping>;

/// Parses a mapping file's text. Null with the reason in *error (naming the key at fault) when invalid.
std::shared_ptr<const SpanMappings> parseSpanMappingJson(std::string_view json, std::string *error);

/// The preset names, in the order `auto` does not necessarily use them.
std::vector<std::string_view> spanMappingPresetNames();

/// The mapping for `nameOrFile`: empty or "auto" (vllm, then sglang, then tgi), a preset name, or the path of
/// a mapping file. Null with the reason in *error, which names the file.
std::shared_ptr<const SpanMappings> loadSpanMappings(const std::string &nameOrFile, std::string *error);

} // namespace lx
