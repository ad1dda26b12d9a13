// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file read_connection.h
/// A connection to read an investigation on: what the widgets hand to RequestOrder::build(), RowFetcher,
/// fetchRows() and writeCsv() instead of an SQLite handle, so that no header outside core/store names one.

#include <string>

struct sqlite3;

namespace lx {

class Store;

/// Either a read-only connection of its own to the store's file (Store::openReader(): for a scan on a
/// worker thread, closed when this object goes, on whichever thread that is), or the store's own connection
/// borrowed (Store::connection(): for reads on the thread that owns the store, which must outlive it).
/// Move-only: one owner closes an owned connection once.
class ReadConnection {
public:
    ReadConnection() = default; ///< no connection: valid() is false
    ~ReadConnection();
    ReadConnection(ReadConnection &&other) noexcept;
    ReadConnection &operator=(ReadConnection &&other) noexcept;
    ReadConnection(const ReadConnection &) = delete;
    ReadConnection &operator=(const ReadConnection &) = delete;

    /// False when the store had no file of its own to open a connection to, or SQLite refused.
    bool valid() const { return m_db != nullptr; }
    explicit operator bool() const { return valid(); }

    /// The handle, for core/store's SQL only.
    sqlite3 *db() const { return m_db; }

private:
    friend class Store;
    /// The store's own connection, borrowed.
    explicit ReadConnection(sqlite3 *db) : m_db(db) {}
    /// A connection of its own to `file`, counted as open by the caller (temporary_files.h): this object
    /// counts it closed.
    ReadConnection(sqlite3 *db, std::string file);
    void close();

    sqlite3 *m_db = nullptr;
    bool m_owned = false; ///< closed by this object; a borrowed one belongs to its Store
    std::string m_file;   ///< an owned connection's file
};

} // namespace lx
