// SPDX-License-Identifier: GPL-3.0-or-later
#include "segment_text.h"

#include "model/segments.h"

namespace {

QString fromTable(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

} // namespace

QString segmentNameText(lx::Segment segment) { return fromTable(lx::segmentDefinition(segment).name); }

QString segmentTitleText(lx::Segment segment) { return fromTable(lx::segmentDefinition(segment).title); }
