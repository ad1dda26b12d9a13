// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <QString>

/// \file segment_text.h
/// A segment's words as the views show them, read from the segment table (model/segments.h), so that no
/// view spells a segment itself.

/// Its name, as the filter language and the reports write it: "queue".
QString segmentNameText(lx::Segment segment);
/// Its title, for a legend or a header: "Queue".
QString segmentTitleText(lx::Segment segment);
