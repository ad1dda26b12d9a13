// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_join.h"

#include "store/join_queries.h"

namespace lx {

bool joinClientServer(Store &store, JoinSummary *summary, std::string *error, const std::function<void()> &joining)
{
    std::string why;
    const bool ok = runClientServerJoin(store, &why, joining);
    if (!ok && error)
        *error = why;
    if (summary)
        *summary = readJoinSummary(store);
    return ok;
}

std::string unmatchedReason(const UnmatchedRecord &record)
{
    const bool client = record.side == JoinSide::Client;
    if (record.ambiguous)
        return std::string("its request id or trace id is shared by several ") + (client ? "client" : "server")
               + " records, or its match is: joining it would be a guess";
    return std::string("no ") + (client ? "server" : "client") + " record has its request id or trace id";
}

} // namespace lx
