// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

/// \file request_join_ids.h
/// The join's pairing by request id (store/request_join.h, docs/JOIN.md): one scan of the candidates and
/// a hash join in memory, which measured several times faster than an index look-up per server record.

struct sqlite3;

namespace lx {

/// The request id a client sent (its X-Request-Id) as a vLLM server id may hold it: vLLM's chat API names
/// the request "chatcmpl-<id>", its completions API "cmpl-<id>", and each prompt of a completion
/// "cmpl-<id>-<n>". Variant 0 is the id itself, 1 without the prefix, 2 without the prefix and the prompt's
/// index as well; an empty view when the variant does not apply.
std::string_view joinKey(std::string_view id, int variant);

/// How many records of each side the pairing saw and paired.
struct IdPairing {
    std::int64_t clients = 0;
    std::int64_t servers = 0;
    std::int64_t pairedClients = 0; ///< distinct client records in some pair
    std::int64_t pairedServers = 0;
    std::int64_t pairs = 0;
};

/// Reads the candidates of both sides (`clientSide` and `serverSide` are SQL conditions over `requests r`)
/// and inserts into temp.join_pairs(client, server, matched_by, client_tokens) every pair whose ids agree:
/// first exactly (matched_by 1), then for the records still unpaired by the variants 1 and 2 of joinKey()
/// (matched_by 2). A key shared by several records gives several pairs; the caller drops those as
/// ambiguous. False and the SQLite message on failure.
bool pairByRequestId(sqlite3 *db, const std::string &clientSide, const std::string &serverSide, IdPairing &result,
                     std::string *error);

} // namespace lx
