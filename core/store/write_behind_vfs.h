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
/// queued write is in the file, but for the few that neither read nor change the file: the sector size,
/// the device's characteristics, and the size hint SQLite gives at every spill of its cache (unless a
/// chunk size or a mapping makes the hint change the file). Writes go in the order they came. So no read
/// is ever served from the queue, a sync covers every write before it, and another connection, which can
/// only read after this one unlocks, finds every write there. A failed write is kept until a call that
/// SQLite treats as the end of its transaction returns it: a write, a sync, FCNTL_SYNC (asked for before
/// every commit ends), the size or a truncation return it as it came (SQLITE_FULL: "database or disk is full"); a read,
/// a lock or a mapping as an I/O error, since SQLite may undo one statement alone for SQLITE_FULL and go on; the other
/// file controls and an unlock, whose results SQLite may ignore, leave it for the next. So the transaction is rolled
/// back, as for a failed write at once. A crash loses at most the writes still queued: as if the process had stopped a
/// moment earlier, which the rollback journal is made for. Journals and temporary files are the default VFS's own,
/// untouched; a database in write-ahead-log mode (or at a checkpoint) writes through.

namespace lx {

/// The name to open a writable store's connection with, or nullptr for the default VFS: when the VFS could
/// not be registered, or the default VFS is no longer the one it was put in front of (a test's).
const char *writeBehindVfsName();

/// Registers a write-behind VFS named `name` in front of `under` (not as the default) and returns it, or
/// nullptr. It is never unregistered or freed. writeBehindVfsName() makes the program's one; a test makes
/// one in front of a VFS of its own.
sqlite3_vfs *makeWriteBehindVfs(sqlite3_vfs *under, const char *name);

/// The default VFS's file under `file` when `file` is one of this VFS's main databases, else `file` itself:
/// for what needs SQLite's own file (its descriptor, early_writeback.h).
sqlite3_file *fileUnderWriteBehind(sqlite3_file *file);

/// The default VFS this one is in front of when `vfs` is this one, else `vfs` itself.
const sqlite3_vfs *vfsUnderWriteBehind(const sqlite3_vfs *vfs);

} // namespace lx
