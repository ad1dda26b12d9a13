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

/// The head opens with an object on a line of its own that may be a record of this form.
bool jsonlCanRead(std::string_view head);
/// False only for an object (one line of JSON) that holds none of the keys that make a record of this form:
/// an id, a timestamp, start_ns, a segment, e2e_ms or token times. Such a file is some other tool's JSON
/// lines, which would otherwise be rejected line by line as "missing id" rather than named for what it is.
bool mayBeNativeRecord(std::string_view line);
std::unique_ptr<TraceReader> createJsonlReader(const ReaderOptions &options);

} // namespace lx
