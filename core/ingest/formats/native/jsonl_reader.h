// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

/// \file jsonl_reader.h
/// The native JSON-lines form, one request per line, in the timestamps or the durations form, e.g.
///
///     {"id":"r1","status":"ok","model":"llama-3.1-70b","t_server_recv_ns":1700000000000000000,
///      "t_first_token_ns":1700000000120000000,"t_last_token_ns":1700000000980000000,"region":"eu"}
///     {"id":"r2","start_ns":1700000000000000000,"queue_ms":12.5,"prefill_ms":80,"decode_ms":900}
///
/// Parsed in place with simdjson On Demand; unknown keys are kept verbatim as attributes.

namespace lx {

bool jsonlCanRead(std::string_view head);
std::unique_ptr<TraceReader> createJsonlReader(const ReaderOptions &options);

} // namespace lx
