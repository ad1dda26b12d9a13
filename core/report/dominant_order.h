// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"

#include <string>
#include <vector>

/// \file dominant_order.h
/// The dominant-segment line as people read it (text report, GUI summary): the segments that dominate at
/// least one request, largest share first. The JSON keeps every segment in pipeline order instead.

namespace lx {

/// The segments whose dominant count is above zero, by share descending; equal shares keep pipeline order.
std::vector<Segment> dominantSegmentsByShare(const Report &report);

/// A share (0..1) as a percentage with one decimal ("72.5%"). A share that is neither zero nor whole but
/// would round to it reads "<0.1%" or ">99.9%": a segment that dominates one request in 10,000 is not 0.0%.
std::string shareText(double share);

} // namespace lx
