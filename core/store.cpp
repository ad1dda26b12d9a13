// SPDX-License-Identifier: GPL-3.0-or-later
#include "store.h"

#include "schema_sql.h"
#include "sqlite_util.h"

#include <sqlite3.h>

#include <chrono>

namespace lx {

std::uint64_t hashRequestId(std::string_view id)
{
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : id) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::unique_ptr<Store> Store::open(const std::string &path, std::string *error)
{
    return openPath(path, false, error);
}

std::unique_ptr<Store> Store::openTemporary(std::string *error)
{
    // An empty file name gives SQLite's private temporary database, deleted when it is closed.
    return openPath(std::string(), true, error);
}

std::unique_ptr<Store> Store::openPath(const std::string &path, bool temporary, std::string *error)
{
    std::unique_ptr<Store> store(new Store);
    store->m_path = temporary ? std::string("(temporary)") : path;
    const int rc = sqlite3_open_v2(path.c_str(), &store->m_db,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        *error = "cannot open the store: " + std::string(store->m_db ? sqlite3_errmsg(store->m_db) : sqlite3_errstr(rc));
        return nullptr;
    }
    if (!store->initialize(error))
        return nullptr;
    return store;
}

Store::~Store()
{
    if (m_db)
        sqlite3_close_v2(m_db);
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
    exec("PRAGMA cache_size=-131072; PRAGMA temp_store=MEMORY; PRAGMA mmap_size=1073741824;");
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
        return true;
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

bool Store::ensureIndexes(std::string *error)
{
    return exec("CREATE INDEX IF NOT EXISTS requests_by_id_hash ON requests(id_hash);"
                "CREATE INDEX IF NOT EXISTS requests_by_start ON requests(start_ns);"
                "CREATE INDEX IF NOT EXISTS rejected_by_run ON rejected(run_id);",
                error);
}

} // namespace lx
