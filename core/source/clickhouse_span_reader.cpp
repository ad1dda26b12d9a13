// SPDX-License-Identifier: GPL-3.0-or-later
#include "source/clickhouse_span_reader.h"

namespace lx::source {

ClickHouseSpanReader::ClickHouseSpanReader(std::shared_ptr<const SpanMappings> mappings, ClickHouseEndpoint endpoint,
                                           ClickHouseQuery query, const PullOptions &options, std::shared_ptr<PullState> state)
    : OtlpSpanReader(std::move(mappings)), m_endpoint(std::move(endpoint)), m_query(std::move(query)), m_options(options),
      m_state(std::move(state))
{
}

bool ClickHouseSpanReader::report()
{
    if (m_options.progress && !m_state->cancelled && !m_options.progress(m_state->progress))
        m_state->cancelled = true;
    return !m_state->cancelled;
}

std::string ClickHouseSpanReader::read(LineReader &, ImportSink &sink)
{
    const otlp::AttributeFilter &filter = attributeFilter();
    std::string currentTrace;
    std::int64_t row = 0;
    bool sinkStopped = false;
    PullProgress &progress = m_state->progress;
    const auto onRow = [&](std::string_view text) {
        ++row;
        progress.rowsReceived = static_cast<std::uint64_t>(row);
        otlp::Span span;
        if (std::string why = readOtelTracesRow(text, filter, span); !why.empty()) {
            sink.reject(row, why, text);
        } else {
            // The rows come trace by trace: a new trace id means the last trace is whole.
            if (span.traceId != currentTrace) {
                emitCompleteTraces(sink);
                currentTrace = span.traceId;
            }
            collect(std::move(span), std::string(text), row);
        }
        if (!sink.keepGoing()) {
            sinkStopped = true;
            return false;
        }
        return true;
    };
    ClickHouseRequestOptions request = m_options.request;
    const auto userKeepGoing = request.keepGoing;
    request.keepGoing = [&](std::uint64_t bytes) {
        progress.bytesReceived = bytes;
        return (!userKeepGoing || userKeepGoing(bytes)) && report();
    };
    const ClickHouseProgressCallback onProgress = [&](const ClickHouseProgress &server, std::uint64_t) {
        progress.server = server;
        return report();
    };
    const ClickHouseResult result = runClickHouseQuery(m_endpoint, m_query, onRow, request, onProgress);
    progress.bytesReceived = result.bodyBytes;
    if (result.outcome == ClickHouseResult::Outcome::Cancelled) {
        if (sinkStopped)
            return {}; // the sink knows it was cancelled
        // Cancelled while no row came (the progress callback, or the user's keepGoing): the sink learns it
        // at its next tick, within kTickEvery calls, from the import's progress callback (PullState::cancelled).
        m_state->cancelled = true;
        for (int i = 0; i < 4096 && sink.keepGoing(); ++i) {
        }
        return {};
    }
    if (!result.ok())
        return result.message;
    emitAllCollected(sink);
    return {};
}

} // namespace lx::source
