// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/formats/otlp/otlp_requests.h"
#include "source/clickhouse_pull.h"

#include <memory>

/// \file clickhouse_span_reader.h
/// The reader of a pull: an OTLP span reader (the same collecting of traces, mappings, census and notice)
/// whose spans come from a ClickHouse query instead of a file's lines.

namespace lx::source {

/// What the reader and the pull share while it runs: the pull's progress so far.
struct PullState {
    PullProgress progress;
    bool cancelled = false; ///< the progress callback said stop: the import's own callback says so from then on
};

class ClickHouseSpanReader final : public OtlpSpanReader {
public:
    ClickHouseSpanReader(std::shared_ptr<const SpanMappings> mappings, ClickHouseEndpoint endpoint, ClickHouseQuery query,
                         const PullOptions &options, std::shared_ptr<PullState> state);

    /// Runs the query; `lines` is empty (importStream()). Returns ClickHouse's error, a connection error,
    /// a timeout or a decoding error; a cancel is the sink's (keepGoing() false), no error.
    std::string read(LineReader &lines, ImportSink &sink) override;

private:
    bool report();

    ClickHouseEndpoint m_endpoint;
    ClickHouseQuery m_query;
    const PullOptions &m_options;
    std::shared_ptr<PullState> m_state;
};

} // namespace lx::source
