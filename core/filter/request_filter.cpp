// SPDX-License-Identifier: GPL-3.0-or-later
#include "filter/request_filter.h"

#include <charconv>
#include <chrono>
#include <cstdio>

namespace lx {

namespace {

void appendAnyOf(SqlCondition &c, const char *column, const std::vector<std::string> &values)
{
    if (values.empty())
        return;
    c.sql += " AND ";
    c.sql += column;
    c.sql += " IN (SELECT id FROM labels WHERE text IN (";
    for (std::size_t i = 0; i < values.size(); ++i) {
        c.sql += i ? ",?" : "?";
        c.values.emplace_back(values[i]);
    }
    c.sql += "))";
}

bool parseInstant(std::string_view text, std::int64_t &ns)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ns);
    if (ec == std::errc() && end == text.data() + text.size())
        return true;
    // ISO-8601 in UTC: YYYY-MM-DD[THH:MM[:SS[.fraction]]][Z] (a date alone is its midnight). Only digits
    // where sscanf reads numbers: it would take a sign or a space too.
    const std::string copy(text);
    if (copy.find_first_not_of("0123456789-T :.Z") != std::string::npos)
        return false;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
    if (std::sscanf(copy.c_str(), "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3)
        return false;
    std::size_t pos = static_cast<std::size_t>(used);
    if (pos < copy.size() && (copy[pos] == 'T' || copy[pos] == ' ')) {
        if (std::sscanf(copy.c_str() + pos + 1, "%2d:%2d%n", &h, &mi, &used) != 2)
            return false;
        pos += 1 + static_cast<std::size_t>(used);
        if (pos < copy.size() && copy[pos] == ':') {
            if (std::sscanf(copy.c_str() + pos + 1, "%2d%n", &s, &used) != 1)
                return false;
            pos += 1 + static_cast<std::size_t>(used);
        } else if (pos < copy.size() && copy[pos] == '.') {
            return false; // a fraction of a minute: seconds come first
        }
    }
    if (h > 23 || mi > 59 || s > 59 || h < 0 || mi < 0 || s < 0)
        return false; // 25:00 is no time of day, and no leap second has a place in ns since the epoch
    std::int64_t fractionNs = 0;
    if (pos < copy.size() && copy[pos] == '.') {
        // Up to ns, the resolution of the store: a digit beyond would be silently dropped, so it is refused.
        const std::size_t first = ++pos;
        std::int64_t scale = 100000000;
        for (; pos < copy.size() && copy[pos] >= '0' && copy[pos] <= '9'; ++pos, scale /= 10)
            fractionNs += (copy[pos] - '0') * scale;
        if (pos == first || pos - first > 9)
            return false;
    }
    if (pos < copy.size() && copy[pos] == 'Z')
        ++pos;
    if (pos != copy.size())
        return false;
    using namespace std::chrono;
    const year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
    if (!date.ok())
        return false;
    const auto t = sys_days{date} + hours{h} + minutes{mi} + seconds{s};
    ns = duration_cast<nanoseconds>(t.time_since_epoch()).count() + fractionNs;
    return true;
}

} // namespace

SqlCondition toSqlCondition(const RequestFilter &filter)
{
    using Field = RowCondition::Field;
    using Op = RowCondition::Op;
    SqlCondition c;
    std::vector<RowCondition> parts; // the row condition's, while every part has one
    bool rowDecidable = filter.models.empty() && filter.routes.empty(); // labels are not in a request's columns
    if (isMeasured(filter.fromNs)) {
        c.sql += " AND r.start_ns >= ?";
        c.values.emplace_back(filter.fromNs);
        parts.push_back(RowCondition::compare(Field::Start, 0, Op::Ge, {filter.fromNs}));
    }
    if (isMeasured(filter.toNs)) {
        c.sql += " AND r.start_ns < ?";
        c.values.emplace_back(filter.toNs);
        parts.push_back(RowCondition::compare(Field::Start, 0, Op::Lt, {filter.toNs}));
    }
    appendAnyOf(c, "r.model_id", filter.models);
    appendAnyOf(c, "r.route_id", filter.routes);
    if (filter.status) {
        c.sql += " AND r.status = ?";
        c.values.emplace_back(static_cast<std::int64_t>(*filter.status));
        parts.push_back(RowCondition::compare(Field::Status, 0, Op::Eq, {static_cast<std::int64_t>(*filter.status)}));
    }
    if (filter.expression) {
        c.sql += " AND (" + filter.expression->sql + ")";
        c.values.insert(c.values.end(), filter.expression->values.begin(), filter.expression->values.end());
        if (filter.expression->rows)
            parts.push_back(*filter.expression->rows);
        else
            rowDecidable = false;
    }
    if (rowDecidable && c.sql != "1")
        c.rows = std::make_shared<const RowCondition>(RowCondition::all(std::move(parts)));
    return c;
}

SqlCondition allOf(const std::vector<SqlCondition> &parts)
{
    SqlCondition all;
    if (parts.empty())
        return all;
    all.sql.clear();
    std::vector<RowCondition> rows;
    bool rowDecidable = true;
    for (const SqlCondition &part : parts) {
        all.sql += (all.sql.empty() ? "(" : " AND (") + part.sql + ")";
        all.values.insert(all.values.end(), part.values.begin(), part.values.end());
        if (part.rows)
            rows.push_back(*part.rows);
        else if (part.sql != "1") // no condition is true of every row
            rowDecidable = false;
    }
    if (rowDecidable)
        all.rows = std::make_shared<const RowCondition>(RowCondition::all(std::move(rows)));
    return all;
}

bool parseTimeRange(const std::string &text, RequestFilter &filter, std::string *error)
{
    const std::size_t dots = text.find("..");
    if (dots == std::string::npos) {
        *error = "a time range is FROM..TO (either side may be empty)";
        return false;
    }
    const std::string from = text.substr(0, dots);
    const std::string to = text.substr(dots + 2);
    std::int64_t value = 0;
    if (!from.empty()) {
        if (!parseInstant(from, value)) {
            *error = "'" + from + "' is neither ns since the epoch nor an ISO-8601 UTC time (2025-01-01, 2025-01-01T12:01Z, "
                     "2025-01-01T12:01:30.5Z)";
            return false;
        }
        filter.fromNs = value;
    }
    if (!to.empty()) {
        if (!parseInstant(to, value)) {
            *error = "'" + to + "' is neither ns since the epoch nor an ISO-8601 UTC time (2025-01-01, 2025-01-01T12:01Z, "
                     "2025-01-01T12:01:30.5Z)";
            return false;
        }
        filter.toNs = value;
    }
    // A reversed range selects nothing: said here, rather than answered with a report of no request.
    if (!from.empty() && !to.empty() && filter.toNs <= filter.fromNs) {
        *error = "the time range " + text + " is empty (its end is not after its start)";
        return false;
    }
    return true;
}

} // namespace lx
