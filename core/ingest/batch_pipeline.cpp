// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/batch_pipeline.h"

namespace lx {

BatchQueue::BatchQueue(std::size_t batches, std::size_t batchSize)
    : m_storage(batches)
{
    for (Batch &batch : m_storage) {
        batch.records.resize(batchSize);
        batch.idHashes.resize(batchSize);
        batch.keys.resize(batchSize);
        m_free.push_back(&batch);
    }
}

Batch *BatchQueue::takeFree()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_free.empty(); });
    Batch *batch = m_free.back();
    m_free.pop_back();
    batch->count = 0;
    batch->rejectionCount = 0;
    batch->keyed = false;
    return batch;
}

void BatchQueue::pushFull(Batch *batch)
{
    {
        std::lock_guard lock(m_mutex);
        m_full.push_back(batch);
    }
    m_changed.notify_all();
}

void BatchQueue::close()
{
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
    }
    m_changed.notify_all();
}

Batch *BatchQueue::takeFull()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_full.empty() || m_closed; });
    if (m_full.empty())
        return nullptr;
    Batch *batch = m_full.front();
    m_full.pop_front();
    return batch;
}

void BatchQueue::giveBack(Batch *batch)
{
    {
        std::lock_guard lock(m_mutex);
        m_free.push_back(batch);
    }
    m_changed.notify_all();
}

} // namespace lx
