// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string_view>

/// \file sqlite_util.h
/// A prepared statement that finalizes itself, and binders that store "not measured" as NULL.

namespace lx {

class Statement {
public:
    Statement(sqlite3 *db, std::string_view sql)
    {
        sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool valid() const { return m_stmt != nullptr; }
    sqlite3_stmt *get() const { return m_stmt; }
    int step() { return sqlite3_step(m_stmt); }
    void reset() { sqlite3_reset(m_stmt); }

    void bindInt(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
    /// Binds NULL for "not measured" (kNotMeasured, INT64_MIN).
    void bindMeasured(int index, std::int64_t value)
    {
        if (value == INT64_MIN)
            sqlite3_bind_null(m_stmt, index);
        else
            sqlite3_bind_int64(m_stmt, index, value);
    }
    /// Binds text that outlives the step (SQLITE_STATIC); NULL when empty and nullWhenEmpty.
    void bindText(int index, std::string_view text, bool nullWhenEmpty = false)
    {
        if (text.empty() && nullWhenEmpty)
            sqlite3_bind_null(m_stmt, index);
        else
            sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    }
    void bindNull(int index) { sqlite3_bind_null(m_stmt, index); }

private:
    sqlite3_stmt *m_stmt = nullptr;
};

/// An integer column, or INT64_MIN ("not measured", kNotMeasured) for NULL. NULL reads as 0, so the type
/// is asked for only then: it costs as much as the value, and the statistics read millions of cells.
inline std::int64_t columnOr(sqlite3_stmt *stmt, int column)
{
    const std::int64_t v = sqlite3_column_int64(stmt, column);
    return v == 0 && sqlite3_column_type(stmt, column) == SQLITE_NULL ? INT64_MIN : v;
}

/// A text column as a view valid until the next step; empty for NULL.
inline std::string_view columnText(sqlite3_stmt *stmt, int column)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(stmt, column));
    const auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt, column));
    return text ? std::string_view(text, size) : std::string_view();
}

} // namespace lx
