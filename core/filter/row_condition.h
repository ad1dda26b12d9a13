// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

/// \file row_condition.h
/// A filter's condition decided from the columns every statistic reads of a request (its start, e2e,
/// segments, token metrics, status, scope and flags) without SQLite: what a scan of the column chunks
/// (store/request_columns.h) tests each request against, instead of asking SQLite for the ids that match,
/// which decoded every row of `requests` again. Made beside the SQL of the same condition (filter
/// expressions, the time range, the status) and only when every part of it can be decided so: a model, a
/// route, the tokens, the dominant segment, an id or an attribute leave the condition to SQL.
///
/// It follows SQL's three-valued logic, as the WHERE clause it stands for: a comparison with a value not
/// measured (NULL) is unknown, `not` of unknown is unknown, and only a true condition selects a request.

namespace lx {

enum class Truth : std::int8_t { False, Unknown, True };

class RowCondition {
public:
    /// What a comparison reads of a request.
    enum class Field : std::uint8_t { Start, E2e, Segment, Ttft, Tpot, Ttlt, Status, Scope, Flag };
    enum class Op : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, IsNull, NotNull };

    /// `field op values` (one value, a list for In and NotIn, none for IsNull and NotNull). `detail` is the
    /// segment's index for Segment and the bit for Flag.
    static RowCondition compare(Field field, int detail, Op op, std::vector<std::int64_t> values)
    {
        RowCondition c(Kind::Compare);
        c.m_field = field;
        c.m_detail = detail;
        c.m_op = op;
        c.m_values = std::move(values);
        return c;
    }
    static RowCondition all(std::vector<RowCondition> terms) { return joined(Kind::All, std::move(terms)); }
    static RowCondition any(std::vector<RowCondition> terms) { return joined(Kind::Any, std::move(terms)); }
    static RowCondition negated(RowCondition term) { return joined(Kind::Not, {std::move(term)}); }

    /// The truth of the condition for `row`: any type with the members of store/request_scan.h's RequestRow
    /// (start, e2e, segments, ttft, tpot, ttlt, ok, e2eScope, flags).
    template<typename Row>
    Truth test(const Row &row) const
    {
        switch (m_kind) {
        case Kind::Compare: return compareValue(valueOf(row));
        case Kind::Not: {
            const Truth t = m_terms.front().test(row);
            return t == Truth::Unknown ? t : t == Truth::True ? Truth::False : Truth::True;
        }
        case Kind::All: {
            Truth result = Truth::True;
            for (const RowCondition &term : m_terms) {
                const Truth t = term.test(row);
                if (t == Truth::False)
                    return t;
                result = std::min(result, t);
            }
            return result;
        }
        case Kind::Any: {
            Truth result = Truth::False;
            for (const RowCondition &term : m_terms) {
                const Truth t = term.test(row);
                if (t == Truth::True)
                    return t;
                result = std::max(result, t);
            }
            return result;
        }
        }
        return Truth::Unknown;
    }

    template<typename Row>
    bool selects(const Row &row) const
    {
        return test(row) == Truth::True;
    }

private:
    enum class Kind : std::uint8_t { Compare, All, Any, Not };

    explicit RowCondition(Kind kind) : m_kind(kind) {}

    static RowCondition joined(Kind kind, std::vector<RowCondition> terms)
    {
        RowCondition c(kind);
        c.m_terms = std::move(terms);
        return c;
    }

    /// The field's value as its SQL column holds it; nullopt for NULL.
    template<typename Row>
    std::optional<std::int64_t> valueOf(const Row &row) const
    {
        const auto measured = [](std::int64_t v) { return isMeasured(v) ? std::optional<std::int64_t>(v) : std::nullopt; };
        switch (m_field) {
        case Field::Start: return measured(row.start);
        case Field::E2e: return measured(row.e2e);
        case Field::Segment: return measured(row.segments[static_cast<std::size_t>(m_detail)]);
        case Field::Ttft: return measured(row.ttft);
        case Field::Tpot: return measured(row.tpot);
        case Field::Ttlt: return measured(row.ttlt);
        case Field::Status: return row.ok ? 0 : 1; // Status::Ok and Status::Error
        case Field::Scope: // nullif(e2e_scope, 0): no e2e is no scope
            return row.e2eScope == E2eScope::None ? std::nullopt : std::optional<std::int64_t>(static_cast<int>(row.e2eScope));
        case Field::Flag: return static_cast<std::int64_t>((row.flags >> m_detail) & 1u);
        }
        return std::nullopt;
    }

    Truth compareValue(std::optional<std::int64_t> value) const
    {
        const auto truth = [](bool b) { return b ? Truth::True : Truth::False; };
        if (m_op == Op::IsNull || m_op == Op::NotNull)
            return truth(value.has_value() == (m_op == Op::NotNull));
        if (!value)
            return Truth::Unknown;
        const std::int64_t v = *value;
        switch (m_op) {
        case Op::Eq: return truth(v == m_values.front());
        case Op::Ne: return truth(v != m_values.front());
        case Op::Lt: return truth(v < m_values.front());
        case Op::Le: return truth(v <= m_values.front());
        case Op::Gt: return truth(v > m_values.front());
        case Op::Ge: return truth(v >= m_values.front());
        case Op::In:
        case Op::NotIn: {
            const bool found = std::find(m_values.begin(), m_values.end(), v) != m_values.end();
            return truth(found == (m_op == Op::In));
        }
        case Op::IsNull:
        case Op::NotNull: break;
        }
        return Truth::Unknown;
    }

    Kind m_kind;
    Field m_field = Field::E2e;
    int m_detail = 0;
    Op m_op = Op::Eq;
    std::vector<std::int64_t> m_values;
    std::vector<RowCondition> m_terms;
};

} // namespace lx
