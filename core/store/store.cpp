// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/store.h"

#include "schema_sql.h"
#include "store/sqlite_util.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>

namespace lx {

namespace {
constexpr int kBusyTimeoutMs = 30000;
}

std::unique_ptr<Store> Store::open(const std::string &path, std::string *error)
{
    return openPath(path, false, true, error);
}

std::unique_ptr<Store> Store::openExisting(const std::string &path, std::string *error)
{
    return openPath(path, false, false, error);
}

std::unique_ptr<Store> Store::openTemporary(std::string *error)
{
    // A real file rather than SQLite's private temporary database, so that a second connection can read it
    // on another thread. It is removed when the store is closed.
    static std::atomic<unsigned> counter = 0;
    std::error_code ec;
    const auto dir = std::filesystem::temp_directory_path(ec);
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::filesystem::path file = (ec ? std::filesystem::path(".") : dir)
                                       / ("latency-explorer-" + std::to_string(stamp) + "-" + std::to_string(counter++) + ".lxdb");
    auto store = openPath(file.string(), true, true, error);
    if (store) {
        store->m_removeOnClose = true;
        // Nothing of a temporary store outlives the process, so nothing is gained by waiting for the disk:
        // no fsync at a commit, and the rollback journal (a cancel still rolls an import back) in memory.
        store->exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=MEMORY;");
    }
    else
        std::filesystem::remove(file, ec);
    return store;
}

ReadConnection Store::openReader() const
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(m_fileName.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return {};
    }
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return ReadConnection(db, true);
}

std::string Store::lastError() const { return sqlite3_errmsg(m_db); }

std::unique_ptr<Store> Store::openPath(const std::string &path, bool temporary, bool create, std::string *error)
{
    std::unique_ptr<Store> store(new Store);
    store->m_path = temporary ? std::string("(temporary)") : path;
    store->m_fileName = path;
    const int rc = sqlite3_open_v2(path.c_str(), &store->m_db,
                                   SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        *error = "cannot open the store: " + std::string(store->m_db ? sqlite3_errmsg(store->m_db) : sqlite3_errstr(rc));
        return nullptr;
    }
    // Several connections share a file (the UI's, an import's, an analysis'): a writer waits for readers
    // to finish instead of failing with "database is locked".
    sqlite3_busy_timeout(store->m_db, kBusyTimeoutMs);
    if (!store->initialize(error))
        return nullptr;
    return store;
}

Store::~Store()
{
    if (m_db)
        sqlite3_close_v2(m_db);
    if (m_removeOnClose) {
        std::error_code ec;
        std::filesystem::remove(m_fileName, ec);
        std::filesystem::remove(m_fileName + "-journal", ec);
    }
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

bool Store::initialize(std::string *error)
{
    // A large page cache and in-memory temporaries: bulk loads and index builds are this store's work.
    // The page cache is kept small: a bulk load appends, and a larger cache measured slower (more fresh
    // memory to fault in, 128 MiB: 3.4 s for a million requests, 16 MiB: 2.5 s). No memory-mapped reads:
    // every mapped page a scan touches counts in the process's resident set, 860 MB of the 2.5 GB peak of a
    // report on 10M requests, and a report read through the page cache measured no slower (1M: 0.68-0.82 s
    // user either way; SQLite's default mmap_size is 0).
    exec("PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;");
    std::string why;
    Statement version(m_db, "SELECT value FROM meta WHERE key='schema_version'");
    if (version.valid()) {
        if (version.step() != SQLITE_ROW) {
            *error = "not a Latency Explorer investigation (no schema version)";
            return false;
        }
        const int found = sqlite3_column_int(version.get(), 0);
        if (found != kSchemaVersion) {
            *error = "investigation has schema version " + std::to_string(found) + ", this version reads "
                     + std::to_string(kSchemaVersion);
            return false;
        }
        return addMissingTables(error);
    }
    // No meta table: a new file, or some other SQLite database.
    Statement tables(m_db, "SELECT count(*) FROM sqlite_master");
    if (!tables.valid()) {
        *error = "not a Latency Explorer investigation: " + std::string(sqlite3_errmsg(m_db));
        return false;
    }
    if (tables.step() == SQLITE_ROW && sqlite3_column_int(tables.get(), 0) > 0) {
        *error = "not a Latency Explorer investigation (an SQLite database without its tables)";
        return false;
    }
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string meta = "INSERT INTO meta VALUES ('schema_version','" + std::to_string(kSchemaVersion)
                             + "'),('application','Latency Explorer " LX_VERSION "'),('created_at_ns','"
                             + std::to_string(now) + "');";
    if (!exec("BEGIN", &why) || !exec(kSchemaSql, &why) || !exec(meta.c_str(), &why) || !exec("COMMIT", &why)) {
        *error = "cannot create the store: " + why;
        return false;
    }
    return true;
}

bool Store::addMissingTables(std::string *error)
{
    // Tables added to version 1 later (request_joins, join_unmatched) are created in a store made before
    // them. Every statement of the schema is idempotent; it runs only when one is missing, so that opening
    // a current store never waits for a write lock held by an import.
    Statement check(m_db, "SELECT count(*) FROM sqlite_master WHERE name IN ('request_joins', 'join_unmatched_readable')");
    if (check.step() == SQLITE_ROW && sqlite3_column_int(check.get(), 0) == 2)
        return true;
    std::string why;
    if (!exec("BEGIN", &why) || !exec(kSchemaSql, &why) || !exec("COMMIT", &why)) {
        exec("ROLLBACK");
        *error = "cannot add the join tables to the store: " + why;
        return false;
    }
    return true;
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
