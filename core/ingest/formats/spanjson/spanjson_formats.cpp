// SPDX-License-Identifier: GPL-3.0-or-later
// The span JSON formats' registration: Jaeger's trace JSON and Zipkin v2 JSON. They come after OTLP, whose
// sniffers want "resourceSpans" or binary framing, and before the benchmark and native readers, which take
// any array of objects or any object per line: Jaeger's "traceID" and Zipkin's "traceId" + "id" are the
// tell-tale keys.

#include "ingest/format_registry.h"
#include "ingest/formats/spanjson/jaeger_reader.h"
#include "ingest/formats/spanjson/zipkin_reader.h"

namespace lx {

void appendSpanJsonFormats(std::vector<TraceFormat> &list)
{
    list.push_back({"jaeger-json", "Jaeger trace JSON", kShapeJsonDocument, jaegerCanRead, createJaegerReader});
    list.push_back({"zipkin-json", "Zipkin v2 JSON spans", kShapeJsonDocument, zipkinCanRead, createZipkinReader});
}

} // namespace lx
