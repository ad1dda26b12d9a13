// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_pull.h"

#include "ingest/trace_reader.h"
#include "source/clickhouse_span_reader.h"

namespace lx::source {

std::string pullLabel(const ClickHouseEndpoint &endpoint, const SpanWindow &window)
{
    std::string services;
    for (const std::string &service : window.services)
        services += (services.empty() ? "" : ",") + service;
    return endpoint.displayUrl() + " services=" + (services.empty() ? "*" : services) + " "
           + std::to_string(window.fromNs) + ".." + std::to_string(window.toNs);
}

FileImport pullSpans(Store &store, const ClickHouseEndpoint &endpoint, const SpanWindow &window, const PullOptions &options)
{
    auto state = std::make_shared<PullState>();
    const ClickHouseQuery query = otelTracesQuery(endpoint, window);
    StreamInput input;
    input.label = pullLabel(endpoint, window);
    input.format = "clickhouse-otel_traces";
    input.makeReader = [&](const ReaderOptions &readerOptions) -> std::unique_ptr<TraceReader> {
        return std::make_unique<ClickHouseSpanReader>(readerOptions.spanMappings, endpoint, query, options, state);
    };
    input.bytesRead = [state] { return state->progress.bytesReceived; };
    ImportOptions import;
    import.spanMapping = options.spanMapping;
    import.rejectionSamples = options.rejectionSamples;
    import.parserThreads = 1;
    import.progress = [&](const ImportProgress &progress) {
        state->progress.records = progress.records;
        if (options.progress && !state->cancelled && !options.progress(state->progress))
            state->cancelled = true;
        return !state->cancelled;
    };
    return importStream(store, input, import);
}

} // namespace lx::source
