// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/import_runs.h"

#include "store/sqlite_util.h"
#include "store/store.h"

#include "platform/file_lock_probe.h"

#include <algorithm>

namespace lx {

namespace {

constexpr const char *kInterrupted = "interrupted";

/// What a run left in the store: its rows, the server records of it that a join folded into a client
/// record's row, and its rejections.
constexpr const char *kTrueCounts =
    "(SELECT count(*) FROM requests WHERE run_id = import_runs.id)"
    " + (SELECT count(*) FROM request_joins WHERE server_run_id = import_runs.id)";
constexpr const char *kTrueRejections = "(SELECT count(*) FROM rejected WHERE run_id = import_runs.id)";

std::string interruptedMessage(std::int64_t kept)
{
    // The outcome says "interrupted" already: the message says what it means.
    return kept == 0 ? "the program ended before this import finished; none of its records were kept"
                     : "the program ended before this import finished; the " + std::to_string(kept)
                           + " records it had written are kept";
}

bool anyRunning(sqlite3 *db)
{
    Statement running(db, "SELECT 1 FROM import_runs WHERE outcome = 'running' LIMIT 1");
    return running.valid() && running.step() == SQLITE_ROW;
}

} // namespace

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

bool finishImportRun(Store &store, const ImportRun &run)
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
    return update.step() == SQLITE_DONE;
}

std::vector<ImportRun> listImportRuns(const Store &store)
{
    std::vector<ImportRun> runs;
    // The true counts only of the runs a killed import left: each is a scan of every row of `requests`,
    // which every report paid for every run when they were columns of this SELECT.
    Statement rows(
        store.db(),
        "SELECT id, path, format, accepted, rejected, outcome, coalesce(message, ''), coalesce(bytes, 0), started_ns "
        "FROM import_runs"
        " ORDER BY id");
    Statement counts(store.db(), std::string("SELECT ") + kTrueCounts + ", " + kTrueRejections
                                     + " FROM import_runs WHERE id = ?");
    const std::vector<std::int64_t> &dead = store.deadRuns();
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
        run.bytes = sqlite3_column_int64(q, 7);
        run.startedNs = sqlite3_column_int64(q, 8);
        if (run.outcome == "running" && std::find(dead.begin(), dead.end(), run.id) != dead.end()) {
            // Read-only: the store is left as it is, and the list says what markInterruptedRuns() would write.
            run.outcome = kInterrupted;
            counts.reset();
            counts.bindInt(1, run.id);
            if (counts.step() == SQLITE_ROW) {
                run.accepted = sqlite3_column_int64(counts.get(), 0);
                run.rejected = sqlite3_column_int64(counts.get(), 1);
            }
            run.message = interruptedMessage(run.accepted);
        }
        runs.push_back(std::move(run));
    }
    return runs;
}

bool markInterruptedRuns(Store &store, std::string *error)
{
    sqlite3 *db = store.db();
    if (!anyRunning(db))
        return true; // the common case: no write, no lock
    // An import holds the write lock from its first row to its commit: if the lock can be taken now, no
    // import is alive. Not waiting for it: a store being imported into opens at once, its runs left alone.
    // (In the instant between a run's row and its transaction's first write the lock is free: a run marked
    // then is set right by its own final update, which writes every field.)
    sqlite3_busy_timeout(db, 0);
    const int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    sqlite3_busy_timeout(db, 30000);
    if (rc == SQLITE_BUSY)
        return true;
    std::string why;
    const std::string mark = std::string("UPDATE import_runs SET accepted = ") + kTrueCounts + ", rejected = " + kTrueRejections
                             + ", outcome = '" + kInterrupted + "', message = CASE WHEN " + kTrueCounts + " = 0 THEN '"
                             + interruptedMessage(0) + "' ELSE 'the program ended before this import finished; the '"
                               " || (" + kTrueCounts + ") || ' records it had written are kept' END WHERE outcome = 'running'";
    if (rc != SQLITE_OK || !store.exec(mark.c_str(), &why) || !store.exec("COMMIT", &why)) {
        store.exec("ROLLBACK");
        *error = "cannot mark the interrupted imports of the store: " + (why.empty() ? store.lastError() : why);
        return false;
    }
    return true;
}

std::vector<std::int64_t> findDeadRuns(const Store &store)
{
    std::vector<std::int64_t> dead;
    if (!anyRunning(store.db()) || writeLockHeldElsewhere(store.fileName()))
        return dead;
    Statement running(store.db(), "SELECT id FROM import_runs WHERE outcome = 'running'");
    while (running.step() == SQLITE_ROW)
        dead.push_back(sqlite3_column_int64(running.get(), 0));
    return dead;
}

} // namespace lx
