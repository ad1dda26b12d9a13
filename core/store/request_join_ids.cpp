// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/request_join_ids.h"

#include "store/sqlite_util.h"

#include <unordered_map>
#include <vector>

namespace lx {

namespace {

constexpr std::string_view kChatPrefix = "chatcmpl-";
constexpr std::string_view kCompletionPrefix = "cmpl-";

/// One candidate record: its row id and where its id lies in the arena of all ids.
struct Candidate {
    std::int64_t rowId = 0;
    std::size_t offset = 0;
    std::uint32_t length = 0;
    bool tokens = false; ///< measured TTFT, TPOT or TTLT
    bool paired = false; ///< in a pair of an earlier pass
};

struct Pair {
    std::uint32_t client = 0; ///< index into the clients
    std::uint32_t server = 0;
    int matchedBy = 1;        ///< 1 the id, 2 the id without vLLM's prefix
};

class IdJoin {
public:
    explicit IdJoin(sqlite3 *db) : m_db(db) {}

    bool read(const std::string &clientSide, const std::string &serverSide)
    {
        Statement scan(m_db, "SELECT r.id, " + clientSide + ", r.ttft_ns IS NOT NULL OR r.tpot_ns IS NOT NULL OR r.ttlt_ns IS NOT NULL,"
                                 " d.source_id FROM requests r CROSS JOIN request_details d ON d.request_id = r.id WHERE "
                                 + clientSide + " OR " + serverSide);
        if (!scan.valid())
            return false;
        int rc;
        while ((rc = scan.step()) == SQLITE_ROW) {
            sqlite3_stmt *q = scan.get();
            const std::string_view id = columnText(q, 3);
            Candidate c{sqlite3_column_int64(q, 0), m_arena.size(), static_cast<std::uint32_t>(id.size()),
                        sqlite3_column_int(q, 2) != 0, false};
            m_arena.append(id);
            (sqlite3_column_int(q, 1) ? m_clients : m_servers).push_back(c);
        }
        if (rc != SQLITE_DONE)
            return false;
        // The arena is complete: views into it stay valid from here on.
        m_byId.reserve(m_clients.size());
        m_next.assign(m_clients.size(), kNone);
        for (std::uint32_t i = 0; i < m_clients.size(); ++i) {
            auto [it, added] = m_byId.try_emplace(idOf(m_clients[i]), i);
            if (!added) { // a shared id: chain the records, so that every one of them pairs (and is ambiguous)
                m_next[i] = it->second;
                it->second = i;
            }
        }
        return true;
    }

    /// One pass: pairs each server record not yet paired with the unpaired client records of its key.
    void pass(int variant)
    {
        const std::size_t before = m_pairs.size();
        for (std::uint32_t s = 0; s < m_servers.size(); ++s) {
            if (m_servers[s].paired)
                continue;
            const std::string_view key = joinKey(idOf(m_servers[s]), variant);
            if (key.empty())
                continue;
            const auto found = m_byId.find(key);
            if (found == m_byId.end())
                continue;
            for (std::uint32_t c = found->second; c != kNone; c = m_next[c]) {
                if (!m_clients[c].paired)
                    m_pairs.push_back({c, s, variant == 0 ? 1 : 2});
            }
        }
        for (std::size_t i = before; i < m_pairs.size(); ++i) {
            m_pairedClients += !m_clients[m_pairs[i].client].paired;
            m_pairedServers += !m_servers[m_pairs[i].server].paired;
            m_clients[m_pairs[i].client].paired = true;
            m_servers[m_pairs[i].server].paired = true;
        }
    }

    bool allPaired() const
    {
        return m_pairedClients == static_cast<std::int64_t>(m_clients.size())
               || m_pairedServers == static_cast<std::int64_t>(m_servers.size());
    }

    /// Writes the pairs into temp.join_pairs, kRowsPerInsert to a statement (one row at a time cost twice as
    /// much for a million).
    bool write()
    {
        static constexpr std::size_t kRowsPerInsert = 64;
        std::string sql = "INSERT INTO join_pairs VALUES (?, ?, ?, ?)";
        for (std::size_t i = 1; i < kRowsPerInsert; ++i)
            sql += ", (?, ?, ?, ?)";
        Statement many(m_db, sql);
        Statement one(m_db, "INSERT INTO join_pairs VALUES (?, ?, ?, ?)");
        if (!many.valid() || !one.valid())
            return false;
        std::size_t i = 0;
        for (; i + kRowsPerInsert <= m_pairs.size(); i += kRowsPerInsert) {
            for (std::size_t k = 0; k < kRowsPerInsert; ++k)
                bindPair(many, static_cast<int>(4 * k + 1), m_pairs[i + k]);
            if (many.step() != SQLITE_DONE)
                return false;
            many.reset();
        }
        for (; i < m_pairs.size(); ++i) {
            bindPair(one, 1, m_pairs[i]);
            if (one.step() != SQLITE_DONE)
                return false;
            one.reset();
        }
        return true;
    }

    void fill(IdPairing &result) const
    {
        result.clients = static_cast<std::int64_t>(m_clients.size());
        result.servers = static_cast<std::int64_t>(m_servers.size());
        result.pairedClients = m_pairedClients;
        result.pairedServers = m_pairedServers;
        result.pairs = static_cast<std::int64_t>(m_pairs.size());
    }

private:
    static constexpr std::uint32_t kNone = UINT32_MAX;

    void bindPair(Statement &insert, int first, const Pair &pair) const
    {
        const Candidate &c = m_clients[pair.client];
        insert.bindInt(first, c.rowId);
        insert.bindInt(first + 1, m_servers[pair.server].rowId);
        insert.bindInt(first + 2, pair.matchedBy);
        insert.bindInt(first + 3, c.tokens ? 1 : 0);
    }

    std::string_view idOf(const Candidate &c) const { return std::string_view(m_arena).substr(c.offset, c.length); }

    sqlite3 *m_db;
    std::string m_arena; ///< every candidate's id, back to back
    std::vector<Candidate> m_clients;
    std::vector<Candidate> m_servers;
    std::unordered_map<std::string_view, std::uint32_t> m_byId; ///< client id -> the last client record with it
    std::vector<std::uint32_t> m_next;                          ///< the client record before it with the same id
    std::vector<Pair> m_pairs;
    std::int64_t m_pairedClients = 0;
    std::int64_t m_pairedServers = 0;
};

} // namespace

std::string_view joinKey(std::string_view id, int variant)
{
    if (variant == 0)
        return id;
    const bool chat = id.starts_with(kChatPrefix);
    if (!chat && !id.starts_with(kCompletionPrefix))
        return {};
    std::string_view base = id.substr(chat ? kChatPrefix.size() : kCompletionPrefix.size());
    if (variant == 1)
        return base;
    const std::size_t dash = base.rfind('-');
    if (chat || dash == std::string_view::npos || dash == 0 || dash + 1 == base.size()
        || base.find_first_not_of("0123456789", dash + 1) != std::string_view::npos)
        return {};
    return base.substr(0, dash);
}

bool pairByRequestId(sqlite3 *db, const std::string &clientSide, const std::string &serverSide, IdPairing &result,
                     std::string *error)
{
    IdJoin join(db);
    if (!join.read(clientSide, serverSide)) {
        *error = sqlite3_errmsg(db);
        return false;
    }
    for (int variant = 0; variant < 3 && !join.allPaired(); ++variant)
        join.pass(variant);
    if (!join.write()) {
        *error = sqlite3_errmsg(db);
        return false;
    }
    join.fill(result);
    return true;
}

} // namespace lx
