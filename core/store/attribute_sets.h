// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

/// \file attribute_sets.h
/// The attributes of a request (the JSON object of the keys its format does not define) are most often one
/// of a few sets: a region, a client library, a deployment. Each set is written once, into `attribute_sets`
/// (schema.sql), and a request's details row names it; at a million requests the copies were a fifth of
/// the store and of an import's time. Attributes that would grow the sets past kMaxAttributeSets, or that
/// are longer than kMaxSetBytes, stay in the row: a key with a value per request (a trace id, a user) costs
/// what it did before, and the writer's memory stays bounded.

struct sqlite3;

namespace lx {

class Statement;

inline constexpr std::size_t kMaxAttributeSets = 4096;
inline constexpr std::size_t kMaxSetBytes = 1024;

class AttributeSets {
public:
    /// Knows the sets the store on `db` holds already (up to maxSets of them).
    explicit AttributeSets(sqlite3 *db, std::size_t maxSets = kMaxAttributeSets);
    ~AttributeSets();

    /// The attribute_sets.id of `json`, adding the set the first time it is seen; nullopt when the
    /// attributes stay in the row (none, too long, no room left, or an SQLite error: error()).
    std::optional<std::int64_t> idOf(const std::string &json);
    const std::string &error() const { return m_error; }

private:
    sqlite3 *m_db;
    std::size_t m_maxSets;
    std::unique_ptr<Statement> m_insert;
    std::unordered_map<std::string, std::int64_t> m_ids;
    std::string m_error;
};

} // namespace lx
