// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/waterfall_density.h"
#include "waterfall_density_frames.h"

#include <qcustomplot.h>

#include <memory>
#include <optional>

/// \file waterfall_plottable.h
/// Paints the waterfall's visible rows straight onto the plot: a stacked bar per request while they fit,
/// a density image (lx::aggregateWaterfall) when the rows outnumber the pixels or the bars in view are
/// too many. One QCPBars per segment would hold a million points each and redraw them all every frame.

/// Diagonal lines over `rect`: how time no segment was measured in is marked. Drawn as lines rather than
/// with a pattern brush, which SVG exports write as a pattern that readers cannot resolve.
void paintHatch(QPainter *painter, const QRectF &rect, const QColor &colour);

/// How the last frame was drawn.
enum class WaterfallLod {
    None,    ///< nothing to draw
    Bars,    ///< a bar per request
    Density, ///< aggregated cells
};

class WaterfallPlottable : public QCPAbstractPlottable {
    Q_OBJECT

public:
    /// Bars drawn one by one at most; beyond, the density (drawing 20,000 bars takes about a frame).
    static constexpr std::size_t kMaxBars = 20000;
    /// Bars never grow taller than this, however few the rows: tall blocks read as a bar chart.
    static constexpr double kMaxBarHeight = 22;

    WaterfallPlottable(QCPAxis *timeAxis, QCPAxis *rowAxis);

    void setData(std::shared_ptr<const lx::WaterfallData> data, std::shared_ptr<const lx::WaterfallRows> rows);
    const std::shared_ptr<const lx::WaterfallData> &waterfall() const { return m_data; }
    const lx::WaterfallRows &rows() const { return *m_rows; }
    /// Where the density images are made (waterfall_density_frames.h): frameReady() asks for a replot.
    WaterfallDensityFrames *densityFrames() const { return m_frames; }
    /// The request drawn highlighted (an index into the data), or none.
    void setSelected(std::optional<std::size_t> request) { m_selected = request; }
    std::optional<std::size_t> selected() const { return m_selected; }
    /// The colours that follow the palette: the selection's outline and the hatching of unmeasured time.
    void setPaletteColors(const QColor &text, const QColor &highlight);

    /// ns since the epoch at a time-axis coordinate (seconds since the first start), and back.
    std::int64_t timeAt(double coordinate) const;
    double coordinateOf(std::int64_t ns) const;
    /// The part of the data on screen, on a grid of the axis rect's pixels.
    lx::WaterfallViewport viewport() const;
    WaterfallLod lastLod() const { return m_lastLod; }

    double selectTest(const QPointF &pos, bool onlySelectable, QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    /// The pixel band of display row `row`, shrunk to leave a gap between rows that are tall enough.
    std::pair<double, double> barExtent(std::size_t row) const;
    double pixelOf(std::int64_t ns, const lx::WaterfallViewport &view, const QRect &rect) const;
    void drawBars(QCPPainter *painter, const std::vector<lx::WaterfallBar> &bars, const lx::WaterfallViewport &view);
    void drawBar(QCPPainter *painter, std::size_t request, std::size_t row, const lx::WaterfallViewport &view);
    void drawDensity(QCPPainter *painter, const lx::WaterfallViewport &view, bool exporting);
    /// The image of another view (the one on screen is being made): the part of it in view, where it lies now.
    void drawEarlierFrame(QCPPainter *painter, const WaterfallDensityFrames::Frame &frame);
    void drawSelection(QCPPainter *painter, const lx::WaterfallViewport &view);

    std::shared_ptr<const lx::WaterfallData> m_data;
    std::shared_ptr<const lx::WaterfallRows> m_rows = std::make_shared<const lx::WaterfallRows>();
    WaterfallDensityFrames *m_frames = nullptr;
    std::optional<std::size_t> m_selected;
    std::array<QColor, lx::kSegmentCount> m_colors;
    QColor m_hatch, m_highlight;
    WaterfallLod m_lastLod = WaterfallLod::None;
};
