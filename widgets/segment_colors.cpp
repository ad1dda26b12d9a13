// SPDX-License-Identifier: GPL-3.0-or-later
#include "segment_colors.h"

#include "model/segments.h"

#include <array>

QColor segmentColor(lx::Segment segment)
{
    // Okabe and Ito's palette in its published order, then grey; which segment takes which colour is the
    // segment table's colorIndex (model/segments.h).
    static const std::array<QColor, 9> palette = {
        QColor(0x00, 0x00, 0x00), // black
        QColor(0xE6, 0x9F, 0x00), // orange
        QColor(0x56, 0xB4, 0xE9), // sky blue
        QColor(0x00, 0x9E, 0x73), // bluish green
        QColor(0xF0, 0xE4, 0x42), // yellow
        QColor(0x00, 0x72, 0xB2), // blue
        QColor(0xD5, 0x5E, 0x00), // vermillion
        QColor(0xCC, 0x79, 0xA7), // reddish purple
        QColor(0x99, 0x99, 0x99), // grey, not Okabe and Ito's
    };
    return palette.at(static_cast<std::size_t>(lx::segmentDefinition(segment).colorIndex));
}
