// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_catalog.h"

#include <simdjson.h>

#include <charconv>

namespace lx::source {

namespace {

// ClickHouse's exception codes (src/Common/ErrorCodes.cpp) that a catalog question turns into a sentence.
constexpr int kUnknownIdentifier = 47;
constexpr int kUnknownTable = 60;
constexpr int kUnknownDatabase = 81;
constexpr int kUnknownUser = 192;
constexpr int kAuthenticationFailed = 516;

/// Why `result` is not an answer, said for a person, ClickHouse's (or libcurl's) text after it.
std::string failure(const ClickHouseEndpoint &endpoint, const ClickHouseResult &result)
{
    const std::string where = endpoint.host + ":" + std::to_string(endpoint.port);
    const std::string table = endpoint.database + "." + endpoint.table;
    switch (result.outcome) {
    case ClickHouseResult::Outcome::Complete:
        return {};
    case ClickHouseResult::Outcome::Cancelled:
        return "cancelled";
    case ClickHouseResult::Outcome::ConnectionError:
        return "cannot connect to " + where + " (" + result.message + ")";
    case ClickHouseResult::Outcome::Timeout:
        return "no answer from " + where + " in time (" + result.message + ")";
    case ClickHouseResult::Outcome::BadResponse:
        return "the answer of " + where + " could not be read (" + result.message + ")";
    case ClickHouseResult::Outcome::ServerError:
        break;
    }
    std::string sentence;
    if (result.exceptionCode == kAuthenticationFailed || result.exceptionCode == kUnknownUser || result.httpStatus == 401
        || result.httpStatus == 403)
        sentence = "authentication failed for user " + endpoint.user + " (a wrong password?)";
    else if (result.exceptionCode == kUnknownDatabase)
        sentence = "no database " + endpoint.database + " on " + where;
    else if (result.exceptionCode == kUnknownTable)
        sentence = "no table " + table + " on " + where;
    else if (result.exceptionCode == kUnknownIdentifier)
        sentence = "the table " + table + " lacks a column of the exporter's otel_traces";
    else
        sentence = "ClickHouse refused the question";
    return sentence + ": " + result.message;
}

/// Runs `query`, handing each row's parsed JSON object to `onRow`; the status says why it did not end.
template<typename OnRow>
CatalogStatus ask(const ClickHouseEndpoint &endpoint, const ClickHouseQuery &query, const ClickHouseRequestOptions &options, OnRow onRow)
{
    simdjson::dom::parser parser;
    std::string rowError;
    const ClickHouseResult result = runClickHouseQuery(endpoint, query, [&](std::string_view row) {
        simdjson::dom::object object;
        if (parser.parse(simdjson::padded_string(row)).get(object) || !onRow(object)) {
            rowError = "an answer row is not what was asked: " + std::string(row.substr(0, 200));
            return false;
        }
        return true;
    }, options);
    CatalogStatus status;
    status.outcome = result.outcome;
    status.error = rowError.empty() ? failure(endpoint, result) : rowError;
    if (!rowError.empty())
        status.outcome = ClickHouseResult::Outcome::BadResponse;
    return status;
}

/// A count the query gave as text (`toString(count())`: 64-bit integers are quoted in JSON anyway).
bool countColumn(simdjson::dom::object row, const char *name, std::uint64_t &value)
{
    std::string_view text;
    if (row[name].get_string().get(text))
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

ConnectionCheck checkConnection(const ClickHouseEndpoint &endpoint, const ClickHouseRequestOptions &options)
{
    ConnectionCheck check;
    ClickHouseQuery version;
    version.sql = "SELECT version() AS Version";
    static_cast<CatalogStatus &>(check) = ask(endpoint, version, options, [&](simdjson::dom::object row) {
        std::string_view text;
        if (row["Version"].get_string().get(text))
            return false;
        check.serverVersion = std::string(text);
        return true;
    });
    if (!check.ok())
        return check;
    // The columns a pull reads, none of their rows: what is missing is said now, not at the pull.
    ClickHouseQuery table;
    table.params = {{"database", endpoint.database}, {"table", endpoint.table}};
    table.sql = "SELECT Timestamp, Duration, TraceId, SpanId, ParentSpanId, SpanName, SpanKind, ServiceName, StatusCode, "
                "SpanAttributes FROM " + std::string(kOtelTracesTable) + " LIMIT 0";
    static_cast<CatalogStatus &>(check) = ask(endpoint, table, options, [](simdjson::dom::object) { return true; });
    return check;
}

ServiceList listServices(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const ClickHouseRequestOptions &options)
{
    SpanWindow everyService = window;
    everyService.services.clear();
    ClickHouseQuery query = otelTracesWindowSpans(endpoint, everyService);
    query.sql = "SELECT ServiceName, toString(count()) AS Spans\n" + query.sql + "\nGROUP BY ServiceName ORDER BY ServiceName";
    ServiceList list;
    static_cast<CatalogStatus &>(list) = ask(endpoint, query, options, [&](simdjson::dom::object row) {
        ServiceSpans service;
        std::string_view name;
        if (row["ServiceName"].get_string().get(name) || !countColumn(row, "Spans", service.spans))
            return false;
        service.service = std::string(name);
        list.services.push_back(std::move(service));
        return true;
    });
    if (!list.ok())
        list.services.clear();
    return list;
}

SpanCount countSpans(const ClickHouseEndpoint &endpoint, const SpanWindow &window, const ClickHouseRequestOptions &options)
{
    ClickHouseQuery query = otelTracesPulledSpans(endpoint, window);
    query.sql = "SELECT toString(count()) AS Spans, toString(uniqExact(TraceId)) AS Traces\n" + query.sql;
    SpanCount count;
    static_cast<CatalogStatus &>(count) = ask(endpoint, query, options, [&](simdjson::dom::object row) {
        return countColumn(row, "Spans", count.spans) && countColumn(row, "Traces", count.traces);
    });
    return count;
}

} // namespace lx::source
