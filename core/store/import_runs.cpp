// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/import_runs.h"

#include "store/sqlite_util.h"
#include "store/store.h"

namespace lx {

std::int64_t insertImportRun(Store &store, const ImportRun &run)
{
    Statement insert(store.db(), "INSERT INTO import_runs (path, format, compressed, started_ns, outcome) VALUES (?, ?, ?, ?, 'running')");
    insert.bindText(1, run.path);
    insert.bindText(2, run.format);
    insert.bindInt(3, run.compressed ? 1 : 0);
    insert.bindInt(4, run.startedNs);
    if (insert.step() != SQLITE_DONE)
        return 0; // the caller reports the store error
    return sqlite3_last_insert_rowid(store.db());
}

void finishImportRun(Store &store, const ImportRun &run)
{
    Statement update(store.db(), "UPDATE import_runs SET format=?, compressed=?, duration_ns=?, bytes=?, accepted=?, rejected=?,"
                                 " outcome=?, message=? WHERE id=?");
    update.bindText(1, run.format);
    update.bindInt(2, run.compressed ? 1 : 0);
    update.bindInt(3, run.durationNs);
    update.bindInt(4, run.bytes);
    update.bindInt(5, run.accepted);
    update.bindInt(6, run.rejected);
    update.bindText(7, run.outcome);
    update.bindText(8, run.message, true);
    update.bindInt(9, run.id);
    update.step();
}

std::vector<ImportRun> listImportRuns(const Store &store)
{
    std::vector<ImportRun> runs;
    Statement rows(store.db(), "SELECT id, path, format, accepted, rejected, outcome, coalesce(message, '') FROM import_runs ORDER BY id");
    while (rows.step() == SQLITE_ROW) {
        sqlite3_stmt *q = rows.get();
        ImportRun run;
        run.id = sqlite3_column_int64(q, 0);
        run.path = columnText(q, 1);
        run.format = columnText(q, 2);
        run.accepted = sqlite3_column_int64(q, 3);
        run.rejected = sqlite3_column_int64(q, 4);
        run.outcome = columnText(q, 5);
        run.message = columnText(q, 6);
        runs.push_back(std::move(run));
    }
    return runs;
}

} // namespace lx
