// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/id_hash.h" // hashRequestId(): the key of request_details.id_hash
#include "store/read_connection.h"
#include "store/store_trust.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// \file store.h
/// One investigation in one SQLite file (.lxdb). The schema is in schema.sql, the single documented
/// place for it. Only core talks SQL: the widgets and the CLI ask the store and the analysis.

struct sqlite3;

namespace lx {

class HeldRows;

/// The schema version this one writes (schema.sql). Versions 1 (before the attribute sets) and 2 (the stamps
/// in eight columns) are read as they are, and migrated when opened for writing (migrate()).
inline constexpr int kSchemaVersion = 3;

/// When a read-only open runs the once-a-session `PRAGMA quick_check` (store_trust.h): before it returns,
/// or never (the caller runs a BackgroundIntegrityCheck).
enum class IntegrityCheck { Now, Deferred };

class Store {
public:
    /// Opens an investigation to write to, creating it when the file does not exist. Refuses a file that is
    /// not an investigation, has another schema version or is damaged, saying so (store_trust.h); a file it
    /// created is removed again when it fails. Imports that a dead process left `running` are marked
    /// interrupted (import_runs.h).
    static std::unique_ptr<Store> open(const std::string &path, std::string *error);
    /// open(), refusing a store that SQLite could only open to read (isWritable()): what a command that
    /// writes into it needs, rather than one "cannot write" a file and a join.
    static std::unique_ptr<Store> openWritable(const std::string &path, std::string *error);
    /// Opens an investigation that must exist already (a background job's own connection): never creates one.
    static std::unique_ptr<Store> openExisting(const std::string &path, std::string *error);
    /// Opens an investigation to read only (report, compare, plot, a merge's source): the file is opened
    /// read-only, so nothing is ever written to it; a store made before the join's tables gets empty
    /// temporary ones. Refuses what open() refuses; with IntegrityCheck::Deferred all but the damage that
    /// `PRAGMA quick_check` finds, which the caller then checks beside its reads (integrity_check.h) and
    /// must await before it says anything of what it read.
    static std::unique_ptr<Store> openReadOnly(const std::string &path, std::string *error,
                                               IntegrityCheck check = IntegrityCheck::Now);
    /// A private on-disk store that disappears when closed: what `report FILE...` imports into.
    static std::unique_ptr<Store> openTemporary(std::string *error);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    sqlite3 *db() const { return m_db; }
    const std::string &path() const { return m_path; }
    /// The file SQLite opened (for a temporary store, its file in the temp folder).
    const std::string &fileName() const { return m_fileName; }
    bool isTemporary() const { return m_removeOnClose; }
    /// A connection to a temporary store's file, this one or another opened by its name: nothing of it
    /// outlives the process, so it never waits for the disk (no fsync, the journal in memory).
    bool isDisposable() const { return m_disposable; }
    /// Opened with openReadOnly(): every write fails.
    bool isReadOnly() const { return m_readOnly; }
    /// Whether the file can be written: not opened read-only, and not fallen back to reading by SQLite, which
    /// open() lets it do (a store on a read-only file system, or without write permission, is still shown).
    bool isWritable() const;
    /// Read-only: the import runs found `running` at open with no process importing (import_runs.h).
    const std::vector<std::int64_t> &deadRuns() const { return m_deadRuns; }

    /// Runs SQL without results; false and the message on failure.
    bool exec(const char *sql, std::string *error = nullptr);

    /// The message of the last failure on the store's own connection (sqlite3_errmsg()).
    std::string lastError() const;

    /// A second, read-only connection to the same file, for a scan on another thread; not valid() when the
    /// store has no file of its own. It closes itself.
    ReadConnection openReader() const;
    /// The store's own connection, borrowed, for reads on the thread that owns the store: what the UI
    /// thread's views read pages on. This store must outlive it.
    ReadConnection connection() const { return ReadConnection(m_db); }

    /// Writes a consistent copy of the whole investigation to `path` (which must not exist): "Save as".
    bool saveAs(const std::string &path, std::string *error);

    /// The requests an import held in memory instead of writing them (held_rows.h): ids 1..n, read by the
    /// scans as if they were the `requests` table, which is empty. Only for a store read once, by a report.
    void holdRows(std::shared_ptr<const HeldRows> rows) { m_heldRows = std::move(rows); }
    const HeldRows *heldRows() const { return m_heldRows.get(); }

    /// Creates the look-up indexes; done after bulk loads, since maintaining them row by row costs more.
    bool ensureIndexes(std::string *error = nullptr);
    /// Only the index by id hash (request_details_by_id_hash): what look-ups and joins by request id need.
    bool ensureIdIndex(std::string *error = nullptr);

private:
    Store() = default;
    enum class Mode { Create, Existing, ReadOnly };
    static std::unique_ptr<Store> openPath(const std::string &path, bool temporary, Mode mode, std::string *error,
                                           IntegrityCheck check = IntegrityCheck::Now);
    bool openConnection(Mode mode, std::string *error);
    bool initialize(Mode mode, IntegrityCheck check, std::string *error);
    bool createSchema(std::string *error);
    bool addMissingTables(std::string *error);
    bool addTemporaryStandIns(std::string *error);
    /// Creates `name` (a table or view of schema.sql) as a temporary object of the same definition.
    bool addTemporaryCopy(const char *name, std::string *error);
    /// Makes a version 1 or 2 store one of this version, in one transaction: request_details is written
    /// anew with its stamps packed (packed_stamps.h), and version 1 gains the column of the attribute sets.
    bool migrate(SchemaCheck from, std::string *error);
    /// What a version 1 store opened read-only lacks, as temporary objects: no attribute set, the attributes
    /// of its rows.
    bool addVersion1StandIns(std::string *error);
    /// What a version 1 or 2 store opened read-only lacks: its details rows as a temporary view of the same
    /// name (found before main's) that also packs their stamps.
    bool addVersion2StandIns(std::string *error);
    /// The statement of schema.sql that creates the table or view `name`, without its ';'; empty if none.
    static std::string schemaStatement(const char *name);

    sqlite3 *m_db = nullptr;
    std::string m_path;
    std::string m_fileName;       ///< the file SQLite opened
    bool m_removeOnClose = false; ///< a temporary store: its file goes when it is closed
    bool m_disposable = false;    ///< isDisposable()
    bool m_readOnly = false;
    std::vector<std::int64_t> m_deadRuns;
    std::shared_ptr<const HeldRows> m_heldRows;
};

} // namespace lx
