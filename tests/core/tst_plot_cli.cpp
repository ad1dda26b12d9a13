// SPDX-License-Identifier: GPL-3.0-or-later
// `latency-explorer-cli plot`: each chart in each format is a real file of that format at the asked size,
// drawn without a display; usage errors exit 1 with the reason, unreadable inputs exit 2.

#include "analysis/load_analysis.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = lxtest::CliRun;

Run cli(const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM")); // plot must choose a headless platform by itself
    env.remove(QStringLiteral("DISPLAY"));
    return lxtest::runCli(QString::fromUtf8(LX_CLI_PATH), args, env);
}

const QString kSample = QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.jsonl");

} // namespace

class TestPlotCli : public QObject {
    Q_OBJECT

private slots:
    void writesChart_data()
    {
        QTest::addColumn<QString>("chart");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("waterfall png") << "waterfall" << "w.png" << "" << QByteArray("\x89PNG");
        QTest::newRow("cdf svg") << "cdf" << "c.svg" << "" << QByteArray("<?xml");
        QTest::newRow("dominant pdf") << "dominant" << "d.pdf" << "" << QByteArray("%PDF");
        QTest::newRow("cdf png filtered") << "cdf" << "c.png" << "e2e > 2s and dominant = queue" << QByteArray("\x89PNG");
        QTest::newRow("load svg") << "load" << "l.svg" << "" << QByteArray("<?xml");
        QTest::newRow("waterfall of nothing") << "waterfall" << "n.png" << "e2e > 10h" << QByteArray("\x89PNG");
    }

    void writesChart()
    {
        QFETCH(QString, chart);
        QFETCH(QString, file);
        QFETCH(QString, filter);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const QString out = dir.filePath(file);
        QStringList args{QStringLiteral("plot"), QStringLiteral("--chart"), chart, QStringLiteral("--out"), out,
                         QStringLiteral("--size"), QStringLiteral("900x500")};
        if (!filter.isEmpty())
            args << QStringLiteral("--filter") << filter;
        const Run run = cli(args << kSample);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(!run.err.contains("propagateSizeHints"), run.err.constData()); // no platform chatter
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.read(8).startsWith(magic));
        if (file.endsWith(QLatin1String(".png"))) {
            // The PNG header's IHDR chunk: width and height, big-endian, at bytes 16 and 20.
            written.seek(16);
            const QByteArray size = written.read(8);
            const auto be32 = [&size](int at) {
                return (quint32(quint8(size[at])) << 24) | (quint32(quint8(size[at + 1])) << 16) |
                       (quint32(quint8(size[at + 2])) << 8) | quint32(quint8(size[at + 3]));
            };
            QCOMPARE(be32(0), 900u);
            QCOMPARE(be32(4), 500u);
        }
    }

    void refuses_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");
        const QString out = QStringLiteral("x.png");
        QTest::newRow("no chart") << QStringList{QStringLiteral("--out"), out, kSample} << 1 << "--chart is required";
        QTest::newRow("unknown chart") << QStringList{QStringLiteral("--chart"), QStringLiteral("pie"), QStringLiteral("--out"), out, kSample}
                                       << 1 << "--chart takes waterfall, cdf, dominant or load, not 'pie'";
        QTest::newRow("no out") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), kSample} << 1 << "--out is required";
        QTest::newRow("unknown format") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), QStringLiteral("x.gif"), kSample}
                                        << 1 << "must end in .png, .svg or .pdf";
        QTest::newRow("bad size") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("12x"), kSample}
                                  << 1 << "--size takes WIDTHxHEIGHT";
        QTest::newRow("tiny size") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("10x10"), kSample}
                                   << 1 << "each 100 to 16000";
        QTest::newRow("bad filter") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out, QStringLiteral("--filter"), QStringLiteral("e2e >"), kSample}
                                    << 2 << "plot: --filter: expected a duration after \">\" (e.g. 2s) (at character 6)\n  e2e >\n       ^";
        QTest::newRow("bad shorthand") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out, QStringLiteral("--status"), QStringLiteral("x"), kSample}
                                       << 1 << "--status takes ok or error";
        QTest::newRow("no input") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out} << 1 << "no input";
        QTest::newRow("missing file") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), out, QStringLiteral("/no/such/trace.jsonl")}
                                      << 2 << "/no/such/trace.jsonl";
        // Benchmark results without send times: the load chart would be empty axes. (A vLLM result's sends
        // are rebuilt from its request_rate when it saved none.)
        const QString noArrivals = QString::fromUtf8(lx::kNoArrivalTimes);
        for (const char *file : {"llmperf/model_550_150_individual_responses.json"})
            QTest::addRow("load without arrival times: %s", file)
                << QStringList{QStringLiteral("--chart"), QStringLiteral("load"), QStringLiteral("--out"), out,
                               QStringLiteral(LX_SOURCE_DIR "/tests/golden/") + QString::fromUtf8(file)}
                << 2 << QStringLiteral("plot: ") + noArrivals;
        QTest::newRow("unwritable out") << QStringList{QStringLiteral("--chart"), QStringLiteral("cdf"), QStringLiteral("--out"), QStringLiteral("/no/such/dir/x.png"), kSample}
                                        << 2 << "/no/such/dir/x.png: could not be written";
    }

    void refuses()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QDir::setCurrent(dir.path());
        const Run run = cli(QStringList{QStringLiteral("plot")} + args);
        QCOMPARE(run.exitCode, status);
        QVERIFY2(QString::fromUtf8(run.err).contains(reason), run.err.constData());
        if (status == 1 || reason.contains(QLatin1String("--filter")) || reason.endsWith(QString::fromUtf8(lx::kNoArrivalTimes))) // a usage error or a refused filter draws nothing; an unreadable input is reported after the others are drawn
            QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }

    void help()
    {
        const Run run = cli({QStringLiteral("plot"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("--chart NAME"));
    }
};

QTEST_GUILESS_MAIN(TestPlotCli)
#include "tst_plot_cli.moc"
