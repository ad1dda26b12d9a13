// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

/// \file otlp_proto_reader.h
/// OpenTelemetry traces as OTLP/protobuf (docs/OTLP.md): the Collector's file exporter with `format: proto`
/// (each TracesData message preceded by its length, 4 bytes big-endian) or one bare TracesData /
/// ExportTraceServiceRequest message (`.pb`, `.binpb`), either of them zstd-compressed. The spans become
/// requests exactly as OTLP/JSON spans do (otlp_requests.h).

namespace lx {

enum class OtlpProtoLayout { None, Bare, LengthPrefixed };

/// How the input whose first bytes are `head` holds its messages; None when it is no OTLP/protobuf (text,
/// or a first message that does not read as TracesData).
OtlpProtoLayout otlpProtoLayout(std::string_view head);

bool otlpProtoCanRead(std::string_view head);
/// A reader whose spans become requests through `options.spanMappings`.
std::unique_ptr<TraceReader> createOtlpProtoReader(const ReaderOptions &options);

} // namespace lx
