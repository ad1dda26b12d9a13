// SPDX-License-Identifier: GPL-3.0-or-later
// How a compiled filter's values reach a statement (SqlCondition::bind, declared in filter/request_filter.h):
// here, because only core/store speaks SQLite; the filter room builds the condition without knowing it.
#include "filter/request_filter.h"

#include "store/sqlite_util.h"

namespace lx {

void SqlCondition::bind(Statement &stmt, int first) const
{
    int index = first;
    for (const auto &value : values) {
        if (const auto *number = std::get_if<std::int64_t>(&value))
            stmt.bindInt(index++, *number);
        else if (const auto *real = std::get_if<double>(&value))
            sqlite3_bind_double(stmt.get(), index++, *real);
        else
            stmt.bindText(index++, std::get<std::string>(value));
    }
}

} // namespace lx
