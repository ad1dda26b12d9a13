// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file checked_stores.h
/// The store files found sound by a `PRAGMA quick_check`, or written by this application, remembered across
/// sessions by their identity (platform/file_identity.h): an unchanged file is not read whole again in the
/// next session (the check of a million requests takes as long as their report). A file copied, edited,
/// garbled or written by anything else has another identity and is checked as before (store_trust.h).
///
/// The list is a small text file, one identity a line, the newest last: `LX_CHECKED_STORES_FILE` when set
/// (empty: none is kept, which the test suites use), else `checked-stores` in the user's cache folder
/// (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows,
/// each in `latency-explorer/`). Losing it costs a check, nothing else.

namespace lx {

/// True when the file at \a fileName, as it is now, was remembered sound.
bool checkedBefore(const std::string &fileName);

/// Remembers the file at \a fileName, as it is now, as sound; \a identityBefore, when given, is the identity
/// it had when its check began: a file that changed meanwhile is not remembered.
void rememberChecked(const std::string &fileName, const std::string &identityBefore = {});

/// The list's file; empty when none is kept.
std::string checkedStoresFile();

} // namespace lx
