// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_pushdown.h"

#include "analysis/load_profile.h"
#include "ingest/formats/native/native_fields.h"
#include "model/duration_format.h"
#include "platform/float_from_chars.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "source/clickhouse_pull.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <utility>

namespace lx::source {

namespace {

using simdjson::dom::element;

/// Runs a query and keeps its rows' text; the error (ClickHouse's, a connection's) when it did not complete.
std::string runRows(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query, const ClickHouseRequestOptions &request,
                    std::vector<std::string> &rows, std::uint64_t *rowsRead = nullptr)
{
    const ClickHouseResult result = runClickHouseQuery(endpoint, query, [&rows](std::string_view row) {
        rows.emplace_back(row);
        return true;
    }, request);
    if (rowsRead)
        *rowsRead += result.progress.readRows;
    return result.ok() ? std::string() : result.message;
}

/// A number column: ClickHouse quotes 64-bit integers and 128-bit sums in JSON; NaN and an empty max are null.
std::optional<double> number(element cell)
{
    if (cell.is_null())
        return std::nullopt;
    if (cell.is_string()) {
        const std::string_view text = cell.get_string().value_unsafe();
        double value = 0;
        const auto [end, ec] = fromChars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
            return std::nullopt;
        return value;
    }
    double value = 0;
    if (cell.is_int64())
        value = static_cast<double>(cell.get_int64().value_unsafe());
    else if (cell.is_uint64())
        value = static_cast<double>(cell.get_uint64().value_unsafe());
    else if (cell.is_double())
        value = cell.get_double().value_unsafe();
    else
        return std::nullopt;
    return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::int64_t integer(element row, const char *name)
{
    element cell;
    if (row[name].get(cell))
        return 0;
    if (cell.is_string()) {
        const std::string_view text = cell.get_string().value_unsafe();
        std::int64_t value = 0;
        std::from_chars(text.data(), text.data() + text.size(), value);
        return value;
    }
    return cell.is_int64() ? cell.get_int64().value_unsafe() : static_cast<std::int64_t>(number(cell).value_or(0));
}

std::vector<std::optional<double>> numbers(element row, const std::string &name)
{
    std::vector<std::optional<double>> out;
    simdjson::dom::array array;
    if (row[name].get(array))
        return out;
    for (element cell : array)
        out.push_back(number(cell));
    return out;
}

/// A statistic from `<m>_count`, `<m>_sum`, `<m>_max` and `<m>_q`: the mean is the exact sum over the count,
/// as summarize() makes it.
Statistic statistic(element row, const std::string &m, std::size_t percentiles)
{
    Statistic s;
    s.count = integer(row, (m + "_count").c_str());
    s.percentilesNs.assign(percentiles, std::nullopt);
    if (s.count == 0)
        return s;
    element cell;
    if (!row[m + "_sum"].get(cell))
        if (const auto sum = number(cell))
            s.meanNs = *sum / static_cast<double>(s.count);
    if (!row[m + "_max"].get(cell))
        s.maxNs = number(cell);
    const auto q = numbers(row, m + "_q");
    for (std::size_t i = 0; i < percentiles && i < q.size(); ++i)
        s.percentilesNs[i] = q[i];
    return s;
}

/// The clock of every metric but e2e and unattributed, as analysis.cpp's segmentScope() names it for
/// spans in the durations form: network the client's, the rest the server's.
void setScope(MetricSummary &m, const char *scope)
{
    if (m.stat.count > 0)
        m.scope = scope;
}

/// e2e and unattributed: the client's when network was measured, else the server's; "mixed" with both.
void setE2eScope(MetricSummary &m, std::int64_t client)
{
    const std::int64_t server = m.stat.count - client;
    if (client > 0 && server > 0) {
        m.scope = "mixed";
        m.scopes = {{"client", client}, {"server", server}};
    } else if (m.stat.count > 0) {
        m.scope = client > 0 ? "client" : "server";
    }
}

std::string readFigures(const std::string &row, const PushDownSpec &spec, Report &report)
{
    simdjson::dom::parser parser;
    element object;
    if (parser.parse(simdjson::padded_string(row)).get(object) || !object.is_object())
        return "ClickHouse's figures are not a JSON object";
    report.percentiles = spec.percentiles;
    report.rejected = integer(object, "rejected");
    report.total = integer(object, "total");
    report.ok = integer(object, "ok");
    report.error = integer(object, "error");
    if (report.total > 0) {
        report.firstStartNs = integer(object, "first_start");
        report.lastStartNs = integer(object, "last_start");
    }
    const std::size_t n = spec.percentiles.size();
    for (int s = 0; s < kSegmentCount; ++s) {
        MetricSummary &m = report.segments[static_cast<std::size_t>(s)];
        m.stat = statistic(object, "m" + std::to_string(s), n);
        setScope(m, s == static_cast<int>(Segment::Network) ? "client" : "server");
        report.dominantCounts[static_cast<std::size_t>(s)] = integer(object, ("dom" + std::to_string(s)).c_str());
        report.dominantTotal += report.dominantCounts[static_cast<std::size_t>(s)];
    }
    const std::int64_t client = integer(object, "client_e2e");
    report.e2e.stat = statistic(object, "e2e", n);
    setE2eScope(report.e2e, client);
    setE2eScope(report.segments[static_cast<std::size_t>(Segment::Unattributed)], client);
    report.ttft.stat = statistic(object, "ttft", n);
    report.tpot.stat = statistic(object, "tpot", n);
    report.ttlt.stat = statistic(object, "ttlt", n);
    report.itl.stat.percentilesNs.assign(n, std::nullopt); // spans carry no token times: no ITL, pulled or pushed
    for (MetricSummary *m : {&report.ttft, &report.tpot, &report.ttlt})
        setScope(*m, "server");
    return {};
}

std::string readWindows(const std::vector<std::string> &rows, std::size_t percentiles, std::vector<PushDownWindow> &windows)
{
    simdjson::dom::parser parser;
    for (const std::string &row : rows) {
        element object;
        if (parser.parse(simdjson::padded_string(row)).get(object) || !object.is_object())
            return "ClickHouse's load windows are not JSON objects";
        PushDownWindow w;
        w.startNs = integer(object, "window_ns");
        w.requests = integer(object, "requests");
        w.e2e.count = integer(object, "in_statistics");
        w.e2e.percentilesNs.assign(percentiles, std::nullopt);
        const auto q = numbers(object, "e2e_q");
        for (std::size_t i = 0; w.e2e.count > 0 && i < percentiles && i < q.size(); ++i)
            w.e2e.percentilesNs[i] = q[i];
        element sum;
        if (w.e2e.count > 0 && !object["e2e_sum"].get(sum))
            if (const auto total = number(sum))
                w.e2e.meanNs = *total / static_cast<double>(w.e2e.count);
        windows.push_back(std::move(w));
    }
    return {};
}

/// The mappings as the pull would apply them (auto: vllm, sglang, tgi in turn on each span), each one that
/// SQL can compute; null with the reason naming the mapping otherwise.
std::shared_ptr<const SpanMappings> pushableMappings(const std::string &name, std::string &error)
{
    auto mappings = loadSpanMappings(name.empty() ? "auto" : name, &error);
    if (!mappings)
        return nullptr;
    for (const SpanMapping &mapping : *mappings) {
        if (std::string why = pushDownRefusal(mapping); !why.empty()) {
            error = "push-down refuses " + why + " (pull the window instead: report --from without --push-down)";
            return nullptr;
        }
    }
    return mappings;
}

std::string mappingNames(const SpanMappings &mappings)
{
    std::string names;
    for (const SpanMapping &mapping : mappings)
        names += (names.empty() ? "\"" : ", then \"") + mapping.name + "\"";
    return names;
}

/// The trace shapes push-down cannot follow (pushDownShapeQuery()), said with their counts; empty when none.
std::string shapeRefusal(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const SpanMappings &mappings,
                         const ClickHouseRequestOptions &request)
{
    std::int64_t nested = 0, multiRoot = 0, belowRoot = 0, ambiguous = 0;
    for (std::size_t j = 0; j < mappings.size(); ++j) {
        std::vector<std::string> rows;
        if (std::string why = runRows(endpoint, pushDownShapeQuery(endpoint, window, mappings, j), request, rows); !why.empty())
            return why;
        simdjson::dom::parser parser;
        element shape;
        if (rows.size() != 1 || parser.parse(simdjson::padded_string(rows.front())).get(shape))
            return "ClickHouse's shape of the window's traces is not one JSON row";
        nested = integer(shape, "nested"); // the same for every j: claimed by any mapping
        multiRoot = integer(shape, "multi_root");
        belowRoot += readsBelowRequest(mappings[j]) ? integer(shape, "below_root") : 0;
        ambiguous += integer(shape, "ambiguous_inner");
    }
    if (nested == 0 && multiRoot == 0 && belowRoot == 0 && ambiguous == 0)
        return {};
    // Each shape that was found, and only those, in the reason.
    std::vector<std::string> parts;
    if (nested > 0)
        parts.push_back(std::to_string(nested) + " traces hold more than one span that mapping " + mappingNames(mappings)
                        + " claims");
    if (multiRoot > 0)
        parts.push_back(std::to_string(multiRoot) + " have a claimed span and more than one root span");
    std::string why = "push-down refuses this window";
    for (std::size_t i = 0; i < parts.size(); ++i)
        why += (i == 0 ? ": " : " and ") + parts[i];
    if (!parts.empty())
        why += "; which of them are requests depends on how they nest, which push-down does not follow";
    bool first = parts.empty();
    const auto next = [&first] { return std::exchange(first, false) ? ": in " : "; in "; };
    if (belowRoot > 0)
        why += next() + std::to_string(belowRoot) + " the claimed span is below another, and the spans the mapping "
               "reads below it cannot be told from the trace's others";
    if (ambiguous > 0)
        why += next() + std::to_string(ambiguous) + " more than one span matches the inner selector, and the reader "
               "takes the first in breadth-first order, which SQL does not know";
    return why + " (pull the window instead)";
}

} // namespace

PushDownResult pushDownReport(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const PushDownOptions &options)
{
    PushDownResult result;
    const auto mappings = pushableMappings(options.spanMapping, result.error);
    if (!mappings)
        return result;
    PushDownSpec spec;
    spec.window = window;
    spec.percentiles = options.percentiles;
    spec.includeErrors = options.includeErrors;
    spec.mode = options.mode;
    if (std::string why = shapeRefusal(endpoint, window, *mappings, options.request); !why.empty()) {
        result.error = why;
        return result;
    }
    std::vector<std::string> rows;
    if (std::string why = runRows(endpoint, pushDownFiguresQuery(endpoint, spec, *mappings), options.request, rows, &result.rowsRead);
        !why.empty() || rows.size() != 1) {
        result.error = why.empty() ? "ClickHouse's figures are not one row" : why;
        return result;
    }
    if (std::string why = readFigures(rows.front(), spec, result.report); !why.empty()) {
        result.error = why;
        return result;
    }
    result.computedBy = options.mode == QuantileMode::Exact
                            ? "ClickHouse (push-down), exact: quantilesExactInclusive (R-7)"
                            : "ClickHouse (push-down), approximate percentiles: quantilesTDigest";
    InputSummary input;
    input.path = pullLabel(endpoint, window);
    input.format = "clickhouse-otel_traces push-down";
    input.accepted = result.report.total;
    input.rejected = result.report.rejected;
    input.outcome = "complete";
    input.message = "computed by " + result.computedBy + ", mapping " + mappingNames(*mappings);
    result.report.inputs.push_back(std::move(input));
    if (result.report.total == 0)
        return result;

    const auto span = static_cast<std::uint64_t>(result.report.lastStartNs - result.report.firstStartNs);
    result.windowNs = options.windowNs > 0 ? options.windowNs : chooseWindowWidth(span);
    rows.clear();
    if (std::string why = runRows(endpoint, pushDownLoadQuery(endpoint, spec, *mappings, result.windowNs), options.request, rows,
                                  &result.rowsRead);
        !why.empty() || !(why = readWindows(rows, spec.percentiles.size(), result.windows)).empty()) {
        result.error = why;
        return result;
    }
    for (int i = 0; i < options.cdfPoints; ++i)
        result.cdfLevels.push_back(options.cdfPoints > 1 ? static_cast<double>(i) / (options.cdfPoints - 1) : 0.5);
    rows.clear();
    if (std::string why = runRows(endpoint, pushDownCdfQuery(endpoint, spec, *mappings, result.cdfLevels), options.request, rows,
                                  &result.rowsRead);
        !why.empty() || rows.size() != 1) {
        result.error = why.empty() ? "ClickHouse's CDF is not one row" : why;
        return result;
    }
    simdjson::dom::parser parser;
    element cdf;
    if (parser.parse(simdjson::padded_string(rows.front())).get(cdf)) {
        result.error = "ClickHouse's CDF is not JSON";
        return result;
    }
    result.cdfE2eNs = numbers(cdf, "cdf");
    return result;
}

std::string pushDownToJson(const PushDownResult &result)
{
    const auto ms = [](std::optional<double> ns) { return jsonNumber(ns ? std::optional<double>(nsToMs(*ns)) : std::nullopt); };
    std::string windows = "[";
    for (std::size_t i = 0; i < result.windows.size(); ++i) {
        const PushDownWindow &w = result.windows[i];
        windows += (i ? ",\n    {" : "\n    {") + std::string("\"start_ns\": ") + std::to_string(w.startNs)
                   + ", \"requests\": " + std::to_string(w.requests) + ", \"e2e\": {\"count\": " + std::to_string(w.e2e.count)
                   + ", \"mean\": " + ms(w.e2e.meanNs);
        for (std::size_t p = 0; p < result.report.percentiles.size() && p < w.e2e.percentilesNs.size(); ++p)
            windows += ", \"" + percentileKey(result.report.percentiles[p]) + "\": " + ms(w.e2e.percentilesNs[p]);
        windows += "}}";
    }
    windows += result.windows.empty() ? "]" : "\n  ]";
    std::string cdf = "[";
    for (std::size_t i = 0; i < result.cdfLevels.size() && i < result.cdfE2eNs.size(); ++i)
        cdf += (i ? ", [" : "[") + jsonNumber(result.cdfLevels[i], 6) + ", " + ms(result.cdfE2eNs[i]) + "]";
    cdf += "]";
    std::string label;
    appendJsonString(label, result.computedBy);
    return withMembers(reportToJson(result.report), {{"computed_by", label},
                                                     {"load_windows", "{\"width_ns\": " + std::to_string(result.windowNs)
                                                                          + ", \"windows\": " + windows + "}"},
                                                     {"e2e_cdf", cdf},
                                                     {"not_computed", "[\"itl\", \"join\", \"load buckets and knee\", \"findings\"]"}});
}

std::string pushDownToText(const PushDownResult &result)
{
    std::string out = "Computed by " + result.computedBy + ": figures from the store, not from pulled spans.\n\n"
                      + reportToText(result.report);
    out += "\nLoad windows of " + formatDuration(static_cast<double>(result.windowNs)) + ": " + std::to_string(result.windows.size())
           + " (e2e per window in --json); the load buckets, the knee and the findings need the pulled requests.\n";
    return out;
}

} // namespace lx::source
