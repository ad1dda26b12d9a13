// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/waterfall_density.h"

#include <QColor>
#include <QImage>

#include <array>

/// \file waterfall_shading.h
/// How the waterfall's density (lx::aggregateWaterfall) becomes pixels: a cell a pixel, in the colour of
/// the segment that fills most of it. A segment's densest cells in view are its legend swatch's colour at
/// full strength; sparser ones fade towards the background, never below kFaintestAlpha. Measured against
/// the segment's own densest cell rather than a full cell: at Fit, a million short requests over a day
/// fill a few thousandths of their cells, and a scale against a full cell drew them as a faint hairline
/// paler than any swatch.

/// The least opacity of a cell with any bar in it: sparse cells stay in sight.
inline constexpr double kFaintestAlpha = 0.45;

/// The density as an image of density.columns × density.bands pixels (transparent where empty).
QImage waterfallDensityImage(const lx::WaterfallDensity &density, const std::array<QColor, lx::kSegmentCount> &colors);
