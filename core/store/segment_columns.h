// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <span>
#include <string>
#include <string_view>

/// \file segment_columns.h
/// The SQL that names the segments' columns of `requests`, built from the segment table
/// (model/segments.h), so that no statement of the store lists the seven columns by hand.

namespace lx {

/// Every segment's column in pipeline order, each behind `tablePrefix` and joined by ", ":
/// "r.network_ns, r.preprocess_ns, ..., r.unattributed_ns" for "r.". The order is the schema's, which is the
/// order readers of a result take the columns in by index.
std::string segmentColumnList(std::string_view tablePrefix = {});

/// `pattern` once per segment of `segments` (in the order given), each "{}" in it replaced by the segment's
/// column, joined by `separator`: ("{} = s.{}", ", ", [Queue, Decode]) is "queue_ns = s.queue_ns, decode_ns =
/// s.decode_ns". Empty for no segments.
std::string segmentColumnTerms(std::string_view pattern, std::string_view separator,
                               std::span<const Segment> segments);

} // namespace lx
