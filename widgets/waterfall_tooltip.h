// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/waterfall_data.h"

#include <QString>

/// \file waterfall_tooltip.h
/// What hovering a request in the waterfall says: when it started, its e2e and each segment through the
/// tables' duration formatter, "not measured" where a segment was not (never "0").

/// Rich text for request `i`: its start (wall-clock, or the offset from the first start when the times are
/// relative), e2e, and the segments in pipeline order with their colours.
QString waterfallTooltip(const lx::WaterfallData &data, std::size_t i);
