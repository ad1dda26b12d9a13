// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/formats/benchmark/benchmark_common.h"
#include "ingest/formats/benchmark/benchmark_json_util.h"
#include "ingest/formats/benchmark/benchmark_readers_impl.h"
#include "ingest/line_reader.h"

#include <string>

/// \file benchmark_json_lines.h
/// The frame of the readers of one JSON object per line (AIPerf's records, Mooncake's workload trace):
/// blank lines skipped, a malformed line rejected, each object handed to readRecord().

namespace lx::bench {

/// One JSON object per line, parsed with the DOM after making NaN/Infinity absent; a subclass reads
/// the fields of each object.
class JsonLinesBase : public TraceReader {
public:
    std::string read(LineReader &lines, ImportSink &sink) override
    {
        std::string_view line;
        std::int64_t lineNumber = 0;
        while (lines.next(line, lineNumber)) {
            if (isBlankLine(line))
                continue;
            if (!sink.keepGoing())
                break;
            RequestRecord &r = sink.slot();
            r.sourceLine = lineNumber;
            m_text.assign(line);
            nullifyNonFinite(m_text);
            dom::element doc;
            dom::object o;
            if (auto e = m_parser.parse(m_text).get(doc)) {
                sink.reject(lineNumber, std::string("malformed JSON: ") + simdjson::error_message(e), line);
                continue;
            }
            if (doc.get_object().get(o)) {
                sink.reject(lineNumber, "not a JSON object", line);
                continue;
            }
            finish(sink, r, readRecord(o, r), line);
        }
        return {};
    }

protected:
    virtual std::string readRecord(dom::object o, RequestRecord &r) = 0;

private:
    std::string m_text;
    dom::parser m_parser;
};

} // namespace lx::bench
