// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

#include <memory>
#include <string_view>

/// \file zipkin_reader.h
/// Zipkin v2 JSON (docs/SPANS.md): an array of spans as the Zipkin API and zipkin-lens take them, or an
/// array of such arrays (one per trace, as `/api/v2/traces` answers). Its spans (µs `timestamp` and
/// `duration`, `parentId`, `kind`, string `tags`, the service from `localEndpoint`) become OTLP spans and
/// then requests through the span mappings, as OTLP's do. A span without timestamp or duration is kept with
/// what it has; the server half of a client/server pair that shares an id is made the client's child.

namespace lx {

/// True when `head` starts a JSON array (of spans, or of arrays of spans) whose first object has Zipkin's
/// `"traceId"` and `"id"`.
bool zipkinCanRead(std::string_view head);
/// A reader whose spans become requests through `options.spanMappings`.
std::unique_ptr<TraceReader> createZipkinReader(const ReaderOptions &options);

} // namespace lx
