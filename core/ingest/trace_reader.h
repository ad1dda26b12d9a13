// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "ingest/span_mapping.h"

#include <exception>
#include <memory>
#include <string>
#include <string_view>

/// \file trace_reader.h
/// What every reader of a trace format implements (TraceReader), where it hands its records (ImportSink)
/// and what it is told (ReaderOptions). The formats themselves are listed in format_registry.h.

namespace lx {

class LineReader;

/// Where a reader hands its records. The importer implements it (batching, duplicate ids, progress).
class ImportSink {
public:
    virtual ~ImportSink() = default;
    /// A cleared record to fill; valid until accept() or reject().
    virtual RequestRecord &slot() = 0;
    /// The filled slot (already decomposed) becomes a request, unless its id repeats one of this file's;
    /// `raw` is the record's text, kept as the excerpt if the sink rejects it after all.
    virtual void accept(std::string_view raw) = 0;
    /// The record at `line` is rejected for `reason`; `raw` is its text, of which an excerpt is kept.
    virtual void reject(std::int64_t line, std::string_view reason, std::string_view raw) = 0;
    /// Called between records; false when the user cancelled.
    virtual bool keepGoing() = 0;
};

/// Why a reader stopped before the end of its input, keeping the records before (TraceReader::stoppedEarly()).
struct EarlyStop {
    std::string reason; ///< where and why, naming the line or byte; empty when the input was read to its end
    /// The input ends inside a record (a file copied while it was written): the import's outcome is
    /// "truncated". Otherwise what follows could not be found (a corrupt length prefix): "read-error".
    bool cutOff = false;
};

/// Parses one input. Recoverable problems are per-record rejections sent to the sink; read() returns a
/// fatal error that stops the file (empty when none).
class TraceReader {
public:
    virtual ~TraceReader() = default;
    virtual std::string read(LineReader &lines, ImportSink &sink) = 0;
    /// After read(): a remark on what was read that is no error but changes what the records mean (the
    /// OTLP readers: that no span mapping claimed any span); empty when there is none.
    virtual std::string notice() const { return {}; }
    /// After read(): why it stopped before the end of the input, the records before kept and the stopping
    /// record rejected (an OTLP file cut off while the Collector wrote it); no reason when it read to the end.
    virtual EarlyStop stoppedEarly() const { return {}; }
    /// What a rejection's line number counts in this input: "line", or for OTLP/protobuf "message" (a
    /// length-prefixed file) or "span" (a bare message), which have no lines (docs/OTLP.md).
    virtual std::string_view locationUnit() const { return "line"; }
};

/// The largest JSON document read whole (vLLM bench, LLMPerf, a pretty OTLP/JSON document; README
/// "Limits"): the document, its parsed form and the records take some three times as much memory.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{512} << 20;

/// Why a document past `maxBytes` is not read: "the JSON document is larger than 512 MiB: not read".
std::string documentTooLargeReason(std::size_t maxBytes);

/// Why a file stopped when its reader threw (std::bad_alloc: "out of memory while reading this file").
std::string readerExceptionReason(const std::exception &e);

/// What a reader is told before it reads, the same for every format; the importer passes it to the
/// factory, so that no one needs to know which reader wants which option.
struct ReaderOptions {
    /// How OTLP spans become requests (span_mapping.h); null means `auto`. Other readers ignore it.
    std::shared_ptr<const SpanMappings> spanMappings;
    /// The largest document a reader of whole JSON documents reads; a larger one is refused as it is read.
    std::size_t maxDocumentBytes = kMaxDocumentBytes;
};

} // namespace lx
