// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/percentiles.h"
#include "model/rank_histogram.h"
#include "store/request_scan.h"

#include <array>
#include <vector>

/// \file token_metric_chunks.h
/// TTFT and TTLT over every request of a store, read from their columns of the column chunks alone
/// (request_columns.h, readChunkColumns()). A report on many requests holds each request's LatencyRow
/// (88 bytes); these two metrics are not in it, and their values beside the rows were 160 MB at 10M
/// requests. Read this way they are never held: the scan counts them (a RankHistogram's first pass), and
/// the second pass reads the head of each chunk's BLOB, where they are stored (column_chunk_codec.h),
/// instead of a second scan of everything to collect the rows after them.

namespace lx {

class Store;

/// The TTFT (first) and TTLT statistics of the requests of `range` (the scan's: requestIdRange()) in the
/// store's chunks: of the ok ones, or of all with includeErrors; the values measured. `counted` holds the
/// first pass of each (the scan of that range that collected the rows counted them): this reads the
/// chunks of the same ids for the second pass, and again only for
/// values much alike (rare); on a store of many requests the upper half of the chunks on a second
/// connection and thread. As summarize() gives them. For a store whose chunks are readable
/// (readableRequestColumns()) and a report without a filter. Throws std::runtime_error on a chunk that
/// cannot be read.
std::array<Statistic, 2> summarizeTokenMetricChunks(const Store &store, const RowIdRange &range,
                                                    std::array<RankHistogram *, 2> counted, bool includeErrors,
                                                    const std::vector<double> &percentiles);

} // namespace lx
