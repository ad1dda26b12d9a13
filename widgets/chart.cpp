// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart.h"

#include "chart_export_dialog.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>

Chart::Chart(QWidget *parent)
    : QCustomPlot(parent)
{
    setNoAntialiasingOnDrag(true); // drags stay smooth on large data; the resting frame is antialiased
    setAutoAddPlottableToLegend(false);
    applyPalette();
}

QStringList Chart::exportSuffixes()
{
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
}

QSize Chart::defaultExportSize() const
{
    return testAttribute(Qt::WA_WState_Created) && width() > 50 ? size() : QSize(1600, 900);
}

namespace {

/// The bytes of a PDF that QCustomPlot wrote to `path`, when the file is whole (it ends with the trailer's
/// %%EOF): QCustomPlot's savePdf() says nothing of a write that failed, as on a full disk.
QByteArray wholePdf(const QString &path)
{
    QFile file(path);
    const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    return bytes.trimmed().endsWith("%%EOF") ? bytes : QByteArray();
}

} // namespace

bool Chart::exportTo(const QString &path, QSize size, QString *error)
{
    if (size.isEmpty())
        size = defaultExportSize();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("pdf")) {
        if (error)
            *error = QStringLiteral("%1: unknown chart format \"%2\" (use .png, .svg or .pdf)").arg(path, suffix);
        return false;
    }
    // Through a QSaveFile, which checks every write and replaces the file only once all of it is written:
    // a full disk leaves no half chart, and the file there before stays as it was.
    QSaveFile file(path);
    bool written = file.open(QIODevice::WriteOnly);
    if (written && suffix == QLatin1String("png")) {
        // Encoded in memory, then written: Qt's PNG writer leaks its row buffer when a write fails under it.
        QBuffer png;
        written = png.open(QIODevice::WriteOnly) && toPixmap(size.width(), size.height()).save(&png, "PNG")
            && file.write(png.data()) == png.size();
    } else if (written && suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(QFileInfo(path).completeBaseName());
        generator.setDescription(QStringLiteral("Latency Explorer chart"));
        QCPPainter painter;
        written = painter.begin(&generator);
        if (written) {
            toPainter(&painter, size.width(), size.height());
            written = painter.end();
        }
    } else if (written) { // pdf: QCustomPlot writes it to a file of its own, checked here and copied
        const QString part = path + QStringLiteral(".part");
        written = savePdf(part, size.width(), size.height());
        const QByteArray pdf = written ? wholePdf(part) : QByteArray();
        QFile::remove(part);
        written = !pdf.isEmpty() && file.write(pdf) == pdf.size();
    }
    written = written && file.commit();
    if (!written && error)
        *error = QStringLiteral("%1: could not be written").arg(path);
    return written;
}

void Chart::copyToClipboard(QSize size)
{
    if (size.isEmpty())
        size = defaultExportSize();
    QApplication::clipboard()->setPixmap(toPixmap(size.width(), size.height()));
}

void Chart::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlphaF(0.15);
    QColor subGrid = text;
    subGrid.setAlphaF(0.06);
    setBackground(pal.color(QPalette::Base));
    for (QCPAxisRect *rect : axisRects()) {
        for (QCPAxis *axis : rect->axes()) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
            axis->grid()->setSubGridPen(QPen(subGrid, 0, Qt::DotLine));
            axis->grid()->setZeroLinePen(Qt::NoPen);
        }
    }
    legend->setBrush(pal.color(QPalette::Base));
    legend->setBorderPen(QPen(grid));
    legend->setTextColor(text);
    legend->setSelectedTextColor(pal.color(QPalette::Highlight));
    for (int i = 0; i < plotLayout()->elementCount(); ++i) {
        if (auto *title = qobject_cast<QCPTextElement *>(plotLayout()->elementAt(i)))
            title->setTextColor(text);
    }
    emit paletteApplied();
    replot(QCustomPlot::rpQueuedReplot);
}

void Chart::changeEvent(QEvent *event)
{
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyPalette();
}

void Chart::leaveEvent(QEvent *event)
{
    QCustomPlot::leaveEvent(event);
    QToolTip::hideText();
}

void Chart::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Export Chart..."), this, &Chart::exportDialog);
    menu.addAction(tr("Copy Chart Image"), this, [this] { copyToClipboard(); });
    menu.exec(event->globalPos());
}

void Chart::exportDialog()
{
    ChartExportDialog dialog(defaultExportSize(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!exportTo(dialog.path(), dialog.exportSize(), &error))
        QMessageBox::warning(this, tr("Export Chart"), error);
}
