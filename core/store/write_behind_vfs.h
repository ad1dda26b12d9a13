// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

struct sqlite3_file;
struct sqlite3_vfs;

/// \file write_behind_vfs.h
/// A VFS in front of SQLite's default one for the connections that write a store: a main database's page
/// writes are gathered into runs of consecutive pages and written by a thread of their own, while the
/// connection goes on. An import is bounded by its one writing thread, and a tenth to two fifths of that
/// thread's time was the kernel taking SQLite's pages into the page cache, a page at a time (measured in
/// docs/ARCHITECTURE.md, "Memory and time").
///
/// What the connection sees is what it would see without it: every call other than a page write (a read,
/// the file's size, a sync, a truncation, a lock or unlock, a file control) first waits until every
/// queued write is in the file. Writes go in the order they came. So no read is ever served from the
/// queue, a sync covers every write before it, and another connection, which can only read after this one
/// unlocks, finds every write there. A failed write is returned by the connection's next call on the file,
/// which SQLite then handles as a failure of its transaction (rolled back, as for a failed write at once).
/// A crash loses at most the writes still queued: as if the process had stopped a moment earlier, which
/// the rollback journal is made for. Journals and temporary files are the default VFS's own, untouched.

namespace lx {

/// The name to open a writable store's connection with, or nullptr for the default VFS: when the VFS could
/// not be registered, or the default VFS is no longer the one it was put in front of (a test's).
const char *writeBehindVfsName();

/// The default VFS's file under `file` when `file` is one of this VFS's main databases, else `file` itself:
/// for what needs SQLite's own file (its descriptor, early_writeback.h).
sqlite3_file *fileUnderWriteBehind(sqlite3_file *file);

/// The default VFS this one is in front of when `vfs` is this one, else `vfs` itself.
const sqlite3_vfs *vfsUnderWriteBehind(const sqlite3_vfs *vfs);

} // namespace lx
