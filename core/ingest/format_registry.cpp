// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/format_registry.h"

#include "ingest/line_reader.h"

#include <algorithm>
#include <new>
#include <vector>

namespace lx {

std::span<const TraceFormat> traceFormats()
{
    // Most specific first: the native readers accept any object per line or any header row, and OTLP/protobuf
    // (binary) never takes a text file.
    static const std::vector<TraceFormat> formats = [] {
        std::vector<TraceFormat> list;
        appendOtlpFormats(list);
        appendSpanJsonFormats(list);
        appendBenchmarkFormats(list);
        appendWorkloadFormats(list);
        appendNativeFormats(list);
        return list;
    }();
    return formats;
}

std::string formatsReading(unsigned shapes)
{
    std::vector<std::string_view> names;
    for (const TraceFormat &format : traceFormats()) {
        if ((format.shapes & shapes) != 0)
            names.push_back(format.description);
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            text += i + 1 == names.size() ? " or " : ", ";
        text += names[i];
    }
    return text;
}

namespace {

/// The text up to its first line end, trailing blanks and a CR left out.
std::string_view firstLine(std::string_view text)
{
    text = text.substr(0, std::min(text.find('\n'), text.size()));
    const std::size_t last = text.find_last_not_of(" \t\r");
    return last == std::string_view::npos ? std::string_view() : text.substr(0, last + 1);
}

} // namespace

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
    // The reasons are built from the registry, so that they name every format that is read, and no other.
    const bool binary = std::any_of(head.begin(), head.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 && c != '\n' && c != '\r' && c != '\t';
    });
    const std::size_t first = head.find_first_not_of(" \t\r\n");
    if (binary)
        *whyNot = "binary data, not a trace format this version reads: binary input is read as "
                  + formatsReading(kShapeBinary) + "; every format may be zstd-compressed";
    else if (firstLine(head.substr(first)).ends_with('}'))
        *whyNot = "JSON lines that no reader recognises: the first line has none of the fields of a native record (an "
                  "id, t_<stage>_ns timestamps, or start_ns and <segment>_ms durations: docs/DOMAIN.md); one request "
                  "per line is read as "
            + formatsReading(kShapeJsonLines);
    else if (head[first] == '{' || head[first] == '[')
        *whyNot = "a JSON document (an object or an array) that no reader recognises: a JSON document is read as "
                  + formatsReading(kShapeJsonDocument) + "; otherwise one request per line, as "
                  + formatsReading(kShapeJsonLines);
    else
        *whyNot = "not a trace format this version reads: expected JSON lines (" + formatsReading(kShapeJsonLines)
                  + ") or CSV with a header row (" + formatsReading(kShapeCsv) + ")";
    return nullptr;
}

std::string documentTooLargeReason(std::size_t maxBytes)
{
    return "the JSON document is larger than " + byteSizeText(maxBytes) + ": not read";
}

std::string readerExceptionReason(const std::exception &e)
{
    return dynamic_cast<const std::bad_alloc *>(&e) ? std::string("out of memory while reading this file")
                                                    : std::string("stopped reading this file: ") + e.what();
}

} // namespace lx
