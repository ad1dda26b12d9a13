// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/store_writer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

/// \file importer.h
/// Imports trace files into a store: the format is sniffed, one thread parses while another inserts, and
/// each file is one transaction. A cancel rolls back the file in progress and keeps the files before it.

namespace lx {

class Store;
class TraceReader;
struct ReaderOptions;

/// Where an import stands, over all its files.
struct ImportProgress {
    std::uint64_t bytesDone = 0;  ///< bytes of input read (compressed bytes for a compressed file)
    std::uint64_t bytesTotal = 0; ///< the size of all the files
    std::int64_t records = 0;     ///< records read so far, accepted and rejected
    std::size_t file = 0;         ///< 0-based index of the file being read
    std::size_t files = 0;
    /// The files are read and their client and server records are being joined (request_join.h): one
    /// report before that work, whose length the bytes cannot tell.
    bool joining = false;
};

/// Called about every thousand records from the importing thread; returning false cancels.
using ProgressCallback = std::function<bool(const ImportProgress &progress)>;

struct RejectionSample {
    std::int64_t line = 0;
    std::string reason;
};

/// What happened to one input file.
struct FileImport {
    enum class Outcome {
        Complete, ///< every record read (some may have been rejected)
        Truncated, ///< the file was cut off: the records before the cut are kept
        ReadError, ///< a read or decompression error mid-file: the records before it are kept
        Unreadable, ///< not opened or not a trace: nothing imported
        Cancelled, ///< the user cancelled: this file's records were rolled back
        StoreError, ///< the store could not be written (disk full, ...): this file's records were rolled back
        AlreadyImported, ///< the same file is in the investigation already (already_imported.h): not read
    };
    std::string path;
    std::string format; ///< sniffed format, empty when unreadable
    bool compressed = false;
    std::int64_t runId = 0;
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
    std::uint64_t bytes = 0;
    std::int64_t durationNs = 0;
    Outcome outcome = Outcome::Complete;
    std::string message; ///< why the outcome is not Complete
    /// What the reader remarks of the records it read (TraceReader::notice()), such as that no OTLP span
    /// mapping claimed a span; empty when nothing. The import_runs row's message holds it too.
    std::string notice;
    std::vector<RejectionSample> firstRejections;
    /// What their line numbers count (TraceReader::locationUnit()): "line", "message" or "span".
    std::string locationUnit = "line";
    /// The file ends inside this line (no line end after it), which was rejected: a file cut off while it
    /// was written, most often. 0 when the last line was read whole or accepted.
    std::int64_t lastLineCut = 0;
    /// Whether a record the client/server join may take was written (none: an import into an empty store
    /// need not run the join).
    bool joinCandidates = false;

    /// True when the input could not be read in full (the CLI's exit status 2).
    bool failed() const
    {
        return outcome != Outcome::Complete && outcome != Outcome::Cancelled && outcome != Outcome::AlreadyImported;
    }
};

struct ImportOptions {
    ProgressCallback progress;
    std::size_t batchSize = 4096;        ///< records handed from the parser to the writer at a time
    std::size_t rejectionSamples = 5;    ///< reasons kept in FileImport::firstRejections
    /// Threads that parse a format of independent lines (native JSON lines, parallel_parse.h): 0 one per
    /// core but the writer's (defaultParserThreads()), 1 the single-threaded read of every other format.
    unsigned parserThreads = 0;
    std::size_t parseBlockBytes = 0; ///< bytes of lines a parser thread takes at a time; 0: 4 MiB
    /// A longer line is refused with its number, unread (line_reader.h); 0: 64 MiB. Formats that may be one
    /// JSON document on one line read lines up to maxDocumentBytes.
    std::size_t maxLineBytes = 0;
    std::size_t maxDocumentBytes = 0; ///< a larger JSON document is not read (trace_reader.h); 0: 512 MiB
    /// After the files, join client records with the server records of the same requests (request_join.h),
    /// so that a benchmark and a trace dump opened together form joined requests.
    bool joinClientServer = true;
    /// How OTLP spans become requests (docs/OTLP.md "Mapping files"): empty or "auto" (vllm, then sglang,
    /// then tgi), a preset name (vllm, sglang, tgi, http-gateway) or the path of a mapping file. One that
    /// cannot be loaded makes every file unreadable with the reason; check it first with loadSpanMappings().
    std::string spanMapping;
    /// Which requests get a request_details row: all of them, or (a report's throw-away store) only those
    /// the join may take (store_writer.h).
    DetailRows detailRows = DetailRows::All;
    /// A single file imported into a store with no request yet keeps its requests in memory (held_rows.h)
    /// rather than in the `requests` table, unless a record the join may take comes: for a store that a
    /// report reads once, without a filter (the scans read held rows only unfiltered), and throws away.
    bool holdRows = false;
    /// The most requests held (HeldRows); 0 for maxHeldRequests(), by the machine's memory.
    std::size_t maxHeldRequests = 0;
    /// Writes the column chunks anew when the import leaves them not describing the rows (after a join or
    /// a merge: store/request_columns.h). False for a store read once and thrown away: writing them would
    /// cost a scan of the rows, which its one report can read instead.
    bool rewriteColumnChunks = true;
    /// The input files are read again right after this import (the desktop's summary first, then its
    /// store): they stay in the page cache, instead of leaving it as they were found (cache_as_found.h).
    bool readAgainSoon = false;
};

/// Imports the files in order into the store, then joins client and server records unless the import
/// was cancelled (ImportOptions::joinClientServer); a failed join is said in the last file's message. Last,
/// the column chunks are written anew if the rows changed otherwise than by the import's own appends (a
/// join, a merge before it, a store made before them: store/request_columns.h).
std::vector<FileImport> importFiles(Store &store, const std::vector<std::string> &paths, const ImportOptions &options = {});

/// An input that is no file: the answer of a trace store's query (core/source), read by a reader that pulls
/// its records itself.
struct StreamInput {
    std::string label;  ///< what the import_runs row and FileImport::path name it: no secret in it
    std::string format; ///< the format's name in the import_runs row
    /// Makes the reader. Its read() is handed an empty LineReader; an error it returns fails the whole input.
    std::function<std::unique_ptr<TraceReader>(const ReaderOptions &)> makeReader;
    /// Bytes received so far: the progress's bytesDone and the run's bytes (bytesTotal stays 0: unknown).
    std::function<std::uint64_t()> bytesRead;
};

/// Imports one stream as importFiles() imports a file (the same sink, writer, rejections, import_runs row
/// and progress, one transaction), except that an error part way rolls back all of it: nothing of a failed
/// or cancelled pull is kept. Then joins client and server records as importFiles() does.
FileImport importStream(Store &store, const StreamInput &input, const ImportOptions &options = {});

std::string_view outcomeName(FileImport::Outcome outcome);

} // namespace lx
