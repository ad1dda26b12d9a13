// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/accept_rules.h"
#include "ingest/batch_pipeline.h"
#include "ingest/id_set.h"
#include "ingest/importer.h"
#include "ingest/input_file.h"
#include "ingest/line_reader.h"
#include "ingest/trace_reader.h"
#include "model/text_keys.h"
#include "model/text_util.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <string_view>

/// \file batching_sink.h
/// The single-threaded read's sink (importer.cpp): the records of one parser in batches for the writer
/// thread, repeated ids and cut lines found as they come. The parallel read has its own (parallel_parse.cpp).

namespace lx {

/// Collects the parser's records into batches for the writer thread, and rejects duplicate ids.
class BatchingSink final : public ImportSink {
public:
    BatchingSink(BatchQueue &queue, FileImport &result, std::size_t samples, std::function<bool()> tick,
                 const std::atomic<bool> &writerFailed)
        : m_queue(queue)
        , m_result(result)
        , m_samples(samples)
        , m_tick(std::move(tick))
        , m_writerFailed(writerFailed)
    {
    }

    RequestRecord &slot() override
    {
        if (!m_batch)
            m_batch = m_queue.takeFree();
        RequestRecord &record = m_batch->records[m_batch->count];
        record.clear();
        return record;
    }

    void accept(std::string_view raw) override
    {
        const std::size_t k = m_batch->count;
        RequestRecord &record = m_batch->records[k];
        const std::uint64_t hash = sealAccepted(record);
        // Its id's slot is fetched now and looked at with the next record: at millions of ids every slot
        // is a miss of the cache, which the parse of one record hides.
        m_ids.prefetch(hash);
        m_batch->idHashes[k] = hash;
        m_batch->keys[k] = m_keyer.of(record.model, record.route, record.attributesJson);
        m_batch->keyed = true;
        settlePending(true);
        ++m_batch->count;
        m_pending = true;
        // A repeated id is refused with the excerpt of its line, whose bytes the reader reuses: its head is
        // kept (an excerpt of it is the excerpt of the whole line, excerptOf() reading whole characters).
        m_pendingHead.assign(raw.substr(0, kExcerptBytes + 4));
        m_pendingCut = lineCutOff();
        flushWhenFull();
    }

    void reject(std::int64_t line, std::string_view reason, std::string_view raw) override
    {
        rejectRecord(line, reason, raw, lineEndsTheFile());
    }

    /// A line over the cap, never read: not a record cut off, wherever it ends.
    void rejectOversized(std::int64_t line, std::string_view reason, std::string_view head)
    {
        rejectRecord(line, reason, head, false);
    }

    void rejectRecord(std::int64_t line, std::string_view reason, std::string_view raw, bool endsInside)
    {
        if (!m_batch)
            m_batch = m_queue.takeFree();
        settlePending(false); // the rejections stay in line order
        addRejection(line, endsInside ? endsInsideReason(reason) : std::string(reason), raw, lineCutOff());
        if (endsInside)
            m_result.lastLineCut = line;
        flushWhenFull();
    }

    bool keepGoing() override
    {
        if (++m_sinceTick >= 1024) {
            m_sinceTick = 0;
            if (!m_tick())
                m_cancelled = true;
        }
        return !m_cancelled && !m_writerFailed.load(std::memory_order_relaxed);
    }

    void flush()
    {
        settlePending(false);
        if (m_batch && (m_batch->count > 0 || m_batch->rejectionCount > 0))
            m_queue.pushFull(m_batch);
        else if (m_batch)
            m_queue.giveBack(m_batch);
        m_batch = nullptr;
    }

    bool cancelled() const { return m_cancelled; }
    /// The lines being read, to recognise the last one of a truncated stream.
    /// With `recordPerLine` (a format whose lines are records on their own), a rejected last line the file
    /// ends inside is taken for a cut one (FileImport::lastLineCut); in other formats a line holds many
    /// records, one of which may be refused for what it says.
    void watchLines(LineReader &lines, bool recordPerLine)
    {
        m_lines = &lines;
        m_recordPerLine = recordPerLine;
    }
    void expectRecords(std::uint64_t count)
    {
        m_ids.reserveAhead(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1u << 24)));
    }

private:
    /// Decides on the last record accepted: kept, or refused as a repeated id and taken out of the batch.
    /// `nextFilled`: the reader has filled the record after it, which then moves into its place.
    void settlePending(bool nextFilled)
    {
        if (!m_pending)
            return;
        const std::size_t k = m_batch->count - 1;
        RequestRecord &record = m_batch->records[k];
        m_pending = false;
        bool first = false;
        try {
            first = m_ids.insert(record.id, m_batch->idHashes[k]);
        } catch (...) { // out of memory growing the set: the record is neither kept nor counted
            --m_batch->count;
            throw;
        }
        if (first) {
            ++m_result.accepted;
            return;
        }
        addRejection(record.sourceLine, duplicateIdReason(record.id), m_pendingHead, m_pendingCut);
        --m_batch->count;
        if (nextFilled) {
            std::swap(record, m_batch->records[k + 1]);
            m_batch->idHashes[k] = m_batch->idHashes[k + 1];
            m_batch->keys[k] = m_batch->keys[k + 1];
        }
    }

    /// Whether the line just read is the half line where a zstd stream was cut: no malformed record, its
    /// rejection says what happened to it.
    bool lineCutOff() const { return m_lines && m_lines->lastLineUnterminated() && m_lines->input()->truncated(); }
    /// Whether the line just read is the last of a whole file, which ends inside it (no line end).
    bool lineEndsTheFile() const { return m_recordPerLine && m_lines && m_lines->endsInsideLastLine(); }

    void addRejection(std::int64_t line, std::string_view reason, std::string_view raw, bool cutOff)
    {
        ++m_result.rejected;
        std::string why(reason);
        if (cutOff)
            why = cutOffReason(why);
        if (m_result.firstRejections.size() < m_samples)
            m_result.firstRejections.push_back({ line, why });
        if (m_batch->rejectionCount == m_batch->rejections.size())
            m_batch->rejections.emplace_back();
        Rejection &rejection = m_batch->rejections[m_batch->rejectionCount++];
        rejection.line = line;
        rejection.reason = std::move(why);
        rejection.excerpt = excerptOf(raw, kExcerptBytes);
    }

    void flushWhenFull()
    {
        if (m_batch->count == m_batch->records.size() || m_batch->rejectionCount >= m_batch->records.size())
            flush();
    }

    BatchQueue &m_queue;
    FileImport &m_result;
    std::size_t m_samples;
    std::function<bool()> m_tick;
    const std::atomic<bool> &m_writerFailed;
    Batch *m_batch = nullptr;
    LineReader *m_lines = nullptr;
    bool m_recordPerLine = false;
    IdSet m_ids;
    RecordKeyer m_keyer;
    bool m_pending = false; ///< the batch's last record waits for its id to be looked up (settlePending())
    std::string m_pendingHead; ///< the head of its line
    bool m_pendingCut = false; ///< its line is where a zstd stream was cut
    int m_sinceTick = 0;
    bool m_cancelled = false;
};

} // namespace lx
