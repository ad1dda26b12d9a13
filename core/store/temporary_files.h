// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file temporary_files.h
/// When a temporary store's file leaves the disk. Removing a file that a connection still has open only
/// takes its name away: its blocks and cached pages are freed when the last descriptor closes, and SQLite
/// closes a descriptor holding a process-wide mutex that every other open of a database waits for. The
/// app's reader threads often close last: freeing a store of 1M requests (370 MB) there took 110-150 ms,
/// while the window's thread, creating the next investigation's store, waited on that mutex. So a
/// temporary store's file is removed once no connection of this process has it open, on a thread of its
/// own, outside SQLite; at the end of the process, whatever is left is removed there and then. A file the
/// system refuses to remove (Windows, while something holds it open) is tried again then.

namespace lx::temporary_files {

/// `file` is a temporary store's: removed once released and closed by every connection.
void track(const std::string &file);
/// A connection to `file` is opened (called before the open, so that the file cannot go meanwhile): true
/// when `file` is a temporary store's, still in use (nothing is counted otherwise).
bool opened(const std::string &file);
/// That connection closed, or failed to open.
void closed(const std::string &file);
/// The store is done with `file` (its own connection closed): removed, with its journal, when the last
/// connection to it closes.
void release(const std::string &file);
/// Returns once every file released and closed is gone (tests).
void waitForRemovals();

} // namespace lx::temporary_files
