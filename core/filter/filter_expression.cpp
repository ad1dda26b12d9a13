// SPDX-License-Identifier: GPL-3.0-or-later
// The filter language (docs/FILTER.md): a recursive-descent parser over the tokens of filter_tokenizer.h
// that writes SQL as it goes. Every SQL fragment below is a constant of this file or of the segment table
// (model/segments.h); what the user typed only ever becomes a bound value, so no input, however crafted,
// can change the SQL text.

#include "filter/filter_expression.h"

#include "model/duration_parse.h"
#include "model/id_hash.h"
#include "model/segments.h"
#include "filter/filter_fields.h"
#include "filter/filter_tokenizer.h"
#include "filter/row_condition.h"
#include "platform/float_from_chars.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lx {

namespace {

using namespace filter;
using Bound = std::variant<std::int64_t, double, std::string>;

// Bounds that keep every accepted expression within SQLite's limits, however long the input: its parser
// stack (100 entries in 3.40) overflows at about 29 nested "(a OR (" and 43 nested "(NOT "; its expression
// depth is 1000; bound parameters. 16 levels of parentheses and `not` leave room for callers that wrap the
// condition and for the subqueries of attributes; no filter typed by a person comes near.
constexpr int kMaxDepth = 16;
constexpr int kMaxComparisons = 256;
constexpr std::size_t kMaxValues = 1000;

// The names of the values of status, scope (from 1) and the flags.
constexpr std::string_view kStatusValues[] = {"ok", "error"};
constexpr std::string_view kScopeValues[] = {"client", "server", "engine"};
constexpr std::string_view kFlagValues[] = {"false", "true"};

enum class Op { Eq, Ne, Lt, Le, Gt, Ge, Like, In, NotIn, IsNull, NotNull };

struct Operator {
    std::string_view text;
    Op op;
};
constexpr Operator kOperators[] = {{"=", Op::Eq}, {"==", Op::Eq}, {"!=", Op::Ne}, {"<>", Op::Ne}, {"<", Op::Lt},
                                   {"<=", Op::Le}, {">", Op::Gt}, {">=", Op::Ge}, {"~", Op::Like}};
constexpr std::string_view kSqlOperators[] = {" = ?", " <> ?", " < ?", " <= ?", " > ?", " >= ?", " LIKE ? ESCAPE '\\'"};


// ---------------------------------------------------------------------------------------------------
// Names and values


/// The number of token `t` times `factor`, as an integer when it is one; nullopt when out of range.
std::optional<Bound> scaled(const Token &t, std::int64_t factor, bool integerResult)
{
    const char *first = t.text.data();
    const char *last = first + t.text.size();
    if (t.text.find('.') == std::string::npos) {
        std::int64_t v = 0;
        if (std::from_chars(first, last, v).ec != std::errc() || v > std::numeric_limits<std::int64_t>::max() / factor
            || v < std::numeric_limits<std::int64_t>::min() / factor)
            return std::nullopt;
        return v * factor;
    }
    double v = 0;
    fromChars(first, last, v); // the tokenizer only lets digits[.digits] through
    const double r = v * static_cast<double>(factor);
    if (!(std::fabs(r) < 9.2e18))
        return std::nullopt;
    return integerResult ? Bound(static_cast<std::int64_t>(std::llround(r))) : Bound(r);
}

/// `%text%` for LIKE, with its wildcards and the escape character escaped.
std::string likePattern(std::string_view text)
{
    std::string p = "%";
    for (char c : text) {
        if (c == '%' || c == '_' || c == '\\')
            p += '\\';
        p += c;
    }
    return p + "%";
}

std::string placeholders(std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n; ++i)
        s += i ? ", ?" : "?";
    return s;
}

/// Whether json_extract can find the name as `$."name"`: SQLite 3.40 neither unescapes a path nor the keys
/// it compares it with, so names that JSON stores escaped go through json_each instead.
bool plainJsonKey(std::string_view name)
{
    return std::none_of(name.begin(), name.end(),
                        [](char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; });
}

bool ordered(Op op)
{
    return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
}

/// What a comparison is about: a field of the whitelist or an attribute.
struct Subject {
    Kind kind = Kind::Attribute;
    std::string_view sql; ///< the field's fragment
    std::string name; ///< the field's or the attribute's name, for messages and the JSON path
    const Field *field = nullptr; ///< null for an attribute
};

/// A part of the condition: its SQL, and the same decided from a request's columns when it can be.
struct Parsed {
    std::string sql;
    std::optional<RowCondition> rows;
};

constexpr RowCondition::Op kRowOps[] = {RowCondition::Op::Eq, RowCondition::Op::Ne, RowCondition::Op::Lt, RowCondition::Op::Le,
                                        RowCondition::Op::Gt, RowCondition::Op::Ge};

/// The row condition of comparison `field op values`; nullopt when the field is no column of a request's
/// statistics or a value is not an integer (the columns hold integers, as SQL compares them).
std::optional<RowCondition> rowComparison(const Field *field, Op op, const std::vector<Bound> &values)
{
    if (!field || !field->row || op == Op::Like)
        return std::nullopt;
    std::vector<std::int64_t> numbers;
    for (const Bound &v : values) {
        const auto *n = std::get_if<std::int64_t>(&v);
        if (!n)
            return std::nullopt;
        numbers.push_back(*n);
    }
    using RowOp = RowCondition::Op;
    RowOp rowOp = op == Op::In ? RowOp::In : op == Op::NotIn ? RowOp::NotIn : op == Op::IsNull ? RowOp::IsNull
                  : op == Op::NotNull ? RowOp::NotNull : kRowOps[static_cast<int>(op)];
    return RowCondition::compare(*field->row, field->rowDetail, rowOp, std::move(numbers));
}

// ---------------------------------------------------------------------------------------------------
// Parser and SQL writer

class Parser {
public:
    explicit Parser(std::string_view text)
        : m_tokens(tokenize(text))
    {
    }

    SqlCondition run()
    {
        if (peek().kind == Tok::End)
            return {};
        Parsed whole = parseChain(0);
        m_out.sql = std::move(whole.sql);
        if (whole.rows)
            m_out.rows = std::make_shared<const RowCondition>(std::move(*whole.rows));
        const Token &t = peek();
        if (isOp(t, ")"))
            fail(t.pos, t.len, "unbalanced parenthesis: there is no \"(\" for this \")\"");
        if (t.kind != Tok::End)
            fail(t.pos, t.len, "expected \"and\", \"or\" or the end, not " + quoted(t.text));
        return std::move(m_out);
    }

private:
    const Token &peek(std::size_t k = 0) const { return m_tokens[std::min(m_at + k, m_tokens.size() - 1)]; }
    const Token &next() { return m_tokens[std::min(m_at++, m_tokens.size() - 1)]; }
    static bool isOp(const Token &t, std::string_view op) { return t.kind == Tok::Op && t.text == op; }
    static bool isKeyword(const Token &t, std::string_view word)
    {
        return t.kind == Tok::Word && lowered(t.text) == word;
    }
    const std::string &previousText() const { return m_tokens[m_at - 1].text; }

    void enter(const Token &t)
    {
        if (++m_depth > kMaxDepth)
            fail(t.pos, t.len, "nested too deeply (at most " + std::to_string(kMaxDepth) + " levels)");
    }

    /// Level 0: terms joined by `or`; level 1: by `and`. `not` binds tighter than both.
    Parsed parseChain(int level)
    {
        static constexpr std::string_view kWords[] = {"or", "and"}, kSymbols[] = {"||", "&&"},
                                          kSql[] = {" OR ", " AND "};
        const auto term = [&] { return level == 0 ? parseChain(1) : parseNot(); };
        Parsed first = term();
        std::string sql = std::move(first.sql);
        std::vector<RowCondition> rows;
        bool rowDecidable = first.rows.has_value();
        if (rowDecidable)
            rows.push_back(std::move(*first.rows));
        bool chained = false;
        for (; isKeyword(peek(), kWords[level]) || isOp(peek(), kSymbols[level]); chained = true) {
            next();
            Parsed more = term();
            sql += std::string(kSql[level]) + more.sql;
            rowDecidable = rowDecidable && more.rows;
            if (rowDecidable)
                rows.push_back(std::move(*more.rows));
        }
        if (!chained)
            return {std::move(sql), rowDecidable ? std::optional(std::move(rows.front())) : std::nullopt};
        std::optional<RowCondition> joined;
        if (rowDecidable)
            joined = level == 0 ? RowCondition::any(std::move(rows)) : RowCondition::all(std::move(rows));
        return {"(" + sql + ")", std::move(joined)};
    }

    Parsed parseNot()
    {
        if (!isKeyword(peek(), "not") && !isOp(peek(), "!"))
            return parsePrimary();
        enter(next());
        Parsed term = parseNot();
        --m_depth;
        return {"(NOT " + term.sql + ")", term.rows ? std::optional(RowCondition::negated(std::move(*term.rows))) : std::nullopt};
    }

    Parsed parsePrimary()
    {
        const Token &t = peek();
        const std::string after = m_at == 0 ? std::string() : " after " + quoted(previousText());
        if (isOp(t, "(")) {
            enter(next());
            Parsed inner = parseChain(0);
            const Token &close = next();
            if (close.kind == Tok::End)
                fail(t.pos, t.len, "unbalanced parenthesis: this \"(\" is never closed");
            if (!isOp(close, ")"))
                fail(close.pos, close.len, "expected \"and\", \"or\" or \")\", not " + quoted(close.text));
            --m_depth;
            return inner;
        }
        if (t.kind == Tok::Attr && t.text.empty())
            fail(t.pos, t.len, "an attribute's name cannot be empty");
        if (t.kind == Tok::Attr)
            return parseComparison(Subject{Kind::Attribute, {}, t.text});
        if (t.kind == Tok::Word && !isKeyword(t, "and") && !isKeyword(t, "or"))
            return parseComparison(subjectOf(t));
        if (t.kind == Tok::End)
            fail(t.pos, 0, "expected a condition" + after + ", e.g. e2e > 2s");
        if (isOp(t, ")") && m_depth == 0)
            fail(t.pos, t.len, "unbalanced parenthesis: there is no \"(\" for this \")\"");
        if (t.kind == Tok::String)
            fail(t.pos, t.len, "expected a field name, not a string (for an attribute: attr." + quoted(t.text) + ")");
        fail(t.pos, t.len, "expected a field name" + after + ", not " + quoted(t.text) + " (e.g. e2e > 2s)");
    }

    static Subject subjectOf(const Token &t)
    {
        const std::string name = lowered(t.text);
        if (name.starts_with("attr.")) {
            if (t.text.size() == 5)
                fail(t.pos, t.len, "\"attr.\" needs the attribute's name, e.g. attr.region or attr.\"odd name\"");
            return {Kind::Attribute, {}, t.text.substr(5)};
        }
        for (const Field &f : fields()) {
            if (f.name == name)
                return {f.kind, f.sql, std::string(f.name), &f};
        }
        // ITL is every gap between two tokens, pooled over the requests: no one value of a request to compare.
        // It was taken for an attribute ("itl is an attribute: it takes a plain number, without a unit").
        if (name == "itl")
            fail(t.pos, t.len,
                 "itl is no field of a request: ITL is every gap between two of its tokens, pooled over the requests; "
                 "filter on tpot, its mean per request (tpot > 20ms), or write attr.itl for an attribute of that name");
        if (const Field *f = typoOf(name)) {
            fail(t.pos, t.len,
                 "unknown field " + quoted(t.text) + " (did you mean " + std::string(f->name)
                     + "? For an attribute of that name write attr." + t.text + ")");
        }
        return {Kind::Attribute, {}, t.text};
    }

    Parsed parseComparison(const Subject &s)
    {
        const Token &nameToken = next();
        if (++m_comparisons > kMaxComparisons)
            fail(nameToken.pos, nameToken.len, "too many conditions (at most " + std::to_string(kMaxComparisons) + ")");
        const Token &opToken = peek();
        const auto *known = std::find_if(std::begin(kOperators), std::end(kOperators),
                                         [&](const Operator &o) { return isOp(opToken, o.text); });
        Op op = known != std::end(kOperators) ? known->op : Op::Eq;
        if (isKeyword(opToken, "in"))
            op = Op::In;
        else if (isKeyword(opToken, "not") && isKeyword(peek(1), "in"))
            op = Op::NotIn;
        else if (isKeyword(opToken, "is"))
            op = Op::IsNull;
        else if (known == std::end(kOperators) && s.kind == Kind::Flag) // a flag alone is a condition: `skew`, `not skew`
            return {"(" + std::string(s.sql) + " = 1)", rowComparison(s.field, Op::Eq, {std::int64_t{1}})};
        else if (known == std::end(kOperators))
            fail(opToken.pos, opToken.len,
                 "expected an operator after " + quoted(nameToken.text) + " (=, !=, <, <=, >, >=, ~, in, is)");
        next();
        if (op == Op::NotIn)
            next();
        const bool scalar = s.kind != Kind::Attribute && s.kind != Kind::Text && s.kind != Kind::SourceId;
        const bool countable
            = s.kind == Kind::Duration || s.kind == Kind::Count || s.kind == Kind::Time || s.kind == Kind::Attribute;
        if ((op == Op::Like && scalar) || (ordered(op) && !countable))
            fail(opToken.pos, opToken.len, quoted(opToken.text) + " does not apply to " + s.name);

        std::vector<Bound> values;
        if (op == Op::IsNull) {
            const bool negated = isKeyword(peek(), "not");
            if (negated)
                next();
            const Token &w = next();
            if (!isKeyword(w, "measured") && !isKeyword(w, "missing"))
                fail(w.pos, w.len, "expected \"measured\" or \"missing\" after \"is\"");
            op = isKeyword(w, "measured") != negated ? Op::NotNull : Op::IsNull;
        } else if (op == Op::In || op == Op::NotIn) {
            const Token &open = next();
            if (!isOp(open, "("))
                fail(open.pos, open.len, "expected \"(\" after \"in\", e.g. in (a, b)");
            if (isOp(peek(), ")"))
                fail(peek().pos, peek().len, "an empty list: give at least one value");
            for (const Token *sep = nullptr; !sep || !isOp(*sep, ")");) {
                values.push_back(value(s, op, previousText()));
                sep = &next();
                if (sep->kind == Tok::End)
                    fail(open.pos, open.len, "unbalanced parenthesis: this \"(\" is never closed");
                if (!isOp(*sep, ",") && !isOp(*sep, ")"))
                    fail(sep->pos, sep->len, "expected \",\" or \")\" in the list, not " + quoted(sep->text));
            }
        } else {
            values.push_back(value(s, op, opToken.text));
        }
        std::optional<RowCondition> rows = rowComparison(s.field, op, values); // before emit() moves the values
        std::string sql = emit(s, op, values);
        if (m_out.values.size() > kMaxValues)
            fail(nameToken.pos, nameToken.len, "too many values (at most " + std::to_string(kMaxValues) + ")");
        return {std::move(sql), std::move(rows)};
    }

    /// The duration that number token `t` starts, in ns: its unit written against it or apart ("2s",
    /// "1.5 s"), milliseconds without one (the unit of the reports).
    Bound duration(const Token &t)
    {
        std::string unit = t.unit;
        std::size_t unitPos = t.pos + t.text.size();
        if (const Token &u = peek();
            unit.empty() && u.kind == Tok::Word && !isKeyword(u, "and") && !isKeyword(u, "or")) {
            unit = next().text; // "1.5 s": the unit written apart
            unitPos = u.pos;
        }
        // No unit means milliseconds, the unit of the reports (docs/FILTER.md).
        const std::optional<std::int64_t> factor = durationUnitNs(unit);
        if (!factor)
            fail(unitPos, unit.size(), "unit " + quoted(unit) + " is not one of ns, us (µs), ms, s, m (min), h");
        if (auto v = scaled(t, *factor, true))
            return *v;
        fail(t.pos, t.len, "the duration " + quoted(t.text + unit) + " is out of range");
    }

    /// Reads one value for a comparison of `s`, converted to what its column holds.
    Bound value(const Subject &s, Op op, const std::string &after)
    {
        const Token &t = next();
        const bool number = t.kind == Tok::Number;
        const bool word = t.kind == Tok::Word || t.kind == Tok::String;
        const std::string name = lowered(t.text);
        const auto textual = [&]() -> std::string {
            if (!word && !number && t.kind != Tok::Time)
                fail(t.pos, t.len, "expected a value after " + quoted(after) + ", e.g. \"text\"");
            return number ? t.text + t.unit : t.text;
        };
        const auto pick = [&](std::span<const std::string_view> names, std::int64_t first) -> Bound {
            for (std::string_view n : names) {
                if (word && name == n)
                    return first;
                ++first;
            }
            std::string list;
            for (std::string_view n : names)
                list += (list.empty() ? "" : ", ") + std::string(n);
            fail(t.pos, t.len, quoted(s.name) + " takes " + (s.kind == Kind::Segment ? "a segment name: " : "") + list);
        };
        if (op == Op::Like)
            return likePattern(textual());
        switch (s.kind) {
        case Kind::Duration:
            if (!number)
                fail(t.pos, t.len, "expected a duration after " + quoted(after) + " (e.g. 2s)");
            return duration(t);
        case Kind::Count:
        case Kind::Attribute:
            if (number && !t.unit.empty())
                fail(t.pos + t.text.size(), t.unit.size(),
                     quoted(s.name) + (s.kind == Kind::Count ? " is a count" : " is an attribute")
                         + ": it takes a plain number, without a unit");
            if (number) {
                if (auto v = scaled(t, 1, false))
                    return *v;
                fail(t.pos, t.len, "the number " + quoted(t.text) + " is out of range");
            }
            if (s.kind == Kind::Count)
                fail(t.pos, t.len, "expected a number after " + quoted(after) + " (" + s.name + " is a count)");
            if (t.kind == Tok::Word && (name == "true" || name == "false"))
                return std::int64_t{name == "true"}; // JSON true and false read as 1 and 0 in SQLite
            return textual();
        case Kind::Time: {
            // A number with a unit is a duration from 0: how the charts write a start on a trace whose times
            // are offsets from an unknown origin (docs/FILTER.md).
            if (number && (!t.unit.empty() || (peek().kind == Tok::Word && durationUnitNs(peek().text))))
                return duration(t);
            if (number && t.unit.empty() && t.text.find('.') == std::string::npos) {
                if (auto v = scaled(t, 1, true))
                    return *v;
            }
            RequestFilter parsed; // the time-range option's parser, so both read times alike
            std::string why;
            if ((t.kind == Tok::Time || t.kind == Tok::String) && !t.text.empty()
                && t.text.find("..") == std::string::npos && parseTimeRange(t.text + "..", parsed, &why))
                return parsed.fromNs;
            fail(t.pos, t.len,
                 "\"start\" takes an ISO-8601 UTC time such as 2024-05-01T12:00:00Z or ns since the epoch");
        }
        case Kind::Status:
            return pick(kStatusValues, 0);
        case Kind::Scope:
            return pick(kScopeValues, 1);
        case Kind::Flag:
            return pick(kFlagValues, 0);
        case Kind::Segment: // in pipeline order, the ids of lx::Segment and the segments table
            return pick(kSegmentNames, 0);
        case Kind::Text:
        case Kind::SourceId:
            break;
        }
        return textual();
    }

    void bind(std::vector<Bound> &values)
    {
        for (Bound &v : values)
            m_out.values.push_back(std::move(v));
    }

    /// `(operand op ?)`, `(operand IN (?, ...))` or `(operand IS NULL)`, binding the values.
    std::string compare(std::string_view operand, Op op, std::vector<Bound> &values)
    {
        std::string sql = "(" + std::string(operand);
        if (op == Op::IsNull || op == Op::NotNull)
            sql += op == Op::IsNull ? " IS NULL" : " IS NOT NULL";
        else if (op == Op::In || op == Op::NotIn)
            sql += (op == Op::NotIn ? " NOT IN (" : " IN (") + placeholders(values.size()) + ")";
        else
            sql += kSqlOperators[static_cast<int>(op)];
        bind(values);
        return sql + ")";
    }

    std::string emit(const Subject &s, Op op, std::vector<Bound> &values)
    {
        const bool presence = op == Op::IsNull || op == Op::NotNull;
        const std::string in = op == Op::Ne || op == Op::NotIn ? " NOT IN" : " IN";
        std::string marks = "= ?";
        if (op == Op::In || op == Op::NotIn)
            marks = "IN (" + placeholders(values.size()) + ")";
        else if (op == Op::Like)
            marks = "LIKE ? ESCAPE '\\'";
        if (s.kind == Kind::Text && !presence) {
            // model and route hold label ids: the text is matched in the labels table.
            bind(values);
            return "(" + std::string(s.sql) + in + " (SELECT id FROM labels WHERE text " + marks + "))";
        }
        if (s.kind == Kind::SourceId && !presence) {
            // An id look-up goes through the index on id_hash first; the text then settles collisions.
            std::string where = "source_id " + marks;
            if (op != Op::Like) {
                where = "id_hash " + marks + " AND " + where;
                for (const Bound &v : values)
                    m_out.values.emplace_back(static_cast<std::int64_t>(hashRequestId(std::get<std::string>(v))));
            }
            bind(values);
            return "(r.id" + in + " (SELECT request_id FROM request_details WHERE " + where + "))";
        }
        if (s.kind != Kind::Attribute)
            return compare(s.sql, op, values);

        // An attribute is a scalar subquery, NULL when absent, so that `not` and `!=` treat it as a column.
        // Ordered comparisons keep to one JSON type, since SQLite orders every text after every number.
        std::string inner
            = "SELECT json_extract(d.attributes, ?) AS v FROM request_attributes_json d WHERE d.request_id = r.id";
        if (plainJsonKey(s.name)) {
            m_out.values.emplace_back("$.\"" + s.name + "\"");
        } else {
            inner = "SELECT a.value AS v FROM request_attributes_json d, json_each(d.attributes) a WHERE d.request_id = r.id "
                    "AND a.key = ?";
            m_out.values.emplace_back(s.name);
        }
        std::string operand = "(" + inner + ")";
        if (ordered(op)) {
            const bool text = std::holds_alternative<std::string>(values.front());
            operand
                = "(SELECT v FROM (" + inner + ") WHERE typeof(v) " + (text ? "= 'text')" : "IN ('integer', 'real'))");
        }
        return compare(operand, op, values);
    }

    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_depth = 0;
    int m_comparisons = 0;
    SqlCondition m_out;
};

} // namespace

std::variant<RequestFilter, FilterError> filterFromExpression(std::string_view text)
{
    auto compiled = compileFilterExpression(text);
    if (auto *error = std::get_if<FilterError>(&compiled))
        return std::move(*error);
    RequestFilter filter;
    if (auto &condition = std::get<SqlCondition>(compiled); condition.sql != "1")
        filter.expression = std::move(condition);
    return filter;
}

std::variant<SqlCondition, FilterError> compileFilterExpression(std::string_view text)
{
    if (const std::size_t bad = invalidUtf8At(text); bad != std::string_view::npos)
        return FilterError{bad, 1, "the text is not valid UTF-8"};
    // Errors unwind from deep in the recursion to here, and no further: no exception leaves this file.
    try {
        return Parser(text).run();
    } catch (const SyntaxError &e) {
        return e.error;
    }
}

std::vector<std::string_view> filterFieldNames()
{
    std::vector<std::string_view> names;
    for (const Field &f : fields())
        names.push_back(f.name);
    return names;
}

} // namespace lx
