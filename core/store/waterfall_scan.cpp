// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/waterfall_scan.h"

#include "store/held_rows.h"
#include "store/request_scan.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

namespace lx {

namespace {

bool fail(std::string *error, std::string message)
{
    if (error)
        *error = std::move(message);
    return false;
}

TimelineRow timelineRowOf(std::int64_t id, const RequestRow &row)
{
    TimelineRow timeline;
    timeline.id = id;
    timeline.start = row.start;
    if (!isMeasured(row.start))
        return timeline; // as a table row without a start: the rest is not read
    timeline.e2e = row.e2e;
    timeline.segments = row.segments;
    timeline.flags = row.flags;
    return timeline;
}

bool scanHeld(const HeldRows &held, const RequestFilter &filter, const std::atomic<bool> *cancel,
              const TimelineVisitor &visitor, std::string *error)
{
    visitor.capacity(visitor.context, held.size());
    bool stopped = false;
    forEachHeldRow(held, toSqlCondition(filter), [&](std::int64_t id, const RequestRow &row) {
        if ((id & 0x3fff) == 0 && cancel && cancel->load(std::memory_order_relaxed)) {
            stopped = true;
            return false;
        }
        visitor.visit(visitor.context, timelineRowOf(id, row));
        return true;
    });
    return stopped ? fail(error, "cancelled") : true;
}

} // namespace

bool scanTimelineRows(const Store &store, const RequestFilter &filter, const std::atomic<bool> *cancel,
                      const TimelineVisitor &visitor, std::string *error)
{
    if (const HeldRows *held = store.heldRows())
        return scanHeld(*held, filter, cancel, visitor, error);
    const ReadConnection connection = store.openReader();
    if (!connection)
        return fail(error, "the store has no file to read on a connection of its own");
    sqlite3 *db = connection.db();
    const SqlCondition where = toSqlCondition(filter);
    // Columns in the table's order, so that SQLite decodes each record front to back once.
    static const std::string select =
        "SELECT r.id, r.start_ns, r.e2e_ns, " + segmentColumnList("r.") + ", r.flags FROM requests r WHERE ";
    Statement stmt(db, select + where.sql);
    if (!stmt.valid())
        return fail(error, std::string("cannot read the requests: ") + sqlite3_errmsg(db));
    where.bind(stmt);
    visitor.capacity(visitor.context, rowCapacity(db));
    sqlite3_stmt *q = stmt.get();
    TimelineRow row;
    int rc;
    for (std::size_t n = 1; (rc = stmt.step()) == SQLITE_ROW; ++n) {
        if ((n & 0x3fff) == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return fail(error, "cancelled");
        row.id = sqlite3_column_int64(q, 0);
        row.start = columnOr(q, 1);
        if (!isMeasured(row.start)) { // it cannot be placed: the rest of its columns are not read
            visitor.visit(visitor.context, row);
            continue;
        }
        row.e2e = columnOr(q, 2);
        for (int s = 0; s < kSegmentCount; ++s)
            row.segments[static_cast<std::size_t>(s)] = columnOr(q, 3 + s);
        row.flags = static_cast<std::uint32_t>(sqlite3_column_int64(q, 3 + kSegmentCount));
        visitor.visit(visitor.context, row);
    }
    if (rc != SQLITE_DONE)
        return fail(error, std::string("cannot read the requests: ") + sqlite3_errmsg(db));
    return true;
}

} // namespace lx
