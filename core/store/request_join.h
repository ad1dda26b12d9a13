// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// \file request_join.h
/// Joins the client records (a benchmark run) and the server records (vLLM spans) of the same requests into
/// one request each, whose network segment is client e2e minus server e2e: the one segment that no server
/// span contains. Matching keys, precedence and the joined request's fields are in docs/JOIN.md.
///
/// The importer runs the join after every import (ImportOptions::joinClientServer) and mergeStore() after
/// every merge, so files opened together are joined without another step. Each join is one transaction:
/// a hash join of the ids in memory, then set-based SQL on row ids; a million client and a million server
/// records join in about 6.5 s of CPU (docs/JOIN.md, "Speed").

namespace lx {

class Store;

/// Which side of a join a record is on.
enum class JoinSide : int {
    Client = 1, ///< measured by a client only: e2e or token times on the client clock, no server segment
    Server = 2, ///< measured by a server: e2e from server receive (scope server or engine)
};

/// How an investigation's client and server records stand.
struct JoinSummary {
    /// True when the investigation holds client and server records (or joined ones): only then are
    /// unmatched records counted; a lone benchmark or a lone trace dump has nothing to join.
    bool active = false;
    std::int64_t matched = 0;    ///< joined requests (each was one client and one server record)
    std::int64_t clientOnly = 0; ///< client records with no server record of the same key
    std::int64_t serverOnly = 0; ///< server records with no client record of the same key
    /// Records left unjoined because their key is shared by several records on one side (the same file
    /// imported twice, a trace id used by several requests): joining one of them would be a guess.
    std::int64_t ambiguous = 0;
};

/// Joins every client record of the store with the server record of the same request. Records joined by an
/// earlier join stay joined; the unmatched ones are listed anew (table join_unmatched). False and the reason
/// when the store cannot be written; the store is then as before. `joining` is called when both sides
/// have records, before the work that takes seconds for millions of them (a progress bar can say so).
bool joinClientServer(Store &store, JoinSummary *summary, std::string *error, const std::function<void()> &joining = {});

/// Whether a record, before it is stored, is on either side of a join: the SQL's test on the stored row
/// (join_queries.cpp), in C++, for an import that writes request_details only for such records
/// (DetailRows::JoinCandidates). tst_request_join checks that the two agree on every record of a store.
bool mayBeJoined(const RequestMetrics &metrics);

/// The counts as the store holds them (no join is run).
JoinSummary readJoinSummary(const Store &store);

/// One record the last join left unjoined.
struct UnmatchedRecord {
    std::int64_t requestId = 0; ///< requests.id
    JoinSide side = JoinSide::Client;
    bool ambiguous = false;     ///< its key is shared by several records; else no record on the other side has it
    std::string sourceId;       ///< its id in its file
    std::int64_t sourceLine = 0;
    std::string sourcePath;     ///< the file it was imported from
};

/// The unmatched records, client records first, each side in row order; at most `limit` from `offset` on.
std::vector<UnmatchedRecord> listUnmatched(const Store &store, std::size_t limit = SIZE_MAX, std::size_t offset = 0);

/// Why a record is unmatched, in words: "no server record with its request id or trace id", ...
std::string unmatchedReason(const UnmatchedRecord &record);

} // namespace lx
