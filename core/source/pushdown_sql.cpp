// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/pushdown_sql.h"

#include "source/pushdown_requests.h"

#include <algorithm>
#include <cstdio>

namespace lx::source {

namespace {

/// A number as ClickHouse reads it back to the same double (17 significant digits).
std::string exactNumber(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

/// The levels (0..1) as bound Float64 parameters of a quantiles function.
std::string levelsSql(const std::vector<double> &levels, ClickHouseQuery &query, const std::string &prefix)
{
    std::string out;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::string name = prefix + std::to_string(i);
        query.params.emplace_back(name, exactNumber(levels[i]));
        out += (i ? ", {" : "{") + name + ":Float64}";
    }
    return out;
}

std::vector<double> levelsOf(const std::vector<double> &percentiles)
{
    std::vector<double> levels;
    for (double p : percentiles)
        levels.push_back(p / 100.0);
    return levels;
}

/// The attributes are parsed as the pull's from_chars does: correctly rounded (ClickHouse's default
/// parser may be one ulp off, and a second times 1e9 would then differ by a nanosecond).
constexpr const char *kExactParsing = "\nSETTINGS precise_float_parsing = 1";

std::string quantilesFunction(QuantileMode mode)
{
    return mode == QuantileMode::Exact ? "quantilesExactInclusive" : "quantilesTDigest";
}

} // namespace

std::string pushDownRefusal(const SpanMapping &mapping)
{
    // Every selector and source of a mapping file has its SQL now; a minus of a minus is the one order the
    // reader's two passes give that the SQL's single pass of aliases does not.
    for (int s = 0; s < kMappedSegments; ++s) {
        for (const SegmentSource &source : mapping.segments[static_cast<std::size_t>(s)]) {
            for (int m : source.minus) {
                const auto &other = mapping.segments[static_cast<std::size_t>(m)];
                if (std::any_of(other.begin(), other.end(), [](const SegmentSource &x) { return !x.minus.empty(); }))
                    return "mapping \"" + mapping.name + "\": " + std::string(segmentName(static_cast<Segment>(s)))
                           + " subtracts a segment that subtracts in turn";
            }
        }
    }
    return {};
}

bool readsBelowRequest(const SpanMapping &mapping) { return !spansSources(mapping).empty() || !mapping.inner.empty(); }

ClickHouseQuery pushDownShapeQuery(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const SpanMappings &mappings,
                                   std::size_t j)
{
    ClickHouseQuery query;
    const SpanMapping &mapping = mappings[j];
    const std::string spans = claimedSpansSql(endpoint, window, mappings, j, query);
    std::string chosen = "0", perTrace;
    for (std::size_t k = mapping.inner.size(); k-- > 0;) {
        const std::string n = "i" + std::to_string(k);
        chosen = "if(" + n + " > 0, " + n + ", " + chosen + ")";
    }
    for (std::size_t k = 0; k < mapping.inner.size(); ++k)
        perTrace += ", countIf(inner_match_" + std::to_string(k) + ") AS i" + std::to_string(k);
    query.sql = "SELECT count() AS traces, countIf(claimed_spans > 1 AND NOT (roots = 1 AND claimed_roots = 1)) AS nested, "
                "countIf(claimed_spans >= 1 AND roots > 1) AS multi_root, countIf(mine >= 1 AND claimed_roots = 0) AS below_root, "
                "countIf(mine >= 1 AND " + chosen + " > 1) AS ambiguous_inner\n"
                "FROM (SELECT TraceId, countIf(claimed) AS claimed_spans, countIf(claimed_by = " + std::to_string(j) + ") AS mine, countIf(is_root) AS roots, countIf(claimed AND is_root) AS claimed_roots"
                + perTrace + " FROM (" + spans + ") GROUP BY TraceId)";
    return query;
}

ClickHouseQuery pushDownFiguresQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings)
{
    ClickHouseQuery query;
    const std::string requests = requestsSql(endpoint, spec, mappings, query);
    const std::string levels = levelsSql(levelsOf(spec.percentiles), query, "q");
    std::string sql = "SELECT countIf(bad) AS rejected, countIf(NOT bad) AS total, countIf(NOT bad AND NOT failed) AS ok, "
                      "countIf(NOT bad AND failed) AS error, minIf(start_ns, NOT bad) AS first_start, maxIf(start_ns, NOT bad) AS last_start, "
                      "countIf(inc AND client) AS client_e2e";
    for (int d = 0; d < kSegmentCount; ++d)
        sql += ", countIf(inc AND dominant = " + std::to_string(d) + ") AS dom" + std::to_string(d);
    std::vector<std::string> metrics;
    for (int s = 0; s < kSegmentCount; ++s)
        metrics.push_back("m" + std::to_string(s));
    for (const char *m : {"e2e", "ttft", "tpot", "ttlt"})
        metrics.emplace_back(m);
    for (const std::string &m : metrics) {
        sql += ",\n  countIf(inc AND " + m + " IS NOT NULL) AS " + m + "_count, toString(sumIf(toInt128(" + m + "), inc)) AS " + m
               + "_sum, maxIf(" + m + ", inc) AS " + m + "_max, " + quantilesFunction(spec.mode) + "If(" + levels + ")(" + m + ", inc) AS "
               + m + "_q";
    }
    query.sql = sql + "\nFROM (" + requests + ")" + kExactParsing;
    return query;
}

ClickHouseQuery pushDownLoadQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                                  std::int64_t windowNs)
{
    ClickHouseQuery query;
    const std::string requests = requestsSql(endpoint, spec, mappings, query);
    const std::string levels = levelsSql(levelsOf(spec.percentiles), query, "q");
    query.params.emplace_back("window_ns", std::to_string(windowNs));
    query.sql = "SELECT toString(toUnixTimestamp64Nano(toStartOfInterval(fromUnixTimestamp64Nano(start_ns), "
                "toIntervalNanosecond({window_ns:Int64})))) AS window_ns, count() AS requests, countIf(inc) AS in_statistics, "
                + quantilesFunction(spec.mode) + "If(" + levels + ")(e2e, inc) AS e2e_q, toString(sumIf(toInt128(e2e), inc)) AS e2e_sum\n"
                "FROM (" + requests + ")\nWHERE NOT bad GROUP BY window_ns ORDER BY window_ns" + kExactParsing;
    return query;
}

ClickHouseQuery pushDownCdfQuery(const ClickHouseEndpoint &endpoint, const PushDownSpec &spec, const SpanMappings &mappings,
                                 const std::vector<double> &points)
{
    ClickHouseQuery query;
    const std::string requests = requestsSql(endpoint, spec, mappings, query);
    const std::string levels = levelsSql(points, query, "c");
    query.sql = "SELECT " + quantilesFunction(spec.mode) + "If(" + levels + ")(e2e, inc) AS cdf FROM (" + requests + ")" + kExactParsing;
    return query;
}

} // namespace lx::source
