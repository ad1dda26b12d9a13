// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/sqlite_util.h"

#include <cstdint>
#include <string_view>
#include <vector>

/// \file insert_statement.h
/// A prepared INSERT executed again and again with new rows, which binds a parameter only when its value
/// changed since the statement's last execution: SQLite keeps a statement's bindings across sqlite3_reset(),
/// and many columns repeat from row to row (the run, the scopes, the flags, the states, NULL for what was
/// not measured, the row id left to SQLite). Binding was about a quarter of the import's writer thread.

namespace lx {

class InsertStatement {
public:
    InsertStatement(sqlite3 *db, std::string_view sql) : m_statement(db, sql)
    {
        if (m_statement.valid())
            m_bound.resize(static_cast<std::size_t>(sqlite3_bind_parameter_count(m_statement.get())) + 1);
    }

    bool valid() const { return m_statement.valid(); }
    Statement &statement() { return m_statement; }

    void bindInt(int index, std::int64_t value)
    {
        Bound &bound = m_bound[static_cast<std::size_t>(index)];
        if (bound.state == State::Int && bound.value == value)
            return;
        m_statement.bindInt(index, value);
        bound = {value, State::Int};
    }
    /// NULL for "not measured" (INT64_MIN), as Statement::bindMeasured().
    void bindMeasured(int index, std::int64_t value)
    {
        if (value == INT64_MIN)
            bindNull(index);
        else
            bindInt(index, value);
    }
    void bindNull(int index)
    {
        Bound &bound = m_bound[static_cast<std::size_t>(index)];
        if (bound.state == State::Null)
            return;
        m_statement.bindNull(index);
        bound.state = State::Null;
    }
    /// Always bound: the same pointer may hold another text by the next execution.
    void bindText(int index, std::string_view text, bool nullWhenEmpty = false)
    {
        if (text.empty() && nullWhenEmpty) {
            bindNull(index);
            return;
        }
        m_statement.bindText(index, text);
        m_bound[static_cast<std::size_t>(index)].state = State::Other;
    }

    /// Always bound, as a text is: `bytes` at `data`, which outlive the statement's step (SQLITE_STATIC).
    void bindBlob(int index, const void *data, int bytes)
    {
        sqlite3_bind_blob(m_statement.get(), index, data, bytes, SQLITE_STATIC);
        m_bound[static_cast<std::size_t>(index)].state = State::Other;
    }

private:
    enum class State : std::uint8_t { Other, Int, Null };
    struct Bound {
        std::int64_t value = 0;
        State state = State::Other;
    };
    Statement m_statement;
    std::vector<Bound> m_bound; ///< by parameter index: what the statement holds now
};

} // namespace lx
