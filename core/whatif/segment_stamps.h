// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/stamp_scan.h"

#include <cstdint>
#include <vector>

/// \file segment_stamps.h
/// Server stamps rebuilt from the segments, for records that carry durations rather than stamps (the native
/// durations form, OTLP spans mapped onto the segments, as vLLM's are): a request's start plus its
/// preprocess, queue, prefill, decode and postprocess in pipeline order are its stamps. The network's two
/// halves are not told apart in such a record; each half is taken as half of it.

namespace lx::whatif {

/// Rebuilds the server stamps of the rows that lack them but have a start and their queue, prefill and
/// decode; returns how many were rebuilt.
std::int64_t rebuildStampsFromSegments(std::vector<StampRow> &rows);

} // namespace lx::whatif
