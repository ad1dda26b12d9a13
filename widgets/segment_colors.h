// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <QColor>

/// One colour per segment, the same in every view: Okabe and Ito's colour-blind-safe palette, in pipeline
/// order; unattributed is grey, since it is the absence of a measurement.
QColor segmentColor(lx::Segment segment);
