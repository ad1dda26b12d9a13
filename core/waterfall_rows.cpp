// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_rows.h"

#include "radix_sort.h"

#include <cmath>
#include <limits>

namespace lx {

std::string WaterfallSort::name() const
{
    switch (key) {
    case Key::Start: return "start";
    case Key::E2e: return "e2e";
    case Key::Segment: return std::string(segmentName(segment));
    }
    return {};
}

WaterfallRows WaterfallRows::sorted(const WaterfallData &data, const WaterfallSort &sort)
{
    const std::size_t n = data.size();
    WaterfallRows rows;
    rows.m_requests.reserve(n);
    const WaterfallColumn<std::int64_t> &values = sort.key == WaterfallSort::Key::Start ? data.starts
        : sort.key == WaterfallSort::Key::E2e                                         ? data.e2e
                                                                                      : data.segments[static_cast<std::size_t>(sort.segment)];
    struct Entry {
        std::uint64_t key;
        std::uint32_t index;
    };
    WaterfallColumn<Entry> items, scratch(n);
    items.reserve(n);
    std::vector<std::uint32_t> missing;
    // Complementing the key reverses the order while the sort stays stable: ties keep start order either way.
    const std::uint64_t flip = sort.descending ? ~std::uint64_t(0) : 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (isMeasured(values[i]))
            items.push_back({orderedKey(values[i]) ^ flip, static_cast<std::uint32_t>(i)});
        else
            missing.push_back(static_cast<std::uint32_t>(i));
    }
    const Entry *sortedItems = radixSort(items.data(), scratch.data(), items.size(), [](const Entry &e) { return e.key; });
    for (std::size_t i = 0; i < items.size(); ++i)
        rows.m_requests.push_back(sortedItems[i].index);
    rows.m_requests.insert(rows.m_requests.end(), missing.begin(), missing.end());
    rows.m_measured = items.size();
    return rows;
}

WaterfallRows WaterfallRows::lanes(const WaterfallData &data)
{
    // A counting sort by lane: requests arrive in start order, so each lane's stay in start order.
    WaterfallRows rows;
    rows.m_rowBegin.assign(std::size_t(data.laneCount) + 1, 0);
    for (std::uint32_t lane : data.lanes)
        ++rows.m_rowBegin[lane + 1];
    for (std::size_t lane = 1; lane < rows.m_rowBegin.size(); ++lane)
        rows.m_rowBegin[lane] += rows.m_rowBegin[lane - 1];
    rows.m_requests.resize(data.size());
    std::vector<std::size_t> next(rows.m_rowBegin.begin(), rows.m_rowBegin.end() - 1);
    for (std::size_t i = 0; i < data.size(); ++i)
        rows.m_requests[next[data.lanes[i]]++] = static_cast<std::uint32_t>(i);
    rows.m_measured = data.laneCount;
    return rows;
}

std::optional<std::size_t> WaterfallRows::rowOf(const WaterfallData &data, std::size_t request) const
{
    if (request >= data.size())
        return std::nullopt;
    if (isLanes())
        return data.lanes[request];
    const auto it = std::find(m_requests.begin(), m_requests.end(), static_cast<std::uint32_t>(request));
    if (it == m_requests.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - m_requests.begin());
}

std::optional<std::size_t> WaterfallRows::requestAt(const WaterfallData &data, std::size_t first, std::size_t end,
                                                    std::int64_t t, std::int64_t slackNs, double preferredRow) const
{
    std::optional<std::size_t> best;
    double bestRowDistance = std::numeric_limits<double>::infinity();
    std::int64_t bestTimeDistance = std::numeric_limits<std::int64_t>::max();
    forEachIn(data, first, end, t - slackNs, t + slackNs + 1, [&](std::uint32_t i, std::size_t row) {
        const double rowDistance = std::abs(static_cast<double>(row) + 0.5 - preferredRow);
        const std::int64_t barEnd = std::max(data.ends[i], data.starts[i] + 1);
        const std::int64_t timeDistance = t < data.starts[i] ? data.starts[i] - t : t >= barEnd ? t - barEnd + 1 : 0;
        if (rowDistance < bestRowDistance || (rowDistance == bestRowDistance && timeDistance < bestTimeDistance)) {
            best = i;
            bestRowDistance = rowDistance;
            bestTimeDistance = timeDistance;
        }
    });
    return best;
}

} // namespace lx
