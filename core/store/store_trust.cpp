// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/store_trust.h"

#include "platform/file_identity.h"
#include "store/checked_stores.h"

#include "schema_sql.h"
#include "store/sqlite_open.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "platform/utf8_path.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <vector>

namespace lx {

namespace {

/// A column as PRAGMA table_info gives it: what a query relies on (name, order, declared type, key).
struct Column {
    std::string name;
    std::string type;
    int pk = 0;
    bool operator==(const Column &) const = default;
};

struct Object {
    std::string type; ///< "table", "view", "index", "trigger"
    std::vector<Column> columns;
};

using Objects = std::map<std::string, Object>; // by lower-case name

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

/// The message of a failed read, with what it means for the user: a damaged file is said to be damaged.
std::string readFailure(sqlite3 *db)
{
    const int code = sqlite3_errcode(db);
    if (code == SQLITE_CORRUPT)
        return "the store is damaged (" + std::string(sqlite3_errmsg(db)) + ")";
    if (code == SQLITE_NOTADB)
        return "not a Latency Explorer investigation: not an SQLite database";
    return "cannot read the store's schema: " + std::string(sqlite3_errmsg(db));
}

/// The tables, views, indexes and triggers of `db` with the tables' columns; false when they cannot be read.
bool readObjects(sqlite3 *db, Objects &objects, std::string *why)
{
    Statement list(db, "SELECT type, name FROM main.sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'");
    if (!list.valid()) {
        *why = readFailure(db);
        return false;
    }
    int rc;
    while ((rc = list.step()) == SQLITE_ROW)
        objects[lower(columnText(list.get(), 1))].type = std::string(columnText(list.get(), 0));
    if (rc != SQLITE_DONE) {
        *why = readFailure(db);
        return false;
    }
    for (auto &[name, object] : objects) {
        if (object.type != "table")
            continue;
        // table_xinfo, not table_info: generated columns too, which a merge's SELECT * would bring along.
        Statement info(db, "SELECT name, type, pk FROM pragma_table_xinfo(?) WHERE schema='main'");
        if (!info.valid()) {
            *why = readFailure(db);
            return false;
        }
        info.bindText(1, name);
        while ((rc = info.step()) == SQLITE_ROW)
            object.columns.push_back({lower(columnText(info.get(), 0)), lower(columnText(info.get(), 1)),
                                      sqlite3_column_int(info.get(), 2)});
        if (rc != SQLITE_DONE) {
            *why = readFailure(db);
            return false;
        }
    }
    return true;
}

/// The objects of schema.sql, made once in a private in-memory database.
const Objects &expectedObjects()
{
    static const Objects expected = [] {
        Objects objects;
        sqlite3 *db = nullptr;
        if (openSqlite(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == SQLITE_OK
            && sqlite3_exec(db, kSchemaSql, nullptr, nullptr, nullptr) == SQLITE_OK) {
            std::string ignored;
            readObjects(db, objects, &ignored);
        }
        sqlite3_close_v2(db);
        return objects;
    }();
    return expected;
}

std::string columnList(const std::vector<Column> &columns)
{
    std::string out;
    for (const Column &c : columns)
        out += (out.empty() ? "" : ", ") + c.name;
    return out;
}

/// Why a table's columns are not those expected; empty when they are.
std::string columnMismatch(const std::string &table, const std::vector<Column> &found, const std::vector<Column> &expected)
{
    for (const Column &want : expected) {
        const auto it = std::find_if(found.begin(), found.end(), [&](const Column &c) { return c.name == want.name; });
        if (it == found.end())
            return "table " + table + " lacks column " + want.name;
        if (it->type != want.type || it->pk != want.pk)
            return "column " + table + "." + want.name + " is declared '" + it->type + (it->pk ? " primary key" : "")
                   + "', this version expects '" + want.type + (want.pk ? " primary key" : "") + "'";
    }
    if (found != expected) // every expected column is there: the others are extra, or the order differs
        return "table " + table + " has the columns (" + columnList(found) + "), this version expects (" + columnList(expected) + ")";
    return {};
}

std::mutex trustedMutex;
std::set<std::string> &trustedFiles()
{
    static std::set<std::string> files;
    return files;
}

std::string fileKey(const std::string &fileName)
{
    std::error_code ec;
    const auto canonical = std::filesystem::weakly_canonical(utf8Path(fileName), ec);
    return ec ? fileName : utf8Name(canonical);
}

} // namespace

void hardenConnection(sqlite3 *db)
{
    // Defensive: no writable_schema, no journal_mode=OFF, no direct writes to the schema's pages. No trusted
    // schema: a view, trigger or default of the file may call no function with side effects. No triggers:
    // schema.sql makes none, so one in a file was planted (and checkSchema() refuses the file anyway).
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
}

std::optional<int> parseSchemaVersion(std::string_view text)
{
    int value = 0;
    const char *end = text.data() + text.size();
    if (text.empty() || text.front() < '0' || text.front() > '9')
        return std::nullopt;
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

namespace {

/// What version 2 added: the attribute sets (attribute_sets.h). A version 1 store lacks them.
bool isVersion2Addition(std::string_view name) { return name == "attribute_sets" || name == "request_attributes_json"; }

/// What version 3 added: the view of the packed stamps (packed_stamps.h).
bool isVersion3Addition(std::string_view name) { return name == "request_timestamps"; }

/// request_details as versions 1 and 2 had it: the eight stamps as columns where version 3 packs them.
std::vector<Column> detailColumnsBeforeVersion3(const std::vector<Column> &columns, bool version1)
{
    std::vector<Column> before;
    for (const Column &c : columns) {
        if (c.name == "attribute_set" && version1) // version 2 added its last column
            continue;
        if (c.name != "stamps") {
            before.push_back(c);
            continue;
        }
        for (const char *stamp : {"t_client_send_ns", "t_server_recv_ns", "t_preprocess_done_ns", "t_sched_ns",
                                  "t_first_token_ns", "t_last_token_ns", "t_server_send_ns", "t_client_recv_ns"}) {
            Column column = c;
            column.name = stamp;
            column.type = "integer";
            before.push_back(column);
        }
    }
    return before;
}

} // namespace

bool isLaterAddition(std::string_view name)
{
    return name == "request_joins" || name == "join_unmatched" || name == "join_unmatched_readable" || name == "request_columns";
}

SchemaCheck checkSchema(sqlite3 *db, std::string *why)
{
    Objects found;
    if (!readObjects(db, found, why))
        return SchemaCheck::Foreign;
    if (found.empty())
        return SchemaCheck::Empty;
    const auto foreign = [&](const std::string &what) {
        *why = "not a Latency Explorer investigation: " + what;
        return SchemaCheck::Foreign;
    };
    for (const auto &[name, object] : found) {
        if (object.type == "trigger")
            return foreign("it holds a trigger (" + name + "), which no investigation has");
    }
    const Objects &expected = expectedObjects();
    const auto meta = found.find("meta");
    if (meta == found.end())
        return foreign("it has no table meta");
    if (meta->second.type != "table")
        return foreign("meta is a " + meta->second.type + ", not a table");
    if (std::string wrong = columnMismatch("meta", meta->second.columns, expected.at("meta").columns); !wrong.empty())
        return foreign(wrong);
    Statement version(db, "SELECT value FROM main.meta WHERE key='schema_version'");
    const int rc = version.valid() ? version.step() : SQLITE_ERROR;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        *why = readFailure(db);
        return SchemaCheck::Foreign;
    }
    if (rc == SQLITE_DONE)
        return foreign("it has no schema version");
    const std::string text(columnText(version.get(), 0));
    const std::optional<int> number = parseSchemaVersion(text);
    if (!number)
        return foreign("its schema version '" + text.substr(0, 40) + "' is not a version number");
    const bool version1 = *number == 1;
    const bool older = *number >= 1 && *number < kSchemaVersion;
    if (*number != kSchemaVersion && !older) {
        *why = "investigation has schema version " + text + ", this version reads 1 to " + std::to_string(kSchemaVersion);
        return SchemaCheck::Foreign;
    }
    for (const auto &[name, want] : expected) {
        const auto it = found.find(name);
        if (it == found.end()) {
            if (isLaterAddition(name) || want.type == "index" || (version1 && isVersion2Addition(name))
                || (older && isVersion3Addition(name)))
                continue;
            return foreign("it has no " + want.type + " " + name);
        }
        if (it->second.type != want.type)
            return foreign(name + " is a " + it->second.type + ", not a " + want.type);
        if (want.type != "table")
            continue;
        const std::vector<Column> columns = older && name == "request_details" ? detailColumnsBeforeVersion3(want.columns, version1)
                                                                               : want.columns;
        if (std::string wrong = columnMismatch(name, it->second.columns, columns); !wrong.empty())
            return foreign(wrong);
    }
    return version1 ? SchemaCheck::Version1 : older ? SchemaCheck::Version2 : SchemaCheck::Valid;
}

bool checkIntegrityOnce(sqlite3 *db, const std::string &fileName, std::string *why)
{
    if (knownSound(fileName))
        return true;
    const std::string before = fileIdentity(fileName).value_or(std::string());
    // quick_check reads every page and checks the b-trees' structure (not the indexes against their tables:
    // that is integrity_check, several times slower). Three problems are enough to name the damage.
    Statement check(db, "PRAGMA main.quick_check(3)");
    std::string problems;
    int rc = check.valid() ? check.step() : SQLITE_ERROR;
    for (; rc == SQLITE_ROW; rc = check.step())
        problems += (problems.empty() ? "" : "; ") + std::string(columnText(check.get(), 0));
    if (rc != SQLITE_DONE) {
        *why = "the store is damaged (" + std::string(sqlite3_errmsg(db)) + ")";
        return false;
    }
    if (problems != "ok") {
        *why = "the store is damaged (SQLite's quick_check: " + problems.substr(0, 400) + ")";
        return false;
    }
    rememberTrusted(fileName);
    if (!before.empty())
        rememberChecked(fileName, before); // the next session need not read it again, unless it changes
    return true;
}

bool knownSound(const std::string &fileName)
{
    if (isTrusted(fileName))
        return true;
    if (!checkedBefore(fileName))
        return false;
    rememberTrusted(fileName);
    return true;
}

bool isTrusted(const std::string &fileName)
{
    std::lock_guard lock(trustedMutex);
    return trustedFiles().count(fileKey(fileName)) > 0;
}

void rememberTrusted(const std::string &fileName)
{
    std::lock_guard lock(trustedMutex);
    trustedFiles().insert(fileKey(fileName));
}

} // namespace lx
