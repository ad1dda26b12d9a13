// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/importer.h"

#include "ingest/accept_rules.h"
#include "ingest/batch_pipeline.h"
#include "ingest/batching_sink.h"
#include "ingest/file_refusal.h"
#include "ingest/format_registry.h"
#include "ingest/id_set.h"
#include "ingest/input_file.h"
#include "ingest/line_reader.h"
#include "ingest/parallel_parse.h"
#include "ingest/span_mapping.h"
#include "model/text_util.h"
#include "platform/freed_memory.h"
#include "platform/utf8_path.h"
#include "store/early_writeback.h"
#include "store/holds_requests.h"
#include "store/import_runs.h"
#include "store/request_columns.h"
#include "store/request_join.h"
#include "store/store.h"
#include "store/store_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

namespace lx {

namespace {

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Batches circulating between a single parser and the writer. At 10M requests of JSON lines read by one
/// thread the two took about the same time, each slower than the other by turns (a chunk written, the
/// store's writeback, a cold stretch of the input): 3 batches kept one of them waiting a sixth of the time,
/// and the import took 1.12x the time of 16 (3 paired runs; 1M alike). 16 batches of 4096 records: some
/// 30 MB more at the peak.
constexpr std::size_t kBatchesInFlight = 16;

/// Batches between two starts of the store's writeback (early_writeback.h): 65,536 requests at the default
/// batch size, some 20 MB of store. At 10M requests the import took 0.89x the time with it (3 paired
/// runs), at 1M 0.97x.
constexpr int kBatchesPerWriteback = 16;

/// Writes the parser's batches into the store; `writeback`, when not null, has the system write the
/// store's pages to the disk as they come rather than at the commit.
void writerLoop(BatchQueue &queue, StoreWriter &writer, std::atomic<bool> &failed, const EarlyWriteback *writeback)
{
    int batches = 0;
    while (Batch *batch = queue.takeFull()) {
        if (writeback && ++batches % kBatchesPerWriteback == 0)
            writeback->start();
        if (!failed.load(std::memory_order_relaxed)) {
            const bool ok = writer.insertRequests({batch->records.data(), batch->count}, {batch->idHashes.data(), batch->count},
                                                  {batch->keys.data(), batch->keyed ? batch->count : 0})
                            && writer.insertRejections({batch->rejections.data(), batch->rejectionCount});
            if (!ok)
                failed = true;
        }
        queue.giveBack(batch);
    }
}

/// The import_runs row of a file as the import stands.
ImportRun runRow(const FileImport &result, std::int64_t startedNs)
{
    ImportRun run;
    run.id = result.runId;
    run.path = result.path;
    run.format = result.format;
    run.compressed = result.compressed;
    run.startedNs = startedNs;
    run.durationNs = result.durationNs;
    run.bytes = static_cast<std::int64_t>(result.bytes);
    run.accepted = result.accepted;
    run.rejected = result.rejected;
    run.outcome = outcomeName(result.outcome);
    run.message = result.message.empty() || result.notice.empty() ? result.message + result.notice
                                                                   : result.message + "; " + result.notice;
    return run;
}

class FileImporter {
public:
    FileImporter(Store &store, const ImportOptions &options, const ImportProgress &before,
                 std::shared_ptr<const SpanMappings> mappings, const StreamInput *stream = nullptr,
                 std::shared_ptr<HeldRows> held = nullptr)
        : m_store(store), m_options(options), m_before(before), m_mappings(std::move(mappings)), m_stream(stream),
          m_held(std::move(held))
    {
    }

    FileImport run(const std::string &path)
    {
        FileImport result;
        result.path = path;
        m_started = std::chrono::steady_clock::now();
        const std::int64_t startedNs = nowNs();
        importInto(result, startedNs);
        result.durationNs = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m_started).count();
        if (m_finished)
            return result; // written with the rows, in their transaction
        if (result.runId == 0)
            result.runId = insertImportRun(m_store, runRow(result, startedNs));
        finishImportRun(m_store, runRow(result, startedNs));
        return result;
    }

private:
    /// Why the file's records were not kept, the store named: which disk is full, also for the app's
    /// temporary store, whose path the user never chose.
    std::string cannotWrite(const std::string &why) const
    {
        return "cannot write the store " + m_store.fileName() + ": " + why;
    }

    void importInto(FileImport &result, std::int64_t startedNs)
    {
        if (m_stream) {
            // No file to open or sniff: the stream names its format and makes its reader, whose read()
            // pulls the records itself and is handed an empty LineReader.
            result.format = m_stream->format;
            LineReader nothing(std::string_view(), 0);
            Reading reading{nothing, nullptr, nullptr, m_stream->makeReader,
                            m_stream->bytesRead ? m_stream->bytesRead : [] { return std::uint64_t{0}; }};
            readInto(result, startedNs, reading);
            return;
        }
        std::string why;
        std::unique_ptr<InputFile> input = InputFile::open(result.path, &why,
                                                           m_options.readAgainSoon ? InputCache::Keep : InputCache::AsFound);
        if (!input) {
            result.outcome = FileImport::Outcome::Unreadable;
            result.message = why;
            return;
        }
        result.compressed = input->compressed();
        const std::size_t maxLine = m_options.maxLineBytes ? m_options.maxLineBytes : kMaxLineBytes;
        const std::size_t maxDocument = m_options.maxDocumentBytes ? m_options.maxDocumentBytes : kMaxDocumentBytes;
        LineReader lines(*input, std::size_t{1} << 20, maxLine);
        const std::string_view head = lines.head();
        const TraceFormat *format = sniffFormat(head, &why);
        if (!format) {
            result.bytes = input->fileBytesRead();
            result.outcome = input->truncated() ? FileImport::Outcome::Truncated : FileImport::Outcome::Unreadable;
            result.message = input->truncated() ? "truncated: the zstd stream is cut off before any record"
                             : !input->error().empty() ? input->error() : why;
            return;
        }
        result.format = std::string(format->name);
        if (format->shapes & kShapeJsonDocument) // json.dump writes a whole document on one line
            lines.setMaxLineBytes(std::max(maxLine, maxDocument));
        Reading reading{lines, input.get(), format,
                        [format](const ReaderOptions &readerOptions) { return format->create(readerOptions); },
                        [file = input.get()] { return file->fileBytesRead(); }};
        readInto(result, startedNs, reading);
    }

    /// What readInto() reads: a file's lines and format, or a stream's reader (input and format null).
    struct Reading {
        LineReader &lines;
        InputFile *input;
        const TraceFormat *format;
        std::function<std::unique_ptr<TraceReader>(const ReaderOptions &)> make;
        std::function<std::uint64_t()> bytesRead;
    };

    /// Reads the records into the store in one transaction, the parser on this thread and the writer on its own.
    void readInto(FileImport &result, std::int64_t startedNs, Reading &reading)
    {
        std::string why;
        LineReader &lines = reading.lines;
        InputFile *input = reading.input;
        const std::size_t maxDocument = m_options.maxDocumentBytes ? m_options.maxDocumentBytes : kMaxDocumentBytes;
        result.runId = insertImportRun(m_store, runRow(result, startedNs));
        // IMMEDIATE: the write lock from now to the commit is what tells others this import is alive (import_runs.h).
        if (result.runId == 0 || !m_store.exec("BEGIN IMMEDIATE", &why)) {
            result.outcome = FileImport::Outcome::StoreError;
            result.message = cannotWrite(m_store.lastError());
            return;
        }
        std::atomic<bool> writerFailed = false;
        const unsigned parsers = m_options.parserThreads ? m_options.parserThreads : defaultParserThreads(m_held != nullptr);
        const bool parallel = reading.format && reading.format->independentLines && parsers > 1;
        BatchQueue queue(parallel ? batchesForParallelParse(parsers) : kBatchesInFlight, m_options.batchSize);
        StoreWriter writer(m_store, result.runId, m_options.detailRows, m_held.get());
        // A temporary store never waits for the disk (store.h): writing it early would only cost.
        std::optional<EarlyWriteback> writeback;
        if (!m_store.isDisposable())
            writeback.emplace(m_store.db());
        std::thread writerThread([&] { writerLoop(queue, writer, writerFailed, writeback ? &*writeback : nullptr); });
        const auto tick = [&] {
            if (!m_options.progress)
                return true;
            ImportProgress now = m_before;
            now.bytesDone += reading.bytesRead();
            now.records += result.accepted + result.rejected;
            return m_options.progress(now);
        };
        // About 400 bytes a record (5x less compressed): sizing the id set up front spares its rehashing.
        const std::size_t expected = !input ? 0 : input->compressed() ? input->fileSize() / 80 : input->fileSize() / 400;
        if (m_held && m_held->size() == 0)
            m_held->reserve(expected);
        ReaderOptions readerOptions;
        readerOptions.spanMappings = m_mappings;
        readerOptions.maxDocumentBytes = maxDocument;
        std::string fatal;
        EarlyStop stop; // the parallel path says a cut through FileImport::lastLineCut
        bool cancelled = false;
        if (parallel) {
            ParallelParse how;
            how.format = reading.format;
            how.readerOptions = &readerOptions;
            how.rejectionSamples = m_options.rejectionSamples;
            how.expectedRecords = expected;
            how.parsers = parsers;
            how.blockBytes = m_options.parseBlockBytes;
            how.maxLineBytes = lines.maxLineBytes();
            how.tick = [&](std::int64_t) { return tick(); };
            how.writerFailed = &writerFailed;
            how.keyTexts = !m_held; // a writer of rows is the pipeline's slowest stage: spare it the hashing
            try {
                cancelled = !parseInParallel(lines, queue, result, how, &fatal);
            } catch (const std::exception &e) { // the block reader's memory: as in the read below
                fatal = readerExceptionReason(e);
            }
        } else {
            BatchingSink sink(queue, result, m_options.rejectionSamples, tick, writerFailed);
            if (input)
                sink.watchLines(lines, reading.format && reading.format->independentLines);
            const std::string tooLong = oversizedLineReason(lines.maxLineBytes());
            lines.setOversizedLineHandler(
                [&](std::int64_t line, std::string_view head) { sink.rejectOversized(line, tooLong, head); });
            sink.expectRecords(expected);
            std::unique_ptr<TraceReader> reader = reading.make(readerOptions);
            try {
                fatal = reader->read(lines, sink);
            } catch (const std::exception &e) {
                // Out of memory in a reader (a document within its cap but too large for this machine):
                // the file stops there like a read error, and the writer thread is joined below rather
                // than destroyed running, which would abort the process and leave a temporary store.
                fatal = readerExceptionReason(e);
            }
            result.notice = reader->notice(); // the parallel path reads native lines, which remark nothing
            stop = reader->stoppedEarly();
            result.locationUnit = reader->locationUnit();
            try {
                sink.flush(); // looks the last record's id up, which may need memory too
            } catch (const std::exception &e) {
                if (fatal.empty())
                    fatal = readerExceptionReason(e);
            }
            cancelled = sink.cancelled();
        }
        queue.close();
        writerThread.join();
        if (!cancelled && !writerFailed && !writer.finish())
            writerFailed = true;
        result.joinCandidates = writer.wroteJoinCandidates();
        result.bytes = reading.bytesRead();

        // A stream that fails part way keeps nothing: unlike a file's start, what came before the failure
        // is an arbitrary part of the query's answer (docs/CLICKHOUSE.md).
        const bool streamFailed = !input && !fatal.empty();
        if (cancelled || writerFailed || streamFailed) {
            m_store.exec("ROLLBACK");
            result.outcome = cancelled ? FileImport::Outcome::Cancelled
                             : writerFailed ? FileImport::Outcome::StoreError
                                            : FileImport::Outcome::ReadError;
            result.message = cancelled
                ? (m_stream ? "cancelled: nothing of it was kept" : "cancelled: this file's records were not kept")
                : writerFailed ? cannotWrite(writer.error())
                               : fatal + "; nothing of it was kept";
            result.accepted = 0;
            result.rejected = 0;
            if (!input) // a pull's rejections went with it; a file's first reasons still say what it held
                result.firstRejections.clear();
            result.notice.clear();
            return;
        }
        if (!fatal.empty()) {
            result.outcome = FileImport::Outcome::Unreadable;
            result.message = fatal;
        } else if (input && input->truncated()) {
            result.outcome = FileImport::Outcome::Truncated;
            result.message = "truncated: the zstd stream is cut off; the " + std::to_string(result.accepted)
                + " records before the cut are kept";
        } else if (input && !input->error().empty()) {
            result.outcome = FileImport::Outcome::ReadError;
            result.message
                = input->error() + "; the " + std::to_string(result.accepted) + " records before it are kept";
        } else if (result.lastLineCut > 0) {
            // A file copied or read while it was being written ends inside a record: not a malformed one.
            result.outcome = FileImport::Outcome::Truncated;
            result.message = "truncated: the file ends inside line " + std::to_string(result.lastLineCut)
                + ", with no line end, and its record was rejected; the " + std::to_string(result.accepted)
                + " records before it are kept";
        } else if (!stop.reason.empty()) {
            result.outcome = stop.cutOff ? FileImport::Outcome::Truncated : FileImport::Outcome::ReadError;
            result.message = (stop.cutOff ? "truncated: " : "") + stop.reason + "; the "
                + std::to_string(result.accepted) + " records before it are kept";
        }
        // The run's counts commit with its rows, in one transaction: a process killed before the COMMIT
        // leaves the run `running` and none of its rows (store/import_runs.h), never rows under a run that
        // says 0 accepted.
        result.durationNs = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m_started).count();
        why.clear();
        if (!finishImportRun(m_store, runRow(result, startedNs)) || !m_store.exec("COMMIT", &why)) {
            // A failed COMMIT leaves the transaction open: end it, and say that nothing of this file was kept.
            why = why.empty() ? m_store.lastError() : why;
            m_store.exec("ROLLBACK");
            result.outcome = FileImport::Outcome::StoreError;
            result.message = cannotWrite(why);
            result.accepted = 0;
            result.rejected = 0;
            result.notice.clear();
            return;
        }
        m_finished = true;
        if (m_held && !writer.heldWritten())
            m_store.holdRows(std::move(m_held)); // what the scans read instead of the empty table
    }

    Store &m_store;
    const ImportOptions &m_options;
    ImportProgress m_before; ///< the progress when this file started
    std::shared_ptr<const SpanMappings> m_mappings;
    const StreamInput *m_stream; ///< the input when it is no file, else null
    std::shared_ptr<HeldRows> m_held; ///< where the requests go instead of the table, or null (importFiles())
    std::chrono::steady_clock::time_point m_started;
    bool m_finished = false; ///< the run's final row was committed with its rows
};

/// Writes the column chunks anew when the import did not leave them describing the rows (a join joined
/// records, or the store was made before them): a failure costs only speed, and is said in the last
/// file's message.
void keepRequestColumns(Store &store, std::span<FileImport> results)
{
    std::string why;
    if (!ensureRequestColumns(store, &why) && !results.empty())
        results.back().message += (results.back().message.empty() ? "" : "; ") + why;
}

/// The size of the file at `path`, 0 when it has none to give (gone, a pipe): for the progress's bytes.
std::uintmax_t fileSizeOrZero(const std::string &path)
{
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(utf8Path(path), ec);
    return ec ? 0 : size;
}

} // namespace

std::string_view outcomeName(FileImport::Outcome outcome)
{
    switch (outcome) {
    case FileImport::Outcome::Complete: return "complete";
    case FileImport::Outcome::Truncated: return "truncated";
    case FileImport::Outcome::ReadError: return "read-error";
    case FileImport::Outcome::Unreadable: return "unreadable";
    case FileImport::Outcome::Cancelled: return "cancelled";
    case FileImport::Outcome::StoreError: return "store-error";
    case FileImport::Outcome::AlreadyImported:
        return "already-imported";
    }
    return "unknown";
}

std::vector<FileImport> importFiles(Store &store, const std::vector<std::string> &paths, const ImportOptions &options)
{
    const FreedMemoryKept kept; // batches and blocks reused, not faulted in afresh, until the last file's end
    ImportProgress progress;
    progress.files = paths.size();
    for (const std::string &path : paths)
        progress.bytesTotal += fileSizeOrZero(path);
    std::vector<FileImport> results;
    std::string mappingError;
    const std::shared_ptr<const SpanMappings> mappings = loadSpanMappings(options.spanMapping, &mappingError);
    const bool hadRequests = store.heldRows() || holdsRequests(store);
    ImportState state;
    state.mappingError = mappings ? nullptr : &mappingError;
    state.runs = listImportRuns(store);
    for (const std::string &path : paths) {
        if (std::optional<FileImport> refused = refusedBeforeReading(path, store, state, results)) {
            if (refused->outcome == FileImport::Outcome::AlreadyImported) { // read before: its bytes count as done
                progress.bytesDone += fileSizeOrZero(path);
                ++progress.file;
            }
            results.push_back(std::move(*refused));
            continue;
        }
        // One file into a store with no request yet may be held in memory (ImportOptions::holdRows); several
        // would need the held rows of one file kept through the rollback of another.
        std::shared_ptr<HeldRows> held;
        if (options.holdRows && paths.size() == 1 && !store.heldRows() && !holdsRequests(store))
            held = std::make_shared<HeldRows>(options.maxHeldRequests ? options.maxHeldRequests : maxHeldRequests());
        FileImporter importer(store, options, progress, mappings, nullptr, held);
        results.push_back(importer.run(path));
        progress.bytesDone += results.back().bytes;
        progress.records += results.back().accepted + results.back().rejected;
        ++progress.file;
        state.cancelled = results.back().outcome == FileImport::Outcome::Cancelled;
    }
    // No index is built here: look-ups by id or time call Store::ensureIndexes() when they first need one,
    // so that an import is not made to wait for an index that a report never uses. The join builds the
    // index by id only when there are client and server records to join.
    // A store that held no request before, given none the join may take, has nothing to join: the join's
    // two probes would each scan every row for the side they do not find (7% of an import of 1M requests).
    // Nor has an import that added no request (its files in the store already, or giving none): the store's
    // records were joined when they came.
    const bool nothingToJoin
        = (!hadRequests
           && std::none_of(results.begin(), results.end(), [](const FileImport &f) { return f.joinCandidates; }))
        || std::none_of(results.begin(), results.end(), [](const FileImport &f) { return f.accepted > 0; });
    if (options.joinClientServer && !state.cancelled && !results.empty() && !nothingToJoin && store.isWritable()) {
        std::string why;
        const auto joining = [&] {
            if (options.progress) {
                ImportProgress report = progress;
                report.bytesDone = report.bytesTotal;
                report.joining = true;
                options.progress(report); // the join runs to its end: a cancel now would leave it half done
            }
        };
        if (!joinClientServer(store, nullptr, &why, joining))
            results.back().message += (results.back().message.empty() ? "" : "; ") + why;
    }
    if (options.rewriteColumnChunks)
        keepRequestColumns(store, results);
    if (options.progress) {
        progress.bytesDone = progress.bytesTotal;
        options.progress(progress);
    }
    return results;
}

FileImport importStream(Store &store, const StreamInput &input, const ImportOptions &options)
{
    const FreedMemoryKept kept;
    ImportProgress progress;
    progress.files = 1;
    std::string mappingError;
    const std::shared_ptr<const SpanMappings> mappings = loadSpanMappings(options.spanMapping, &mappingError);
    if (!mappings) {
        FileImport refused;
        refused.path = input.label;
        refused.outcome = FileImport::Outcome::Unreadable;
        refused.message = mappingError;
        return refused;
    }
    FileImporter importer(store, options, progress, mappings, &input);
    FileImport result = importer.run(input.label);
    if (options.joinClientServer && result.outcome == FileImport::Outcome::Complete) {
        std::string why;
        if (!joinClientServer(store, nullptr, &why, {}))
            result.message += (result.message.empty() ? "" : "; ") + why;
    }
    if (options.rewriteColumnChunks)
        keepRequestColumns(store, {&result, 1});
    return result;
}

} // namespace lx
