// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_shading.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace {

/// Below this many cells one thread shades them all (starting threads costs more than it saves).
constexpr std::size_t kCellsPerThread = 1 << 18;

/// What shading a cell needs to know of its segment.
struct SegmentShade {
    std::array<int, 3> rgb{};
    float perDensest = 0; ///< 1 / the segment's densest fill in view; 0 when it has none
};

/// Writes the pixels of bands [from, to): every pixel once, transparent where a cell is empty.
void shadeBands(const lx::WaterfallDensity &density, const std::array<SegmentShade, lx::kSegmentCount> &shades,
                uchar *bits, qsizetype bytesPerLine, int from, int to)
{
    for (int b = from; b < to; ++b) {
        auto *line = reinterpret_cast<QRgb *>(bits + bytesPerLine * b);
        const std::size_t first = density.cell(b, 0);
        for (int c = 0; c < density.columns; ++c) {
            const int s = density.dominant[first + static_cast<std::size_t>(c)];
            if (s < 0) {
                line[c] = 0;
                continue;
            }
            const SegmentShade &shade = shades[static_cast<std::size_t>(s)];
            // A square root lifts the sparse cells, as the eye reads lightness; the densest are opaque.
            const float fill = density.fill[first + static_cast<std::size_t>(c)];
            const float share = shade.perDensest > 0 ? std::clamp(fill * shade.perDensest, 0.0f, 1.0f) : 1.0f;
            const float alpha = float(kFaintestAlpha) + float(1 - kFaintestAlpha) * std::sqrt(share);
            const int opacity = static_cast<int>(alpha * 255 + 0.5f);
            line[c] = qPremultiply(qRgba(shade.rgb[0], shade.rgb[1], shade.rgb[2], opacity));
        }
    }
}

} // namespace

QImage waterfallDensityImage(const lx::WaterfallDensity &density, const std::array<QColor, lx::kSegmentCount> &colors)
{
    QImage image(std::max(density.columns, 1), std::max(density.bands, 1), QImage::Format_ARGB32_Premultiplied);
    if (density.columns <= 0 || density.bands <= 0) {
        image.fill(Qt::transparent);
        return image;
    }
    std::array<float, lx::kSegmentCount> densest{};
    for (std::size_t cell = 0; cell < density.fill.size(); ++cell) {
        if (const int s = density.dominant[cell]; s >= 0)
            densest[static_cast<std::size_t>(s)] = std::max(densest[static_cast<std::size_t>(s)], density.fill[cell]);
    }
    std::array<SegmentShade, lx::kSegmentCount> shades;
    for (std::size_t s = 0; s < shades.size(); ++s) {
        shades[s].rgb = {colors[s].red(), colors[s].green(), colors[s].blue()};
        shades[s].perDensest = densest[s] > 0 ? 1.0f / densest[s] : 0.0f;
    }
    // A frame of a million requests is 1.4M cells at 1600x900: shaded by bands on every core, since this
    // runs between the aggregation's threads and the paint.
    uchar *bits = image.bits();
    const qsizetype bytesPerLine = image.bytesPerLine();
    const std::size_t threads = lx::frameThreads(density.fill.size(), kCellsPerThread);
    std::vector<std::thread> workers;
    const auto bandOf = [&](std::size_t t) {
        return static_cast<int>(static_cast<std::size_t>(density.bands) * t / threads);
    };
    for (std::size_t t = 1; t < threads; ++t)
        workers.emplace_back(shadeBands, std::cref(density), std::cref(shades), bits, bytesPerLine, bandOf(t),
                             bandOf(t + 1));
    shadeBands(density, shades, bits, bytesPerLine, 0, bandOf(1));
    for (std::thread &worker : workers)
        worker.join();
    return image;
}
