// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

/// \file trace_reader.h
/// The registry of trace formats. Each format has a cheap canRead() over the first bytes of the
/// (decompressed) input and a factory; the importer picks the first that accepts the file.

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

/// Parses one input. Recoverable problems are per-record rejections sent to the sink; read() returns a
/// fatal error that stops the file (empty when none).
class TraceReader {
public:
    virtual ~TraceReader() = default;
    virtual std::string read(LineReader &lines, ImportSink &sink) = 0;
};

struct TraceFormat {
    std::string_view name;        ///< short name stored with the import run, e.g. "jsonl"
    std::string_view description; ///< for messages, e.g. "native JSON lines"
    bool (*canRead)(std::string_view head);
    std::unique_ptr<TraceReader> (*create)();
};

/// Every known format, most specific first.
std::span<const TraceFormat> traceFormats();

/// The format whose canRead() accepts head, or null with the reason in whyNot (binary data, empty, ...).
const TraceFormat *sniffFormat(std::string_view head, std::string *whyNot);

} // namespace lx
