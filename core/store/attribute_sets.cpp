// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/attribute_sets.h"

#include "store/sqlite_util.h"

namespace lx {

AttributeSets::AttributeSets(sqlite3 *db, std::size_t maxSets)
    : m_db(db)
    , m_maxSets(maxSets)
    , m_insert(std::make_unique<Statement>(db, "INSERT INTO attribute_sets (attributes) VALUES (?)"))
{
    // At most maxSets are read: a store merged from several can hold more, and past the bound no set is
    // added (so none that exists unread can be inserted twice).
    Statement known(db, "SELECT id, attributes FROM attribute_sets ORDER BY id LIMIT ?");
    known.bindInt(1, static_cast<std::int64_t>(maxSets));
    while (known.valid() && known.step() == SQLITE_ROW)
        m_ids.emplace(std::string(columnText(known.get(), 1)), sqlite3_column_int64(known.get(), 0));
    if (!m_insert->valid() || !known.valid())
        m_error = sqlite3_errmsg(db);
}

AttributeSets::~AttributeSets() = default;

std::optional<std::int64_t> AttributeSets::idOf(const std::string &json)
{
    if (json.empty() || json.size() > kMaxSetBytes)
        return std::nullopt;
    if (const auto it = m_ids.find(json); it != m_ids.end())
        return it->second;
    if (m_ids.size() >= m_maxSets || !m_error.empty())
        return std::nullopt;
    m_insert->bindText(1, json);
    const int rc = m_insert->step();
    m_insert->reset();
    if (rc != SQLITE_DONE) {
        m_error = sqlite3_errmsg(m_db);
        return std::nullopt;
    }
    const std::int64_t id = sqlite3_last_insert_rowid(m_db);
    m_ids.emplace(json, id);
    return id;
}

} // namespace lx
