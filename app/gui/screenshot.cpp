// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_pool.h"
#include "screenshot.h"

#include "filter_bar.h"
#include "investigation.h"
#include "requests_view.h"
#include "span_mapping_menu.h"

#include <QApplication>
#include <QPixmap>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QThreadPool>
#include <QTimer>

#include <cstdio>

int takeScreenshot(const QString &out, MainWindow::View view, const QStringList &files, const QString &filter,
                   const QString &mapping)
{
    qputenv("LX_NO_DIALOGS", "1"); // an error goes to the status bar, where the screenshot shows it
    // Keep the user's settings (window layout, recent files) out of it, both ways.
    QTemporaryDir settingsDir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    MainWindow window;
    QString why;
    if (!mapping.isEmpty() && !window.spanMappingMenu()->setMapping(mapping, &why, false)) {
        std::fprintf(stderr, "latency-explorer: --mapping: %s\n", qPrintable(why));
        return 1;
    }
    window.resize(1400, 900); // the default window size: what a user first sees
    window.show();
    window.showView(view);
    int status = 0;
    const auto shoot = [&] {
        QApplication::processEvents(); // let the last layout land before painting
        if (!window.grab().save(out, "PNG")) {
            std::fprintf(stderr, "latency-explorer: cannot write %s\n", qPrintable(out));
            status = 2;
        }
        QApplication::quit();
    };
    QObject::connect(&window, &MainWindow::viewsSettled, &window, [&] {
        // On the requests view, select the first request, so that the picture shows its detail too.
        if (view == MainWindow::View::Requests)
            window.requestsView()->selectRow(0);
        QTimer::singleShot(200, &window, shoot);
    });
    // An input that could not be read (or was cut off) is an error, as in the CLI: said on stderr, exit 2,
    // and the picture still shows what could be opened.
    QObject::connect(window.investigation(), &Investigation::importFinished, &window, [&] {
        for (const lx::FileImport &in : window.investigation()->lastImports()) {
            if (in.failed()) {
                std::fprintf(stderr, "latency-explorer: %s: %s\n", in.path.c_str(), in.message.c_str());
                status = 2;
            }
        }
    });
    // Nothing to wait for when nothing could be opened.
    QObject::connect(window.investigation(), &Investigation::errorOccurred, &window, [&](const QString &message) {
        std::fprintf(stderr, "latency-explorer: %s\n", qPrintable(message));
        status = 2;
        if (!window.investigation()->busy())
            QTimer::singleShot(200, &window, shoot);
    });
    QTimer::singleShot(0, &window, [&] {
        window.openFiles(files);
        if (!filter.isEmpty()) {
            window.filterBar()->setExpression(filter);
            // The picture then shows the red bar over every request: a script must not take it for the
            // filtered view (it exited 0, "20,000 requests match").
            if (!window.filterBar()->valid()) {
                std::fprintf(
                    stderr, "latency-explorer: --filter: %s\n",
                    qPrintable(QTextDocumentFragment::fromHtml(window.filterBar()->errorText()).toPlainText()));
                status = 2;
            }
        }
        if (files.isEmpty())
            QTimer::singleShot(200, &window, shoot);
    });
    QTimer::singleShot(10 * 60 * 1000, &window, [&] {
        std::fprintf(stderr, "latency-explorer: gave up waiting for the views after 10 minutes\n");
        status = 2;
        window.investigation()->cancelImport(); // or the thread pool would be waited for
        QApplication::quit();
    });
    QApplication::exec();
    backgroundPool().waitForDone();
    return status;
}
