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
/// when `path` is not a readable investigation.
bool mergeStore(Store &into, const std::string &path, std::string *error);

/// True when the file is a regular file that starts with SQLite's header ("SQLite format 3"); anything else
/// (a pipe, a device) is not opened.
bool isSqliteFile(const std::string &path);

} // namespace lx
