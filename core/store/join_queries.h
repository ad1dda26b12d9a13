// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/request_join.h"

#include <functional>
#include <string>

/// \file join_queries.h
/// The SQL side of the client/server join of store/request_join.h. readJoinSummary() and listUnmatched(),
/// declared there, are defined with it in join_queries.cpp: they only read the join's tables.

namespace lx {

class Store;

/// Pairs the client and server records of the store and writes the joined requests, in one transaction
/// (docs/JOIN.md); `joining` is called before the long part. False with the reason, the store as before.
bool runClientServerJoin(Store &store, std::string *error, const std::function<void()> &joining);

} // namespace lx
