// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark outputs and arrival-only workload traces, from file to store: inline fixtures whose expected
// values are worked out by hand (docs/BENCHMARKS.md), refusals of summary files, and the real public files
// of ../shared/realdata (skipped when absent), including vLLM's own summary figures; a vLLM result's sends,
// saved or rebuilt from its settings.

#include "analysis/analysis.h"
#include "filter/filter_expression.h"
#include "ingest/formats/benchmark/vllm_sends.h"
#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using lxtest::dump;

namespace {

using lxtest::Imported;
using lxtest::importPaths;

// id, status, e2e scope, token scope, start, e2e, decode, unattributed, ttft, tpot, ttlt, tokens in and out.
constexpr const char *kRowsSql =
    "SELECT source_id, status_name, scope_name, token_scope, start_ns, e2e_ns, decode_ns, unattributed_ns, ttft_ns,"
    " tpot_ns, ttlt_ns, input_tokens, output_tokens FROM requests_readable ORDER BY source_line";
constexpr const char *kTokenTimesSql =
    "SELECT d.source_id, t.times FROM token_times t JOIN request_details d ON d.request_id = t.request_id"
    " ORDER BY d.source_line";

QString realPath(const char *relative) { return QStringLiteral(LX_REALDATA_DIR "/") + QLatin1String(relative); }

} // namespace

class TestBenchmarkReaders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fixtures_data();
    void fixtures();
    void refusals_data();
    void refusals();
    void realCounts_data();
    void realCounts();
    void realRefusals_data();
    void realRefusals();
    void vllmSummaryMatches();
    void relativeTimes_data();
    void relativeTimes();
    void rebuiltSends_data();
    void rebuiltSends();
    void rebuiltSendsDrawn_data();
    void rebuiltSendsDrawn();
};

void TestBenchmarkReaders::fixtures_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("rows");
    QTest::addColumn<QString>("tokenTimes");

    // ttft 0.1 s + gaps 20, 30 ms: decode 50 ms, e2e 150 ms, TPOT 50/2; a single-chunk answer has decode 0;
    // a failed request (vLLM writes ttft 0) measures nothing. "request_goodput:" is vLLM's odd key. No
    // start_times and a request_rate of inf: every request was sent at once, at 0 (rebuiltSends).
    QTest::newRow("vllm detailed")
        << QByteArray(R"({"backend": "vllm", "model_id": "m", "num_prompts": 3, "request_rate": "inf", "request_goodput:": null,)"
                      R"( "input_lens": [10, 20, 30], "output_lens": [3, 1, 0], "ttfts": [0.1, 0.25, 0],)"
                      R"( "itls": [[0.02, 0.03], [], []], "errors": ["", "", "boom"]})")
        << "vllm-bench"
        << "0|ok|client|1|0|150000000|50000000|100000000|100000000|25000000|150000000|10|3\n"
           "1|ok|client|1|0|250000000|0|250000000|250000000|NULL|250000000|20|1\n"
           "2|error|NULL|1|0|NULL|NULL|NULL|NULL|NULL|NULL|30|0"
        << "0|[100000000 120000000 150000000]\n1|[250000000]";
    // A BOM, CRLF, no final newline, bare NaN/Infinity (absent), e2els given, no input_lens or errors.
    // Record 1 has no TTFT and no e2e: its decode and TPOT stand, nothing is made up for the rest.
    QTest::newRow("vllm e2els NaN BOM CRLF")
        << QByteArray("\xEF\xBB\xBF{\"backend\": \"vllm\",\r\n \"ttfts\": [0.1, NaN],\r\n \"itls\": [[0.02], [0.01]],\r\n"
                      " \"e2els\": [0.5, Infinity],\r\n \"output_lens\": [2, 2]}")
        << "vllm-bench"
        << "0|ok|client|1|NULL|500000000|20000000|480000000|100000000|20000000|120000000|NULL|2\n"
           "1|ok|NULL|1|NULL|NULL|10000000|NULL|NULL|10000000|NULL|NULL|2"
        << "0|[100000000 120000000]";
    // Current vLLM: start_times (perf_counter s) become the send, token times absolute from it; "latencies"
    // is the e2e; a failed request keeps its send and nothing else.
    QTest::newRow("vllm start_times latencies")
        << QByteArray(R"({"backend": "vllm", "request_rate": 4.0, "start_times": [1200.5, 1200.75, 1201.0],)"
                      R"( "ttfts": [0.1, 0.2, 0.0], "itls": [[0.02], [], []], "latencies": [0.13, 0.2, 0.0],)"
                      R"( "input_lens": [5, 6, 7], "output_lens": [2, 1, 0], "errors": ["", "", "timeout"]})")
        << "vllm-bench"
        << "0|ok|client|1|1200500000000|130000000|20000000|110000000|100000000|20000000|120000000|5|2\n"
           "1|ok|client|1|1200750000000|200000000|0|200000000|200000000|NULL|200000000|6|1\n"
           "2|error|NULL|1|1201000000000|NULL|NULL|NULL|NULL|NULL|NULL|7|0"
        << "0|[1200600000000 1200620000000]\n1|[1200950000000]";
    // request_latency in s, the rest in ms: start = timestamp_ns, token times absolute from it.
    QTest::newRow("aiperf CRLF unterminated")
        << QByteArray(R"({"metadata":{"x_request_id":"a1","timestamp_ns":1000000000},"metrics":{"input_sequence_length":)"
                      R"({"value":5,"unit":"tokens"},"ttft":{"value":100,"unit":"ms"},"request_latency":{"value":0.5,"unit":"s"},)"
                      R"("inter_chunk_latency":{"value":[10,30],"unit":"ms"},"output_sequence_length":{"value":3,"unit":"tokens"}},)"
                      R"("error":null})" "\r\n"
                      R"({"metadata":{"x_request_id":"a2","timestamp_ns":2000000000},"metrics":{"error_request_count":)"
                      R"({"value":1,"unit":"requests"}},"error":{"code":499,"type":"RequestCancellationError","message":"x"}})")
        << "aiperf"
        << "a1|ok|client|1|1000000000|500000000|40000000|460000000|100000000|20000000|140000000|5|3\n"
           "a2|error|NULL|1|2000000000|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL"
        << "a1|[1100000000 1110000000 1140000000]";
    // decode = e2e - ttft = 2 s, TPOT = 2 s / 4; an error; a NaN TTFT with missing counts keeps its e2e.
    QTest::newRow("llmperf NaN missing fields")
        << QByteArray("[\n  {\"error_code\": null, \"error_msg\": \"\", \"inter_token_latency_s\": 0.05, \"ttft_s\": 0.5,"
                      " \"end_to_end_latency_s\": 2.5, \"number_input_tokens\": 100, \"number_output_tokens\": 5},\n"
                      "  {\"error_code\": 500, \"error_msg\": \"bad\", \"ttft_s\": 0, \"end_to_end_latency_s\": 0,"
                      " \"number_input_tokens\": 100, \"number_output_tokens\": 0},\n"
                      "  {\"ttft_s\": NaN, \"end_to_end_latency_s\": 1.0, \"number_output_tokens\": 3}\n]\n")
        << "llmperf"
        << "0|ok|client|1|NULL|2500000000|2000000000|500000000|500000000|500000000|2500000000|100|5\n"
           "1|error|NULL|1|NULL|NULL|NULL|NULL|NULL|NULL|NULL|100|0\n"
           "2|ok|client|1|NULL|1000000000|NULL|1000000000|NULL|NULL|NULL|NULL|3"
        << "";
    // 2023-11-16 18:17:03.97996 UTC = 1700158623.97996 s; fewer fractional digits read as well.
    QTest::newRow("azure CRLF unterminated")
        << QByteArray("TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:17:03.9799600,4808,10\r\n"
                      "1970-01-01 00:00:01.5,3,4")
        << "azure-llm"
        << "2|ok|NULL|1|1700158623979960000|NULL|NULL|NULL|NULL|NULL|NULL|4808|10\n"
           "3|ok|NULL|1|1500000000|NULL|NULL|NULL|NULL|NULL|NULL|3|4"
        << "";
    QTest::newRow("mooncake")
        << QByteArray("{\"timestamp\": 0, \"input_length\": 6758, \"output_length\": 500, \"hash_ids\": [0, 1]}\n"
                      "{\"timestamp\": 1.5, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": []}\n")
        << "mooncake"
        << "1|ok|NULL|1|0|NULL|NULL|NULL|NULL|NULL|NULL|6758|500\n"
           "2|ok|NULL|1|1500000|NULL|NULL|NULL|NULL|NULL|NULL|10|2"
        << "";
    // Native files still reach the native readers.
    QTest::newRow("native jsonl") << QByteArray("{\"id\":\"r1\",\"start_ns\":0,\"e2e_ms\":5}\n") << "jsonl"
                                  << "r1|ok|server|2|0|5000000|NULL|5000000|NULL|NULL|NULL|NULL|NULL" << "";
    QTest::newRow("native csv") << QByteArray("id,start_ns,e2e_ms\nr1,0,5\n") << "csv"
                                << "r1|ok|server|2|0|5000000|NULL|5000000|NULL|NULL|NULL|NULL|NULL" << "";
}

void TestBenchmarkReaders::fixtures()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, format);
    QFETCH(QString, rows);
    QFETCH(QString, tokenTimes);
    QTemporaryDir dir;
    const Imported imported = importPaths({lxtest::writeFile(dir, QStringLiteral("input"), content)});
    QVERIFY2(imported.store, imported.error.c_str());
    QCOMPARE(imported.files.size(), std::size_t(1));
    const lx::FileImport &file = imported.files[0];
    QVERIFY2(file.outcome == lx::FileImport::Outcome::Complete && file.rejected == 0, lxtest::describe(file).constData());
    QCOMPARE(QString::fromStdString(file.format), format);
    QCOMPARE(dump(imported.store->db(), kRowsSql), rows);
    QCOMPARE(dump(imported.store->db(), kTokenTimesSql), tokenTimes);
}

void TestBenchmarkReaders::refusals_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::newRow("aiperf csv") << QByteArray("Metric,avg,min,max,p50\nTime to First Token (ms),1,1,1,1\n")
                                << "load profile_export.jsonl";
    QTest::newRow("aiperf json") << QByteArray("{\n  \"records\": {\"ttft\": {\"tag\": \"ttft\", \"unit\": \"ms\", \"avg\": 1.0}}\n}\n")
                                 << "AIPerf aggregate summary";
    QTest::newRow("llmperf summary") << QByteArray("{\"version\": \"2023-08-31\", \"num_concurrent_requests\": 64, \"results_ttft_s_mean\": 1}")
                                     << "individual_responses.json";
    QTest::newRow("llmperf transposed csv") << QByteArray(",1,2\nconcurrency,1.0,2.0\nmean_input_token_length,550.0,550.0\n")
                                            << "one column per concurrency level";
    QTest::newRow("vllm results table") << QByteArray(R"x([{"Test name": "t", "Median TTFT (ms)": 1.0}])x")
                                        << "vLLM benchmark results table";
    QTest::newRow("vllm without detail") << QByteArray(R"({"backend": "vllm", "model_id": "m", "num_prompts": 2, "mean_ttft_ms": 3})")
                                         << "--save-detailed";
}

void TestBenchmarkReaders::refusals()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const Imported imported = importPaths({lxtest::writeFile(dir, QStringLiteral("input"), content)});
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &file = imported.files.at(0);
    QVERIFY2(file.outcome == lx::FileImport::Outcome::Unreadable, lxtest::describe(file).constData());
    QCOMPARE(file.accepted, qint64(0));
    QVERIFY2(QString::fromStdString(file.message).contains(message), file.message.c_str());
}

void TestBenchmarkReaders::realCounts_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("format");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<qint64>("errors");
    QTest::newRow("vllm") << realPath("llm-k8s-vllm-bench/llama-3.3-70b_01_tp8_pp1/"
                                      "serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_inf.json")
                          << "vllm-bench" << qint64(200) << qint64(0);
    QTest::newRow("aiperf") << realPath("aiperf-pr325/profile_export.jsonl") << "aiperf" << qint64(100) << qint64(11);
    QTest::newRow("llmperf vllm") << realPath("llmperf-pr42/vllm_cur64/01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json")
                                  << "llmperf" << qint64(128) << qint64(0);
    QTest::newRow("llmperf tgi") << realPath("llmperf-pr42/tgi_cur1/01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json")
                                 << "llmperf" << qint64(83) << qint64(0);
    QTest::newRow("azure code") << realPath("azure-llm-2023/AzureLLMInferenceTrace_code.csv") << "azure-llm" << qint64(8819) << qint64(0);
    QTest::newRow("azure conv") << realPath("azure-llm-2023/AzureLLMInferenceTrace_conv.csv") << "azure-llm" << qint64(19366) << qint64(0);
    QTest::newRow("mooncake") << realPath("mooncake-fast25/conversation_trace.jsonl") << "mooncake" << qint64(12031) << qint64(0);
}

void TestBenchmarkReaders::realCounts()
{
    QFETCH(QString, path);
    QFETCH(QString, format);
    QFETCH(qint64, accepted);
    QFETCH(qint64, errors);
    if (!QFile::exists(path))
        QSKIP("../shared/realdata is absent");
    const Imported imported = importPaths({lxtest::pathOf(path)});
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &file = imported.files.at(0);
    QVERIFY2(file.outcome == lx::FileImport::Outcome::Complete && file.rejected == 0, lxtest::describe(file).constData());
    QCOMPARE(QString::fromStdString(file.format), format);
    QCOMPARE(file.accepted, accepted);
    QCOMPARE(dump(imported.store->db(), "SELECT count(*) FROM requests WHERE status = 1").toLongLong(), errors);
}

void TestBenchmarkReaders::realRefusals_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("aiperf csv") << realPath("aiperf-pr325/profile_export_aiperf.csv") << "AIPerf aggregate table";
    QTest::newRow("aiperf json") << realPath("aiperf-pr325/profile_export_aiperf.json") << "AIPerf aggregate summary";
    QTest::newRow("llmperf summary") << realPath("llmperf-pr42/vllm_cur64/01-ai-Yi-1-5-34B-Chat_550_150_summary.json")
                                     << "LLMPerf summary";
    QTest::newRow("llmperf csv") << realPath("llmperf-pr42/vllm-01-ai_Yi-1.5-34B-Chat.csv") << "LLMPerf aggregate table";
    QTest::newRow("vllm table") << realPath("llm-k8s-vllm-bench/llama-3.3-70b_01_tp8_pp1/benchmark_results.json")
                                << "vLLM benchmark results table";
}

void TestBenchmarkReaders::realRefusals()
{
    QFETCH(QString, path);
    QFETCH(QString, message);
    if (!QFile::exists(path))
        QSKIP("../shared/realdata is absent");
    const Imported imported = importPaths({lxtest::pathOf(path)});
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &file = imported.files.at(0);
    QVERIFY2(file.outcome == lx::FileImport::Outcome::Unreadable, lxtest::describe(file).constData());
    QVERIFY2(QString::fromStdString(file.message).contains(message), file.message.c_str());
}

void TestBenchmarkReaders::vllmSummaryMatches()
{
    const QString path = realPath("llm-k8s-vllm-bench/llama-3.3-70b_01_tp8_pp1/"
                                  "serving_meta-llama-Llama-3.3-70B-Instruct_tp8_pp1_sharegpt_qps_inf.json");
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        QSKIP("../shared/realdata is absent");
    const QJsonObject summary = QJsonDocument::fromJson(f.readAll()).object();
    const Imported imported = importPaths({lxtest::pathOf(path)});
    QVERIFY2(imported.store, imported.error.c_str());
    lx::AnalysisOptions options;
    options.percentiles = {50, 99};
    const lx::Report report = lx::analyze(*imported.store, {}, options);
    QCOMPARE(report.ttft.stat.count, qint64(200));
    QCOMPARE(QString::fromStdString(report.ttft.scope), QStringLiteral("client"));
    QCOMPARE(QString::fromStdString(report.itl.scope), QStringLiteral("client"));
    // vLLM's figures are numpy percentiles (type 7, as ours) over the same values in seconds; ours are
    // over ns rounded from them, so they agree to well within a microsecond.
    const auto close = [](const std::optional<double> &ns, double ms) { return ns && std::fabs(*ns - ms * 1e6) < 1000.0; };
    const struct {
        const lx::MetricSummary &metric;
        int index;
        const char *key;
    } checks[] = {{report.ttft, 0, "median_ttft_ms"}, {report.ttft, 1, "p99_ttft_ms"},
                  {report.itl, 0, "median_itl_ms"},   {report.itl, 1, "p99_itl_ms"}};
    for (const auto &c : checks) {
        const double ms = summary.value(QLatin1String(c.key)).toDouble();
        const auto &ours = c.metric.stat.percentilesNs.at(static_cast<std::size_t>(c.index));
        QVERIFY2(close(ours, ms), qPrintable(QStringLiteral("%1: vLLM %2 ms, ours %3 ns").arg(QLatin1String(c.key)).arg(ms, 0, 'f', 9)
                                                 .arg(ours ? *ours : -1.0, 0, 'f', 1)));
    }
    // The mean ITL too: vLLM pools the same gaps.
    QVERIFY(report.itl.stat.meanNs && std::fabs(*report.itl.stat.meanNs - summary.value(QLatin1String("mean_itl_ms")).toDouble() * 1e6) < 1000.0);
}

void TestBenchmarkReaders::relativeTimes_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("flags"); ///< id|relative-time bit, by record
    QTest::addColumn<qint64>("relative"); ///< Report::relativeTime

    // Mooncake's arrivals are ms from the trace's start: every record.
    QTest::newRow("mooncake") << QByteArray("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 2}\n"
                                            "{\"timestamp\": 27, \"input_length\": 1, \"output_length\": 2}\n")
                              << "1|1\n2|1" << qint64(2);
    // vLLM bench: token times from the request's unknown start where there are chunk gaps; an error and a
    // record without gaps hold no time at all.
    QTest::newRow("vllm bench") << QByteArray(R"({"backend": "vllm", "ttfts": [0.1, 0.2, 0], "itls": [[0.02], null, []],)"
                                              R"( "output_lens": [2, 1, 0], "errors": ["", "", "boom"]})")
                                << "0|1\n1|0\n2|0" << qint64(1);
    // vLLM's start_times are perf_counter() seconds: ordered, but without a date.
    QTest::newRow("vllm start_times") << QByteArray(R"({"backend": "vllm", "start_times": [10.0, 10.5], "ttfts": [0.1, 0.2],)"
                                                    R"( "itls": [[0.02], []], "output_lens": [2, 1], "errors": ["", "x"]})")
                                      << "0|1\n1|1" << qint64(2);
    // AIPerf's timestamp_ns is wall-clock: nothing relative.
    QTest::newRow("aiperf") << QByteArray(R"({"metadata":{"x_request_id":"a1","timestamp_ns":1000000000},"metrics":)"
                                          R"({"ttft":{"value":100,"unit":"ms"},"request_latency":{"value":0.5,"unit":"s"},)"
                                          R"("inter_chunk_latency":{"value":[10],"unit":"ms"}}})" "\n")
                            << "a1|0" << qint64(0);
    // Azure's are UTC dates; LLMPerf has no time at all.
    QTest::newRow("azure") << QByteArray("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.9799600,4808,10\n")
                           << "2|0" << qint64(0);
    QTest::newRow("llmperf") << QByteArray("[{\"ttft_s\": 0.5, \"end_to_end_latency_s\": 2.5, \"number_output_tokens\": 5}]")
                             << "0|0" << qint64(0);
}

/// Records whose times are offsets from an unknown origin carry kFlagRelativeTime, and the report counts them.
void TestBenchmarkReaders::relativeTimes()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, flags);
    QFETCH(qint64, relative);
    QTemporaryDir dir;
    const Imported imported = importPaths({lxtest::writeFile(dir, QStringLiteral("input"), content)});
    QVERIFY2(imported.store, imported.error.c_str());
    QVERIFY2(imported.files.at(0).accepted > 0 && imported.files[0].rejected == 0, lxtest::describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, (flags >> 2) & 1 FROM requests_readable ORDER BY source_line"), flags);
    QCOMPARE(lx::analyze(*imported.store).relativeTime, relative);
    // The filter field says the same.
    auto compiled = lx::compileFilterExpression("relative");
    QVERIFY(std::holds_alternative<lx::SqlCondition>(compiled));
    lx::RequestFilter filter;
    filter.expression = std::get<lx::SqlCondition>(compiled);
    QCOMPARE(lx::analyze(*imported.store, filter).total, relative);
}

/// A vLLM result without start_times: the sends rebuilt from its settings, and the import says how.
void TestBenchmarkReaders::rebuiltSends_data()
{
    QTest::addColumn<QByteArray>("settings");
    QTest::addColumn<QString>("starts");
    QTest::addColumn<QString>("notice");
    // Latencies 1 s, 2 s, none (failed: 0) and none saved (ttft + itls: 0.5 s).
    QTest::newRow("inf: all at once") << QByteArray(R"("request_rate": "inf", "max_concurrency": null)") << "0|0|0|0"
                                      << "all at once (request_rate inf)";
    QTest::newRow("Infinity (json.dump's inf)") << QByteArray(R"("request_rate": Infinity)") << "0|0|0|0" << "all at once";
    // Two in flight: the third waits for the first's end (1 s), the fourth for the third's (it failed: 1 s).
    QTest::newRow("inf, max_concurrency 2") << QByteArray(R"("request_rate": "inf", "max_concurrency": 2)")
                                            << "0|0|1000000000|1000000000" << "fewer than 2 were in flight (max_concurrency)";
    QTest::newRow("no request_rate: no sends") << QByteArray(R"("burstiness": 1.0)") << "NULL|NULL|NULL|NULL" << "";
    QTest::newRow("rate 0: no sends") << QByteArray(R"("request_rate": 0)") << "NULL|NULL|NULL|NULL" << "";
}

void TestBenchmarkReaders::rebuiltSends()
{
    QFETCH(QByteArray, settings);
    QFETCH(QString, starts);
    QFETCH(QString, notice);
    const QByteArray content = "{\"backend\": \"vllm\", " + settings
                               + R"(, "ttfts": [0.1, 0.2, 0, 0.1], "itls": [[0.9], [1.8], [], [0.2, 0.2]], "latencies": [1.0, 2.0, 0, null],)"
                                 R"( "output_lens": [2, 2, 0, 3], "errors": ["", "", "boom", ""]})";
    QTemporaryDir dir;
    const Imported imported = importPaths({lxtest::writeFile(dir, QStringLiteral("serving.json"), content)});
    QVERIFY2(imported.store, imported.error.c_str());
    QCOMPARE(imported.files.at(0).accepted, qint64(4));
    QCOMPARE(dump(imported.store->db(), "SELECT start_ns FROM requests_readable ORDER BY source_line").replace(QLatin1Char('\n'), QLatin1Char('|')), starts);
    QCOMPARE(QString::fromStdString(imported.files[0].notice).contains(notice), true);
    QCOMPARE(imported.files[0].notice.empty(), notice.isEmpty());
}

/// Paced sends: gaps of mean 1 / rate and the burstiness's spread, the same on every import.
void TestBenchmarkReaders::rebuiltSendsDrawn_data()
{
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("burstiness");
    QTest::newRow("Poisson at 4 req/s") << 4.0 << 1.0;
    QTest::newRow("bursty (0.25) at 10 req/s") << 10.0 << 0.25;
    QTest::newRow("smooth (4) at 0.5 req/s") << 0.5 << 4.0;
}

void TestBenchmarkReaders::rebuiltSendsDrawn()
{
    QFETCH(double, rate);
    QFETCH(double, burstiness);
    const std::vector<std::int64_t> durations(20000, 1'000'000'000);
    const lx::bench::VllmSendPlan plan{rate, burstiness, std::nullopt};
    const std::vector<std::int64_t> sends = lx::bench::rebuildVllmSends(plan, durations);
    QCOMPARE(sends, lx::bench::rebuildVllmSends(plan, durations));
    QCOMPARE(sends.front(), std::int64_t(0));
    double sum = 0, squares = 0;
    for (std::size_t i = 1; i < sends.size(); ++i) {
        const double gap = static_cast<double>(sends[i] - sends[i - 1]) / 1e9;
        QVERIFY(gap >= 0);
        sum += gap;
        squares += gap * gap;
    }
    const double n = static_cast<double>(sends.size() - 1), mean = sum / n;
    const double cv = std::sqrt(squares / n - mean * mean) / mean;
    // Gamma(k, 1 / (rate k)): mean 1 / rate, coefficient of variation 1 / sqrt(k); 20,000 gaps put both
    // within a few percent.
    QVERIFY2(std::abs(mean * rate - 1) < 0.03, qPrintable(QString::number(mean * rate)));
    QVERIFY2(std::abs(cv * std::sqrt(burstiness) - 1) < 0.06, qPrintable(QString::number(cv * std::sqrt(burstiness))));
}

QTEST_GUILESS_MAIN(TestBenchmarkReaders)
#include "tst_benchmark_readers.moc"
