// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/parallel_parse.h"

#include "ingest/accept_rules.h"
#include "ingest/batch_pipeline.h"
#include "ingest/format_registry.h"
#include "ingest/id_set.h"
#include "ingest/input_file.h"
#include "ingest/line_blocks.h"
#include "ingest/line_reader.h"
#include "ingest/trace_reader.h"
#include "model/text_util.h"
#include "platform/thread_priority.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace lx {

namespace {

/// Blocks in flight: each parser has one to parse and one waiting, and one more is being read.
std::size_t workItems(unsigned parsers) { return std::size_t{parsers} * 2 + 1; }

/// A block on its way: read here, parsed by a parser thread, then put in order.
struct Work {
    LineBlock block;
    Batch *batch = nullptr;
    std::vector<std::string_view> raws; ///< each accepted record's text, for a duplicate's excerpt
    /// Each accepted record's idCheckHash(), taken by the parser, which has the id's text in its cache. The
    /// in-order thread took it before, reading a text the other core had just written: taken here, an import
    /// of 10M requests took 0.94x the time and 0.95x the CPU (6 paired runs).
    std::vector<std::uint64_t> idChecks;
    std::uint64_t sequence = 0;
    bool inputTruncated = false;        ///< (with block.endsInput) the zstd stream was cut off
    bool inputFailed = false; ///< (with block.endsInput) the input could not be read on
    std::int64_t lastLineCut = 0; ///< the file ends inside this line of the block, rejected (FileImport)
    bool parsed = false;
    std::string fatal;                  ///< a reader's fatal error (the single-threaded read would stop there)
};

/// The parser thread's sink: fills the block's batch, in line order.
class BlockSink final : public ImportSink {
public:
    BlockSink(Work &work, const std::atomic<bool> &stop) : m_work(work), m_batch(*work.batch), m_stop(stop) {}

    RequestRecord &slot() override
    {
        if (m_batch.count == m_batch.records.size()) {
            m_batch.records.emplace_back();
            m_batch.idHashes.resize(m_batch.records.size());
            m_batch.keys.resize(m_batch.records.size());
        }
        RequestRecord &record = m_batch.records[m_batch.count];
        record.clear();
        return record;
    }

    void accept(std::string_view raw) override
    {
        RequestRecord &record = m_batch.records[m_batch.count];
        m_batch.idHashes[m_batch.count] = sealAccepted(record);
        if (m_work.raws.size() <= m_batch.count) {
            m_work.raws.resize(m_batch.count + 1);
            m_work.idChecks.resize(m_batch.count + 1);
        }
        m_work.raws[m_batch.count] = raw;
        m_work.idChecks[m_batch.count] = idCheckHash(record.id);
        ++m_batch.count;
    }

    void reject(std::int64_t line, std::string_view reason, std::string_view raw) override
    {
        if (m_batch.rejectionCount == m_batch.rejections.size())
            m_batch.rejections.emplace_back();
        Rejection &rejection = m_batch.rejections[m_batch.rejectionCount++];
        rejection.line = line;
        const bool lastOfInput = m_work.block.endsInput && m_work.block.lastLineUnterminated
            && line == m_work.block.linesBefore + m_work.block.lines;
        rejection.reason = !lastOfInput ? std::string(reason)
            : m_work.inputTruncated     ? cutOffReason(reason)
            : m_work.inputFailed        ? std::string(reason)
                                        : endsInsideReason(reason);
        if (lastOfInput && !m_work.inputTruncated && !m_work.inputFailed)
            m_work.lastLineCut = line;
        rejection.excerpt = excerptOf(raw, kExcerptBytes);
    }

    bool keepGoing() override { return !m_stop.load(std::memory_order_relaxed); }

private:
    Work &m_work;
    Batch &m_batch;
    const std::atomic<bool> &m_stop;
};

class Pipeline {
public:
    Pipeline(LineReader &lines, BatchQueue &queue, FileImport &result, const ParallelParse &how)
        : m_lines(lines)
        , m_blocks(lines, how.blockBytes ? how.blockBytes : kDefaultBlockBytes, how.maxLineBytes ? how.maxLineBytes : kMaxLineBytes)
        , m_queue(queue)
        , m_result(result)
        , m_how(how)
    {
        const unsigned parsers = how.parsers ? how.parsers : defaultParserThreads();
        m_work.resize(workItems(parsers));
        for (Work &w : m_work)
            m_free.push_back(&w);
        for (unsigned i = 0; i < parsers; ++i)
            m_parsers.emplace_back([this] { parseLoop(); });
    }

    ~Pipeline()
    {
        {
            std::lock_guard lock(m_mutex);
            m_closing = true;
        }
        m_changed.notify_all();
        for (std::thread &t : m_parsers)
            t.join();
    }

    /// Reads, hands out and puts in order every block; false when cancelled.
    bool run()
    {
        bool exhausted = false;
        std::uint64_t nextToRead = 0;
        for (;;) {
            while (Work *done = takeInOrder())
                finish(*done);
            if (stopping())
                exhausted = true;
            Work *free = exhausted ? nullptr : takeFree();
            if (free) {
                if (!m_blocks.next(free->block)) {
                    exhausted = true;
                    giveBackFree(free);
                    continue;
                }
                if (nextToRead == 0)
                    makeRoomForTheIds(free->block);
                free->batch = m_queue.takeFree(); // waits while the writer is behind: memory stays bounded
                free->sequence = nextToRead++;
                free->inputTruncated = free->block.endsInput && m_lines.input() && m_lines.input()->truncated();
                free->inputFailed = free->block.endsInput && m_lines.input() && !m_lines.input()->error().empty();
                free->lastLineCut = 0;
                dispatch(free);
                continue;
            }
            std::unique_lock lock(m_mutex);
            if (exhausted && m_inFlight == 0)
                break;
            m_changed.wait(lock, [&] { return nextReady() || (!exhausted && !m_free.empty()); });
        }
        return !m_cancelled;
    }

    const std::string &fatal() const { return m_fatal; }

private:
    std::string oversizedLineReason() const
    {
        return lx::oversizedLineReason(m_how.maxLineBytes ? m_how.maxLineBytes : kMaxLineBytes);
    }

    /// Sizes the duplicate-id set from the first block: a plain file's lines are about as long as those of
    /// its first block (the estimate from the file's size alone, 400 bytes a record, asked for 2x the
    /// memory for 10M requests of 560 bytes). A compressed file keeps that estimate: its decoder reads
    /// ahead of what it has handed out.
    void makeRoomForTheIds(const LineBlock &first)
    {
        const InputFile *input = m_lines.input();
        const std::uint64_t fromTheBlock = input && !input->compressed() ? linesExpected(first, input->fileBytesRead(), input->fileSize()) : 0;
        const std::uint64_t expected = fromTheBlock > 0 ? fromTheBlock : m_how.expectedRecords;
        m_ids.reserveAhead(static_cast<std::size_t>(std::min<std::uint64_t>(expected, SIZE_MAX)));
    }

    bool stopping()
    {
        return m_cancelled || !m_fatal.empty() || (m_how.writerFailed && m_how.writerFailed->load(std::memory_order_relaxed));
    }

    Work *takeFree()
    {
        std::lock_guard lock(m_mutex);
        if (m_free.empty())
            return nullptr;
        Work *w = m_free.back();
        m_free.pop_back();
        return w;
    }

    void giveBackFree(Work *w)
    {
        std::lock_guard lock(m_mutex);
        m_free.push_back(w);
    }

    void dispatch(Work *w)
    {
        {
            std::lock_guard lock(m_mutex);
            w->parsed = false;
            ++m_inFlight;
            m_toParse.push_back(w);
        }
        m_changed.notify_all();
    }

    bool nextReady() const
    {
        return std::any_of(m_work.begin(), m_work.end(), [&](const Work &w) {
            return w.parsed && w.sequence == m_nextInOrder && w.batch;
        });
    }

    Work *takeInOrder()
    {
        std::lock_guard lock(m_mutex);
        for (Work &w : m_work) {
            if (w.batch && w.parsed && w.sequence == m_nextInOrder) {
                w.parsed = false;
                ++m_nextInOrder;
                return &w;
            }
        }
        return nullptr;
    }

    void parseLoop()
    {
        lowerThisThreadsPriority(); // the writer and the in-order stage first: the import waits on each
        std::unique_ptr<TraceReader> reader = m_how.format->create(*m_how.readerOptions);
        for (;;) {
            Work *w = nullptr;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_closing || !m_toParse.empty(); });
                if (m_toParse.empty())
                    return;
                w = m_toParse.front();
                m_toParse.pop_front();
            }
            parse(*w, *reader);
            {
                std::lock_guard lock(m_mutex);
                w->parsed = true;
            }
            m_changed.notify_all();
        }
    }

    void parse(Work &w, TraceReader &reader)
    {
        w.fatal.clear();
        if (w.block.oversizedLine > 0) {
            Batch &batch = *w.batch;
            if (batch.rejections.empty())
                batch.rejections.emplace_back();
            batch.rejections[0] = {w.block.oversizedLine, oversizedLineReason(), {}};
            batch.rejectionCount = 1;
            return;
        }
        if (w.block.size == 0)
            return;
        LineReader blockLines(w.block.padded(), w.block.linesBefore);
        BlockSink sink(w, m_stopParsing);
        try {
            w.fatal = reader.read(blockLines, sink);
        } catch (const std::exception &e) {
            // An exception leaving a parser thread would abort the process: it ends the file like a
            // reader's fatal error (importer.cpp says the same of the single-threaded read).
            w.fatal = readerExceptionReason(e);
        }
    }

    /// Puts a parsed block in file order: repeated ids become rejections, then the batch goes to the writer.
    void finish(Work &w)
    {
        Batch &batch = *w.batch;
        // After a reader's fatal error the single-threaded read stops: nothing after that block is kept.
        const bool afterFatal = !m_fatal.empty();
        if (!w.fatal.empty() && m_fatal.empty())
            m_fatal = w.fatal;
        if (m_cancelled || afterFatal) {
            m_queue.giveBack(&batch);
        } else {
            keepFirstOfEachId(w);
            m_queue.pushFull(&batch);
            if (w.lastLineCut > 0)
                m_result.lastLineCut = w.lastLineCut;
        }
        w.batch = nullptr;
        {
            std::lock_guard lock(m_mutex);
            --m_inFlight;
            m_free.push_back(&w);
        }
        m_changed.notify_all();
        if (!m_cancelled && m_how.tick && !m_how.tick(m_result.accepted + m_result.rejected)) {
            m_cancelled = true;
            m_stopParsing = true;
        }
    }

    void keepFirstOfEachId(Work &w)
    {
        Batch &batch = *w.batch;
        m_duplicates.clear();
        std::size_t kept = 0;
        constexpr std::size_t kAhead = 16; // slots fetched ahead: enough misses in flight to hide their latency
        for (std::size_t i = 0; i < std::min(kAhead, batch.count); ++i)
            m_ids.prefetch(batch.idHashes[i]);
        for (std::size_t i = 0; i < batch.count; ++i) {
            if (i + kAhead < batch.count)
                m_ids.prefetch(batch.idHashes[i + kAhead]);
            RequestRecord &record = batch.records[i];
            if (!m_ids.insert(batch.idHashes[i], w.idChecks[i])) {
                m_duplicates.push_back({record.sourceLine, duplicateIdReason(record.id), excerptOf(w.raws[i], kExcerptBytes)});
                continue;
            }
            if (kept != i) {
                std::swap(batch.records[kept], record);
                batch.idHashes[kept] = batch.idHashes[i];
            }
            if (m_how.keyTexts) {
                const RequestRecord &keptRecord = batch.records[kept];
                batch.keys[kept] = m_keyer.of(keptRecord.model, keptRecord.route, keptRecord.attributesJson);
            }
            ++kept;
        }
        batch.count = kept;
        batch.keyed = m_how.keyTexts;
        m_result.accepted += static_cast<std::int64_t>(kept);
        // The parser's rejections and the repeated ids, merged back into line order.
        if (!m_duplicates.empty()) {
            m_merged.assign(std::make_move_iterator(batch.rejections.begin()),
                            std::make_move_iterator(batch.rejections.begin() + static_cast<std::ptrdiff_t>(batch.rejectionCount)));
            m_merged.insert(m_merged.end(), std::make_move_iterator(m_duplicates.begin()), std::make_move_iterator(m_duplicates.end()));
            std::stable_sort(m_merged.begin(), m_merged.end(), [](const Rejection &a, const Rejection &b) { return a.line < b.line; });
            batch.rejections.resize(std::max(batch.rejections.size(), m_merged.size()));
            std::move(m_merged.begin(), m_merged.end(), batch.rejections.begin());
            batch.rejectionCount = m_merged.size();
        }
        for (std::size_t i = 0; i < batch.rejectionCount; ++i) {
            if (m_result.firstRejections.size() < m_how.rejectionSamples)
                m_result.firstRejections.push_back({batch.rejections[i].line, batch.rejections[i].reason});
        }
        m_result.rejected += static_cast<std::int64_t>(batch.rejectionCount);
    }

    LineReader &m_lines;
    LineBlockReader m_blocks;
    BatchQueue &m_queue;
    FileImport &m_result;
    const ParallelParse &m_how;

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Work> m_work;
    std::vector<Work *> m_free;
    std::deque<Work *> m_toParse;
    std::vector<std::thread> m_parsers;
    std::size_t m_inFlight = 0;
    std::uint64_t m_nextInOrder = 0;
    bool m_closing = false;

    // Used by this thread only.
    IdSet m_ids;
    RecordKeyer m_keyer; ///< the kept records' texts, in file order
    std::vector<Rejection> m_duplicates, m_merged;
    bool m_cancelled = false;
    std::string m_fatal;
    std::atomic<bool> m_stopParsing = false;
};

} // namespace

unsigned defaultParserThreads(bool lightWriter)
{
    // Every core but the writer's, and never fewer than two: the parsers run at a lower priority than the
    // writer and the in-order stage (thread_priority.h), so they take only what those two leave of the
    // cores. On two cores the single-threaded read kept its one parser busy to the end while the writer
    // waited a tenth of the time; two parsers beside it took 0.76x and 0.81x the time of 10M requests
    // (4 and 3 paired runs), 0.97x and 1.03x at 1M (7 each: no change). A writer that holds the rows in
    // memory (held_rows.h) takes little of a core: every core parses.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (cores == 1)
        return 1;
    return std::clamp(lightWriter ? cores : cores - 1, 2u, 8u);
}

std::size_t batchesForParallelParse(unsigned parsers) { return workItems(parsers) + 2; }

bool parseInParallel(LineReader &lines, BatchQueue &queue, FileImport &result, const ParallelParse &how, std::string *fatal)
{
    Pipeline pipeline(lines, queue, result, how);
    const bool finished = pipeline.run();
    if (fatal)
        *fatal = pipeline.fatal();
    return finished;
}

} // namespace lx
