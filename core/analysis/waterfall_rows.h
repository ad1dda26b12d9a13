// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/waterfall_data.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

/// \file waterfall_rows.h
/// The rows of the waterfall: one request each in a chosen order, or lanes of requests that never overlap.
/// Either way the requests of a run of rows are one contiguous span, so a frame reads only what it shows,
/// and it reads it in order: the columns a frame needs are kept in display order (WaterfallFrameColumns).

namespace lx {

/// What the rows are sorted by.
struct WaterfallSort {
    enum class Key { Start, E2e, Segment };
    Key key = Key::Start;
    Segment segment = Segment::Network; ///< with Key::Segment
    bool descending = false;

    /// "start", "e2e" or the segment's name.
    std::string name() const;
    bool operator==(const WaterfallSort &) const = default;
};

/// The columns a frame reads, indexed by display position (position p is the request rows.requests()[p]).
/// Lanes and sorts other than by start scatter a run of rows over the whole of WaterfallData; read through
/// the request index, a frame of a million requests in lanes took 70-110 ms in cache misses, in order 20-40.
struct WaterfallFrameColumns {
    const std::int64_t *starts = nullptr; ///< as WaterfallData::starts
    const std::int64_t *ends = nullptr;   ///< as WaterfallData::ends
    std::array<const std::int64_t *, kSegmentCount> segments{}; ///< as WaterfallData::segments

    /// As WaterfallData::part(): the time, 0 when not measured.
    std::int64_t part(std::size_t p, int segment) const
    {
        const std::int64_t v = segments[static_cast<std::size_t>(segment)][p];
        return isMeasured(v) ? v : 0;
    }
};

/// The display rows of a waterfall: requests in a sort order, or lanes (WaterfallData::lanes).
class WaterfallRows {
public:
    WaterfallRows() = default;
    /// One request a row. Requests without the key measured come last in both directions ("no value" is
    /// neither small nor large); ties keep start order. A radix sort: about 30 ms for a million.
    static WaterfallRows sorted(const WaterfallData &data, const WaterfallSort &sort);
    /// One lane a row; a lane's requests in start order.
    static WaterfallRows lanes(const WaterfallData &data);

    bool isLanes() const { return !m_rowBegin.empty(); }
    /// Display rows: requests, or lanes.
    std::size_t rowCount() const { return isLanes() ? m_rowBegin.size() - 1 : m_requests.size(); }
    /// Every request (its index in WaterfallData) in display order.
    std::span<const std::uint32_t> requests() const { return m_requests; }
    /// The requests of rows [first, end), in display order.
    std::span<const std::uint32_t> requestsOf(std::size_t first, std::size_t end) const
    {
        end = std::min(end, rowCount());
        first = std::min(first, end);
        return isLanes() ? std::span(m_requests).subspan(m_rowBegin[first], m_rowBegin[end] - m_rowBegin[first])
                         : std::span(m_requests).subspan(first, end - first);
    }
    /// How many rows from the top have the sort key measured (all of them for lanes).
    std::size_t measuredCount() const { return m_measured; }
    /// The columns a frame reads in display order: copies made with the rows, or the data's own columns
    /// when the order is theirs (rows by start: no copy). `data` is the one the rows were made from.
    WaterfallFrameColumns columns(const WaterfallData &data) const;
    /// The row a request is shown in; nullopt when it is not in these rows.
    std::optional<std::size_t> rowOf(const WaterfallData &data, std::size_t request) const;

    /// Calls visit(position, row) for each request of rows [first, end) that is in time at [fromNs, toNs)
    /// (a request of no length counts at its start), in display order; a visit that returns false stops.
    /// The request is requests()[position]; its times are at `position` in columns(data).
    template<class Visit>
    void forEachIn(const WaterfallData &data, std::size_t first, std::size_t end, std::int64_t fromNs,
                   std::int64_t toNs, Visit &&visit) const;

    /// The request in rows [first, end) whose bar is under time t, give or take `slackNs`: the one whose row
    /// is nearest `preferredRow`, then whose bar is nearest t. nullopt when none.
    std::optional<std::size_t> requestAt(const WaterfallData &data, std::size_t first, std::size_t end, std::int64_t t,
                                         std::int64_t slackNs, double preferredRow) const;

private:
    std::vector<std::uint32_t> m_requests;
    std::vector<std::size_t> m_rowBegin; ///< lanes: where each lane's requests begin in m_requests, then the end
    std::size_t m_measured = 0;
    /// columns() when the order is not the data's: starts, ends, then the segments (72 bytes a request).
    std::array<WaterfallColumn<std::int64_t>, 2 + kSegmentCount> m_ordered;
    bool m_inDataOrder = false;

    /// Makes m_ordered, or notes that the order is the data's.
    void orderColumns(const WaterfallData &data);
};

/// Where a bar drawn from `start` covers time: ends at `end`, and a request of no length is a point.
inline bool inTime(std::int64_t start, std::int64_t end, std::int64_t fromNs, std::int64_t toNs)
{
    return start < toNs && std::max(end, start + 1) > fromNs;
}

namespace detail {
/// Calls a visitor that may return void (go on) or bool (false stops).
template<class Visit>
bool goOn(Visit &visit, std::size_t position, std::size_t row)
{
    if constexpr (std::is_same_v<std::invoke_result_t<Visit &, std::size_t, std::size_t>, bool>) {
        return visit(position, row);
    } else {
        visit(position, row);
        return true;
    }
}
} // namespace detail

template<class Visit>
void WaterfallRows::forEachIn(const WaterfallData &data, std::size_t first, std::size_t end, std::int64_t fromNs,
                              std::int64_t toNs, Visit &&visit) const
{
    end = std::min(end, rowCount());
    const WaterfallFrameColumns c = columns(data);
    if (!isLanes()) {
        for (std::size_t row = first; row < end; ++row) {
            if (inTime(c.starts[row], c.ends[row], fromNs, toNs) && !detail::goOn(visit, row, row))
                return;
        }
        return;
    }
    // A lane's bars never overlap and are in start order, so their ends ascend too: search for the first
    // bar still running at fromNs, stop at the first starting after toNs. Most lanes hold a few requests
    // (a million make 240,000 lanes): those are searched in a line, which beats halving them.
    const auto over = [&](std::size_t p) { return std::max(c.ends[p], c.starts[p] + 1) <= fromNs; };
    for (std::size_t row = first; row < end; ++row) {
        const std::size_t laneEnd = m_rowBegin[row + 1];
        std::size_t p = m_rowBegin[row], past = laneEnd;
        while (past - p > 16) {
            const std::size_t mid = p + (past - p) / 2;
            if (over(mid))
                p = mid + 1;
            else
                past = mid;
        }
        while (p < past && over(p))
            ++p;
        for (; p < laneEnd && c.starts[p] < toNs; ++p) {
            if (!detail::goOn(visit, p, row))
                return;
        }
    }
}

} // namespace lx
