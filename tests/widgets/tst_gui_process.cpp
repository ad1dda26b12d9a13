// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer as a process, as a script, a packager or CI runs it: the screenshot mode draws each
// view to a file without a display; --help and --version need no window; a screenshot of an input that is
// missing is an error, not a picture of one.

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {
const QString kSample = QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl");

/// Starts the application with `args` under the offscreen platform, its settings in `configHome`.
void startOffscreen(QProcess &gui, const QString &configHome, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(LX_GUI_PATH), args);
}
}

class TestGuiProcess : public QObject {
    Q_OBJECT

private slots:
    void screenshot_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("status");
        QTest::newRow("summary") << QStringLiteral("summary") << 0;
        QTest::newRow("requests") << QStringLiteral("requests") << 0;
        QTest::newRow("waterfall") << QStringLiteral("waterfall") << 0;
        QTest::newRow("cdf") << QStringLiteral("cdf") << 0;
        QTest::newRow("dominant") << QStringLiteral("dominant") << 0;
        QTest::newRow("load") << QStringLiteral("load") << 0;
        QTest::newRow("no such view") << QStringLiteral("pie") << 1;
    }

    void screenshot()
    {
        QFETCH(QString, view);
        QFETCH(int, status);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess gui;
        startOffscreen(gui, dir.path(),
                       { QStringLiteral("--screenshot"), out, QStringLiteral("--view"), view, kSample });
        QVERIFY(gui.waitForFinished(120000));
        QCOMPARE(gui.exitCode(), status);
        if (status != 0) {
            QVERIFY(!gui.readAllStandardError().isEmpty());
            return;
        }
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1400, 900));
    }

    // A bad --filter drew every request under a red bar and exited 0: a script took it for the filtered view.
    void screenshotWithAFilter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("said"); // words on stderr
        QTest::newRow("a good filter") << QStringLiteral("model = llama-3.1-8b-instruct and e2e > 2s") << 0
                                       << QString();
        QTest::newRow("a bad filter") << QStringLiteral("e2e >") << 2
                                      << QStringLiteral("--filter: expected a duration");
        QTest::newRow("an unknown field") << QStringLiteral("e2 > 2s") << 2 << QStringLiteral("did you mean e2e?");
    }
    void screenshotWithAFilter()
    {
        QFETCH(QString, filter);
        QFETCH(int, status);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess gui;
        startOffscreen(gui, dir.path(),
                       { QStringLiteral("--screenshot"), out, QStringLiteral("--filter"), filter, kSample });
        QVERIFY(gui.waitForFinished(120000));
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(gui.exitCode() == status,
                 qPrintable(QStringLiteral("exit %1; stderr: %2").arg(gui.exitCode()).arg(err)));
        QVERIFY2(err.contains(said), qPrintable(err));
        QCOMPARE(QImage(out).size(), QSize(1400, 900)); // drawn either way: the bar shows the error
    }

    // An input that exists but cannot be read exited 0 with a picture of the rest: a script saw success.
    void screenshotOfAnUnreadableInput_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("withSample");
        QTest::newRow("empty, beside a good one") << QByteArray() << true;
        QTest::newRow("binary, beside a good one") << QByteArray("\x00\x01\x02\xff garbage", 14) << true;
        QTest::newRow("empty, alone") << QByteArray() << false;
    }
    void screenshotOfAnUnreadableInput()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, withSample);
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.jsonl"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QStringList args{QStringLiteral("--screenshot"), out};
        if (withSample)
            args << kSample;
        args << bad;
        QProcess gui;
        startOffscreen(gui, dir.path(), args);
        QVERIFY(gui.waitForFinished(120000));
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(gui.exitCode() == 2, qPrintable(QStringLiteral("exit %1; stderr: %2").arg(gui.exitCode()).arg(err)));
        QVERIFY2(err.contains(QLatin1String("bad.jsonl")), qPrintable(err));
        QCOMPARE(QImage(out).size(), QSize(1400, 900)); // the picture still shows what could be opened
    }

    // The program as a script or a packager runs it: no display, no platform chosen. --help and --version
    // need no window; a screenshot of an input that is missing is an error, not a picture of one.
    void commandLineWithoutDisplay_data()
    {
        QTest::addColumn<QStringList>("args"); // @ is the test's temporary folder
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("stream"); // "out" or "err": where the text is expected
        QTest::addColumn<QString>("text");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0 << QStringLiteral("out") << QStringLiteral("--screenshot");
        QTest::newRow("-h") << QStringList{QStringLiteral("-h")} << 0 << QStringLiteral("out") << QStringLiteral("Usage:");
        QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << 0 << QStringLiteral("out")
                                   << QStringLiteral("Latency Explorer " LX_VERSION);
        QTest::newRow("--help with an unknown option") << QStringList{QStringLiteral("--help"), QStringLiteral("--frobnicate")} << 1
                                                       << QStringLiteral("err") << QStringLiteral("frobnicate");
        QTest::newRow("--screenshot of a missing input")
            << QStringList{QStringLiteral("--screenshot"), QStringLiteral("@/shot.png"), QStringLiteral("@/missing.jsonl")} << 2
            << QStringLiteral("err") << QStringLiteral("missing.jsonl: no such file");
    }

    void commandLineWithoutDisplay()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, stream);
        QFETCH(QString, text);
        QTemporaryDir dir;
        for (QString &arg : args)
            arg.replace(QLatin1Char('@'), dir.path());
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QLatin1String(name));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(LX_GUI_PATH), args);
        QVERIFY(gui.waitForFinished(60000));
        const QString out = QString::fromUtf8(gui.readAllStandardOutput());
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(gui.exitStatus() == QProcess::NormalExit && gui.exitCode() == status,
                 qPrintable(QStringLiteral("exit %1, expected %2; stderr: %3").arg(gui.exitCode()).arg(status).arg(err)));
        QVERIFY2((stream == QLatin1String("out") ? out : err).contains(text),
                 qPrintable(QStringLiteral("no \"%1\" in std%2: %3").arg(text, stream, stream == QLatin1String("out") ? out : err)));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("shot.png"))));
    }
};

QTEST_GUILESS_MAIN(TestGuiProcess)
#include "tst_gui_process.moc"
