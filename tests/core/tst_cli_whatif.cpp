// SPDX-License-Identifier: GPL-3.0-or-later
// `latency-explorer-cli whatif` as a process: the side-by-side text and JSON on a generated trace, the
// simulated store of --out that `report` reads and `whatif` refuses to fit, an Azure workload as arrivals,
// vLLM bench results with and without their send times, a filter on the observed requests, and the exit
// statuses and messages of bad options and inputs the model cannot be fitted from.

#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <limits>

namespace {

using Run = lxtest::CliRun;
Run cli(const QStringList &args) { return lxtest::runCli(QString::fromUtf8(LX_CLI_PATH), args); }

/// The arguments as a QStringList (this project builds without implicit casts from char *).
QStringList L(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *item : items)
        out << QString::fromUtf8(item);
    return out;
}

/// Rewrites a generated client trace (AIPerf's shape) as a `vllm bench serve --save-detailed` result: column
/// arrays in seconds, start_times on a perf_counter-like clock (or none, as before 2025), request_rate 8 (or
/// none), a failed request with TTFT 0 and its error.
bool writeVllmResult(const QString &clientJsonl, const QString &out, bool withStartTimes, bool withRate)
{
    QFile in(clientJsonl);
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QJsonArray starts, ttfts, itls, latencies, inputs, outputs, errors;
    qint64 origin = -1;
    for (const QByteArray &line : in.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject record = QJsonDocument::fromJson(line).object();
        const QJsonObject metrics = record[QLatin1String("metrics")].toObject();
        // By value: a reference into the temporary object toObject() returns would dangle.
        const auto value = [&](const char *name) -> QJsonValue {
            return metrics.value(QLatin1String(name)).toObject().value(QLatin1String("value"));
        };
        const qint64 send = record[QLatin1String("metadata")].toObject()[QLatin1String("timestamp_ns")].toInteger();
        origin = origin < 0 ? send : origin;
        const bool failed = record[QLatin1String("error")].isObject();
        starts.append(5000.0 + static_cast<double>(send - origin) / 1e9);
        inputs.append(value("input_sequence_length").toInt());
        outputs.append(failed ? 0 : value("output_sequence_length").toInt());
        ttfts.append(failed ? 0.0 : value("ttft").toDouble() / 1e9);
        latencies.append(failed ? 0.0 : value("request_latency").toDouble() / 1e9);
        QJsonArray gaps;
        for (const QJsonValue gap : value("inter_chunk_latency").toArray())
            gaps.append(gap.toDouble() / 1e9);
        itls.append(failed ? QJsonArray() : gaps);
        errors.append(failed ? QStringLiteral("simulated failure") : QString());
    }
    // QJsonDocument writes the keys sorted, as json.dump(sort_keys=True) would: the long "errors" first.
    QJsonObject result{{QStringLiteral("backend"), QStringLiteral("vllm")}, {QStringLiteral("burstiness"), 1.0},
                       {QStringLiteral("ttfts"), ttfts}, {QStringLiteral("itls"), itls}, {QStringLiteral("latencies"), latencies},
                       {QStringLiteral("input_lens"), inputs}, {QStringLiteral("output_lens"), outputs}, {QStringLiteral("errors"), errors}};
    if (withStartTimes)
        result[QStringLiteral("start_times")] = starts;
    if (withRate)
        result[QStringLiteral("request_rate")] = 8.0;
    QFile file(out);
    return file.open(QIODevice::WriteOnly) && file.write(QJsonDocument(result).toJson(QJsonDocument::Compact)) > 0;
}

} // namespace

class TestCliWhatIf : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_trace; ///< an overloaded ramp of 16 slots
    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_trace = path("ramp.jsonl");
        const Run run = cli(L({"generate", "--requests", "1500", "--slots", "16", "--start-rate", "1", "--end-rate", "10", "-o"}) << m_trace);
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }

    void textSideBySide()
    {
        const Run run = cli(L({"whatif", "--replicas", "2", "--slo", "e2e.p95<=30s"}) << m_trace);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        for (const char *expected :
             { "What if: 2 replicas (rr)", "concurrency limit  16 in service (reached", "obs p99", "pred p99", "queue",
               "Knee: observed", "SLO e2e.p95<=30s: observed FAIL", "predicted PASS", "with 2 replicas (rr) p99 e2e",
               "queue no longer dominates most requests (decode does)" })
            QVERIFY2(run.out.contains(expected), (QByteArray(expected) + "\n" + run.out).constData());
    }

    void jsonAndOutStore()
    {
        const QString out = path("sim.lxdb");
        const Run run = cli(L({"whatif", "--json", "--arrivals", "x1.5", "--router", "least-loaded", "--replicas", "3", "--out"}) << out << m_trace);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QJsonParseError error;
        const QJsonObject json = QJsonDocument::fromJson(run.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QString::fromUtf8(run.out.left(400))));
        QCOMPARE(json[QLatin1String("model")].toObject()[QLatin1String("concurrency_limit")].toObject()[QLatin1String("value")].toDouble(), 16.0);
        QCOMPARE(json[QLatin1String("changes")].toObject()[QLatin1String("replicas")].toInt(), 3);
        QCOMPARE(json[QLatin1String("changes")].toObject()[QLatin1String("router")].toString(), QStringLiteral("least-loaded"));
        QCOMPARE(json[QLatin1String("arrivals")].toString(), QStringLiteral("observed"));
        QVERIFY(json[QLatin1String("observed")].toObject()[QLatin1String("segments")].isObject());
        QVERIFY(json[QLatin1String("predicted")].toObject()[QLatin1String("load")].isObject());
        QVERIFY(json[QLatin1String("summary")].toString().startsWith(QLatin1String("with 3 replicas (least-loaded), arrivals")));
        // The simulated store is an investigation like any other for `report`...
        const Run report = cli(L({"report", "--json"}) << out);
        QVERIFY2(report.exitCode == 0, report.err.constData());
        QVERIFY(QJsonDocument::fromJson(report.out).object()[QLatin1String("requests")].toObject()[QLatin1String("total")].toInt() > 1500);
        // ...which says it is simulated in every form (nothing said so; a finding of it advised NTP), and so
        // does a comparison with it; a measured one's JSON has no such member.
        QVERIFY(QJsonDocument::fromJson(report.out).object()[QLatin1String("simulated")].toBool());
        QVERIFY(!QJsonDocument::fromJson(cli(L({ "report", "--json" }) << m_trace).out)
                     .object()
                     .contains(QLatin1String("simulated")));
        const Run text = cli(L({ "report" }) << out);
        QVERIFY2(text.out.contains("\nSimulated: a what-if replay (whatif), not measured on a server"),
                 text.out.constData());
        const Run compared = cli(L({ "compare" }) << m_trace << out);
        QVERIFY2(compared.out.contains("Caution: the incident is simulated (a what-if replay)"),
                 compared.out.constData());
        // ...but no model is fitted from it, and --out never overwrites.
        const Run again = cli(L({"whatif"}) << out);
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("simulated investigation"), again.err.constData());
        const Run exists = cli(L({"whatif", "--out"}) << out << m_trace);
        QCOMPARE(exists.exitCode, 2);
        QVERIFY2(exists.err.contains("the file exists"), exists.err.constData());
        // `--json --out w.json` wrote a store named w.json and printed the JSON: a name not .lxdb is refused.
        const Run named = cli(L({ "whatif", "--json", "--out" }) << path("w.json") << m_trace);
        QCOMPARE(named.exitCode, 1);
        QVERIFY2(named.err.contains("name it .lxdb"), named.err.constData());
        QVERIFY(!QFileInfo::exists(path("w.json")));
    }

    void workloadArrivals_data()
    {
        QTest::addColumn<QByteArray>("workload");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("azure csv") << QByteArray("TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                                 "2023-11-16 18:17:03.9799600,480,10\n"
                                                 "2023-11-16 18:17:04.0319600,318,80\n"
                                                 "2023-11-16 18:17:05.1000000,1200,200\n")
                                   << 0 << "Requests: 1500 observed, 3 predicted";
        QTest::newRow("mooncake jsonl") << QByteArray("{\"timestamp\": 0, \"input_length\": 675, \"output_length\": 50}\n"
                                                      "{\"timestamp\": 250, \"input_length\": 732, \"output_length\": 49}\n")
                                        << 0 << "Requests: 1500 observed, 2 predicted";
        QTest::newRow("arrivals without token counts")
            << QByteArray("{\"id\":\"a\",\"t_client_send_ns\":1000000000,\"t_client_recv_ns\":2000000000}\n"
                          "{\"id\":\"b\",\"t_client_send_ns\":1500000000,\"t_client_recv_ns\":2500000000}\n")
            << 2 << "arrivals_without_token_counts.jsonl, line 1: no input token count";
    }
    void workloadArrivals()
    {
        QFETCH(QByteArray, workload);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const QString file = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_'))
                                            + QLatin1String(workload.startsWith("TIMESTAMP") ? ".csv" : ".jsonl"));
        QVERIFY(lxtest::writeFile(file, workload));
        const Run run = cli(L({"whatif", "--arrivals"}) << file << m_trace);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2((exitCode == 0 ? run.out : run.err).contains(message.toUtf8()), (run.out + run.err).constData());
        if (exitCode == 0) {
            QVERIFY2(run.out.contains("\nwith the arrivals of " + file.toUtf8() + " p99 e2e"), run.out.constData());
            // The JSON names the workload too (its "changes" alone read as the observed arrivals, x1).
            const Run json = cli(L({ "whatif", "--json", "--arrivals" }) << file << m_trace);
            QCOMPARE(QJsonDocument::fromJson(json.out).object()[QLatin1String("arrivals")].toString(), file);
        }
    }

    void refusedInputs_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("message");
        QTest::newRow("no server stamps, no TTFT") << "client-times-only" << "no server stamps: no queue can be fitted";
        QTest::newRow("a single request") << "single" << "1 request has server stamps: a model needs at least 10";
    }
    void refusedInputs()
    {
        QFETCH(QString, trace);
        QFETCH(QString, message);
        const QString file = m_dir.filePath(trace + QLatin1String(".jsonl"));
        if (trace == QLatin1String("client-times-only")) {
            // Send and receive times only: no server stamps, and no TTFT to infer them from.
            QByteArray lines;
            for (int i = 0; i < 20; ++i)
                lines += "{\"id\":\"r" + QByteArray::number(i) + "\",\"t_client_send_ns\":" + QByteArray::number(1'000'000'000LL * i)
                         + ",\"t_client_recv_ns\":" + QByteArray::number(1'000'000'000LL * i + 500'000'000) + "}\n";
            QVERIFY(lxtest::writeFile(file, lines));
        } else {
            QCOMPARE(cli(L({"generate", "--requests", "1", "-o"}) << file).exitCode, 0);
        }
        const Run run = cli(L({"whatif"}) << file);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    }

    void stampsFromSegments_data()
    {
        QTest::addColumn<QString>("form");
        QTest::newRow("durations form") << "durations";
        QTest::newRow("OTLP spans") << "otlp";
    }
    void stampsFromSegments()
    {
        QFETCH(QString, form);
        const QString file = m_dir.filePath(form + QLatin1String(".jsonl"));
        QCOMPARE(cli(L({"generate", "--requests", "1500", "--slots", "16", "--end-rate", "10", "--form"}) << form << QStringLiteral("-o") << file).exitCode, 0);
        const Run run = cli(L({"whatif"}) << file);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("their stamps rebuilt from their segments"), run.out.constData());
        QVERIFY2(run.out.contains("concurrency limit  16 in service (reached"), run.out.constData());
    }

    void clientSideTraceIsInferred()
    {
        // AIPerf-like records (send time, TTFT, end-to-end time): the server stamps are inferred.
        const QString file = path("client.jsonl");
        QCOMPARE(cli(L({"generate", "--form", "client", "--requests", "1500", "--slots", "16", "--end-rate", "10", "-o"}) << file).exitCode, 0);
        const Run run = cli(L({"whatif", "--replicas", "2"}) << file);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.contains("server stamps inferred from the client's times"), run.out.constData());
    }

    void vllmBenchResult_data()
    {
        QTest::addColumn<bool>("withStartTimes");
        QTest::addColumn<bool>("withRate");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expected");
        // Current vLLM writes each request's send (start_times): the server stamps are inferred as for AIPerf.
        QTest::newRow("with start_times") << true << true << 0 << "server stamps inferred from the client's times";
        // Older results have none: the sends are rebuilt from the run's request_rate, and the import says so.
        QTest::newRow("rebuilt from request_rate") << false << true << 0 << "each request's send is rebuilt";
        // Neither: no in-flight level can be known.
        QTest::newRow("no sends at all") << false << false << 2 << "no server stamps: no queue can be fitted";
    }
    void vllmBenchResult()
    {
        QFETCH(bool, withStartTimes);
        QFETCH(bool, withRate);
        QFETCH(int, exitCode);
        QFETCH(QString, expected);
        // A constant 8 req/s, the request_rate the file then says; the chunk gaps of every request, as vLLM
        // saves them.
        const QString client = path("vllm-source.jsonl");
        QCOMPARE(cli(L({"generate", "--form", "client", "--token-times-every", "1", "--requests", "1500", "--slots", "16", "--start-rate",
                        "8", "--end-rate", "8", "-o"})
                     << client).exitCode, 0);
        const QString file = m_dir.filePath(QStringLiteral("vllm-%1-%2.json").arg(int(withStartTimes)).arg(int(withRate)));
        QVERIFY(writeVllmResult(client, file, withStartTimes, withRate));
        const Run run = cli(L({"whatif", "--replicas", "2"}) << file);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2((run.out + run.err).contains(expected.toUtf8()), (run.out + run.err).constData());
        if (exitCode == 0) {
            QVERIFY2(run.out.contains("server stamps inferred from the client's times"), run.out.constData());
            QVERIFY2(run.out.contains("Requests: 1500 observed"), run.out.constData());
        }
    }

    void filterNarrowsTheFit()
    {
        // The first half of the ramp's requests by start: the fit, the replayed arrivals and the observed side.
        QFile trace(m_trace);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        qint64 first = std::numeric_limits<qint64>::max(), last = 0;
        for (const QByteArray &line : trace.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const qint64 send = QJsonDocument::fromJson(line).object()[QLatin1String("t_client_send_ns")].toInteger();
            first = std::min(first, send);
            last = std::max(last, send);
        }
        QVERIFY(last > first);
        const QString range = QString::number(first) + QLatin1String("..") + QString::number(first + (last - first) / 2);
        const Run part = cli(L({"report", "--json", "--time-range"}) << range << m_trace);
        const qint64 kept = QJsonDocument::fromJson(part.out).object()[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger();
        QVERIFY2(kept > 100 && kept < 1500, part.out.left(300).constData());

        const Run run = cli(L({"whatif", "--json", "--time-range"}) << range << m_trace);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json[QLatin1String("filter")].toString(), QLatin1String("--time-range ") + range);
        QCOMPARE(json[QLatin1String("observed")].toObject()[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger(), kept);
        QCOMPARE(json[QLatin1String("predicted")].toObject()[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger(), kept);
        QCOMPARE(json[QLatin1String("model")].toObject()[QLatin1String("requests")].toInteger(), kept);
        const Run text = cli(L({"whatif", "--time-range"}) << range << m_trace);
        QVERIFY2(text.out.contains((QStringLiteral("Observed requests: --time-range ") + range).toUtf8()), text.out.constData());
        // A fit to the filtered requests alone says why it may mislead (it predicted a large change "with no
        // change" without a word); a run without a filter does not.
        QVERIFY2(text.out.contains("\nCaution: the model is fitted to the requests the filter keeps"),
                 text.out.constData());
        QVERIFY(json[QLatin1String("caution")].toString().contains(QLatin1String("held the server's slots too")));
        const Run whole = cli(L({ "whatif" }) << m_trace);
        QVERIFY2(whole.exitCode == 0 && !whole.out.contains("Caution:"), whole.out.constData());

        // A filter that keeps nothing is refused as a model without requests; a bad expression as a bad filter.
        const Run none = cli(L({"whatif", "--filter", "e2e > 1000h"}) << m_trace);
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains("no requests: nothing to fit"), none.err.constData());
        const Run bad = cli(L({"whatif", "--filter", "e2e >"}) << m_trace);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("whatif: --filter:") && bad.err.contains("^"), bad.err.constData());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero replicas") << L({"--replicas", "0"}) << "--replicas needs a whole number from 1 to 10000, got '0'";
        QTest::newRow("replicas not a number") << L({"--replicas", "two"}) << "--replicas needs a whole number";
        QTest::newRow("zero arrival factor") << L({"--arrivals", "x0"}) << "the factor must be above 0";
        QTest::newRow("negative arrival factor") << L({"--arrivals", "x-1"}) << "the factor must be above 0";
        QTest::newRow("huge arrival factor") << L({"--arrivals", "x1000"}) << "at most 100";
        QTest::newRow("bad router") << L({"--router", "random"}) << "--router needs rr or least-loaded";
        QTest::newRow("zero speedup") << L({"--postprocess-speedup", "0"}) << "--postprocess-speedup needs a factor from 0.001 to 1000000, got '0'";
        QTest::newRow("negative cap") << L({"--cap-input-tokens", "-5"}) << "--cap-input-tokens needs a positive number";
        QTest::newRow("zero concurrency") << L({"--max-concurrency", "0"}) << "--max-concurrency needs a whole number";
        QTest::newRow("bad slo") << L({"--slo", "e2e<2s"}) << "--slo 'e2e<2s'";
        QTest::newRow("unknown option") << L({"--replica", "2"}) << "unknown option '--replica'";
        QTest::newRow("no input") << L({}) << "no input";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QStringList all = L({"whatif"});
        all += args;
        if (!args.isEmpty())
            all += m_trace;
        const Run run = cli(all);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    }

    void sameSeedSameOutput()
    {
        const QStringList args = L({"whatif", "--json", "--arrivals", "x1.7", "--seed", "5"}) << m_trace;
        const Run a = cli(args), b = cli(args);
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, b.out);
    }
};

QTEST_GUILESS_MAIN(TestCliWhatIf)
#include "tst_cli_whatif.moc"
