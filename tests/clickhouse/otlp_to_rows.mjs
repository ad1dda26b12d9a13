// SPDX-License-Identifier: GPL-3.0-or-later
// Writes OTLP/JSON spans (the Collector file exporter's lines, or one document) as the rows that the
// Collector's ClickHouse exporter inserts into `otel_traces` (JSONEachRow, every attribute a string, the
// ids as hex, SpanKind and StatusCode as pdata names), for the tests of core/source. It is written apart
// from the project's own OTLP reader, so that a fault of that reader cannot hide in both sides of the test.
//
// Usage: node otlp_to_rows.mjs FILE... > rows.jsonl
import fs from 'node:fs';

const kinds = ['Unspecified', 'Internal', 'Server', 'Client', 'Producer', 'Consumer'];
const statuses = ['Unset', 'Ok', 'Error'];

function hexId(id, bytes) {
  if (!id)
    return '';
  if (new RegExp(`^[0-9a-fA-F]{${2 * bytes}}$`).test(id))
    return id.toLowerCase();
  return Buffer.from(id, 'base64').toString('hex'); // the base64 ids of protobuf's JSON mapping
}

// pcommon's Value.AsString(): strings as they are, numbers in decimal, the rest as JSON.
function valueText(any) {
  if (!any)
    return '';
  if ('stringValue' in any) return String(any.stringValue);
  if ('intValue' in any) return String(any.intValue);
  if ('doubleValue' in any) return String(any.doubleValue);
  if ('boolValue' in any) return any.boolValue ? 'true' : 'false';
  return JSON.stringify(any);
}

function attributes(list) {
  const map = {};
  for (const kv of list ?? [])
    map[kv.key] = valueText(kv.value);
  return map;
}

function kindName(kind) {
  if (typeof kind === 'string')
    return kind.startsWith('SPAN_KIND_') ? kinds.find((k) => k.toUpperCase() === kind.slice(10)) ?? kind : kind;
  return kinds[kind ?? 0] ?? String(kind);
}

function statusName(code) {
  if (typeof code === 'string')
    return code.startsWith('STATUS_CODE_') ? statuses.find((s) => s.toUpperCase() === code.slice(12)) ?? code : code;
  return statuses[code ?? 0] ?? 'Unset';
}

function timestamp(ns) {
  const seconds = ns / 1000000000n;
  const fraction = ns % 1000000000n;
  const date = new Date(Number(seconds) * 1000).toISOString(); // 2023-11-14T22:13:20.000Z
  return date.slice(0, 19) + '.' + String(fraction).padStart(9, '0') + 'Z';
}

function* rowsOf(document) {
  for (const resourceSpans of document.resourceSpans ?? []) {
    const resource = attributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? resourceSpans.instrumentationLibrarySpans ?? []) {
      const scope = scopeSpans.scope ?? scopeSpans.instrumentationLibrary ?? {};
      for (const span of scopeSpans.spans ?? []) {
        const start = BigInt(span.startTimeUnixNano ?? 0);
        const end = BigInt(span.endTimeUnixNano ?? 0);
        yield {
          Timestamp: timestamp(start),
          TraceId: hexId(span.traceId, 16),
          SpanId: hexId(span.spanId, 8),
          ParentSpanId: hexId(span.parentSpanId, 8),
          TraceState: span.traceState ?? '',
          SpanName: span.name ?? '',
          SpanKind: kindName(span.kind),
          ServiceName: resource['service.name'] ?? '',
          ResourceAttributes: resource,
          ScopeName: scope.name ?? '',
          ScopeVersion: scope.version ?? '',
          SpanAttributes: attributes(span.attributes),
          Duration: String(end > start ? end - start : 0n),
          StatusCode: statusName(span.status?.code),
          StatusMessage: span.status?.message ?? '',
        };
      }
    }
  }
}

for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  let documents;
  try {
    documents = [JSON.parse(text)]; // one document
  } catch {
    documents = text.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line)); // the file exporter's lines
  }
  for (const document of documents) {
    for (const row of rowsOf(document))
      process.stdout.write(JSON.stringify(row) + '\n');
  }
}
