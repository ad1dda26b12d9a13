// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file sqlite_open.h
/// Every connection the core opens goes through openSqlite(), so that the library is set up for this
/// program once, before its first connection (sqlite3_config() is refused after that).

struct sqlite3;

namespace lx {

/// sqlite3_open_v2() of `fileName` (UTF-8) with `flags`, after setting the library up once: no counts of
/// its memory (SQLITE_CONFIG_MEMSTATUS), which nothing here reads and which every allocation of every
/// connection updated under one process-wide mutex (an import: 0.97x the time, median of 7 paired runs).
/// `writeBehind`: through the write-behind VFS (write_behind_vfs.h), for a connection that writes a store.
int openSqlite(const std::string &fileName, sqlite3 **db, int flags, bool writeBehind = false);

} // namespace lx
