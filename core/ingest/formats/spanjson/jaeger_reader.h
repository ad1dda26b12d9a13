// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

#include <memory>
#include <string_view>

/// \file jaeger_reader.h
/// Jaeger's trace JSON (docs/SPANS.md): the query API's and the UI's `{"data":[{"traceID", "spans",
/// "processes"}, ...]}`, or one such trace object alone. Its spans (µs times, `references` for parents,
/// typed `tags`, the service from `processes`) become OTLP spans and then requests through the span
/// mappings, as OTLP's do.

namespace lx {

/// True when `head` starts a JSON object in which Jaeger's `"traceID"` (capital D: OTLP and Zipkin write
/// `traceId`) comes with `"spans"` or `"spanID"`, before any native key such as "id" or "t_...".
bool jaegerCanRead(std::string_view head);
/// A reader whose spans become requests through `options.spanMappings`.
std::unique_ptr<TraceReader> createJaegerReader(const ReaderOptions &options);

} // namespace lx
