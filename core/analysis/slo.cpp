// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/slo.h"

#include "model/duration_parse.h"
#include "filter/filter_expression.h"
#include "model/percentiles.h"
#include "store/request_scan.h"
#include "platform/float_from_chars.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace lx {

namespace {

constexpr std::string_view kMetrics[] = {"e2e", "ttft", "tpot", "itl", "ttlt"};

/// The metric of a row, kNotMeasured when it has none (or, for network, when its clock was skewed).
std::int64_t metricOf(const RequestRow &row, std::string_view metric)
{
    if (metric == "e2e")
        return row.e2e;
    if (metric == "ttft")
        return row.ttft;
    if (metric == "tpot")
        return row.tpot;
    if (metric == "ttlt")
        return row.ttlt;
    const auto s = segmentFromName(metric);
    if (!s || (*s == Segment::Network && (row.flags & kFlagClockSkew)))
        return kNotMeasured;
    return row.segments[static_cast<std::size_t>(*s)];
}

/// A request as the budget needs it: its metric, e2e and segment parts.
struct Sample {
    std::int64_t value;
    std::int64_t e2e;
    std::array<std::int64_t, kSegmentCount> parts;
};

std::string trimmed(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    return std::string(text);
}

} // namespace

std::optional<SloTarget> parseSlo(std::string_view text, std::string *error)
{
    const auto fail = [&](std::string why) -> std::optional<SloTarget> {
        if (error)
            *error = "\"" + std::string(text) + "\": " + why;
        return std::nullopt;
    };
    SloTarget t;
    t.text = trimmed(text);
    std::string_view rest = t.text;
    if (const std::size_t where = rest.find(" where "); where != std::string_view::npos) {
        t.filter = trimmed(rest.substr(where + 7));
        rest = rest.substr(0, where);
        auto compiled = compileFilterExpression(t.filter);
        if (const auto *e = std::get_if<FilterError>(&compiled))
            return fail("filter: " + e->message);
        t.condition = std::get<SqlCondition>(compiled);
    }
    const std::size_t dot = rest.find(".p");
    if (dot == std::string_view::npos)
        return fail("expected METRIC.pQ (<=|<) DURATION, e.g. e2e.p95<=2s");
    t.metric = std::string(rest.substr(0, dot));
    const bool known = std::find(std::begin(kMetrics), std::end(kMetrics), t.metric) != std::end(kMetrics)
                       || segmentFromName(t.metric).has_value();
    if (!known)
        return fail("unknown metric \"" + t.metric + "\": e2e, ttft, tpot, itl, ttlt or a segment");
    rest = rest.substr(dot + 2);
    const std::size_t op = rest.find('<');
    if (op == std::string_view::npos)
        return fail("expected <= or < after the percentile");
    const std::string number = trimmed(rest.substr(0, op));
    const auto [end, ec] = fromChars(number.data(), number.data() + number.size(), t.percentile);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || t.percentile < 0 || t.percentile > 100)
        return fail("the percentile must be a number from 0 to 100, not \"" + number + "\"");
    t.strict = op + 1 >= rest.size() || rest[op + 1] != '=';
    std::string why;
    const auto threshold = parseDurationNs(rest.substr(op + (t.strict ? 1 : 2)), &why);
    if (!threshold)
        return fail(why);
    t.thresholdNs = *threshold;
    return t;
}

std::string SloResult::budgetSentence() const
{
    if (budgetDominant < 0)
        return {};
    char text[160];
    std::snprintf(text, sizeof text, "at %s, %s is %.0f%% of e2e", percentileKey(target.percentile).c_str(),
                  std::string(segmentName(static_cast<Segment>(budgetDominant))).c_str(),
                  100.0 * budgetShare[static_cast<std::size_t>(budgetDominant)]);
    return text;
}

std::vector<SloResult> evaluateSlos(const Store &store, const RequestFilter &filter, const std::vector<SloTarget> &targets,
                                    bool includeErrors)
{
    std::vector<SloResult> results;
    const SqlCondition base = toSqlCondition(filter);
    const RowIdRange range = requestIdRange(store);
    for (const SloTarget &target : targets) {
        SloResult r;
        r.target = target;
        const SqlCondition where = target.condition ? allOf({base, *target.condition}) : base;
        std::array<std::vector<Sample>, 2> halves;
        std::vector<std::int64_t> values;
        if (target.metric == "itl") {
            scanTokenGaps(store, where, includeErrors, [&](std::int64_t gap, E2eScope) { values.push_back(gap); });
        } else {
            scanRequestRows(store, where, range, [&](int half, const RequestRow &row) {
                const std::int64_t v = metricOf(row, target.metric);
                if ((!row.ok && !includeErrors) || !isMeasured(v))
                    return;
                Sample s{v, row.e2e, {}};
                for (int k = 0; k < kSegmentCount; ++k)
                    s.parts[static_cast<std::size_t>(k)] = isMeasured(row.segments[static_cast<std::size_t>(k)]) ? row.segments[static_cast<std::size_t>(k)] : 0;
                halves[static_cast<std::size_t>(half)].push_back(s);
            });
            for (const auto &half : halves)
                for (const Sample &s : half)
                    values.push_back(s.value);
        }
        r.count = static_cast<std::int64_t>(values.size());
        const double q = target.percentile;
        const Statistic stat = summarize(values, {q, std::max(0.0, q - 1), std::min(100.0, q + 1)});
        r.valueNs = stat.percentilesNs[0];
        if (r.valueNs) {
            const double threshold = static_cast<double>(target.thresholdNs);
            r.pass = target.strict ? *r.valueNs < threshold : *r.valueNs <= threshold;
            r.marginNs = threshold - *r.valueNs;
        }
        if (r.valueNs && !r.pass && target.metric != "itl") {
            // The budget: what the requests around the percentile spend their e2e on.
            r.bandLoNs = *stat.percentilesNs[1];
            r.bandHiNs = *stat.percentilesNs[2];
            std::array<double, kSegmentCount> sums{};
            double total = 0;
            for (const auto &half : halves) {
                for (const Sample &s : half) {
                    const auto v = static_cast<double>(s.value);
                    if (v < r.bandLoNs || v > r.bandHiNs || !isMeasured(s.e2e))
                        continue;
                    ++r.bandCount;
                    total += static_cast<double>(s.e2e);
                    for (std::size_t k = 0; k < sums.size(); ++k)
                        sums[k] += static_cast<double>(s.parts[k]);
                }
            }
            if (total > 0) {
                for (std::size_t k = 0; k < sums.size(); ++k)
                    r.budgetShare[k] = sums[k] / total;
                r.budgetDominant = static_cast<int>(std::max_element(sums.begin(), sums.end()) - sums.begin());
            }
        }
        results.push_back(std::move(r));
    }
    return results;
}

} // namespace lx
