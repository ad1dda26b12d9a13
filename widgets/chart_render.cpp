// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_render.h"

#include "analysis/cdf_data.h"
#include "cdf_view.h"
#include "analysis/dominant_breakdown.h"
#include "dominant_view.h"
#include "analysis/load_chart_data.h"
#include "load_view.h"
#include "analysis/waterfall_data.h"
#include "waterfall_view.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

namespace {

struct ChartName {
    ChartKind kind;
    const char *name;
    const char *title;
};

constexpr ChartName kNames[] = {
    {ChartKind::Waterfall, "waterfall", "Waterfall timeline"},
    {ChartKind::Cdf, "cdf", "Per-segment CDFs"},
    {ChartKind::Dominant, "dominant", "Dominant segment by e2e latency band"},
    {ChartKind::Load, "load", "Decomposition under load"},
};

/// The view of the data's kind, laid out at about `size` without appearing on a screen.
std::unique_ptr<QWidget> makeView(const ChartData &data, QSize size, Chart **chart)
{
    std::unique_ptr<QWidget> view;
    switch (data.kind) {
    case ChartKind::Waterfall: {
        auto waterfall = std::make_unique<WaterfallView>();
        waterfall->chart()->setArrangeInBackgroundFrom(SIZE_MAX); // drawn straight away
        waterfall->chart()->setDensityInBackgroundFrom(SIZE_MAX);
        waterfall->setData(data.waterfall);
        *chart = waterfall->chart();
        view = std::move(waterfall);
        break;
    }
    case ChartKind::Cdf: {
        auto cdf = std::make_unique<CdfView>();
        cdf->setData(data.cdf);
        *chart = cdf->chart();
        view = std::move(cdf);
        break;
    }
    case ChartKind::Dominant: {
        auto dominant = std::make_unique<DominantView>();
        dominant->setData(data.dominant);
        *chart = dominant->chart();
        view = std::move(dominant);
        break;
    }
    case ChartKind::Load: {
        auto load = std::make_unique<LoadView>();
        load->setData(data.load);
        *chart = load->decompositionChart();
        view = std::move(load);
        break;
    }
    }
    // Laid out and polished as on screen (fonts, styles, the chart's own size-dependent choices).
    view->setAttribute(Qt::WA_DontShowOnScreen);
    view->resize(size);
    view->show();
    QApplication::processEvents();
    return view;
}

} // namespace

QStringList chartKindNames()
{
    QStringList names;
    for (const ChartName &n : kNames)
        names << QString::fromLatin1(n.name);
    return names;
}

std::optional<ChartKind> chartKindFromName(const QString &name)
{
    for (const ChartName &n : kNames) {
        if (name == QLatin1String(n.name))
            return n.kind;
    }
    return std::nullopt;
}

QString chartKindName(ChartKind kind)
{
    for (const ChartName &n : kNames) {
        if (n.kind == kind)
            return QString::fromLatin1(n.name);
    }
    return {};
}

QString chartKindTitle(ChartKind kind)
{
    for (const ChartName &n : kNames) {
        if (n.kind == kind)
            return QObject::tr(n.title);
    }
    return {};
}

ChartData computeChartData(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter)
{
    ChartData data;
    data.kind = kind;
    switch (kind) {
    case ChartKind::Waterfall:
        data.waterfall = lx::loadWaterfall(store, filter);
        break;
    case ChartKind::Cdf:
        data.cdf = std::make_shared<const lx::CdfData>(lx::computeCdfData(store, filter));
        break;
    case ChartKind::Dominant:
        data.dominant = std::make_shared<const lx::DominantBreakdown>(lx::computeDominantBreakdown(store, filter));
        break;
    case ChartKind::Load:
        data.load = std::make_shared<const lx::LoadChartData>(lx::computeLoadChartData(store, filter));
        break;
    }
    return data;
}

bool renderChart(const ChartData &data, QSize size, const QString &path, QString *error)
{
    Chart *chart = nullptr;
    const std::unique_ptr<QWidget> view = makeView(data, size, &chart);
    return chart->exportTo(path, size, error);
}

QByteArray renderChartBytes(const ChartData &data, QSize size, const QString &format)
{
    // Through a file, so that the bytes are exactly what exportTo() writes for `plot`.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.") + format);
    QString error;
    if (!dir.isValid() || !renderChart(data, size, path, &error))
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::vector<ChartKind> reportChartKinds()
{
    return {ChartKind::Load, ChartKind::Dominant, ChartKind::Cdf, ChartKind::Waterfall};
}

std::vector<lx::ReportFigure> renderReportFigures(const std::vector<ChartData> &charts, QSize size)
{
    std::vector<lx::ReportFigure> figures;
    for (const ChartData &data : charts) {
        const QByteArray png = renderChartBytes(data, size, QStringLiteral("png"));
        if (!png.isEmpty())
            figures.push_back({chartKindTitle(data.kind).toStdString(), "image/png", png.toStdString()});
    }
    return figures;
}
