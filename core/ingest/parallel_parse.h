// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"
#include "ingest/line_blocks.h"

#include <atomic>
#include <functional>
#include <string>

/// \file parallel_parse.h
/// Parses an input whose lines are records on their own (TraceFormat::independentLines: native JSON
/// lines) on several threads. This thread cuts the input into blocks of whole lines (line_blocks.h); a
/// parser per core turns each block into records with a reader of its own; the blocks then go on in file
/// order, where repeated ids are found, to the writer's BatchQueue. The records, their lines, the
/// rejections and their order are those of a single-threaded read; cancel and a writer's failure stop it
/// the same way.

namespace lx {

class BatchQueue;
class LineReader;
struct ReaderOptions;
struct TraceFormat;

struct ParallelParse {
    const TraceFormat *format = nullptr;
    const ReaderOptions *readerOptions = nullptr;
    std::size_t rejectionSamples = 5;     ///< reasons kept in FileImport::firstRejections
    std::size_t expectedRecords = 0;      ///< sizes the duplicate-id set up front
    unsigned parsers = 0;                 ///< parser threads; 0: defaultParserThreads()
    std::size_t blockBytes = 0;           ///< 0: kDefaultBlockBytes (line_blocks.h)
    std::size_t maxLineBytes = 0;         ///< 0: kMaxLineBytes
    /// Called between blocks with the records read so far; false cancels.
    std::function<bool(std::int64_t records)> tick;
    const std::atomic<bool> *writerFailed = nullptr;
    /// Whether the blocks, once in file order, get the keys of their texts (text_keys.h) for the writer.
    bool keyTexts = false;
};

/// The parser threads an import uses by default: one per core but the writer's, at least 2, at most 8;
/// on one core 1, which means the single-threaded read. With a \a lightWriter (rows held in memory), one
/// per core.
unsigned defaultParserThreads(bool lightWriter = false);
/// The batches the writer's BatchQueue needs for `parsers` parser threads: one per block in flight and two
/// more, so that the thread that reads never waits for a batch that only it could hand on.
std::size_t batchesForParallelParse(unsigned parsers);

/// Reads what `lines` has not handed out (it has been sniffed) into `queue`, counting into `result`
/// (accepted, rejected, firstRejections). Returns false when cancelled; a reader's fatal error, which
/// stops the read after the records before it, goes to `fatal`.
bool parseInParallel(LineReader &lines, BatchQueue &queue, FileImport &result, const ParallelParse &how,
                     std::string *fatal);

} // namespace lx
