// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// \file early_writeback.h
/// Has the system start writing a store's changed pages to the disk while the import goes on writing it.
/// An import writes the whole store in one transaction, whose commit waits for the disk (fsync): at ten
/// million requests that was gigabytes written at the very end, where nothing else could go on meanwhile.
/// Started as the import goes, the writing overlaps the parse. Linux has the call (sync_file_range, which
/// starts the writing without waiting for it to finish); elsewhere this does nothing and the commit waits
/// as before.
///
/// It works on SQLite's own descriptor of the file, never one of its own: closing any descriptor of a
/// file drops every POSIX lock the process holds on it (file_lock_probe.h), those of the store's other
/// connections included.

struct sqlite3;

namespace lx {

class EarlyWriteback {
public:
    /// For the main database of `db`; does nothing when its descriptor cannot be had (not Linux, not
    /// SQLite's unix VFS, an in-memory database).
    explicit EarlyWriteback(sqlite3 *db);

    /// Starts writing the pages of the file changed so far that are not being written already.
    void start() const noexcept;
    /// Whether start() does anything: SQLite's descriptor of the file was found.
    bool active() const { return m_fd >= 0; }

private:
    int m_fd = -1; ///< SQLite's, never closed here; -1 off Linux
};

} // namespace lx
