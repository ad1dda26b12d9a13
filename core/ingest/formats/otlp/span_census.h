// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/span_mapping.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

/// \file span_census.h
/// What the spans of one OTLP file were: how many, under which names, and how many of them a span mapping
/// claimed. A file whose spans no mapping claims (a web shop's traces read with the LLM presets) still
/// imports, a request per root span with all of its time unattributed; the census is what lets the import
/// say why, instead of leaving a trace that looks uninstrumented.

namespace lx {

class SpanCensus {
public:
    /// Distinct names counted one by one; the names past this many are counted together.
    static constexpr std::size_t kMaxNames = 256;
    /// Names the notice lists, the most frequent first.
    static constexpr std::size_t kNamesShown = 5;

    void countSpan(const std::string &name, bool claimed);

    std::int64_t spans() const { return m_spans; }
    std::int64_t claimed() const { return m_claimed; }
    /// The span names, the most frequent first (ties by name); at most kMaxNames.
    std::vector<std::string> namesByFrequency() const;
    /// True when names past kMaxNames were seen and not kept.
    bool moreNames() const { return m_otherNames > 0; }

private:
    std::int64_t m_spans = 0;
    std::int64_t m_claimed = 0;
    std::int64_t m_otherNames = 0; ///< spans whose name came after kMaxNames others
    std::unordered_map<std::string, std::int64_t> m_names;
};

/// The import's remark when spans were read and no mapping claimed any (empty otherwise): "N spans seen
/// (names: a, b, c…); no span mapping claimed them (tried: vllm, sglang, tgi): ...", naming where to choose
/// one, in the desktop app and on the command line.
std::string unclaimedSpansNotice(const SpanCensus &census, const SpanMappings &mappings);

} // namespace lx
