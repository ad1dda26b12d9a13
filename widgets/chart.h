// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QSize>
#include <QString>

/// \file chart.h
/// The base of every chart: a QCustomPlot that takes its colours from the window's palette (re-applied
/// when the theme changes) and writes itself to PNG, SVG, PDF or the clipboard at a chosen size. The GUI's
/// context menu and `latency-explorer-cli plot` go through the same exportTo(), so a file written
/// headlessly is the picture the user sees.
class Chart : public QCustomPlot {
    Q_OBJECT

public:
    explicit Chart(QWidget *parent = nullptr);

    /// Writes the chart to `path` in the format its suffix names (png, svg or pdf) at `size` in pixels
    /// (an empty size: the widget's own). False, with the reason in `error`, when the suffix is unknown or
    /// the file cannot be written.
    bool exportTo(const QString &path, QSize size, QString *error);
    /// Puts a picture of the chart on the clipboard, at `size` (empty: the widget's own).
    void copyToClipboard(QSize size = {});
    /// "png", "svg", "pdf": what exportTo() writes.
    static QStringList exportSuffixes();
    /// The size exports default to: the widget's size once shown, else 1600x900.
    QSize defaultExportSize() const;

    /// Text, axes, grid and background from the palette. Subclasses that draw palette-coloured items of
    /// their own extend it and call the base first.
    virtual void applyPalette();

signals:
    /// The chart's colours were set again from the palette (the theme changed).
    void paletteApplied();

protected:
    void changeEvent(QEvent *event) override;
    /// Hides the hover tooltip the charts show (it would stay behind over another widget).
    void leaveEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void exportDialog();
};
