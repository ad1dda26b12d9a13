// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

/// \file csv_reader.h
/// The native CSV form: a header row naming the same fields as the JSON-lines form, in any order, then
/// one request per row (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks), e.g.
///
///     id,model,t_server_recv_ns,t_first_token_ns,t_last_token_ns,region
///     r1,llama-3.1-70b,1700000000000000000,1700000000120000000,1700000000980000000,"eu, west"
///
/// An empty cell means absent. Unknown columns are kept as attributes.

namespace lx {

bool csvCanRead(std::string_view head);
std::unique_ptr<TraceReader> createCsvReader(const ReaderOptions &options);

/// Splits one CSV record into fields (RFC 4180). Quoted fields are unescaped into `scratch`, so the views
/// stay valid until the next call. Returns false with a reason for a malformed record.
bool splitCsvRecord(std::string_view record, std::vector<std::string_view> &fields, std::string &scratch,
                    std::string *why);

} // namespace lx
