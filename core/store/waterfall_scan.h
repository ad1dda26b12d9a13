// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "filter/request_filter.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

/// \file waterfall_scan.h
/// The read of the waterfall timeline (analysis/waterfall_data.h): the requests matching a filter with
/// their start, e2e, segments and flags, in one pass in the table's column order; or, of a store that holds
/// its requests in memory (held_rows.h: what the window shows while the investigation's store is written,
/// summary_first.h), those.

namespace lx {

class Store;

/// One request as the waterfall reads it; times in ns or kNotMeasured.
struct TimelineRow {
    std::int64_t id = 0; ///< requests.id
    std::int64_t start = kNotMeasured;
    std::int64_t e2e = kNotMeasured;
    std::array<std::int64_t, kSegmentCount> segments{};
    std::uint32_t flags = 0;
};

/// The type-erased form of scanTimelineRows(): capacity(context, rows) once before the first row, then
/// visit(context, row) for each.
struct TimelineVisitor {
    void (*capacity)(void *context, std::size_t rows);
    void (*visit)(void *context, const TimelineRow &row);
    void *context;
};

bool scanTimelineRows(const Store &store, const RequestFilter &filter, const std::atomic<bool> *cancel,
                      const TimelineVisitor &visitor, std::string *error);

/// Reads the rows matching `filter` of `store` on a connection of its own (Store::openReader()), in scan
/// order (row id order unless SQLite walked an index; held rows in id order): reserve(n) first with the most rows that can match, then visit(row) for each (a row without a
/// start carries only its id and start: the waterfall cannot place it, and counts it). False with the
/// reason on an SQL error, when the file cannot be opened or when `cancel` became true (checked every few
/// thousand rows). Held rows take only a filter they can decide (scansDecide()).
template<typename Reserve, typename Visit>
bool scanTimelineRows(const Store &store, const RequestFilter &filter, const std::atomic<bool> *cancel,
                      Reserve &&reserve, Visit &&visit, std::string *error)
{
    struct Both {
        std::remove_reference_t<Reserve> *reserve;
        std::remove_reference_t<Visit> *visit;
    } both{&reserve, &visit};
    const TimelineVisitor visitor{[](void *c, std::size_t rows) { (*static_cast<Both *>(c)->reserve)(rows); },
                                  [](void *c, const TimelineRow &row) { (*static_cast<Both *>(c)->visit)(row); }, &both};
    return scanTimelineRows(store, filter, cancel, visitor, error);
}

} // namespace lx
