// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

/// \file store_merge.h
/// Brings another investigation's requests into a store, so that several stores (and trace files) can
/// form one investigation without re-parsing anything.

namespace lx {

class Store;

/// Copies every import run, request, token-time row, rejection and join of the store at `path` into `into`,
/// renumbering their ids, then joins client and server records anew (request_join.h). False and the reason
/// when `path` is not a readable investigation, or when `into` holds any of its import runs already (the
/// same file, started at the same nanosecond, with the same counts: a store merged before, or one made from
/// this investigation), since its requests would then be counted twice; `*alreadyIn` (when given) is then
/// true if it holds every one of them, and the reason says so.
bool mergeStore(Store &into, const std::string &path, std::string *error, bool *alreadyIn = nullptr);

/// True when the file is a regular file that starts with SQLite's header ("SQLite format 3"); anything else
/// (a pipe, a device) is not opened.
bool isSqliteFile(const std::string &path);

} // namespace lx
