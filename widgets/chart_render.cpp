// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_render.h"

#include "cdf_data.h"
#include "cdf_view.h"
#include "dominant_breakdown.h"
#include "dominant_view.h"
#include "waterfall_data.h"
#include "waterfall_view.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>

#include <memory>

namespace {

struct ChartName {
    ChartKind kind;
    const char *name;
    const char *title;
};

constexpr ChartName kNames[] = {
    {ChartKind::Waterfall, "waterfall", "Waterfall timeline"},
    {ChartKind::Cdf, "cdf", "Per-segment CDFs"},
    {ChartKind::Dominant, "dominant", "Dominant segment"},
};

/// The view of `kind` with its data, laid out at about `size` without appearing on a screen.
std::unique_ptr<QWidget> makeView(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter, QSize size,
                                  Chart **chart)
{
    std::unique_ptr<QWidget> view;
    switch (kind) {
    case ChartKind::Waterfall: {
        auto waterfall = std::make_unique<WaterfallView>();
        waterfall->setData(lx::loadWaterfall(store, filter));
        *chart = waterfall->chart();
        view = std::move(waterfall);
        break;
    }
    case ChartKind::Cdf: {
        auto cdf = std::make_unique<CdfView>();
        cdf->setData(std::make_shared<const lx::CdfData>(lx::computeCdfData(store, filter)));
        *chart = cdf->chart();
        view = std::move(cdf);
        break;
    }
    case ChartKind::Dominant: {
        auto dominant = std::make_unique<DominantView>();
        dominant->setData(std::make_shared<const lx::DominantBreakdown>(lx::computeDominantBreakdown(store, filter)));
        *chart = dominant->chart();
        view = std::move(dominant);
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

bool renderChart(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter, QSize size,
                 const QString &path, QString *error)
{
    Chart *chart = nullptr;
    const std::unique_ptr<QWidget> view = makeView(kind, store, filter, size, &chart);
    return chart->exportTo(path, size, error);
}

QByteArray renderChartBytes(ChartKind kind, const lx::Store &store, const lx::RequestFilter &filter, QSize size,
                            const QString &format)
{
    // Through a file, so that the bytes are exactly what exportTo() writes for `plot`.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.") + format);
    QString error;
    if (!dir.isValid() || !renderChart(kind, store, filter, size, path, &error))
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
