// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/trace_reader.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/// \file format_registry.h
/// The registry of trace formats, declared here and defined in format_registry.cpp. Each format has a
/// cheap canRead() over the first bytes of the (decompressed) input and a factory; the importer picks the
/// first that accepts the file. Each family of formats registers itself with one function, defined beside
/// its readers in ingest/formats/<family>/.

namespace lx {

/// The shapes a format's files come in, as bits: what the "not read" messages list under each shape.
enum FormatShape : unsigned {
    kShapeNone = 0,             ///< a refusal of a summary file: recognised, but nothing is read from it
    kShapeJsonLines = 1u << 0,  ///< one JSON object per line
    kShapeJsonDocument = 1u << 1, ///< one JSON document (an object or an array, pretty-printed or not)
    kShapeCsv = 1u << 2,        ///< a header row, then one row per record
    kShapeBinary = 1u << 3,     ///< binary data
};

/// One format: how it is recognised and how its reader is made.
struct TraceFormat {
    std::string_view name;        ///< short name stored with the import run, e.g. "jsonl"
    std::string_view description; ///< for messages, e.g. "native JSON lines"
    unsigned shapes;              ///< FormatShape bits; kShapeNone for a refusal
    bool (*canRead)(std::string_view head);
    std::unique_ptr<TraceReader> (*create)(const ReaderOptions &options);
    /// Each line is a record on its own, read without any state from the lines before it: the importer
    /// may then parse blocks of lines on several threads (parallel_parse.h).
    bool independentLines = false;
};

/// Every known format, most specific first.
std::span<const TraceFormat> traceFormats();

/// The format whose canRead() accepts head, or null with the reason in whyNot (empty, binary data, a JSON
/// document no reader recognises, ...); the reason names the formats that read inputs of that shape.
const TraceFormat *sniffFormat(std::string_view head, std::string *whyNot);

/// The descriptions of the formats that read inputs of any of `shapes`, in registry order, joined with
/// ", " and a final " or ", e.g. "native JSON lines or native CSV".
std::string formatsReading(unsigned shapes);

// The families' registrations, in the order the registry calls them.
void appendOtlpFormats(std::vector<TraceFormat> &list);      ///< ingest/formats/otlp
void appendSpanJsonFormats(std::vector<TraceFormat> &list);  ///< ingest/formats/spanjson (Jaeger, Zipkin)
void appendBenchmarkFormats(std::vector<TraceFormat> &list); ///< ingest/formats/benchmark
void appendWorkloadFormats(std::vector<TraceFormat> &list);  ///< ingest/formats/workload
void appendNativeFormats(std::vector<TraceFormat> &list);    ///< ingest/formats/native

} // namespace lx
