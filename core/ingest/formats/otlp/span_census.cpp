// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/otlp/span_census.h"

#include <algorithm>

namespace lx {

void SpanCensus::countSpan(const std::string &name, bool claimed)
{
    ++m_spans;
    m_claimed += claimed ? 1 : 0;
    if (const auto it = m_names.find(name); it != m_names.end())
        ++it->second;
    else if (m_names.size() < kMaxNames)
        m_names.emplace(name, 1);
    else
        ++m_otherNames;
}

std::vector<std::string> SpanCensus::namesByFrequency() const
{
    std::vector<std::pair<std::string, std::int64_t>> counted(m_names.begin(), m_names.end());
    std::sort(counted.begin(), counted.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::vector<std::string> names;
    names.reserve(counted.size());
    for (auto &[name, count] : counted)
        names.push_back(std::move(name));
    return names;
}

std::string unclaimedSpansNotice(const SpanCensus &census, const SpanMappings &mappings)
{
    if (census.spans() == 0 || census.claimed() > 0)
        return {};
    const std::vector<std::string> names = census.namesByFrequency();
    std::string text = std::to_string(census.spans()) + (census.spans() == 1 ? " span" : " spans") + " seen (names: ";
    for (std::size_t i = 0; i < std::min(names.size(), SpanCensus::kNamesShown); ++i)
        text += (i > 0 ? ", " : "") + (names[i].empty() ? std::string("(no name)") : names[i]);
    if (names.size() > SpanCensus::kNamesShown || census.moreNames())
        text += "\u2026"; // …
    text += census.spans() == 1 ? "); no span mapping claimed it" : "); no span mapping claimed them";
    if (!mappings.empty()) {
        text += " (tried: ";
        for (std::size_t i = 0; i < mappings.size(); ++i)
            text += (i > 0 ? ", " : "") + mappings[i].name;
        text += ")";
    }
    // Why every request is unattributed: nothing measured its parts, which is not a missing stamp.
    text += ", so each root span is a request whose time is all unattributed: choose a mapping in "
            "File \u25B8 OTLP Span Mapping or pass --mapping";
    return text;
}

} // namespace lx
