// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/trace_reader.h"

#include "ingest/formats/native/csv_reader.h"
#include "ingest/formats/native/jsonl_reader.h"
#include "ingest/formats/benchmark/benchmark_readers.h"
#include "ingest/formats/otlp/otlp_json_reader.h"
#include "ingest/formats/otlp/otlp_proto_reader.h"

#include <algorithm>
#include <vector>

namespace lx {

std::span<const TraceFormat> traceFormats()
{
    // Most specific first: the native readers accept any object per line or any header row.
    static const std::vector<TraceFormat> formats = [] {
        std::vector<TraceFormat> list;
        appendOtlpProtoFormats(list); // binary: never takes a text file
        appendOtlpJsonFormats(list);
        appendBenchmarkFormats(list);
        list.push_back({"jsonl", "native JSON lines", jsonlCanRead, createJsonlReader});
        list.push_back({"csv", "native CSV", csvCanRead, createCsvReader});
        return list;
    }();
    return formats;
}

const TraceFormat *sniffFormat(std::string_view head, std::string *whyNot)
{
    if (head.starts_with("\xEF\xBB\xBF"))
        head.remove_prefix(3);
    if (head.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        *whyNot = head.empty() ? "the file is empty" : "the file holds only blank lines";
        return nullptr;
    }
    for (const TraceFormat &format : traceFormats()) {
        if (format.canRead(head))
            return &format;
    }
    const bool binary = std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\n' && c != '\r' && c != '\t';
    });
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (binary)
        *whyNot = "binary data, not a trace format this version reads (native JSON lines, CSV, OTLP/JSON or OTLP/protobuf "
                  "TracesData messages, optionally zstd-compressed)";
    else if (head[first] == '{' || head[first] == '[')
        *whyNot = "a JSON document that is not one request per line (pretty-printed, or an array): this version reads "
                  "native JSON lines, one object per line, or CSV";
    else
        *whyNot = "not a trace format this version reads: expected native JSON lines (a '{' per line) or CSV with a header row";
    return nullptr;
}

} // namespace lx
