// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <cstdint>
#include <string>
#include <vector>

/// \file request_lookup.h
/// One request in full, and the rejected records, as the detail panel and the rejected-records dialog show
/// them. Point look-ups by row id: the views never speak SQL.

namespace lx {

class Store;

/// Everything known about one request.
struct RequestDetail {
    std::int64_t rowId = 0;
    std::string sourceId;    ///< the id in the source file
    std::string sourcePath;  ///< the file it came from
    std::int64_t sourceLine = 0;
    Status status = Status::Ok;
    std::string model, route;
    std::int64_t inputTokens = kNotMeasured, outputTokens = kNotMeasured;
    std::array<std::int64_t, kStampCount> stamps{};
    RequestMetrics metrics;
    std::string attributesJson;           ///< a JSON object, or empty
    std::vector<std::int64_t> tokenTimes; ///< empty when the source had none
};

/// The request with that row id; false when there is none.
bool loadRequestDetail(const Store &store, std::int64_t rowId, RequestDetail &out);

/// A record refused at import.
struct RejectedRecord {
    std::string path;
    std::int64_t line = 0;
    std::string reason;
    std::string excerpt;
};

/// The first `limit` rejected records of the investigation, in file and line order, and their total count.
std::vector<RejectedRecord> loadRejected(const Store &store, std::size_t limit, std::int64_t *total = nullptr);

/// The attributes JSON object as key/value text pairs (values as JSON text), in key order.
std::vector<std::pair<std::string, std::string>> attributePairs(const Store &store, std::int64_t rowId);

} // namespace lx
