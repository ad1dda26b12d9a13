// SPDX-License-Identifier: GPL-3.0-or-later
// Checks the chart views' suites share: an export in each format is a real file of that format at the
// asked size, and a dark palette to switch to.

#pragma once

#include "chart.h"
#include "test_support.h"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

namespace lxtest {

/// The rows of an export test: a file name per format and the bytes such a file starts with.
inline void addExportRows(const char *base)
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << QString::fromLatin1(base) + QStringLiteral(".png") << QByteArray("\x89PNG");
    QTest::newRow("svg") << QString::fromLatin1(base) + QStringLiteral(".svg") << QByteArray("<?xml");
    QTest::newRow("pdf") << QString::fromLatin1(base) + QStringLiteral(".pdf") << QByteArray("%PDF");
}

/// Exports the chart to `name` at 1200x700 and checks the file: its format, and a PNG's size.
inline void verifyExport(Chart &chart, const QString &name, const QByteArray &magic)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    QString error;
    QVERIFY2(chart.exportTo(path, QSize(1200, 700), &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().startsWith(magic));
    if (name.endsWith(QLatin1String(".png")))
        QCOMPARE(QImage(path).size(), QSize(1200, 700));
}

/// `base` with a dark background and light text, as the dark theme has.
inline QPalette darkPalette(QPalette base)
{
    base.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    base.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    return base;
}

/// The shipped rising-load trace, imported once per suite.
inline const Imported &risingLoadSample()
{
    static const Imported imported = importPaths({LX_SOURCE_DIR "/sample_traces/rising_load.jsonl"});
    return imported;
}

/// A view shown at 1200x700 and laid out, so that pixels mean something.
template<class View>
struct ShownView {
    View view;
    ShownView()
    {
        view.resize(1200, 700);
        view.show();
    }
    bool ready()
    {
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        view.chart()->replot(QCustomPlot::rpImmediateRefresh);
        return true;
    }
};

/// Renders `chart` to `name`.png at 1400x800 in $LX_RENDER_DIR (kept for people to look at) or in a
/// temporary folder; the number of pixels of `colour` in it (every other pixel counted), -1 on failure.
inline int renderAndCount(Chart &chart, const QString &name, const QColor &colour)
{
    QTemporaryDir temporary;
    const QString path = qEnvironmentVariable("LX_RENDER_DIR", temporary.path()) + u'/' + name + QStringLiteral(".png");
    QString error;
    if (!chart.exportTo(path, QSize(1400, 800), &error)) {
        qWarning("%s", qPrintable(error));
        return -1;
    }
    const QImage image(path);
    int count = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            count += image.pixelColor(x, y) == colour ? 1 : 0;
    return image.size() == QSize(1400, 800) ? count : -1;
}

} // namespace lxtest
