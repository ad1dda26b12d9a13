// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

/// \file store_trust.h
/// What a store file must be before anything reads it: an investigation comes from anywhere (a colleague's
/// dump, a ticket's attachment), so its schema is checked against this version's, never trusted.
///
/// The rules, applied by Store on every open (docs/ARCHITECTURE.md, "Opening a store"):
/// - every connection is defensive (SQLITE_DBCONFIG_DEFENSIVE), trusts no function a schema names
///   (trusted_schema=OFF) and runs no trigger: this application makes none;
/// - the objects of schema.sql are there with their type (a view named `requests` is refused: a recursive
///   one would hang a scan) and their tables have exactly this version's columns; a store with a trigger
///   is refused; the schema version is read strictly;
/// - a file not made by this process is checked once per session with `PRAGMA quick_check`, unless it is
///   unchanged since this application checked or wrote it in an earlier session (checked_stores.h).

struct sqlite3;

namespace lx {

/// Makes a fresh connection safe to point at a foreign file: defensive mode, no trusted schema, no triggers.
void hardenConnection(sqlite3 *db);

/// The schema version as meta stores it: a decimal integer and nothing else; nullopt for "1abc", "-1",
/// "99999999999999999999" or empty.
std::optional<int> parseSchemaVersion(std::string_view text);

/// The outcome of comparing a file's schema with this version's.
enum class SchemaCheck {
    Valid,     ///< an investigation of this version
    Version1,  ///< an investigation of version 1, before the attribute sets: migrated or read as it is
    Version2,  ///< an investigation of version 2, its stamps in eight columns: migrated or read as it is
    Empty,     ///< an SQLite database without a single object (a new file, or one SQLite made empty)
    Foreign,   ///< not an investigation of this version: `why` says what is wrong
};

/// Compares the objects of the store on `db` with schema.sql: tables with their columns in order, the
/// views by type, no trigger, a meta table with a valid schema version. `why` is a sentence for the user
/// ("not a Latency Explorer investigation: table requests lacks column e2e_ns").
SchemaCheck checkSchema(sqlite3 *db, std::string *why);

/// The objects that version 1 gained later (the join's tables and view, the column chunks): a store made before them lacks
/// them and is still valid; a writable open adds them, a read-only one makes empty temporary stand-ins.
bool isLaterAddition(std::string_view name);

/// Runs `PRAGMA quick_check` unless this process made or checked the file already; false with a sentence
/// naming the damage. `fileName` is the file SQLite opened.
bool checkIntegrityOnce(sqlite3 *db, const std::string &fileName, std::string *why);

/// True when this process made or checked `fileName` already: it needs no check in this session.
bool isTrusted(const std::string &fileName);

/// isTrusted(), or the file is unchanged since an earlier session found it sound or wrote it
/// (checked_stores.h), which makes it trusted for this session too.
bool knownSound(const std::string &fileName);

/// Remembers that this process made `fileName` (a new store): it needs no check in this session.
void rememberTrusted(const std::string &fileName);

} // namespace lx
