// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI faces of issue 6: `report --json` with its load, knee, findings and SLOs on a sample trace whose
// knee is known; the incident report files; `compare`; and the usage errors of the new options.

#include "test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Run = lxtest::CliRun;

Run cli(const QStringList &args) { return lxtest::runCli(QString::fromUtf8(LX_CLI_PATH), args); }

QString sample(const char *name) { return QStringLiteral(LX_SOURCE_DIR "/sample_traces/") + QLatin1String(name); }

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT

private slots:
    void jsonHasLoadFindingsAndSlos()
    {
        // sample_traces/README.md: 32 slots, capacity 9.11 req/s, the ramp from 1 to 18 req/s crosses it.
        const Run run = cli({QStringLiteral("report"), QStringLiteral("--json"), QStringLiteral("--slo"), QStringLiteral("e2e.p95<=2s"),
                             QStringLiteral("--slo"), QStringLiteral("e2e.p50<=1min"), sample("rising_load.jsonl.zst")});
        QCOMPARE(run.exitCode, 0);
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(run.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject load = json[QLatin1String("load")].toObject();
        QVERIFY(load[QLatin1String("windows")].toArray().size() >= 100);
        QVERIFY(load[QLatin1String("windows")].toArray().size() <= 200);
        QCOMPARE(load[QLatin1String("bucket_by")].toString(), QStringLiteral("arrival_rate"));
        QCOMPARE(load[QLatin1String("geometric_buckets")].toBool(true), false); // by rate: equal widths
        const QJsonObject knee = load[QLatin1String("knee")].toObject();
        QVERIFY2(std::abs(knee[QLatin1String("rate_rps")].toDouble() - 9.11) <= 0.2 * 9.11, run.out.left(2000));
        QVERIFY(knee[QLatin1String("time_ns")].toInteger() > 0);
        QCOMPARE(load[QLatin1String("below")].toObject()[QLatin1String("dominant")].toString(), QStringLiteral("decode"));
        QCOMPARE(load[QLatin1String("above")].toObject()[QLatin1String("dominant")].toString(), QStringLiteral("queue"));
        const QJsonArray findings = json[QLatin1String("findings")].toArray();
        QVERIFY(!findings.isEmpty());
        QCOMPARE(findings[0].toObject()[QLatin1String("id")].toString(), QStringLiteral("queue"));
        const QJsonArray slos = json[QLatin1String("slos")].toArray();
        QCOMPARE(slos.size(), 2);
        QCOMPARE(slos[0].toObject()[QLatin1String("pass")].toBool(true), false);
        QCOMPARE(slos[0].toObject()[QLatin1String("budget")].toObject()[QLatin1String("dominant")].toString(), QStringLiteral("queue"));
        QCOMPARE(slos[1].toObject()[QLatin1String("pass")].toBool(false), true);
        QVERIFY(slos[1].toObject()[QLatin1String("budget")].isNull());
        // The decomposition is still there, unchanged in shape.
        QVERIFY(json[QLatin1String("segments")].isObject());
        QVERIFY(json[QLatin1String("inputs")].isArray());
    }

    void inFlightBucketsGrowByAFactor()
    {
        // The sample's in-flight loads span 4 to 734, its knee at about 26: the buckets grow by a factor.
        const Run run = cli({QStringLiteral("report"), QStringLiteral("--json"), QStringLiteral("--buckets-by"), QStringLiteral("in-flight"),
                             sample("rising_load.jsonl.zst")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject load = QJsonDocument::fromJson(run.out).object()[QLatin1String("load")].toObject();
        QCOMPARE(load[QLatin1String("geometric_buckets")].toBool(false), true);
        const QJsonArray buckets = load[QLatin1String("buckets")].toArray();
        QCOMPARE(buckets.size(), 12);
        const auto ratio = [&](int b) {
            const QJsonObject o = buckets[b].toObject();
            return o[QLatin1String("load_to")].toDouble() / o[QLatin1String("load_from")].toDouble();
        };
        QVERIFY(std::abs(ratio(0) - ratio(11)) < 0.01 * ratio(0)); // the same factor, up to the JSON's 3 digits
    }

    void noSlosNoKey()
    {
        const Run run = cli({QStringLiteral("report"), QStringLiteral("--json"), sample("rising_load_durations.jsonl")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QVERIFY(!json.contains(QLatin1String("slos")));
        QVERIFY(json.contains(QLatin1String("findings")));
        QVERIFY(json[QLatin1String("load")].toObject().contains(QLatin1String("knee")));
    }

    void textReport()
    {
        const Run run = cli({QStringLiteral("report"), QStringLiteral("--slo"), QStringLiteral("e2e.p95<=2s"), sample("rising_load.csv")});
        QCOMPARE(run.exitCode, 0);
        for (const char *part : {"SLOs:\n  FAIL  e2e.p95<=2s", "Load: below the knee decode dominates", "Findings (by share", "filter: "})
            QVERIFY2(run.out.contains(part), part);
    }

    /// Every format says which requests its latency figures are of: with --include-errors the errors are
    /// in them, and the text, the JSON, the Markdown and the errors finding say so. (They said "over the ok
    /// requests" and "outside the latency statistics" whatever the option.)
    void saysWhetherErrorsAreCounted_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("text, ok only")
            << QStringList{}
            << QStringList{QStringLiteral("Latency statistics over the ok requests"), QStringLiteral("), outside the latency statistics")}
            << QStringList{QStringLiteral("errors included"), QStringLiteral("counted in the latency statistics")};
        QTest::newRow("text, errors included")
            << QStringList{QStringLiteral("--include-errors")}
            << QStringList{QStringLiteral("Latency statistics over every request, errors included"),
                           QStringLiteral("), counted in the latency statistics")}
            << QStringList{QStringLiteral("over the ok requests"), QStringLiteral("outside the latency statistics")};
        QTest::newRow("json, ok only") << QStringList{QStringLiteral("--json")} << QStringList{}
                                       << QStringList{QStringLiteral("\"errors_included\"")};
        QTest::newRow("json, errors included")
            << QStringList{QStringLiteral("--json"), QStringLiteral("--include-errors")}
            << QStringList{QStringLiteral("\"errors_included\": true"), QStringLiteral("counted in the latency statistics")}
            << QStringList{QStringLiteral("outside the latency statistics")};
        QTest::newRow("markdown, errors included")
            << QStringList{QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("--include-errors")}
            << QStringList{QStringLiteral("The latency figures count the error requests too.")} << QStringList{};
    }
    void saysWhetherErrorsAreCounted()
    {
        QFETCH(QStringList, options);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const Run run = cli(QStringList{QStringLiteral("report")} + options + QStringList{sample("rising_load.jsonl")});
        QCOMPARE(run.exitCode, 0);
        for (const QString &part : present)
            QVERIFY2(run.out.contains(part.toUtf8()), qPrintable(part));
        for (const QString &part : absent)
            QVERIFY2(!run.out.contains(part.toUtf8()), qPrintable(part));
    }

    void incidentReportFiles_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("starts");
        QTest::newRow("html") << "html" << QByteArray("<!DOCTYPE html>");
        QTest::newRow("md") << "md" << QByteArray("# Latency incident report");
    }
    void incidentReportFiles()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, starts);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("incident.") + format);
        const Run run = cli({QStringLiteral("report"), QStringLiteral("--format"), format, QStringLiteral("--out"), out,
                             sample("rising_load_durations.jsonl")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.isEmpty());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.startsWith(starts));
        QVERIFY(text.contains("Findings"));
        // The four charts of the desktop app, drawn offscreen: embedded in the HTML, files beside the .md.
        const QStringList titles{QStringLiteral("Decomposition under load"), QStringLiteral("Dominant segment by e2e latency band"),
                                 QStringLiteral("Per-segment CDFs"), QStringLiteral("Waterfall timeline")};
        for (const QString &title : titles)
            QVERIFY2(text.contains(title.toUtf8()), qPrintable(title));
        if (format == QLatin1String("html")) {
            QCOMPARE(text.count("data:image/png;base64,iVBORw0KGgo"), 4);
        } else {
            for (int n = 1; n <= 4; ++n) {
                QFile figure(dir.filePath(QStringLiteral("incident-%1.png").arg(n)));
                QVERIFY2(figure.open(QIODevice::ReadOnly), qPrintable(figure.fileName()));
                QVERIFY(figure.read(4) == QByteArray("\x89PNG"));
            }
        }
    }

    void compareTwoWindows()
    {
        const Run run = cli({QStringLiteral("compare"), QStringLiteral("--json"), QStringLiteral("--baseline-range"),
                             QStringLiteral("..2025-01-01T12:01:00Z"), QStringLiteral("--incident-range"),
                             QStringLiteral("2025-01-01T12:01:00Z.."), sample("rising_load.jsonl")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject mean = QJsonDocument::fromJson(run.out).object()[QLatin1String("shift_share")].toObject()[QLatin1String("mean")].toObject();
        double sum = 0;
        for (const QJsonValue &segment : mean[QLatin1String("segments")].toObject())
            sum += segment.toObject()[QLatin1String("delta_ms")].toDouble();
        QVERIFY(std::abs(sum - mean[QLatin1String("delta_ms")].toDouble()) < 1e-5); // the split adds up
    }

    // A segment that no request of either side measured is "-" in the split (null in JSON), not a measured
    // 0: server stamps only leave network, preprocess and postprocess unmeasured; queue, prefill and decode
    // and unattributed (a measured 0) keep their numbers.
    void compareNeverMeasured_data()
    {
        QTest::addColumn<QString>("segment");
        QTest::addColumn<bool>("measured");
        for (const char *name : {"network", "preprocess", "postprocess"})
            QTest::newRow(name) << QString::fromLatin1(name) << false;
        for (const char *name : {"queue", "prefill", "decode", "unattributed"})
            QTest::newRow(name) << QString::fromLatin1(name) << true;
    }

    void compareNeverMeasured()
    {
        QFETCH(QString, segment);
        QFETCH(bool, measured);
        QTemporaryDir dir;
        QStringList inputs;
        for (const char *side : {"baseline", "incident"}) {
            QByteArray lines;
            for (qint64 i = 1; i <= 6; ++i) {
                const qint64 t = i * 1'000'000'000;
                lines += "{\"id\":\"r" + QByteArray::number(i) + "\",\"t_server_recv_ns\":" + QByteArray::number(t) + ",\"t_sched_ns\":"
                         + QByteArray::number(t + 5'000'000) + ",\"t_first_token_ns\":" + QByteArray::number(t + 50'000'000)
                         + ",\"t_last_token_ns\":" + QByteArray::number(t + 500'000'000 + i * 1'000'000) + "}\n";
            }
            inputs << QString::fromStdString(lxtest::writeFile(dir, QLatin1String(side) + QStringLiteral(".jsonl"), lines));
        }
        const Run text = cli(QStringList{QStringLiteral("compare")} + inputs);
        QCOMPARE(text.exitCode, 0);
        const QString shiftShare = QString::fromUtf8(text.out).section(QStringLiteral("mean e2e:"), 1);
        const QString row = shiftShare.section(QLatin1Char('\n'), 1).split(QLatin1Char('\n')).filter(QRegularExpression(QStringLiteral("^  ") + segment + QStringLiteral(" "))).value(0);
        QVERIFY2(!row.isEmpty(), text.out.constData());
        const QStringList words = row.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        QCOMPARE(words.value(1) == QLatin1String("-") && words.value(3) == QLatin1String("-") && words.value(4) == QLatin1String("-"), !measured);

        const Run json = cli(QStringList{QStringLiteral("compare"), QStringLiteral("--json")} + inputs);
        QCOMPARE(json.exitCode, 0);
        const QJsonObject part = QJsonDocument::fromJson(json.out).object()[QLatin1String("shift_share")].toObject()[QLatin1String("mean")]
                                     .toObject()[QLatin1String("segments")].toObject()[segment].toObject();
        for (const char *key : {"baseline_ms", "incident_ms", "delta_ms"})
            QVERIFY2(part[QLatin1String(key)].isNull() == !measured, key);
    }

    // One filter language: --filter selects what the expression selects, its shorthands select the same,
    // and every filter option given is ANDed. Each row runs two spellings of one selection.
    void filterOptions_data()
    {
        QTest::addColumn<QStringList>("spelling");
        QTest::addColumn<QStringList>("same");
        const auto split = [](const char *text) { return QString::fromUtf8(text).split(QLatin1Char('|')); };
        QTest::newRow("--status is status =") << split("--status|error") << split("--filter|status = error");
        QTest::newRow("--model is model =") << split("--model|qwen2.5-14b-instruct") << split("--filter|model = \"qwen2.5-14b-instruct\"");
        QTest::newRow("repeated --route is in (...)") << split("--route|/v1/completions|--route|/v1/responses")
                                                     << split("--filter|route in (\"/v1/completions\", \"/v1/responses\")");
        QTest::newRow("a shorthand ANDs with --filter") << split("--status|ok|--filter|e2e > 20s")
                                                        << split("--filter|status = ok and e2e > 20s");
        QTest::newRow("two --filter AND") << split("--filter|e2e > 20s|--filter|dominant = queue")
                                          << split("--filter|e2e > 20s and dominant = queue");
        QTest::newRow("--time-range is start") << split("--time-range|2025-01-01T12:01:00Z..")
                                               << split("--filter|start >= 2025-01-01T12:01:00Z");
    }
    void filterOptions()
    {
        QFETCH(QStringList, spelling);
        QFETCH(QStringList, same);
        const auto requests = [](const QStringList &filter) {
            const Run run = cli(QStringList{QStringLiteral("report"), QStringLiteral("--json")} + filter
                                + QStringList{sample("rising_load.jsonl")});
            QJsonObject counts = QJsonDocument::fromJson(run.out).object()[QLatin1String("requests")].toObject();
            const QString stated = counts.take(QLatin1String("filter")).toString(); // each spelling as given
            return std::make_pair(filter.isEmpty() == stated.isEmpty() ? run.exitCode : -1, counts);
        };
        const auto [status, selected] = requests(spelling);
        const auto [sameStatus, sameSelected] = requests(same);
        const auto [allStatus, all] = requests({});
        QCOMPARE(status, 0);
        QCOMPARE(sameStatus, 0);
        QCOMPARE(allStatus, 0);
        QCOMPARE(selected, sameSelected);
        const int total = selected[QLatin1String("total")].toInt();
        QVERIFY2(total > 0 && total < all[QLatin1String("total")].toInt(), "the row must select some requests, not all");
    }

    // compare --filter selects the requests of both sides alike: each side's counts are the report's under
    // the same filter.
    void compareFilterAppliesToBothSides_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("errors") << QStringLiteral("status = error");
        QTest::newRow("queue-dominated") << QStringLiteral("dominant = queue");
    }
    void compareFilterAppliesToBothSides()
    {
        QFETCH(QString, expression);
        const QString baseline = sample("rising_load.jsonl"), incident = sample("rising_load_durations.jsonl");
        const Run compared = cli({QStringLiteral("compare"), QStringLiteral("--json"), QStringLiteral("--filter"), expression, baseline, incident});
        QCOMPARE(compared.exitCode, 0);
        const QJsonObject sides = QJsonDocument::fromJson(compared.out).object();
        for (const auto &[side, input] : {std::pair{"baseline", baseline}, std::pair{"incident", incident}}) {
            const Run report = cli({QStringLiteral("report"), QStringLiteral("--json"), QStringLiteral("--filter"), expression, input});
            QCOMPARE(report.exitCode, 0);
            const QJsonObject requests = QJsonDocument::fromJson(report.out).object()[QLatin1String("requests")].toObject();
            QCOMPARE(sides[QLatin1String(side)].toObject()[QLatin1String("total")], requests[QLatin1String("total")]);
        }
    }

    // A bad expression is a refused filter: exit status 2, the parser's message, and a caret under the token.
    void badFilterExpression_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QByteArray>("caret");
        const QString trace = sample("rising_load_durations.jsonl");
        QTest::newRow("report: unknown field") << QStringList{QStringLiteral("report"), QStringLiteral("--filter"), QStringLiteral("e2 > 1s"), trace}
                                               << QByteArray("report: --filter: unknown field \"e2\"") << QByteArray("\n  e2 > 1s\n  ^^\n");
        QTest::newRow("report: missing value") << QStringList{QStringLiteral("report"), QStringLiteral("--status"), QStringLiteral("ok"), QStringLiteral("--filter"), QStringLiteral("e2e >"), trace}
                                               << QByteArray("(at character 6)") << QByteArray("\n  e2e >\n       ^\n");
        QTest::newRow("compare: the second of two") << QStringList{QStringLiteral("compare"), QStringLiteral("--filter"), QStringLiteral("e2e > 1s"), QStringLiteral("--filter"), QStringLiteral("dominant = lunch"), trace, trace}
                                                    << QByteArray("compare: --filter:") << QByteArray("\n  dominant = lunch\n             ^^^^^\n");
    }
    void badFilterExpression()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        QFETCH(QByteArray, caret);
        const Run run = cli(args);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), run.err.constData());
        QVERIFY2(run.err.contains(caret), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        const QString trace = sample("rising_load_durations.jsonl");
        QTest::newRow("bad slo") << QStringList{QStringLiteral("report"), QStringLiteral("--slo"), QStringLiteral("e2e.p95>=2s"), trace}
                                 << QByteArray("--slo: \"e2e.p95>=2s\": expected <= or <");
        QTest::newRow("bad format") << QStringList{QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("pdf"), trace}
                                    << QByteArray("--format takes text, json, md or html");
        QTest::newRow("zero window") << QStringList{QStringLiteral("report"), QStringLiteral("--window"), QStringLiteral("0s"), trace}
                                     << QByteArray("--window");
        QTest::newRow("bad buckets") << QStringList{QStringLiteral("report"), QStringLiteral("--buckets-by"), QStringLiteral("size"), trace}
                                     << QByteArray("--buckets-by takes rate or in-flight");
        QTest::newRow("compare one input") << QStringList{QStringLiteral("compare"), trace} << QByteArray("give two inputs");
        QTest::newRow("bad --status") << QStringList{QStringLiteral("report"), QStringLiteral("--status"), QStringLiteral("fine"), trace}
                                      << QByteArray("--status takes ok or error, not 'fine'");
        QTest::newRow("compare has no --time-range") << QStringList{QStringLiteral("compare"), QStringLiteral("--time-range"), QStringLiteral("..1"), trace, trace}
                                                     << QByteArray("unknown option '--time-range'");
        QTest::newRow("reversed --time-range") << QStringList{QStringLiteral("report"), QStringLiteral("--time-range"), QStringLiteral("2025-01-02T00:00:00Z..2025-01-01T00:00:00Z"), trace}
                                               << QByteArray("--time-range: the time range 2025-01-02T00:00:00Z..2025-01-01T00:00:00Z is empty");
        QTest::newRow("compare reversed range") << QStringList{QStringLiteral("compare"), QStringLiteral("--baseline-range"), QStringLiteral("5..5"),
                                                               QStringLiteral("--incident-range"), QStringLiteral("1..2"), trace}
                                                << QByteArray("--baseline-range: the time range 5..5 is empty");
        QTest::newRow("compare one range") << QStringList{QStringLiteral("compare"), QStringLiteral("--baseline-range"), QStringLiteral("..1"), trace}
                                           << QByteArray("give both --baseline-range and --incident-range");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        const Run run = cli(args);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message), run.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReportCli)
#include "tst_report_cli.moc"
