// SPDX-License-Identifier: GPL-3.0-or-later
#include "waterfall_shading.h"

#include <algorithm>
#include <cmath>

QImage waterfallDensityImage(const lx::WaterfallDensity &density, const std::array<QColor, lx::kSegmentCount> &colors)
{
    QImage image(std::max(density.columns, 1), std::max(density.bands, 1), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    if (density.columns <= 0 || density.bands <= 0)
        return image;
    std::array<float, lx::kSegmentCount> densest{};
    for (std::size_t cell = 0; cell < density.fill.size(); ++cell) {
        if (const int s = density.dominant[cell]; s >= 0)
            densest[static_cast<std::size_t>(s)] = std::max(densest[static_cast<std::size_t>(s)], density.fill[cell]);
    }
    for (int b = 0; b < density.bands; ++b) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(b));
        for (int c = 0; c < density.columns; ++c) {
            const std::size_t cell = density.cell(b, c);
            const int s = density.dominant[cell];
            if (s < 0)
                continue;
            const auto segment = static_cast<std::size_t>(s);
            // A square root lifts the sparse cells, as the eye reads lightness; the densest are opaque.
            const double share = densest[segment] > 0 ? static_cast<double>(density.fill[cell] / densest[segment]) : 1.0;
            const double alpha = kFaintestAlpha + (1 - kFaintestAlpha) * std::sqrt(std::clamp(share, 0.0, 1.0));
            const QColor &colour = colors[segment];
            line[c] = qPremultiply(qRgba(colour.red(), colour.green(), colour.blue(), static_cast<int>(alpha * 255 + 0.5)));
        }
    }
    return image;
}
