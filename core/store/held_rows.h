// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "store/request_scan.h"

#include <cstdint>
#include <span>
#include <vector>

/// \file held_rows.h
/// The requests of a report's throw-away store held in memory instead of written to `requests` and
/// `token_times` (ImportOptions::holdRows): `report FILE` reads them once, and writing them into SQLite only
/// to scan them back was most of its time. The scans (request_scan.h) read a store's held rows as they read
/// its table, row for row the same values. An import that meets a record the client/server join may take
/// writes what it held and goes on writing (StoreWriter): the join is SQL.

namespace lx {

/// One request as its `requests` row and token times would hold it.
struct HeldRequest {
    RequestMetrics metrics;
    Status status = Status::Ok;
    std::int64_t modelId = kNotMeasured; ///< labels.id, kNotMeasured for none
    std::int64_t routeId = kNotMeasured;
    std::int64_t inputTokens = -1; ///< -1 when absent
    std::int64_t outputTokens = -1;

    /// The values of `record`'s `requests` row, its model and route as labels.id.
    static HeldRequest of(const RequestRecord &record, std::int64_t modelId, std::int64_t routeId)
    {
        return {record.metrics, record.status, modelId, routeId, record.inputTokens, record.outputTokens};
    }
};

/// About what a held request takes: its row, its token times' share and the vectors' slack (measured on
/// the bench's timestamps form).
inline constexpr std::size_t kHeldBytesPerRequest = 170;

/// At most this many requests are held: an eighth of the physical memory (a report peaks at about twice
/// what it holds), 4 million where the system does not say. Past it the writer writes what it held and goes
/// on as any import, so that a report of a file of any size keeps its memory bounded.
std::size_t maxHeldRequests();

/// The requests with ids 1..size() of a store whose `requests` table is empty.
class HeldRows {
public:
    explicit HeldRows(std::size_t maxRequests = maxHeldRequests()) : m_maxRequests(maxRequests) {}
    /// Whether `more` requests still fit under the cap.
    bool fits(std::size_t more) const { return m_rows.size() + more <= m_maxRequests; }
    void add(const RequestRecord &record, std::int64_t modelId, std::int64_t routeId);
    /// Makes room for about `requests` (an estimate from the file's size; at most the cap) before the first
    /// add(), in huge pages where the system has them: a vector grown by doubling touched twice the memory
    /// it ended with and copied it once, and fresh memory was a tenth of `report FILE`.
    void reserve(std::size_t requests);
    std::size_t size() const { return m_rows.size(); }
    /// Request `index` (0-based: id index + 1) as its row and token times would hold it.
    HeldRequest request(std::size_t index) const;
    /// Every request's LatencyRow, as a scan reads it (rowOf(request(i))), in id order: what a report
    /// without a filter would collect, lent to it instead (880 MB fewer for 10M requests).
    std::span<const LatencyRow> latencyRows() const { return m_rows; }
    std::span<const std::int64_t> tokenTimes(std::size_t index) const;
    /// Lets go of every request (after they were written to the store).
    void clear();

private:
    /// What a request holds beside its LatencyRow.
    struct Rest {
        std::int64_t ttft, ttlt;
        std::int64_t modelId, routeId, inputTokens, outputTokens;
        std::int32_t dominant;
        E2eScope e2eScope, tokenScope;
    };

    std::size_t m_maxRequests;
    std::vector<LatencyRow> m_rows; ///< the requests' LatencyRow, and the rest of them beside it
    std::vector<Rest> m_rest;
    std::vector<std::int64_t> m_times;        ///< every request's token times, one after another
    std::vector<std::size_t> m_timesEnd;      ///< where request i's times end in m_times
};

} // namespace lx
