// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/pushdown_requests.h"

#include <algorithm>

namespace lx::source {

/// The mapping's `spans` sources in the order sumsOfSpansSql() and sourcesSql() number them.
std::vector<const SegmentSource *> spansSources(const SpanMapping &mapping)
{
    std::vector<const SegmentSource *> out;
    for (const auto *sources : {&mapping.e2e, &mapping.segments[0], &mapping.segments[1], &mapping.segments[2],
                                &mapping.segments[3], &mapping.segments[4], &mapping.segments[5]}) {
        for (const SegmentSource &source : *sources) {
            if (source.kind == SegmentSource::Kind::Spans)
                out.push_back(&source);
        }
    }
    return out;
}

namespace {

/// Adds bound parameters to a query and names their placeholders: every value of the mapping (attribute
/// keys, span names) and of the spec (percentiles) goes through here, never into the SQL text.
class Binder {
public:
    explicit Binder(ClickHouseQuery &query) : m_query(query) {}

    std::string operator()(const std::string &value, const char *type = "String")
    {
        // Named by their place among the query's parameters: several binders on one query never collide.
        const std::string name = "v" + std::to_string(m_query.params.size());
        m_query.params.emplace_back(name, value);
        return "{" + name + ":" + type + "}";
    }

private:
    ClickHouseQuery &m_query;
};

/// The span's status is an error, as otel_traces_rows.cpp reads it.
constexpr const char *kIsError = "StatusCode IN ('Error', 'STATUS_CODE_ERROR', 'ERROR')";

const char *kindName(int kind)
{
    static constexpr const char *kNames[] = {"unspecified", "internal", "server", "client", "producer", "consumer"};
    return kind >= 0 && kind < 6 ? kNames[kind] : "";
}

/// One selector as a condition on a span of the `linked` rows (every condition it gives must hold). An
/// inner selector's "other service" compares with the trace's root's (the request, its only root).
std::string selectorSql(const SpanSelector &s, Binder &bind, bool inner)
{
    std::vector<std::string> all;
    if (s.otherService) // a root selector has no root to differ from: it never matches, as in the reader
        all.push_back(inner ? "ServiceName != root_service" : "0");
    if (!s.names.empty()) {
        std::string names;
        for (const std::string &name : s.names)
            names += (names.empty() ? "" : ", ") + bind(name);
        all.push_back("SpanName IN (" + names + ")");
    }
    if (!s.attribute.empty())
        all.push_back("mapContains(SpanAttributes, " + bind(s.attribute) + ")");
    if (!s.attributePrefix.empty())
        all.push_back("arrayExists(k -> startsWith(k, " + bind(s.attributePrefix) + "), mapKeys(SpanAttributes))");
    if (s.kind >= 0) // the exporter writes "Server" (older versions "SPAN_KIND_SERVER"); read as the pull does
        all.push_back("lower(replaceRegexpOne(SpanKind, '^SPAN_KIND_', '')) = " + bind(kindName(s.kind))
                      + (s.kind == 0 ? " OR SpanKind = ''" : ""));
    if (s.noParent)
        all.push_back("is_root");
    if (!s.childNames.empty()) { // a direct child of one of these names: its trace's (parent, name) pairs
        std::string names;
        for (const std::string &name : s.childNames)
            names += (names.empty() ? "" : ", ") + bind(name);
        all.push_back("arrayExists(x -> x.1 = SpanId AND x.2 IN (" + names + "), trace_children)");
    }
    std::string out;
    for (const std::string &condition : all)
        out += (out.empty() ? "(" : " AND (") + condition + ")";
    return out.empty() ? "1" : out;
}

/// The index of the first mapping whose root selectors claim the span, -1 for none (emitSpanRequests()).
std::string claimedBySql(const SpanMappings &mappings, Binder &bind)
{
    std::string out = "multiIf(";
    for (std::size_t j = 0; j < mappings.size(); ++j) {
        std::string any;
        for (const SpanSelector &s : mappings[j].root)
            any += (any.empty() ? "(" : " OR (") + selectorSql(s, bind, false) + ")";
        out += (any.empty() ? std::string("0") : any) + ", " + std::to_string(j) + ", ";
    }
    return out + "-1)";
}

const char *unitScale(ValueUnit unit)
{
    switch (unit) {
    case ValueUnit::Seconds: return "1e9";
    case ValueUnit::Milliseconds: return "1e6";
    case ValueUnit::Microseconds: return "1e3";
    default: return "1e0";
    }
}

/// A list of sources as two expressions: the value (Nullable(Int64), the first source that measures) and
/// whether the request is rejected by a source that was tried (an attribute that is no number, negative,
/// not finite or past int64 ns, or no duration string), as otlp_requests.cpp's MappedRequest::measure() does.
struct SourcesSql {
    std::string value = "CAST(NULL AS Nullable(Int64))";
    std::string bad = "0";
};

bool hasChildSelector(const SpanMappings &mappings)
{
    const auto child = [](const SpanSelector &s) { return !s.childNames.empty(); };
    return std::any_of(mappings.begin(), mappings.end(), [&](const SpanMapping &m) {
        return std::any_of(m.root.begin(), m.root.end(), child) || std::any_of(m.inner.begin(), m.inner.end(), child);
    });
}

/// Each inner selector as a condition on a span below the root: `inner_match_K`.
std::string innerMatchesSql(const SpanMapping &mapping, Binder &bind)
{
    std::string out;
    for (std::size_t k = 0; k < mapping.inner.size(); ++k)
        out += ", NOT is_root AND (" + selectorSql(mapping.inner[k], bind, true) + ") AS inner_match_" + std::to_string(k);
    return out;
}

/// Per trace, what each inner selector finds below the root: `inner_n_K` spans, and one's start, end,
/// attributes and error. The reader takes the first selector that finds one, in breadth-first order;
/// pushDownShapeQuery() refuses a window where that selector finds more than one, whose order SQL lacks.
std::string innerSpansSql(const SpanMapping &mapping)
{
    std::string out;
    for (std::size_t k = 0; k < mapping.inner.size(); ++k) {
        const std::string m = "inner_match_" + std::to_string(k);
        const std::string K = std::to_string(k);
        out += ", countIf(" + m + ") OVER (PARTITION BY TraceId) AS inner_n_" + K + ", anyIf(start_ns, " + m
               + ") OVER (PARTITION BY TraceId) AS inner_start_" + K + ", anyIf(start_ns + duration_ns, " + m
               + ") OVER (PARTITION BY TraceId) AS inner_end_" + K + ", anyIf(SpanAttributes, " + m
               + ") OVER (PARTITION BY TraceId) AS inner_attrs_" + K + ", anyIf(is_error, " + m
               + ") OVER (PARTITION BY TraceId) AS inner_error_" + K;
    }
    return out;
}

/// The request's inner span: the first selector's that found one, else the request span itself, as
/// columns `inner_found`, `inner_start`, `inner_end`, `inner_attrs`, `inner_error`.
std::string chosenInnerSql(const SpanMapping &mapping)
{
    const auto pick = [&](const std::string &what, const std::string &otherwise) {
        if (mapping.inner.empty())
            return otherwise;
        std::string out = "multiIf(";
        for (std::size_t k = 0; k < mapping.inner.size(); ++k)
            out += "inner_n_" + std::to_string(k) + " > 0, " + what + "_" + std::to_string(k) + ", ";
        return out + otherwise + ")";
    };
    std::string found = "0";
    for (std::size_t k = 0; k < mapping.inner.size(); ++k)
        found += " OR inner_n_" + std::to_string(k) + " > 0";
    return ",\n  " + found + " AS inner_found, " + pick("inner_start", "start_ns") + " AS inner_start, "
           + pick("inner_end", "start_ns + duration_ns") + " AS inner_end,\n  " + pick("inner_attrs", "SpanAttributes")
           + " AS inner_attrs, " + pick("inner_error", "is_error") + " AS inner_error";
}

/// Per trace, the summed durations of the spans named by each `spans` source, and how many there are, but
/// the root's own: `spans_sum_K`, `spans_n_K`. They are the request's descendants when the request is the
/// trace's only root, which pushDownShapeQuery() makes sure of for a mapping that sums spans.
std::string sumsOfSpansSql(const SpanMapping &mapping, bool children, Binder &bind)
{
    std::string out;
    const auto sources = spansSources(mapping);
    for (std::size_t k = 0; k < sources.size(); ++k) {
        std::string names;
        for (const std::string &name : sources[k]->spanNames)
            names += (names.empty() ? "" : ", ") + bind(name);
        const std::string named = "NOT is_root AND SpanName IN (" + names + ")";
        out += ", sumIf(duration_ns, " + named + ") OVER (PARTITION BY TraceId) AS spans_sum_" + std::to_string(k) + ", countIf("
               + named + ") OVER (PARTITION BY TraceId) AS spans_n_" + std::to_string(k);
    }
    if (children)
        out += ", groupArray((ParentSpanId, SpanName)) OVER (PARTITION BY TraceId) AS trace_children";
    return out;
}

/// A duration string ("12.3ms", "1m2.5s", "450µs": TGI's) as otlp_duration_string.cpp reads it: parts of
/// digits, an optional fraction and a unit; each part's whole number times its unit, plus its fraction
/// (its first 30 digits, correctly rounded) times the unit rounded half away from zero. `bad` when the
/// text is not that whole.
SourcesSql durationStringSql(const std::string &attributes, const std::string &key, Binder &bind)
{
    const std::string text = attributes + "[" + key + "]";
    const std::string units = "(ns|us|\xC2\xB5s|\xCE\xBCs|ms|s|m|h)"; // longest spelling first, as readUnit()
    // "[.]", not a backslash: a String parameter's value is read with escapes.
    const std::string whole = bind("^(?:(?:[0-9]+(?:[.][0-9]+)?|[.][0-9]+)" + units + ")+$");
    const std::string parts = bind("([0-9]*)(?:[.]([0-9]+))?" + units);
    const std::string factor = "multiIf(g[3] = 'ns', 1, g[3] = 'ms', 1000000, g[3] = 's', 1000000000, g[3] = 'm', 60000000000, "
                               "g[3] = 'h', 3600000000000, 1000)";
    const std::string fraction = "(toFloat64OrZero(concat('0.', substring(g[2], 1, 30))) * " + factor + ")";
    SourcesSql out;
    out.bad = "NOT match(" + text + ", " + whole + ")";
    out.value = "arraySum(arrayMap(g -> toInt64OrZero(g[1]) * " + factor + " + toInt64(trunc(" + fraction + ")) + (" + fraction
                + " - trunc(" + fraction + ") >= 0.5), extractAllGroups(" + text + ", " + parts + ")))";
    return out;
}

SourcesSql sourcesSql(const std::vector<SegmentSource> &sources, const SpanMapping &mapping, Binder &bind)
{
    std::vector<std::pair<std::string, std::string>> each; // value, bad
    const auto numbered = spansSources(mapping);
    for (const SegmentSource &source : sources) {
        if (source.kind == SegmentSource::Kind::Spans) {
            const std::string k = std::to_string(std::find(numbered.begin(), numbered.end(), &source) - numbered.begin());
            each.emplace_back("if(spans_n_" + k + " > 0, spans_sum_" + k + ", NULL)", "0");
            continue;
        }
        if (source.kind == SegmentSource::Kind::BeforeInner || source.kind == SegmentSource::Kind::AfterInner) {
            // From the root's start to the inner span's, or from its end to the root's; a negative gap (other
            // clocks) measures nothing.
            const std::string gap = source.kind == SegmentSource::Kind::BeforeInner ? "(inner_start - start_ns)"
                                                                                     : "(start_ns + duration_ns - inner_end)";
            each.emplace_back("if(inner_found AND " + gap + " >= 0, " + gap + ", NULL)", "0");
            continue;
        }
        const std::string attributes = source.onRoot ? "SpanAttributes" : "inner_attrs";
        const std::string key = bind(source.attribute);
        const std::string has = "mapContains(" + attributes + ", " + key + ")";
        std::string bad, value;
        if (source.unit == ValueUnit::DurationString) {
            const SourcesSql duration = durationStringSql(attributes, key, bind);
            bad = "(" + has + " AND " + duration.bad + ")";
            value = "if(" + has + " AND NOT " + bad + ", " + duration.value + ", NULL)";
        } else {
            const std::string scaled = "(toFloat64OrNull(" + attributes + "[" + key + "]) * " + unitScale(source.unit) + ")";
            // What scaledToNs() refuses; nearbyint() rounds half to even, as roundBankers does.
            bad = "(" + has + " AND ifNull(NOT isFinite(" + scaled + ") OR " + scaled + " < 0 OR roundBankers(" + scaled
                  + ") >= 9.2233720368547758e18, 1))";
            const std::string good = "(" + has + " AND NOT " + bad + ")";
            value = "if(" + good + ", toInt64(roundBankers(if(" + good + ", " + scaled + ", 0))), NULL)";
        }
        if (!source.minus.empty()) {
            // All the subtracted segments measured and the rest not negative, else nothing (a different clock).
            std::string rest = "(" + value + ")";
            std::string known = rest + " IS NOT NULL";
            for (int s : source.minus) {
                rest += " - m" + std::to_string(s);
                known += " AND m" + std::to_string(s) + " IS NOT NULL";
            }
            value = "if(" + known + " AND " + rest + " >= 0, " + rest + ", NULL)";
        }
        each.emplace_back(value, bad);
    }
    SourcesSql out;
    if (each.empty())
        return out;
    out.value = "coalesce(";
    for (std::size_t i = 0; i < each.size(); ++i)
        out.value += (i ? ", " : "") + each[i].first;
    out.value += each.size() == 1 ? ", CAST(NULL AS Nullable(Int64)))" : ")";
    // A later source is tried only when the ones before measured nothing.
    out.bad = "0";
    for (std::size_t i = each.size(); i-- > 0;)
        out.bad = "(" + each[i].second + " OR (" + each[i].first + " IS NULL AND " + out.bad + "))";
    return out;
}

/// An integer attribute (a token count) as applyAttribute() reads it: whole text, or a whole number.
std::string integerAttribute(const std::string &attributes, const std::string &key)
{
    const std::string text = attributes + "[" + key + "]";
    const std::string f = "toFloat64OrNull(" + text + ")";
    return "if(mapContains(" + attributes + ", " + key + "), ifNull(toInt64OrNull(" + text + "), if(ifNull(isFinite(" + f + ") AND " + f
           + " = trunc(" + f + ") AND abs(" + f + ") < 9.2e18, 0), toInt64(if(ifNull(isFinite(" + f + ") AND abs(" + f
           + ") < 9.2e18, 0), " + f + ", 0)), NULL)), NULL)";
}

} // namespace

std::string claimedSpansSql(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const SpanMappings &mappings,
                            std::size_t j, ClickHouseQuery &query)
{
    Binder bind(query);
    const SpanMapping &mapping = mappings[j];
    const std::string traceIds = windowTraceIds(endpoint, window, query);
    const std::string linked =
        "SELECT c.TraceId AS TraceId, c.SpanId AS SpanId, c.ParentSpanId AS ParentSpanId, c.SpanName AS SpanName, c.SpanKind AS SpanKind, c.ServiceName AS ServiceName, c.StatusCode AS StatusCode,\n"
        "       c.SpanAttributes AS SpanAttributes, toUnixTimestamp64Nano(c.Timestamp) AS start_ns, toInt64(c.Duration) AS duration_ns,\n"
        // The parent by its id, once (a retried export can write a row twice: the reader keeps the first), and
        // no parent found is a root whatever join_use_nulls the user's profile sets.
        "       empty(ifNull(p.SpanId, '')) AS is_root\n"
        "FROM " + std::string(kOtelTracesTable) + " AS c\n"
        "LEFT JOIN (SELECT DISTINCT TraceId, SpanId FROM " + kOtelTracesTable + " WHERE TraceId IN (" + traceIds + ")) AS p\n"
        "  ON c.TraceId = p.TraceId AND c.ParentSpanId = p.SpanId\n"
        "WHERE c.TraceId IN (" + traceIds + ")";
    const std::string family = "SELECT *, " + std::string(kIsError) + " AS is_error, anyIf(ServiceName, is_root) OVER (PARTITION BY TraceId) "
                               "AS root_service" + sumsOfSpansSql(mapping, hasChildSelector(mappings), bind) + " FROM (" + linked + ")";
    const std::string claimed = "SELECT *, " + claimedBySql(mappings, bind) + " AS claimed_by, claimed_by >= 0 AS claimed"
                                + innerMatchesSql(mapping, bind) + " FROM (" + family + ")";
    return "SELECT *, countIf(claimed) OVER (PARTITION BY TraceId) AS claimed_in_trace, countIf(is_root) OVER (PARTITION BY TraceId) "
           "AS roots_in_trace" + innerSpansSql(mapping) + "\nFROM (" + claimed + ")";
}

/// The requests claimed by mapping `j` (and, with the first, the unclaimed traces' roots), each with what
/// the OTLP reader would make of it (the columns requestsSql() names).
std::string requestsOfMappingSql(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                                 std::size_t j, ClickHouseQuery &query)
{
    const SpanMapping &mapping = mappings[j];
    const std::string spans = claimedSpansSql(endpoint, spec.window, mappings, j, query);
    Binder bind(query);
    std::string select = "SELECT start_ns" + chosenInnerSql(mapping) + ", is_error OR (claimed AND inner_error) AS failed";
    std::string mappingBad = "0";
    // Segments without subtractions first: the others subtract them (MappedRequest::measure()).
    for (int pass = 0; pass < 2; ++pass) {
        for (int s = 0; s < kMappedSegments; ++s) {
            const auto &sources = mapping.segments[static_cast<std::size_t>(s)];
            const bool subtracts = std::any_of(sources.begin(), sources.end(), [](const SegmentSource &x) { return !x.minus.empty(); });
            if (subtracts != (pass == 1))
                continue;
            const SourcesSql sql = sourcesSql(sources, mapping, bind);
            select += ",\n  if(claimed, " + sql.value + ", NULL) AS m" + std::to_string(s);
            mappingBad += " OR " + sql.bad;
        }
    }
    const SourcesSql e2e = sourcesSql(mapping.e2e, mapping, bind);
    mappingBad += " OR " + e2e.bad;
    select += ",\n  coalesce(if(claimed, " + e2e.value + ", NULL), duration_ns) AS e2e";
    select += ",\n  ifNull(m0, 0) + ifNull(m1, 0) + ifNull(m2, 0) + ifNull(m3, 0) + ifNull(m4, 0) + ifNull(m5, 0) AS covered";
    select += ",\n  e2e - covered AS m6";
    // The inner span's token count when it has one (>= 0), else the request span's (fill()).
    const auto tokens = [&](const char *key, const char *older) {
        const std::string k = bind(key), o = bind(older);
        const std::string inner = "coalesce(" + integerAttribute("inner_attrs", k) + ", " + integerAttribute("inner_attrs", o) + ")";
        const std::string root = "coalesce(" + integerAttribute("SpanAttributes", k) + ", " + integerAttribute("SpanAttributes", o) + ")";
        return "if(claimed AND ifNull(" + inner + ", -1) >= 0, " + inner + ", " + root + ")";
    };
    const std::string out = tokens("gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens");
    const std::string in = tokens("gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens");
    select += ",\n  " + out + " AS output_tokens,\n  " + in + " AS input_tokens";
    // What the pull rejects: an attribute a source tried that is not a duration, the e2e short of the
    // segments, a gen_ai.latency.* value that is no number or a token count that is no integer (any span's
    // row: otlp_span.cpp's applyAttribute()), a negative token count.
    const std::string noInteger = "(k, v) -> k IN ('gen_ai.usage.prompt_tokens', 'gen_ai.usage.input_tokens', "
                                  "'gen_ai.usage.completion_tokens', 'gen_ai.usage.output_tokens') AND toInt64OrNull(v) IS NULL "
                                  "AND NOT ifNull(toFloat64OrNull(v) = trunc(toFloat64OrNull(v)) AND abs(toFloat64OrNull(v)) < 9.2e18, 0)";
    select += ",\n  (claimed AND (" + mappingBad + ")) OR e2e < covered"
              " OR arrayExists((k, v) -> startsWith(k, 'gen_ai.latency.') AND toFloat64OrNull(v) IS NULL, mapKeys(SpanAttributes), mapValues(SpanAttributes))"
              " OR arrayExists(" + noInteger + ", mapKeys(SpanAttributes), mapValues(SpanAttributes))"
              " OR ifNull(output_tokens, -1) < -1 OR ifNull(input_tokens, -1) < -1 AS bad";
    select += ",\n  NOT bad AND (NOT failed OR " + bind(spec.includeErrors ? "1" : "0", "Bool") + ") AS inc";
    // decomposeDurations(): TTFT is prefill with the preprocess and queue that were given.
    select += ",\n  if(m3 IS NULL, NULL, m3 + ifNull(m1, 0) + ifNull(m2, 0)) AS ttft";
    select += ",\n  if(ttft IS NULL OR m4 IS NULL, NULL, ttft + m4) AS ttlt";
    // Divided only where there is a TPOT: with one output token the quotient is inf, which toInt64() refuses
    // when the user's profile turns short-circuit evaluation off.
    select += ",\n  if(m4 IS NULL OR ifNull(output_tokens, -1) < 2, 0, m4 / (output_tokens - 1)) AS decode_per_token";
    select += ",\n  if(m4 IS NULL OR ifNull(output_tokens, -1) < 2, NULL, " // llround() of a value >= 0
              "toInt64(trunc(decode_per_token)) + (decode_per_token - trunc(decode_per_token) >= 0.5)) AS tpot";
    select += ",\n  m0 IS NOT NULL AS client";
    // dominantSegment(): the largest measured, ties to the earlier (indexOf finds the first).
    select += ",\n  [ifNull(m0, -1), ifNull(m1, -1), ifNull(m2, -1), ifNull(m3, -1), ifNull(m4, -1), ifNull(m5, -1), m6] AS by_segment";
    select += ",\n  indexOf(by_segment, arrayMax(by_segment)) - 1 AS dominant";
    // A trace with no claimed span: each root span is a request, unattributed. With one root: that root when
    // it is claimed (the claimed spans below it are nested in it, not requests), else the one claimed span.
    // (Any other shape is refused before: pushDownShapeQuery().)
    return select + "\nFROM (" + spans + ")\nWHERE " + (j == 0 ? "(claimed_in_trace = 0 AND is_root) OR " : "")
           + "(claimed_by = " + std::to_string(j) + " AND roots_in_trace = 1 AND (is_root OR claimed_in_trace = 1))";
}

std::string requestsSql(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                        ClickHouseQuery &query)
{
    // Each mapping's requests apart, since each reads its own sources: the window is read once per mapping.
    // UNION ALL matches columns by place, and each mapping's segments come in its own order (those that
    // subtract last): every part names the same columns in one order.
    const std::string columns = "SELECT bad, inc, failed, start_ns, m0, m1, m2, m3, m4, m5, m6, e2e, ttft, tpot, ttlt, client, dominant FROM (";
    std::string out;
    for (std::size_t j = 0; j < mappings.size(); ++j)
        out += (j ? "\nUNION ALL\n" : "") + columns + requestsOfMappingSql(endpoint, spec, mappings, j, query) + ")";
    return out;
}

} // namespace lx::source
