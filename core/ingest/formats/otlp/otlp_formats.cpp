// SPDX-License-Identifier: GPL-3.0-or-later
// The OTLP formats' registration. OTLP/protobuf comes first: its sniffer reads binary framing and never
// takes a text file. OTLP/JSON looks for "resourceSpans" before any native key.

#include "ingest/format_registry.h"
#include "ingest/formats/otlp/otlp_json_reader.h"
#include "ingest/formats/otlp/otlp_proto_reader.h"

namespace lx {

void appendOtlpFormats(std::vector<TraceFormat> &list)
{
    list.push_back({"otlp-proto", "OpenTelemetry traces (OTLP/protobuf)", kShapeBinary,
                    otlpProtoCanRead, createOtlpProtoReader});
    list.push_back({"otlp-json", "OpenTelemetry traces (OTLP/JSON)", kShapeJsonLines | kShapeJsonDocument,
                    otlpJsonCanRead, createOtlpJsonReader});
}

} // namespace lx
