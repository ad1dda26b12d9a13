// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/store.h"

#include "schema_sql.h"
#include "store/checked_stores.h"
#include "store/import_runs.h"
#include "store/packed_stamps.h"
#include "store/sqlite_open.h"
#include "store/sqlite_util.h"
#include "store/store_trust.h"
#include "store/temporary_files.h"
#include "platform/utf8_path.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>

namespace lx {

namespace {
constexpr int kBusyTimeoutMs = 30000;
}

bool Store::isWritable() const
{
    return !m_readOnly && m_db && sqlite3_db_readonly(m_db, "main") == 0;
}

std::unique_ptr<Store> Store::openWritable(const std::string &path, std::string *error)
{
    std::unique_ptr<Store> store = open(path, error);
    if (store && !store->isWritable()) {
        *error = "cannot be written: it is read-only (a read-only file system, or no permission to write it)";
        return nullptr;
    }
    return store;
}

std::unique_ptr<Store> Store::open(const std::string &path, std::string *error)
{
    return openPath(path, false, Mode::Create, error);
}

std::unique_ptr<Store> Store::openExisting(const std::string &path, std::string *error)
{
    return openPath(path, false, Mode::Existing, error);
}

std::unique_ptr<Store> Store::openReadOnly(const std::string &path, std::string *error, IntegrityCheck check)
{
    return openPath(path, false, Mode::ReadOnly, error, check);
}

namespace {

/// The temporary folder and where its name came from, for a message that says how to choose another.
std::string temporaryFolderName()
{
    for (const char *name : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"}) // the order std::filesystem reads them in
        if (const char *value = std::getenv(name); value && *value)
            return std::string(value) + " (from " + name + ")";
    return "/tmp";
}

/// Why a temporary store cannot be made in `dir`: the folder is named, and how to choose another.
std::string temporaryFolderProblem(const std::string &dir, const std::string &why)
{
    return "cannot make a temporary store in the temporary folder " + dir + ": " + why
           + "; set TMPDIR to a folder you can write to (or import into a store of your own with `import --db`)";
}

} // namespace

std::unique_ptr<Store> Store::openTemporary(std::string *error)
{
    // A real file rather than SQLite's private temporary database, so that a second connection can read it
    // on another thread. It is removed when the store is closed.
    static std::atomic<unsigned> counter = 0;
    std::error_code ec;
    const auto dir = std::filesystem::temp_directory_path(ec);
    if (ec) {
        *error = temporaryFolderProblem(temporaryFolderName(), "it is not a folder that exists");
        return nullptr;
    }
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::filesystem::path file = dir / ("latency-explorer-" + std::to_string(stamp) + "-" + std::to_string(counter++) + ".lxdb");
    std::string why;
    temporary_files::track(utf8Name(file));
    auto store = openPath(utf8Name(file), true, Mode::Create, &why);
    if (store) {
        store->m_removeOnClose = true;
    } else {
        temporary_files::release(utf8Name(file)); // no connection is left: it goes now
        *error = temporaryFolderProblem(utf8Name(dir), why);
    }
    return store;
}

ReadConnection Store::openReader() const
{
    sqlite3 *db = nullptr;
    temporary_files::opened(m_fileName); // closed by the ReadConnection
    if (openSqlite(m_fileName, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX) != SQLITE_OK) {
        sqlite3_close_v2(db);
        temporary_files::closed(m_fileName);
        return {};
    }
    hardenConnection(db);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return ReadConnection(db, m_fileName);
}

std::string Store::lastError() const { return sqlite3_errmsg(m_db); }

std::unique_ptr<Store> Store::openPath(const std::string &path, bool temporary, Mode mode, std::string *error, IntegrityCheck check)
{
    std::unique_ptr<Store> store(new Store);
    store->m_path = temporary ? std::string("(temporary)") : path;
    store->m_fileName = path;
    store->m_readOnly = mode == Mode::ReadOnly;
    std::error_code ec;
    // A file this open creates is removed again if the store cannot be made in it (a full disk, a folder
    // that refuses writes); an existing file is never removed.
    const bool creating = mode == Mode::Create && !std::filesystem::exists(utf8Path(path), ec);
    // A temporary store's file stays while any connection has it open (temporary_files.h): counted before
    // the open, so that it cannot go meanwhile.
    const bool ofATemporaryStore = temporary_files::opened(path);
    // Nothing of a temporary store outlives the process, so nothing is gained by waiting for the disk: no
    // fsync at a commit, and the rollback journal (a cancel still rolls an import back) in memory. Set on
    // every connection that writes one (the app imports through a connection opened by the file's name),
    // before the schema is written: its transaction had the disk synced four times, on the UI thread when
    // the app opens a file, and while the last investigation's store was still being written out that took
    // 140-150 ms (a stall of the window each time a second file was opened).
    store->m_disposable = ofATemporaryStore && mode != Mode::ReadOnly;
    const char *noDiskWaits = "PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY;";
    const bool opened = store->openConnection(mode, error) && (!store->m_disposable || store->exec(noDiskWaits, error));
    if (!opened || !store->initialize(mode, check, error)) {
        if (store->m_db)
            sqlite3_close_v2(store->m_db);
        temporary_files::closed(path);
        store->m_db = nullptr;
        if (creating) {
            std::filesystem::remove(utf8Path(path), ec);
            std::filesystem::remove(utf8Path(path + "-journal"), ec);
        }
        return nullptr;
    }
    if (creating)
        rememberTrusted(path);
    return store;
}

bool Store::openConnection(Mode mode, std::string *error)
{
    const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
                                             : SQLITE_OPEN_READWRITE | (mode == Mode::Create ? SQLITE_OPEN_CREATE : 0);
    const auto fail = [&](int rc) {
        *error = "cannot open the store: " + std::string(m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
        std::error_code ec;
        if (mode != Mode::Create && !std::filesystem::exists(utf8Path(m_fileName), ec))
            *error = "cannot open the store: no such file";
        else if (std::filesystem::is_directory(utf8Path(m_fileName), ec))
            *error
                = "cannot open the store: it is a folder; name the store's file in it (a new name makes a new store)";
        return false;
    };
    // A connection that writes has its page writes done beside it (write_behind_vfs.h).
    const bool writeBehind = mode != Mode::ReadOnly;
    int rc = openSqlite(m_fileName, &m_db, flags | SQLITE_OPEN_NOMUTEX, writeBehind);
    if (rc != SQLITE_OK)
        return fail(rc);
    hardenConnection(m_db);
    // Several connections share a file (the UI's, an import's, an analysis'): a writer waits for readers
    // to finish instead of failing with "database is locked".
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    if (mode != Mode::ReadOnly)
        return true;
    // A process killed during an import leaves a hot journal, which a read-only connection cannot play back
    // (SQLITE_READONLY_ROLLBACK). Playing it back restores the last committed state, the investigation as it
    // was before the killed import: a writable connection does that and closes, and the read goes on.
    rc = sqlite3_exec(m_db, "SELECT count(*) FROM main.sqlite_schema", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK || sqlite3_extended_errcode(m_db) != SQLITE_READONLY_ROLLBACK)
        return true; // any other problem is the schema check's to name
    sqlite3_close_v2(m_db);
    m_db = nullptr;
    sqlite3 *recover = nullptr;
    rc = openSqlite(m_fileName, &recover, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX);
    if (rc == SQLITE_OK) {
        hardenConnection(recover);
        sqlite3_busy_timeout(recover, kBusyTimeoutMs);
        rc = sqlite3_exec(recover, "SELECT count(*) FROM main.sqlite_schema", nullptr, nullptr, nullptr);
    }
    const std::string why = recover ? sqlite3_errmsg(recover) : sqlite3_errstr(rc);
    sqlite3_close_v2(recover);
    if (rc != SQLITE_OK) {
        *error = "an import into this store was interrupted, and its journal (the file beside it ending in -journal)"
                 " cannot be played back here: " + why;
        return false;
    }
    rc = openSqlite(m_fileName, &m_db, flags | SQLITE_OPEN_NOMUTEX, writeBehind);
    if (rc != SQLITE_OK)
        return fail(rc);
    hardenConnection(m_db);
    sqlite3_busy_timeout(m_db, kBusyTimeoutMs);
    return true;
}

Store::~Store()
{
    // What this process wrote, into a file it trusted, is sound as it is now: the next session need not
    // read it whole again (checked_stores.h). A temporary store is gone; a read-only one was not written.
    const bool wroteTrusted = m_db && !m_readOnly && !m_removeOnClose && isTrusted(m_fileName);
    if (m_db) {
        sqlite3_close_v2(m_db);
        temporary_files::closed(m_fileName);
    }
    if (wroteTrusted)
        rememberChecked(m_fileName);
    if (m_removeOnClose)
        temporary_files::release(m_fileName); // gone once the last reader of it closes (temporary_files.h)
}

bool Store::exec(const char *sql, std::string *error)
{
    char *message = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &message) == SQLITE_OK)
        return true;
    if (error)
        *error = message ? message : "unknown SQLite error";
    sqlite3_free(message);
    return false;
}

bool Store::initialize(Mode mode, IntegrityCheck check, std::string *error)
{
    // A large page cache and in-memory temporaries: bulk loads and index builds are this store's work.
    // The page cache is kept small: a bulk load appends, and a larger cache measured slower (more fresh
    // memory to fault in, 128 MiB: 3.4 s for a million requests, 16 MiB: 2.5 s). No memory-mapped reads:
    // every mapped page a scan touches counts in the process's resident set, 860 MB of the 2.5 GB peak of a
    // report on 10M requests, and a report read through the page cache measured no slower (1M: 0.68-0.82 s
    // user either way; SQLite's default mmap_size is 0).
    exec("PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;");
    // Older stores read through it, and a merge brings an older store's stamps with it (store_merge.h).
    if (!addStampFunctions(m_db)) {
        *error = "cannot read the store's timestamps: " + lastError();
        return false;
    }
    const SchemaCheck found = checkSchema(m_db, error);
    switch (found) {
    case SchemaCheck::Foreign:
        return false;
    case SchemaCheck::Empty:
        if (mode == Mode::ReadOnly) {
            *error = "not a Latency Explorer investigation: an SQLite database without a single table";
            return false;
        }
        return createSchema(error);
    case SchemaCheck::Valid:
    case SchemaCheck::Version1:
    case SchemaCheck::Version2:
        break;
    }
    const bool version1 = found == SchemaCheck::Version1;
    const bool older = found != SchemaCheck::Valid;
    if (check == IntegrityCheck::Now && !checkIntegrityOnce(m_db, m_fileName, error))
        return false;
    // An older store in a file the system lets this process only read (write-protected, a read-only mount),
    // which SQLite then opens read-only without a word, is read as it is: the migration could not write it.
    if (mode == Mode::ReadOnly || (older && sqlite3_db_readonly(m_db, "main") == 1)) {
        if (!addTemporaryStandIns(error) || (version1 && !addVersion1StandIns(error)) || (older && !addVersion2StandIns(error)))
            return false;
        m_deadRuns = findDeadRuns(*this);
        return true;
    }
    return (!older || migrate(found, error)) && addMissingTables(error) && markInterruptedRuns(*this, error);
}

bool Store::migrate(SchemaCheck from, std::string *error)
{
    // Version 1 lacks the column of the attribute sets: adding it rewrites no row. Version 2's stamps are
    // packed into one column, which writes request_details anew: at 10M requests that is a while, once.
    // Every view is made anew from schema.sql, with this version's objects.
    const std::string fromVersion = from == SchemaCheck::Version1 ? "1" : "2";
    const auto fail = [&](const std::string &why) {
        exec("ROLLBACK");
        exec("PRAGMA legacy_alter_table=OFF");
        *error = "cannot bring the store from schema version " + fromVersion + " to " + std::to_string(kSchemaVersion) + ": " + why;
        return false;
    };
    std::string packed = schemaStatement("request_details");
    if (packed.empty())
        return fail("the schema lacks request_details"); // a build error, which tst_store would show
    packed.replace(packed.find("request_details"), 15, "request_details_packed");
    std::string why;
    // Another process may have migrated it while this one waited for the lock: the version is read again.
    if (!exec("BEGIN IMMEDIATE", &why))
        return fail(why);
    Statement version(m_db, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (version.step() == SQLITE_ROW && columnText(version.get(), 0) == std::to_string(kSchemaVersion)) {
        version.reset();
        return exec("COMMIT", &why) || fail(why);
    }
    version.reset();
    Statement indexed(m_db, "SELECT count(*) FROM sqlite_schema WHERE name = 'request_details_by_id_hash'");
    const bool hadIdIndex = indexed.step() == SQLITE_ROW && sqlite3_column_int(indexed.get(), 0) > 0;
    indexed.reset();
    // The legacy rename: a view the user made over request_details (or over a view of ours, dropped here
    // and made anew below) would otherwise fail the rename's check of every view, and with it the
    // migration, at every open for writing. Renamed back, the name finds the new table again.
    const std::string sql = std::string("PRAGMA legacy_alter_table=ON;")
                            + (from == SchemaCheck::Version1 ? "ALTER TABLE request_details ADD COLUMN attribute_set INTEGER;" : "")
                            + "DROP VIEW IF EXISTS request_attributes_json; DROP VIEW IF EXISTS request_attributes;"
                              " DROP VIEW IF EXISTS requests_readable; DROP VIEW IF EXISTS join_unmatched_readable;"
                            + packed + ";"
                            + "INSERT INTO request_details_packed SELECT request_id, source_id, id_hash, source_line, "
                            + kPackedStampsOfColumns + ", attributes, attribute_set FROM request_details ORDER BY request_id;"
                              "DROP TABLE request_details; ALTER TABLE request_details_packed RENAME TO request_details;"
                            + (hadIdIndex ? "CREATE INDEX request_details_by_id_hash ON request_details(id_hash);" : "")
                            + kSchemaSql + "UPDATE meta SET value = '" + std::to_string(kSchemaVersion)
                            + "' WHERE key = 'schema_version'; COMMIT; PRAGMA legacy_alter_table=OFF;";
    return exec(sql.c_str(), &why) || fail(why);
}

bool Store::addVersion2StandIns(std::string *error)
{
    // A name in a query, or in a temporary view, is looked for in temp first: the readers and the stand-in
    // of request_timestamps find this view. The views of the file itself still read main's table.
    const std::string sql = std::string("CREATE TEMP VIEW IF NOT EXISTS request_details AS SELECT *, ") + kPackedStampsOfColumns
                            + " AS stamps FROM main.request_details;";
    return exec(sql.c_str(), error) && addTemporaryCopy("request_timestamps", error);
}

bool Store::addVersion1StandIns(std::string *error)
{
    // The view of schema.sql reads the column version 1 lacks: its stand-in reads the rows' own attributes.
    return addTemporaryCopy("attribute_sets", error)
        && exec("CREATE TEMP VIEW IF NOT EXISTS request_attributes_json AS SELECT request_id, attributes FROM main.request_details;",
                error);
}

bool Store::createSchema(std::string *error)
{
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string meta = "INSERT INTO meta VALUES ('schema_version','" + std::to_string(kSchemaVersion)
                             + "'),('application','Latency Explorer " LX_VERSION "'),('created_at_ns','"
                             + std::to_string(now) + "');";
    std::string why;
    // 8 KiB pages, not SQLite's 4 KiB: an import writes every page once, in half the system calls and page
    // splits (1M requests imported in 0.92x the time, median of 9 paired runs; 16 KiB measured 0.99x).
    exec("PRAGMA page_size=8192");
    if (!exec("BEGIN", &why) || !exec(kSchemaSql, &why) || !exec(meta.c_str(), &why) || !exec("COMMIT", &why)) {
        exec("ROLLBACK");
        *error = "cannot create the store: " + why;
        return false;
    }
    return true;
}

bool Store::addMissingTables(std::string *error)
{
    // Tables added to version 1 later (request_joins, join_unmatched, request_columns) are created in a store
    // made before them. Every statement of the schema is idempotent; it runs only when one is missing, so that opening
    // a current store never waits for a write lock held by an import.
    Statement check(m_db, "SELECT count(*) FROM sqlite_master WHERE name IN ('request_joins', 'join_unmatched_readable',"
                          " 'request_columns')");
    if (check.step() == SQLITE_ROW && sqlite3_column_int(check.get(), 0) == 3)
        return true;
    std::string why;
    if (!exec("BEGIN", &why) || !exec(kSchemaSql, &why) || !exec("COMMIT", &why)) {
        exec("ROLLBACK");
        *error = "cannot add the tables of this version to the store: " + why;
        return false;
    }
    return true;
}

bool Store::addTemporaryStandIns(std::string *error)
{
    // A read-only store made before the join's tables or the column chunks: empty temporary tables of the
    // same definition stand in for them (a name not in main is found in temp), so that the queries need not ask.
    for (const char *name : {"request_joins", "join_unmatched", "join_unmatched_readable", "request_columns"}) {
        Statement exists(m_db, "SELECT count(*) FROM main.sqlite_schema WHERE name = ?");
        exists.bindText(1, name);
        if (exists.step() == SQLITE_ROW && sqlite3_column_int(exists.get(), 0) > 0)
            continue;
        if (!addTemporaryCopy(name, error))
            return false;
    }
    return true;
}

std::string Store::schemaStatement(const char *name)
{
    const std::string_view schema = kSchemaSql;
    const std::string table = std::string("CREATE TABLE IF NOT EXISTS ") + name + " (";
    const std::string view = std::string("CREATE VIEW IF NOT EXISTS ") + name + " AS";
    std::size_t at = schema.find(table);
    if (at == std::string_view::npos)
        at = schema.find(view);
    if (at == std::string_view::npos)
        return {};
    // The statement ends at its first ';' outside a comment (the comments of the columns have some).
    for (std::size_t i = at; i < schema.size(); ++i) {
        if (schema.compare(i, 2, "--") == 0)
            i = std::min(schema.find('\n', i), schema.size());
        else if (schema[i] == ';')
            return std::string(schema.substr(at, i - at));
    }
    return {};
}

bool Store::addTemporaryCopy(const char *name, std::string *error)
{
    std::string sql = schemaStatement(name);
    if (sql.empty()) {
        *error = std::string("the schema lacks ") + name; // a build error, which tst_store would show
        return false;
    }
    sql.replace(0, 6, "CREATE TEMP");
    return exec(sql.c_str(), error);
}

bool Store::saveAs(const std::string &path, std::string *error)
{
    // VACUUM INTO writes a compact, consistent copy in one pass; the path is bound, never spliced into SQL.
    Statement vacuum(m_db, "VACUUM INTO ?");
    vacuum.bindText(1, path);
    if (vacuum.step() != SQLITE_DONE) {
        *error = sqlite3_errmsg(m_db);
        return false;
    }
    return true;
}

bool Store::ensureIndexes(std::string *error)
{
    return ensureIdIndex(error) && exec("CREATE INDEX IF NOT EXISTS requests_by_start ON requests(start_ns);", error);
}

bool Store::ensureIdIndex(std::string *error)
{
    return exec("CREATE INDEX IF NOT EXISTS request_details_by_id_hash ON request_details(id_hash);", error);
}

} // namespace lx
