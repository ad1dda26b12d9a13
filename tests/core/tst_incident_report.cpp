// SPDX-License-Identifier: GPL-3.0-or-later
// The incident report: base64 against RFC 4648's vectors; the HTML holds every section, embeds the figures
// as data URIs and links nothing outside itself; the Markdown links the figure files it names, or says
// they were left out; user text is escaped.

#include "report/incident_report.h"
#include "test_support.h"

#include <QTest>

using namespace lx;

namespace {

struct Fixture {
    Fixture()
    {
        report.percentiles = defaultPercentiles();
        report.total = report.ok = 10;
        for (MetricSummary *m : {&report.e2e, &report.ttft, &report.tpot})
            m->stat.percentilesNs.resize(report.percentiles.size());
        for (MetricSummary &m : report.segments)
            m.stat.percentilesNs.resize(report.percentiles.size());
        load.knee = Knee{41.0, 37.0, 1'735'732'800'000'000'000};
        load.below = {int(Segment::Decode), 0.72, 5};
        load.above = {int(Segment::Queue), 0.61, 5};
        SloResult slo;
        slo.target.text = "e2e.p95<=2s";
        slo.target.percentile = 95;
        slo.valueNs = 3e9;
        slo.marginNs = -1e9;
        slo.budgetDominant = int(Segment::Queue);
        slo.budgetShare[int(Segment::Queue)] = 0.61;
        input.slos = {slo};
        Finding f;
        f.title = "Queueing dominates <the> slow requests";
        f.filter = "dominant = queue and e2e > 2100ms";
        f.tailShare = 0.8;
        input.findings = {f};
        input.report = &report;
        input.load = &load;
        input.figures = {{"Decomposition under load", "image/png", std::string("\x89PNG\r\n\x1a\n", 8)},
                         {"CDF", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"}};
    }
    Report report;
    LoadAnalysis load;
    IncidentReport input;
};

} // namespace

class TestIncidentReport : public QObject {
    Q_OBJECT

private slots:
    void base64Vectors_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==");
        QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=");
        QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v");
        QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
        QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
        QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
        QTest::newRow("high bytes") << QByteArray("\xff\xfe\x00", 3) << QByteArray("//4A");
    }
    void base64Vectors()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        QCOMPARE(QByteArray::fromStdString(base64(in.toStdString())), out);
        QCOMPARE(QByteArray::fromStdString(base64(in.toStdString())), in.toBase64());
    }

    // A rare dominant segment read "0%" and the segments came in pipeline order (a new user's report).
    void summaryDominantByShare_data()
    {
        QTest::addColumn<int>("decode");
        QTest::addColumn<int>("queue");
        QTest::addColumn<int>("postprocess");
        QTest::addColumn<QString>("sentence");
        QTest::newRow("largest first") << 2 << 7 << 1 << "Largest segment of each request: queue 70.0%, decode 20.0%, postprocess 10.0%.";
        QTest::newRow("rare is not 0%") << 9'000 << 990 << 4 << "Largest segment of each request: decode 90.1%, queue 9.9%, postprocess <0.1%.";
        QTest::newRow("none dominates: left out") << 0 << 10 << 0 << "Largest segment of each request: queue 100.0%.";
    }
    void summaryDominantByShare()
    {
        QFETCH(int, decode);
        QFETCH(int, queue);
        QFETCH(int, postprocess);
        QFETCH(QString, sentence);
        Fixture f;
        f.report.dominantCounts[int(Segment::Decode)] = decode;
        f.report.dominantCounts[int(Segment::Queue)] = queue;
        f.report.dominantCounts[int(Segment::Postprocess)] = postprocess;
        f.report.dominantTotal = decode + queue + postprocess;
        const QString md = QString::fromStdString(incidentReportMarkdown(f.input, {}));
        QVERIFY2(md.contains(sentence), qPrintable(md.section(QLatin1Char('\n'), 0, 6)));
    }

    void htmlIsSelfContained()
    {
        Fixture f;
        const QString html = QString::fromStdString(incidentReportHtml(f.input));
        QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
        for (const char *part : { "<h2>Summary</h2>", "<h2>SLOs</h2>", "<h2>Findings</h2>",
                                  "<h2>Load and the knee</h2>", "<h2>Charts</h2>",
                                  "Below the knee decode dominates (72% of e2e, queue 0%); above it queue (61% of "
                                  "e2e); knee near 41 req/s, 37 in flight",
                                  "at p95, queue is 61% of e2e", "data:image/png;base64,iVBORw0KGgo=",
                                  "data:image/svg+xml;base64,", "&lt;the&gt;", "<style>" })
            QVERIFY2(html.contains(QLatin1String(part)), part);
        // Nothing is fetched from elsewhere: no link, no script, no external source.
        for (const char *forbidden : {"<script", "<link", "href=", "src=\"http", "url("})
            QVERIFY2(!html.contains(QLatin1String(forbidden)), forbidden);
    }

    /// Each chart's caption is its heading: above it, inside its figure (below it, the caption read as the
    /// heading of the next chart); a PNG is shown at its own pixel size, so that its text reads.
    void htmlFigures_data()
    {
        QTest::addColumn<QByteArray>("mime");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("figure"); // the figure's markup up to the image's data

        // A PNG's signature and the start of its IHDR chunk: 1200 x 600.
        // The signature and the IHDR chunk up to its 13 bytes of data (1200 x 600): 29 bytes. Counted by
        // sizeof, as a literal with NULs in it cannot be measured otherwise (33 read past its end: asan).
        static constexpr char header[] = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x04\xb0\0\0\x02\x58\x08\x06\0\0\0";
        const QByteArray png = QByteArray(header, sizeof header - 1);
        QTest::newRow("PNG: its size") << QByteArray("image/png") << png
            << QStringLiteral("<figure style=\"width:1200px\"><figcaption>Load &amp; knee</figcaption><img alt=\"Load &amp; knee\" width=\"1200\" height=\"600\" src=\"data:image/png;base64,");
        QTest::newRow("SVG: the column's width") << QByteArray("image/svg+xml") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
            << QStringLiteral("<figure><figcaption>Load &amp; knee</figcaption><img alt=\"Load &amp; knee\" src=\"data:image/svg+xml;base64,");
        QTest::newRow("a PNG cut short: no size") << QByteArray("image/png") << png.left(20)
            << QStringLiteral("<figure><figcaption>Load &amp; knee</figcaption><img alt=\"Load &amp; knee\" src=\"data:image/png;base64,");
    }
    void htmlFigures()
    {
        QFETCH(QByteArray, mime);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, figure);
        Fixture f;
        f.input.figures = {{"Load & knee", mime.toStdString(), bytes.toStdString()}};
        const QString html = QString::fromStdString(incidentReportHtml(f.input));
        QVERIFY2(html.contains(figure), qPrintable(html.mid(html.indexOf(QLatin1String("<figure")), 200)));
        QVERIFY(html.indexOf(QLatin1String("</figcaption>")) < html.indexOf(QLatin1String("<img")));
        QVERIFY(html.contains(QLatin1String("\"></figure>")));
    }

    /// Which files the figures come from, and whether each was read whole, as the text report says it:
    /// in both formats, user text escaped; no section for a report without inputs.
    void listsItsInputs_data()
    {
        QTest::addColumn<bool>("html");
        QTest::addColumn<bool>("withInputs");
        QTest::addColumn<QStringList>("expected"); // present in the output; with no inputs, absent
        const QStringList mdParts { QStringLiteral("## Inputs"),
                                    QStringLiteral("| a.jsonl.zst | jsonl | 900 | 2 | complete |"),
                                    QStringLiteral("| b\\|c.csv | ? | 100 | 0 | truncated: cut at byte 512 |"),
                                    QStringLiteral("2 records were rejected at import.") };
        const QStringList htmlParts { QStringLiteral("<h2>Inputs</h2>"), QStringLiteral("<td>a.jsonl.zst</td>"),
                                      QStringLiteral("<td class=\"num\">truncated: cut at byte 512 &lt;here&gt;</td>"),
                                      QStringLiteral("2 records were rejected at import.") };
        QTest::newRow("markdown") << false << true << mdParts;
        QTest::newRow("html") << true << true << htmlParts;
        QTest::newRow("markdown, no inputs: no section")
            << false << false << QStringList { QStringLiteral("## Inputs") };
        QTest::newRow("html, no inputs: no section")
            << true << false << QStringList { QStringLiteral("<h2>Inputs</h2>") };
    }
    void listsItsInputs()
    {
        QFETCH(bool, html);
        QFETCH(bool, withInputs);
        QFETCH(QStringList, expected);
        Fixture f;
        if (withInputs) {
            f.report.rejected = 2;
            f.report.inputs = { { "a.jsonl.zst", "jsonl", 900, 2, "complete", "" },
                                { html ? "b.csv" : "b|c.csv", "", 100, 0, "truncated",
                                  html ? "cut at byte 512 <here>" : "cut at byte 512" } };
        }
        const QString out
            = QString::fromStdString(html ? incidentReportHtml(f.input) : incidentReportMarkdown(f.input, {}));
        for (const QString &part : expected)
            QVERIFY2(out.contains(part) == withInputs, qPrintable(part));
    }

    /// The statistics table has a column for each percentile the report computed, as the text report
    /// has, and its summary quotes p95 when there is one, else the highest; a report whose statistics
    /// count the error requests says so. (The columns were p50, p95 and p99 whatever was asked: "-" in
    /// every cell of a report asked for --percentiles 25,75.)
    void followsTheReportsPercentiles_data()
    {
        QTest::addColumn<bool>("html");
        QTest::addColumn<QList<double>>("percentiles");
        QTest::addColumn<bool>("includeErrors");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        const QList<double> defaults(defaultPercentiles().begin(), defaultPercentiles().end());
        QTest::newRow("markdown, the default percentiles")
            << false << defaults << false
            << QStringList{QStringLiteral("|  | count | mean | p50 | p90 | p95 | p99 | p99.9 | max |"),
                           QStringLiteral("| e2e | 10 | 2.00 s | 1.00 s | 1.80 s | 1.90 s | 1.98 s | 2.00 s | 2.00 s |"),
                           QStringLiteral("e2e p95 1.90 s, mean 2.00 s.")}
            << QStringList{QStringLiteral("count the error requests")};
        QTest::newRow("markdown, 25 and 75: no p95 to quote")
            << false << QList<double>{25, 75} << false
            << QStringList{QStringLiteral("|  | count | mean | p25 | p75 | max |"),
                           QStringLiteral("| e2e | 10 | 2.00 s | 500 ms | 1.50 s | 2.00 s |"),
                           QStringLiteral("e2e p75 1.50 s, mean 2.00 s.")}
            << QStringList{QStringLiteral("| p95 |"), QStringLiteral("e2e p95 -")};
        QTest::newRow("html, 99.9 only, errors included")
            << true << QList<double>{99.9} << true
            << QStringList{QStringLiteral("<th>p99.9</th>"), QStringLiteral("e2e p99.9 2.00 s, mean 2.00 s."),
                           QStringLiteral("The latency figures count the error requests too.")}
            << QStringList{QStringLiteral("<th>p50</th>"), QStringLiteral("<th>p95</th>")};
    }
    void followsTheReportsPercentiles()
    {
        QFETCH(bool, html);
        QFETCH(QList<double>, percentiles);
        QFETCH(bool, includeErrors);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        Fixture f;
        f.report.percentiles.assign(percentiles.begin(), percentiles.end());
        f.report.includeErrors = includeErrors;
        for (MetricSummary *m : {&f.report.e2e, &f.report.ttft, &f.report.tpot})
            m->stat.percentilesNs.assign(percentiles.size(), std::nullopt);
        for (MetricSummary &m : f.report.segments)
            m.stat.percentilesNs.assign(percentiles.size(), std::nullopt);
        // e2e: the percentile q at q/50 s, so that each column shows which percentile it holds
        f.report.e2e.stat.count = 10;
        f.report.e2e.stat.meanNs = 2e9;
        f.report.e2e.stat.maxNs = 2e9;
        for (qsizetype i = 0; i < percentiles.size(); ++i)
            f.report.e2e.stat.percentilesNs[static_cast<std::size_t>(i)] = percentiles[i] / 50 * 1e9;
        const QString out = QString::fromStdString(html ? incidentReportHtml(f.input) : incidentReportMarkdown(f.input, {}));
        for (const QString &part : present)
            QVERIFY2(out.contains(part), qPrintable(part + QStringLiteral("\n---\n") + out.left(1500)));
        for (const QString &part : absent)
            QVERIFY2(!out.contains(part), qPrintable(part));
    }

    void markdownFigures_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<bool>("linked");
        QTest::newRow("beside the report") << "out/incident" << true;
        QTest::newRow("standard output: left out") << "" << false;
    }
    void markdownFigures()
    {
        QFETCH(QString, base);
        QFETCH(bool, linked);
        Fixture f;
        const QString md = QString::fromStdString(incidentReportMarkdown(f.input, base.toStdString()));
        const auto files = incidentFigureFiles(f.input, base.toStdString());
        QVERIFY(md.startsWith(QLatin1String("# Latency incident report")));
        QVERIFY(md.contains(QLatin1String("`dominant = queue and e2e > 2100ms`")));
        if (linked) {
            QCOMPARE(files.size(), std::size_t(2));
            QCOMPARE(QString::fromStdString(files[0].first), QStringLiteral("out/incident-1.png"));
            QCOMPARE(QString::fromStdString(files[1].first), QStringLiteral("out/incident-2.svg"));
            QCOMPARE(files[1].second, f.input.figures[1].bytes);
            QVERIFY(md.contains(QLatin1String("![CDF](incident-2.svg)")));
        } else {
            QVERIFY(files.empty());
            QVERIFY(md.contains(QLatin1String("2 charts left out")));
        }
    }
};

QTEST_GUILESS_MAIN(TestIncidentReport)
#include "tst_incident_report.moc"
