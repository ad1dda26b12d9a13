// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/waterfall_data.h"

#include "analysis/time_axis.h"

#include "model/radix_sort.h"
#include "model/time_range.h"
#include "store/store.h"
#include "store/waterfall_scan.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace lx {

namespace {

bool cancelled(const std::atomic<bool> *cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

std::shared_ptr<const WaterfallData> fail(std::string *error, std::string message)
{
    if (error)
        *error = std::move(message);
    return nullptr;
}

template<class Column>
void forEachColumn(WaterfallData &d, Column &&column)
{
    column(d.ids);
    column(d.starts);
    column(d.e2e);
    for (auto &segment : d.segments)
        column(segment);
    column(d.flags);
}

/// Reads the rows with a start time into `d` in scan order; counts the others. False on an error or a cancel.
bool scan(const Store &store, const RequestFilter &filter, const std::atomic<bool> *cancel,
          WaterfallData &d, bool &idsAscending, std::string *error)
{
    std::int64_t previous = INT64_MIN;
    idsAscending = true;
    const auto reserve = [&](std::size_t capacity) { forEachColumn(d, [&](auto &column) { column.reserve(capacity); }); };
    return scanTimelineRows(
        store, filter, cancel, reserve,
        [&](const TimelineRow &row) {
            if (!isMeasured(row.start)) {
                ++d.withoutStart;
                return;
            }
            idsAscending = idsAscending && row.id > previous;
            previous = row.id;
            d.ids.push_back(row.id);
            d.starts.push_back(row.start);
            d.e2e.push_back(row.e2e);
            for (std::size_t s = 0; s < d.segments.size(); ++s)
                d.segments[s].push_back(row.segments[s]);
            d.flags.push_back(row.flags);
        },
        error);
}

/// Puts the rows in start order, ties by row id: SQLite reads in id order unless it walked the start index.
void sortByStart(WaterfallData &d, bool idsAscending)
{
    struct Entry {
        std::uint64_t key;
        std::uint32_t index;
    };
    const std::size_t n = d.size();
    WaterfallColumn<Entry> items(n), scratch(n);
    for (std::size_t i = 0; i < n; ++i)
        items[i] = {orderedKey(d.starts[i]), static_cast<std::uint32_t>(i)};
    Entry *sorted = items.data();
    Entry *spare = scratch.data();
    const auto sortBy = [&](auto keyOf) {
        Entry *result = radixSort(sorted, spare, n, keyOf);
        spare = result == sorted ? spare : sorted;
        sorted = result;
    };
    if (!idsAscending)
        sortBy([&](const Entry &e) { return orderedKey(d.ids[e.index]); });
    sortBy([](const Entry &e) { return e.key; });
    forEachColumn(d, [&](auto &column) {
        std::remove_reference_t<decltype(column)> permuted(n);
        for (std::size_t i = 0; i < n; ++i)
            permuted[i] = column[sorted[i].index];
        column.swap(permuted);
    });
}

} // namespace

std::optional<std::size_t> WaterfallData::indexOf(std::int64_t rowId) const
{
    const auto it = std::find(ids.begin(), ids.end(), rowId);
    if (it == ids.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - ids.begin());
}

std::uint32_t assignLanes(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends,
                          std::span<std::uint32_t> lanes)
{
    using Busy = std::pair<std::int64_t, std::uint32_t>; // (end, lane)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> free;
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        while (!busy.empty() && busy.top().first <= starts[i]) {
            free.push(busy.top().second);
            busy.pop();
        }
        std::uint32_t lane = count;
        if (free.empty()) {
            ++count;
        } else {
            lane = free.top();
            free.pop();
        }
        lanes[i] = lane;
        busy.emplace(std::max(ends[i], starts[i]), lane);
    }
    return count;
}

std::shared_ptr<const WaterfallData> loadWaterfall(const Store &store, const RequestFilter &filter,
                                                   const std::atomic<bool> *cancel, std::string *error)
{
    auto d = std::make_shared<WaterfallData>();
    d->filter = filter;
    bool idsAscending = true;
    if (!scan(store, filter, cancel, *d, idsAscending, error))
        return nullptr;
    if (cancelled(cancel))
        return fail(error, "cancelled");
    sortByStart(*d, idsAscending);
    if (cancelled(cancel))
        return fail(error, "cancelled");

    const std::size_t n = d->size();
    d->ends.resize(n);
    TimeAxisCount axis;
    for (std::size_t i = 0; i < n; ++i) {
        std::int64_t end = d->starts[i];
        for (int s = 0; s < kSegmentCount; ++s) // saturating: a foreign store may hold times that pass 2262
            end = saturatingAdd(end, std::max<std::int64_t>(d->part(i, s), 0));
        d->ends[i] = end;
        d->withoutTime += end == d->starts[i] ? 1 : 0;
        axis.add(d->starts[i], d->flags[i]);
    }
    d->relativeTime = axis.relative();
    if (n > 0) {
        d->firstStart = d->starts.front();
        d->lastEnd = *std::max_element(d->ends.begin(), d->ends.end());
    }
    d->lanes.resize(n);
    d->laneCount = assignLanes(d->starts, d->ends, d->lanes);
    return d;
}

} // namespace lx
