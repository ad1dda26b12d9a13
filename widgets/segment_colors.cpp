// SPDX-License-Identifier: GPL-3.0-or-later
#include "segment_colors.h"

#include <array>

QColor segmentColor(lx::Segment segment)
{
    static const std::array<QColor, lx::kSegmentCount> colors = {
        QColor(0x56, 0xB4, 0xE9), // network: sky blue
        QColor(0xE6, 0x9F, 0x00), // preprocess: orange
        QColor(0xD5, 0x5E, 0x00), // queue: vermillion
        QColor(0xCC, 0x79, 0xA7), // prefill: reddish purple
        QColor(0x00, 0x9E, 0x73), // decode: bluish green
        QColor(0x00, 0x72, 0xB2), // postprocess: blue
        QColor(0x99, 0x99, 0x99), // unattributed: grey
    };
    return colors[static_cast<std::size_t>(segment)];
}
