// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/row_condition.h"
#include "model/request.h"

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

/// \file request_filter.h
/// Which requests a view or a report covers: a time range, models, routes, status. Compiled to an SQL
/// condition with bound parameters only: text from the user never becomes SQL text.

namespace lx {

class Statement;

/// A WHERE condition over the `requests` table (alias r) and the values to bind, in order. Its SQL text
/// comes from the program, never from the user: user text only ever arrives as a bound value.
struct SqlCondition {
    std::string sql = "1";
    std::vector<std::variant<std::int64_t, double, std::string>> values;
    /// The same condition decided from a request's statistics columns alone (row_condition.h), when every
    /// part of it can be; null otherwise, and for no condition at all.
    std::shared_ptr<const RowCondition> rows;

    /// Binds the values to stmt starting at parameter `first`; the strings must outlive the statement's use.
    /// Defined in store/filter_binding.cpp: only core/store speaks SQLite.
    void bind(Statement &stmt, int first = 1) const;
};

struct RequestFilter {
    std::int64_t fromNs = kNotMeasured; ///< start_ns >= fromNs when measured
    std::int64_t toNs = kNotMeasured;   ///< start_ns < toNs when measured
    std::vector<std::string> models;    ///< any of them; empty = all
    std::vector<std::string> routes;    ///< any of them; empty = all
    std::optional<Status> status;       ///< only ok or only error requests
    std::optional<SqlCondition> expression; ///< a compiled filter expression (filter_expression.h), ANDed

    /// No condition at all: every request counts (what held rows can answer, held_rows.h).
    bool empty() const
    {
        return !expression && models.empty() && routes.empty() && !status && !isMeasured(fromNs) && !isMeasured(toNs);
    }
};

SqlCondition toSqlCondition(const RequestFilter &filter);

/// The conditions joined by AND, each in parentheses, the values in the same order; with a row condition
/// when every part has one. No parts: no condition.
SqlCondition allOf(const std::vector<SqlCondition> &parts);

/// Parses "A..B" (either side optional) where A and B are ns since the epoch or ISO-8601 UTC times such
/// as 2024-05-01T12:00:00Z; false and a reason on error.
bool parseTimeRange(const std::string &text, RequestFilter &filter, std::string *error);

} // namespace lx
