// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file file_lock_probe.h
/// Whether another process is writing an SQLite database, asked of the file system without waiting.

namespace lx {

/// True when some process holds the write lock of the file (SQLite's RESERVED lock: one byte after 2^30,
/// in the lock-byte page of the file format, locked by fcntl on POSIX and by LockFileEx on Windows); also
/// true when it cannot tell (the file cannot be opened). Ask only while this process holds no lock on the
/// file: on POSIX, closing the probe's descriptor drops every lock the process holds on it, and on Windows
/// a lock of this process's own connection answers as held. `fileName` is UTF-8.
bool writeLockHeldElsewhere(const std::string &fileName);

} // namespace lx
