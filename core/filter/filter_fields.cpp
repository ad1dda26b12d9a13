// SPDX-License-Identifier: GPL-3.0-or-later
#include "filter/filter_fields.h"

#include "filter/filter_tokenizer.h"
#include "model/segments.h"

#include <array>
#include <iterator>
#include <string>

namespace lx::filter {

namespace {

// The whitelist: the only column expressions a filter can produce. A segment's is its column in the segment
// table (model/segments.h), a constant as well; the segments come after e2e.
constexpr Field kE2eField{"e2e", Kind::Duration, "r.e2e_ns", RowField::E2e};
// The dominant segment is left to SQL: the stored column is the truth a filter answers to.
constexpr Field kOtherFields[] = {
    Field{"ttft", Kind::Duration, "r.ttft_ns", RowField::Ttft},
    Field{"tpot", Kind::Duration, "r.tpot_ns", RowField::Tpot},
    Field{"ttlt", Kind::Duration, "r.ttlt_ns", RowField::Ttlt},
    Field{"input_tokens", Kind::Count, "r.input_tokens"},
    Field{"output_tokens", Kind::Count, "r.output_tokens"},
    Field{"status", Kind::Status, "r.status", RowField::Status},
    Field{"dominant", Kind::Segment, "r.dominant"},
    Field{"model", Kind::Text, "r.model_id"},
    Field{"route", Kind::Text, "r.route_id"},
    // Scope 0 means "no e2e": as NULL it follows the rule that nothing unmeasured ever compares.
    Field{"scope", Kind::Scope, "nullif(r.e2e_scope, 0)", RowField::Scope},
    Field{"start", Kind::Time, "r.start_ns", RowField::Start},
    Field{"id", Kind::SourceId, "r.id"},
    Field{"skew", Kind::Flag, "(r.flags & 1)", RowField::Flag, 0},
    Field{"relative", Kind::Flag, "((r.flags >> 2) & 1)", RowField::Flag, 2}, // times are offsets from an unknown origin
    Field{"joined", Kind::Flag, "((r.flags >> 3) & 1)", RowField::Flag, 3},   // a client record joined with its server record
};

} // namespace

const std::vector<Field> &fields()
{
    static const std::array<std::string, kSegmentCount> segmentSql = [] {
        std::array<std::string, kSegmentCount> sql;
        for (const SegmentDefinition &s : kSegments)
            sql[static_cast<std::size_t>(s.segment)] = "r." + std::string(s.column);
        return sql;
    }();
    static const std::vector<Field> all = [] {
        std::vector<Field> list{kE2eField};
        for (const SegmentDefinition &s : kSegments)
            list.push_back({s.name, Kind::Duration, segmentSql[static_cast<std::size_t>(s.segment)], RowField::Segment,
                            static_cast<int>(s.segment)});
        list.insert(list.end(), std::begin(kOtherFields), std::end(kOtherFields));
        return list;
    }();
    return all;
}

const Field *typoOf(std::string_view name)
{
    for (const Field &f : fields()) {
        const std::size_t d = name.size() > 20 ? 99 : editDistance(name, f.name);
        const bool prefix = name.starts_with(f.name) || f.name.starts_with(name);
        if (d > 0
            && ((name.size() <= 3 || f.name.size() <= 3) ? d == 1 && prefix : d <= (f.name.size() >= 6 ? 2u : 1u)))
            return &f;
    }
    return nullptr;
}

} // namespace lx::filter
