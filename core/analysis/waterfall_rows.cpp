// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/waterfall_rows.h"

#include "model/radix_sort.h"

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
    rows.orderColumns(data);
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
    rows.orderColumns(data);
    return rows;
}

void WaterfallRows::orderColumns(const WaterfallData &data)
{
    m_inDataOrder = true;
    for (std::size_t p = 0; p < m_requests.size() && m_inDataOrder; ++p)
        m_inDataOrder = m_requests[p] == p;
    if (m_inDataOrder)
        return;
    // One pass: for each position, the request's values of all the columns (independent loads the CPU
    // overlaps), written in order.
    std::array<const std::int64_t *, 2 + kSegmentCount> from{data.starts.data(), data.ends.data()};
    std::array<std::int64_t *, 2 + kSegmentCount> to{};
    for (std::size_t s = 0; s < kSegmentCount; ++s)
        from[2 + s] = data.segments[s].data();
    for (std::size_t k = 0; k < m_ordered.size(); ++k) {
        m_ordered[k].resize(m_requests.size());
        to[k] = m_ordered[k].data();
    }
    for (std::size_t p = 0; p < m_requests.size(); ++p) {
        const std::uint32_t i = m_requests[p];
        for (std::size_t k = 0; k < from.size(); ++k)
            to[k][p] = from[k][i];
    }
}

WaterfallFrameColumns WaterfallRows::columns(const WaterfallData &data) const
{
    WaterfallFrameColumns c;
    if (m_inDataOrder) {
        c.starts = data.starts.data();
        c.ends = data.ends.data();
        for (std::size_t s = 0; s < kSegmentCount; ++s)
            c.segments[s] = data.segments[s].data();
        return c;
    }
    c.starts = m_ordered[0].data();
    c.ends = m_ordered[1].data();
    for (std::size_t s = 0; s < kSegmentCount; ++s)
        c.segments[s] = m_ordered[2 + s].data();
    return c;
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
    const WaterfallFrameColumns c = columns(data);
    forEachIn(data, first, end, t - slackNs, t + slackNs + 1, [&](std::size_t p, std::size_t row) {
        const double rowDistance = std::abs(static_cast<double>(row) + 0.5 - preferredRow);
        const std::int64_t start = c.starts[p], barEnd = std::max(c.ends[p], start + 1);
        const std::int64_t timeDistance = t < start ? start - t : t >= barEnd ? t - barEnd + 1 : 0;
        if (rowDistance < bestRowDistance || (rowDistance == bestRowDistance && timeDistance < bestTimeDistance)) {
            best = m_requests[p];
            bestRowDistance = rowDistance;
            bestTimeDistance = timeDistance;
        }
    });
    return best;
}

} // namespace lx
