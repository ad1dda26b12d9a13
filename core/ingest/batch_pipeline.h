// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "model/text_keys.h"
#include "store/store_writer.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

/// \file batch_pipeline.h
/// The hand-over between the parsing thread and the inserting thread: a few batches circulate between
/// a free list and a full queue, so their records (and the strings inside them) are reused, never
/// reallocated: first touches of fresh memory are slow.

namespace lx {

struct Batch {
    std::vector<RequestRecord> records; ///< only the first `count` are in use
    std::vector<std::uint64_t> idHashes;
    /// The keys of the records' texts (text_keys.h), when the parsing side gave them: the single parser
    /// always does; the parallel parse does in its in-order stage beside a writer of rows, the import's
    /// slowest stage, and not beside one that holds the rows in memory, which is light (the in-order stage
    /// is then the slowest).
    std::vector<RecordKeys> keys;
    bool keyed = false;
    std::size_t count = 0;
    std::vector<Rejection> rejections; ///< only the first `rejectionCount` are in use
    std::size_t rejectionCount = 0;
};

class BatchQueue {
public:
    explicit BatchQueue(std::size_t batches, std::size_t batchSize);

    /// Parser side: a free batch, waiting for the writer to return one.
    Batch *takeFree();
    void pushFull(Batch *batch);
    /// Tells the writer no more batches come.
    void close();

    /// Writer side: the next full batch, or null once closed and drained.
    Batch *takeFull();
    void giveBack(Batch *batch);

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Batch> m_storage;
    std::vector<Batch *> m_free;
    std::deque<Batch *> m_full;
    bool m_closed = false;
};

} // namespace lx
