// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

/// \file otlp_json_reader.h
/// OpenTelemetry traces as OTLP/JSON (docs/OTLP.md): the Collector's file exporter (one
/// `{"resourceSpans":[...]}` object per line), a single pretty-printed TracesData /
/// ExportTraceServiceRequest document, or such an object wrapped as `{"result": {...}}`. Each LLM span
/// (vLLM's `llm_request`, or any span with `gen_ai.latency.*` attributes) and each other root span
/// becomes one request in the durations form.

namespace lx {

/// True when `head` starts an OTLP/JSON object: "resourceSpans" (or the logs / metrics siblings, so
/// that those are refused with a clear reason) comes before any native key such as "id" or "t_...".
bool otlpJsonCanRead(std::string_view head);
/// A reader whose spans become requests through `options.spanMappings`.
std::unique_ptr<TraceReader> createOtlpJsonReader(const ReaderOptions &options);

} // namespace lx
