// SPDX-License-Identifier: GPL-3.0-or-later
// OTLP/JSON traces through the otlp-json reader, from file to store (docs/OTLP.md). Expected values are
// worked out by hand from docs/DOMAIN.md: vLLM's gen_ai.latency.* seconds become segments, TTFT minus
// queue minus prefill is preprocess, and time no attribute claims stays unattributed.

#include "ingest/importer.h"
#include "ingest/formats/otlp/otlp_json_reader.h"
#include "simulation/server_simulation.h"
#include "simulation/trace_writers.h"
#include "store/store.h"
#include "test_support.h"
#include "ingest/format_registry.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using lxtest::describe;
using lxtest::dump;

namespace {

constexpr const char *kStart = "1700000000000000000"; // every fixture span starts here
constexpr const char *kEnd = "1700000002000000000";   // and lasts 2 s unless a row says otherwise

/// An OTLP KeyValue; `value` is the AnyValue's inside, e.g. `"doubleValue":0.5`.
QByteArray kv(const char *key, const char *value)
{
    return R"({"key":")" + QByteArray(key) + R"(","value":{)" + value + "}}";
}

/// A span with the given ids (an empty span id: no spanId key, as vLLM 0.29 writes it) and attributes (a
/// comma-separated list of kv()); `extra` goes inside.
QByteArray span(const char *name, const char *spanId, const char *parentId, const QByteArray &attributes,
                const char *extra = "", const char *traceId = "5b8efff798038103d269b633813fc60c")
{
    QByteArray s = R"({"traceId":")" + QByteArray(traceId) + "\"";
    if (*spanId)
        s += R"(,"spanId":")" + QByteArray(spanId) + '"';
    if (*parentId)
        s += R"(,"parentSpanId":")" + QByteArray(parentId) + '"';
    s += R"(,"name":")" + QByteArray(name) + R"(","kind":2,"startTimeUnixNano":")" + kStart
         + R"(","endTimeUnixNano":")" + kEnd + R"(","attributes":[)" + attributes + "]" + extra + "}";
    return s;
}

/// One TracesData object on one line, as the Collector's file exporter writes it.
QByteArray line(const QByteArray &spans, const char *service = "vllm")
{
    return R"({"resourceSpans":[{"resource":{"attributes":[)" + kv("service.name", QByteArray(R"("stringValue":")") .append(service).append('"').constData())
           + R"(]},"scopeSpans":[{"scope":{"name":"vllm.tracing"},"spans":[)" + spans + "]}]}]}\n";
}

const QByteArray kVllmAttributes = kv("gen_ai.request.id", R"("stringValue":"cmpl-1")") + ','
    + kv("gen_ai.response.model", R"("stringValue":"llama-3.1-8b")") + ','
    + kv("gen_ai.usage.prompt_tokens", R"("intValue":"100")") + ',' + kv("gen_ai.usage.completion_tokens", R"("intValue":11)")
    + ',' + kv("gen_ai.latency.time_in_queue", R"("doubleValue":0.01)") + ','
    + kv("gen_ai.latency.time_to_first_token", R"("doubleValue":0.05)") + ','
    + kv("gen_ai.latency.time_in_model_prefill", R"("doubleValue":0.03)") + ','
    + kv("gen_ai.latency.time_in_model_decode", R"("doubleValue":0.9)") + ',' + kv("gen_ai.latency.e2e", R"("doubleValue":1.0)");

using lxtest::Imported;
using lxtest::importPaths;

// network..unattributed, e2e, scope, ttft, tpot, ttlt, dominant, flags, start relative to kStart.
constexpr const char *kDerivedSql =
    "SELECT network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns, unattributed_ns, e2e_ns,"
    " scope_name, ttft_ns, tpot_ns, ttlt_ns, dominant_name, flags, start_ns - 1700000000000000000"
    " FROM requests_readable ORDER BY id";

constexpr const char *kIdentitySql =
    "SELECT source_id, status_name, model, input_tokens, output_tokens, source_line, attributes FROM requests_readable ORDER BY id";

} // namespace

class TestOtlpJsonReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sniffing_data();
    void sniffing();
    void latencyMapping_data();
    void latencyMapping();
    void identity_data();
    void identity();
    void whichSpansAreRequests_data();
    void whichSpansAreRequests();
    void rejections_data();
    void rejections();
    void fileCutOffInsideItsLastLine_data();
    void fileCutOffInsideItsLastLine();
    void unclaimedSpans_data();
    void unclaimedSpans();
    void realFiles_data();
    void realFiles();
    void agreesWithTheNativeFormOfTheSameRequests();

private:
    Imported importOne(const QString &name, const QByteArray &content)
    {
        return importPaths({lxtest::writeFile(m_dir, name, content)});
    }
    QTemporaryDir m_dir;
};

void TestOtlpJsonReader::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("format"); // what sniffFormat() picks, empty for none

    QTest::newRow("file exporter line") << line(span("a", "eee19b7ec3c1b174", "", "")) << QStringLiteral("otlp-json");
    QTest::newRow("pretty document") << QByteArray("{\n  \"resourceSpans\": [\n  ]\n}\n") << QStringLiteral("otlp-json");
    QTest::newRow("result wrapper") << QByteArray(R"({"result": {"resourceSpans": []}})") << QStringLiteral("otlp-json");
    QTest::newRow("native JSONL") << QByteArray(R"({"id":"r1","t_server_recv_ns":1,"t_last_token_ns":2})" "\n")
                                  << QStringLiteral("jsonl");
    QTest::newRow("native JSONL with such an attribute")
        << QByteArray(R"({"id":"r1","start_ns":1,"e2e_ms":2,"note":"resourceSpans"})" "\n") << QStringLiteral("jsonl");
    QTest::newRow("native durations form") << QByteArray(R"({"start_ns":1,"e2e_ms":2,"id":"x","resourceSpans":1})" "\n")
                                           << QStringLiteral("jsonl");
    QTest::newRow("csv") << QByteArray("id,t_server_recv_ns\nr1,1\n") << QStringLiteral("csv");
}

void TestOtlpJsonReader::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, format);
    std::string why;
    const lx::TraceFormat *f = lx::sniffFormat(std::string_view(head.constData(), head.size()), &why);
    QCOMPARE(f ? QString::fromLatin1(f->name.data(), qsizetype(f->name.size())) : QString(), format);
}

void TestOtlpJsonReader::latencyMapping_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // see kDerivedSql

    QTest::newRow("vLLM llm_request, every latency key") << line(span("llm_request", "eee19b7ec3c1b174", "", kVllmAttributes))
        << QStringLiteral("NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|50000000|90000000|950000000|decode|2|0");
    QTest::newRow("vLLM 0.29 llm_request without spanId: the same") << line(span("llm_request", "", "", kVllmAttributes))
        << QStringLiteral("NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|50000000|90000000|950000000|decode|2|0");
    QTest::newRow("no TTFT: preprocess not measured, not zero")
        << line(span("llm_request", "eee19b7ec3c1b174", "",
                     kv("gen_ai.latency.time_in_queue", R"("doubleValue":0.01)") + ',' + kv("gen_ai.latency.time_in_model_prefill", R"("doubleValue":0.03)")
                         + ',' + kv("gen_ai.latency.time_in_model_decode", R"("doubleValue":0.9)") + ',' + kv("gen_ai.latency.e2e", R"("doubleValue":1)")))
        << QStringLiteral("NULL|NULL|10000000|30000000|900000000|NULL|60000000|1000000000|server|40000000|NULL|940000000|decode|2|0");
    QTest::newRow("e2e only: all unattributed") << line(span("llm_request", "eee19b7ec3c1b174", "", kv("gen_ai.latency.e2e", R"("doubleValue":0.5)")))
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|500000000|500000000|server|NULL|NULL|NULL|unattributed|2|0");
    QTest::newRow("no e2e key: the span's duration")
        << line(span("llm_request", "eee19b7ec3c1b174", "",
                     kv("gen_ai.latency.time_in_queue", R"("doubleValue":0.2)") + ',' + kv("gen_ai.latency.time_in_model_prefill", R"("doubleValue":0.1)")))
        << QStringLiteral("NULL|NULL|200000000|100000000|NULL|NULL|1700000000|2000000000|server|300000000|NULL|NULL|unattributed|2|0");
    QTest::newRow("TTFT below queue + prefill: no preprocess")
        << line(span("llm_request", "eee19b7ec3c1b174", "",
                     kv("gen_ai.latency.time_to_first_token", R"("doubleValue":0.02)") + ',' + kv("gen_ai.latency.time_in_queue", R"("doubleValue":0.01)")
                         + ',' + kv("gen_ai.latency.time_in_model_prefill", R"("doubleValue":0.03)") + ',' + kv("gen_ai.latency.e2e", R"("doubleValue":0.1)")))
        << QStringLiteral("NULL|NULL|10000000|30000000|NULL|NULL|60000000|100000000|server|40000000|NULL|NULL|unattributed|2|0");
    QTest::newRow("values as strings and integers")
        << line(span("generate", "eee19b7ec3c1b174", "",
                     kv("gen_ai.latency.time_in_queue", R"("doubleValue":"0.25")") + ',' + kv("gen_ai.latency.e2e", R"("intValue":"1")")))
        << QStringLiteral("NULL|NULL|250000000|NULL|NULL|NULL|750000000|1000000000|server|NULL|NULL|NULL|unattributed|2|0");
    // Flag 16: no mapping claimed the span (its time is unattributed for want of a mapping, not of stamps).
    QTest::newRow("non-LLM root span: e2e only") << line(span("GET /v1/chat/completions", "eee19b7ec3c1b174", "", ""), "gateway")
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|NULL|unattributed|18|0");
    QTest::newRow("times as JSON numbers")
        << QByteArray(line(span("x", "eee19b7ec3c1b174", "", "")).replace(QByteArray("\"") + kStart + "\"", "1700000000000000000")
                          .replace(QByteArray("\"") + kEnd + "\"", "1700000000000000123"))
        << QStringLiteral("NULL|NULL|NULL|NULL|NULL|NULL|123|123|server|NULL|NULL|NULL|unattributed|18|0");
}

void TestOtlpJsonReader::latencyMapping()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("mapping.jsonl"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    QCOMPARE(imported.files.size(), std::size_t(1));
    QVERIFY2(imported.files[0].format == "otlp-json" && imported.files[0].accepted == 1 && imported.files[0].rejected == 0,
             describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), kDerivedSql), expected);
}

void TestOtlpJsonReader::identity_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // see kIdentitySql

    QTest::newRow("vLLM: request id, response model, tokens") << line(span("llm_request", "eee19b7ec3c1b174", "", kVllmAttributes))
        << QStringLiteral(R"(cmpl-1|ok|llama-3.1-8b|100|11|1|{"span.name":"llm_request","service.name":"vllm","trace_id":"5b8efff798038103d269b633813fc60c","mapping":"vllm"})");
    QTest::newRow("request model, new token names, upper-case hex ids")
        << line(span("chat", "EEE19B7EC3C1B174", "", kv("gen_ai.request.model", R"("stringValue":"m")") + ',' + kv("gen_ai.usage.input_tokens", "\"intValue\":5")
                         + ',' + kv("gen_ai.usage.output_tokens", "\"intValue\":\"7\""), "", "5B8EFFF798038103D269B633813FC60C"), "api")
        << QStringLiteral(R"(eee19b7ec3c1b174|ok|m|5|7|1|{"span.name":"chat","service.name":"api","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("base64 ids") << line(span("ingress", "V1JoRpA7sT4=", "", "", "", "nXmxo38xgBzRGmcG+0DWvQ=="), "proxy")
        << QStringLiteral(R"(57526846903bb13e|ok|NULL|NULL|NULL|1|{"span.name":"ingress","service.name":"proxy","trace_id":"9d79b1a37f31801cd11a6706fb40d6bd"})");
    QTest::newRow("no spanId, no request id: the id is made up from the trace id")
        << line(span("x", "", "", "", "", "5B8EFFF798038103D269B633813FC60C"), "s")
        << QStringLiteral(R"(5b8efff798038103d269b633813fc60c-1|ok|NULL|NULL|NULL|1|{"span.name":"x","service.name":"s","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("status code 2 is an error") << line(span("x", "eee19b7ec3c1b174", "", "", R"(,"status":{"code":2,"message":"boom"})"), "s")
        << QStringLiteral(R"(eee19b7ec3c1b174|error|NULL|NULL|NULL|1|{"span.name":"x","service.name":"s","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("STATUS_CODE_ERROR is an error") << line(span("x", "eee19b7ec3c1b174", "", "", R"(,"status":{"code":"STATUS_CODE_ERROR"})"), "s")
        << QStringLiteral(R"(eee19b7ec3c1b174|error|NULL|NULL|NULL|1|{"span.name":"x","service.name":"s","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("status code 1 is ok, unknown fields ignored")
        << line(span("x", "eee19b7ec3c1b174", "", "", R"(,"status":{"code":1},"events":[{"name":"e"}],"flags":257,"future":{"a":[1]})"), "s")
        << QStringLiteral(R"(eee19b7ec3c1b174|ok|NULL|NULL|NULL|1|{"span.name":"x","service.name":"s","trace_id":"5b8efff798038103d269b633813fc60c"})");
}

void TestOtlpJsonReader::identity()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("identity.jsonl"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    QVERIFY2(imported.files[0].accepted == 1 && imported.files[0].rejected == 0, describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), kIdentitySql), expected);
}

void TestOtlpJsonReader::whichSpansAreRequests_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // source_id|source_line|span.name of every request, by id

    const QByteArray root = span("POST /v1/completions", "0000000000000001", "", "");
    const QByteArray child = span("tokenize", "0000000000000002", "0000000000000001", "");
    const QByteArray llm = span("llm_request", "0000000000000003", "0000000000000001", kv("gen_ai.latency.e2e", R"("doubleValue":1)"));
    const QByteArray llmChild = span("llm_request", "0000000000000004", "0000000000000003", kv("gen_ai.latency.e2e", R"("doubleValue":0.5)"));
    const QByteArray orphan = span("orphan", "0000000000000005", "00000000000000ff", "");

    QTest::newRow("a child span is no request") << line(root + ',' + child) << QStringLiteral("0000000000000001|1|POST /v1/completions");
    QTest::newRow("the LLM span under a gateway root is the request, not the root")
        << line(root + ',' + child + ',' + llm) << QStringLiteral("0000000000000003|1|llm_request");
    QTest::newRow("an LLM span nested in another is no request") << line(llm + ',' + llmChild + ',' + root)
        << QStringLiteral("0000000000000003|1|llm_request");
    QTest::newRow("a parent not in the file makes a root") << line(orphan) << QStringLiteral("0000000000000005|1|orphan");
    // A span without id can be nobody's parent; while no span of its trace lacks its parent, nothing is lost.
    const QByteArray e2e = kv("gen_ai.latency.e2e", R"("doubleValue":1)");
    QTest::newRow("a child without spanId is still no request") << line(root + ',' + span("tokenize", "", "0000000000000001", ""))
        << QStringLiteral("0000000000000001|1|POST /v1/completions");
    QTest::newRow("an LLM span without spanId under a gateway root is the request, with a made-up id")
        << line(root + ',' + span("llm_request", "", "0000000000000001", e2e))
        << QStringLiteral("5b8efff798038103d269b633813fc60c-1|1|llm_request");
    QTest::newRow("a span without spanId whose parent is not in the file")
        << line(span("llm_request", "", "00000000000000ff", e2e)) + line(span("llm_request", "", "", e2e, "", "0af7651916cd43dd8448eb211c80319c"))
        << QStringLiteral("0af7651916cd43dd8448eb211c80319c-2|2|llm_request\n5b8efff798038103d269b633813fc60c-1|1|llm_request");
    QTest::newRow("one object per line, blank lines skipped") << line(root) + "\n" + line(orphan)
        << QStringLiteral("0000000000000001|1|POST /v1/completions\n0000000000000005|3|orphan");
    QTest::newRow("result wrapper") << QByteArray(R"({"result": )" + line(root).trimmed() + "}\n")
        << QStringLiteral("0000000000000001|1|POST /v1/completions");
    QTest::newRow("pretty document: the line is the span's ordinal")
        << QByteArray("{\n  \"resourceSpans\": [\n    {\"scopeSpans\": [{\"spans\": [\n      " + child + ",\n      " + root + ",\n      "
                      + orphan + "\n    ]}]}\n  ]\n}\n")
        << QStringLiteral("0000000000000001|2|POST /v1/completions\n0000000000000005|3|orphan");
}

void TestOtlpJsonReader::whichSpansAreRequests()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("requests.json"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    QVERIFY2(imported.files[0].outcome == lx::FileImport::Outcome::Complete && imported.files[0].rejected == 0,
             describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT source_id, source_line, json_extract(attributes, '$.\"span.name\"')"
                                        " FROM requests_readable ORDER BY id"),
             expected);
}

void TestOtlpJsonReader::rejections_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<QString>("expected"); // line|reason of every rejection

    const QByteArray good = line(span("ok", "0000000000000001", "", ""));
    const auto bad = [](const char *extraOrReplace, const char *from = nullptr) {
        QByteArray s = span("bad", "00000000000000bb", "", "");
        if (from)
            s.replace(from, extraOrReplace);
        return line(s);
    };
    QTest::newRow("span id neither hex nor base64") << good + line(span("bad", "xyz", "", "")) << qint64(1)
        << QStringLiteral(R"(2|span "bad": spanId "xyz" is neither 16 hex digits nor base64 of 8 bytes)");
    QTest::newRow("bad trace id") << good + line(span("bad", "00000000000000bb", "", "", "", "zzz")) << qint64(1)
        << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): traceId "zzz" is neither 32 hex digits nor base64 of 16 bytes)");
    QTest::newRow("invalid kind") << good + bad(R"("kind":"SPAN_KIND_BOGUS")", R"("kind":2)") << qint64(1)
        << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): invalid kind "SPAN_KIND_BOGUS")");
    QTest::newRow("no end time") << good + bad(R"("endTimeUnixNano":null)", (QByteArray(R"("endTimeUnixNano":")") + kEnd + '"').constData())
        << qint64(1) << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): no valid endTimeUnixNano)");
    // The field absent, not null, and no kind before it: the reader asked an element it never found whether
    // it was out of range (ubsan: a member access on a null tape; fuzz target otlp_json).
    QByteArray noKindNoStart = span("bad", "00000000000000bb", "", "");
    noKindNoStart.replace(R"("kind":2)", R"("notAKind":2)").replace("startTimeUnixNano", "notAStartTime");
    QTest::newRow("no kind and no start time field") << good + line(noKindNoStart) << qint64(1)
        << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): no valid startTimeUnixNano)");
    QTest::newRow("ends before it starts") << good + bad(R"("endTimeUnixNano":"1")", (QByteArray(R"("endTimeUnixNano":")") + kEnd + '"').constData())
        << qint64(1) << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): ends before it starts (endTimeUnixNano < startTimeUnixNano))");
    QTest::newRow("malformed JSON between good lines") << good + "{\"resourceSpans\": [\n" + line(span("ok2", "0000000000000002", "", ""))
        << qint64(2) << QStringLiteral("2|malformed JSON: The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.");
    QTest::newRow("native record among OTLP lines") << good + R"({"id":"r1","t_server_recv_ns":1})" "\n" << qint64(1)
        << QStringLiteral("2|no resourceSpans: not an OTLP/JSON TracesData object");
    QTest::newRow("negative latency") << good + line(span("llm_request", "00000000000000bb", "", kv("gen_ai.latency.time_in_queue", R"("doubleValue":-0.1)")))
        << qint64(1) << QStringLiteral(R"(2|span "llm_request" (span id 00000000000000bb): gen_ai.latency.time_in_queue is negative or not finite)");
    QTest::newRow("e2e below the segments")
        << good + line(span("llm_request", "00000000000000bb", "", kv("gen_ai.latency.time_in_model_decode", R"("doubleValue":2)") + ',' + kv("gen_ai.latency.e2e", R"("doubleValue":1)")))
        << qint64(1) << QStringLiteral(R"(2|span "llm_request" (span id 00000000000000bb): gen_ai.latency.e2e is less than the sum of the measured segments)");
    QTest::newRow("no spanId nor traceId") << good + line(span("bad", "", "", "", "", "")) << qint64(1)
        << QStringLiteral(R"(2|span "bad": no traceId)");
    // Without its id a span can be nobody's parent: a span of its trace whose parent is not found may be its child.
    QTest::newRow("no spanId, and a span of its trace lacks its parent")
        << good + line(span("llm_request", "", "", kv("gen_ai.latency.e2e", R"("doubleValue":1)")) + ',' + span("prefill_forward", "0000000000000002", "00000000000000aa", ""))
        << qint64(2)
        << QStringLiteral(R"(2|span "llm_request": no span id, and span "prefill_forward" of its trace names a parent (00000000000000aa) )"
                          "that is not in the file: it may be this span, so the trace cannot be linked");
    QTest::newRow("no spanId on a non-root span whose stage spans a mapping reads lack their parent")
        << good + line(span("GET /generate", "0000000000000003", "", "") + ',' + span("scheduler", "", "0000000000000003", "") + ','
                       + span("prefill_waiting", "0000000000000004", "00000000000000cc", "") + ',' + span("decode_loop", "0000000000000005", "00000000000000cc", ""))
        << qint64(4)
        << QStringLiteral(R"(2|span "scheduler": no span id, and span "prefill_waiting" of its trace names a parent (00000000000000cc) )"
                          "that is not in the file: it may be this span, so the trace cannot be linked");
    QTest::newRow("duplicate span: duplicate id") << good + good << qint64(1)
        << QStringLiteral(R"(2|duplicate id "0000000000000001" (already used earlier in this file))");
}

void TestOtlpJsonReader::rejections()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, accepted);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("bad.jsonl"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Complete && f.accepted == accepted, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line"), expected);
}

/// A Collector's file copied while the exporter wrote it ends inside a line: the import is truncated (the
/// CLI's exit status 2), that line rejected as cut off and the spans before it kept. It was "complete",
/// exit status 0, the line rejected as malformed JSON. Only a line that fails to parse, with no line end,
/// is a cut: not a malformed line with its line end, nor a whole last line without one whose span is refused.
void TestOtlpJsonReader::fileCutOffInsideItsLastLine_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("cut");
    QTest::addColumn<QString>("rejection"); // line|reason of the last rejection

    const QByteArray good = line(span("ok", "0000000000000001", "", ""));
    const QByteArray second = line(span("ok2", "0000000000000002", "", ""));
    QTest::newRow("cut inside the last line")
        << good + second.left(second.size() / 2) << true
        << QStringLiteral("2|the file ends inside this line, with no line end: cut off? (malformed JSON: ");
    QTest::newRow("malformed last line, with its line end") << good + second.left(second.size() / 2) + '\n'
                                                            << false << QStringLiteral("2|malformed JSON: ");
    QTest::newRow("whole last line, no line end") << good + second.trimmed() << false << QString();
    QTest::newRow("a refused span on a last line without line end") << good
            + line(span("bad", "xyz", "", "")).trimmed() << false << QStringLiteral(R"(2|span "bad": spanId "xyz")");
}

void TestOtlpJsonReader::fileCutOffInsideItsLastLine()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, cut);
    QFETCH(QString, rejection);
    const Imported imported = importOne(QStringLiteral("copied.jsonl"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QCOMPARE(f.outcome, cut ? lx::FileImport::Outcome::Truncated : lx::FileImport::Outcome::Complete);
    QCOMPARE(f.failed(), cut);
    QCOMPARE(f.accepted, qint64(rejection.isEmpty() ? 2 : 1));
    if (cut)
        QCOMPARE(QString::fromStdString(f.message),
                 QStringLiteral("truncated: the file ends inside line 2, with no line end, and "
                                "it was rejected; the 1 records before it are kept"));
    const QString rejected = dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line");
    QVERIFY2(rejection.isEmpty() ? rejected.isEmpty() : rejected.startsWith(rejection), qPrintable(rejected));
}

void TestOtlpJsonReader::unclaimedSpans_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("notice"); // FileImport::notice, and the end of import_runs.message
    QTest::addColumn<int>("unmapped");   // requests flagged as from spans no mapping claimed

    // A web shop's spans: nothing of the LLM presets claims them.
    const QByteArray cart = span("GET /cart", "0000000000000001", "", "");
    const QByteArray query = span("SELECT cart_items", "0000000000000002", "0000000000000001", "");
    const QByteArray render = span("render cart", "0000000000000003", "0000000000000001", "");
    const QByteArray checkout = span("POST /checkout", "0000000000000004", "", "", "", "0af7651916cd43dd8448eb211c80319c");
    const QByteArray pay = span("charge card", "0000000000000005", "0000000000000004", "", "", "0af7651916cd43dd8448eb211c80319c");
    const QString tail = QStringLiteral("; no span mapping claimed them (tried: vllm, sglang, tgi), so each root span is a request whose "
                                        "time is all unattributed: choose a mapping in File \u25B8 OTLP Span Mapping or pass --mapping");
    QTest::newRow("a web shop's spans: named, the most frequent first")
        << line(cart + ',' + query + ',' + render) + line(checkout + ',' + pay + ',' + span("SELECT cart_items", "0000000000000006", "0000000000000004", "", "", "0af7651916cd43dd8448eb211c80319c"))
        << QStringLiteral("6 spans seen (names: SELECT cart_items, GET /cart, POST /checkout, charge card, render cart)") + tail << 2;
    QTest::newRow("one span") << line(cart) << QStringLiteral("1 span seen (names: GET /cart)") + QString(tail).replace(QStringLiteral("claimed them"), QStringLiteral("claimed it")) << 1;
    QByteArray spans;
    for (int i = 1; i <= 6; ++i) {
        const QByteArray id = QByteArray::number(i).rightJustified(16, '0');
        spans += (i > 1 ? "," : "") + span(("step " + QByteArray::number(i)).constData(), id.constData(), i > 1 ? "0000000000000001" : "", "");
    }
    QTest::newRow("more names than shown: an ellipsis") << line(spans)
        << QStringLiteral("6 spans seen (names: step 1, step 2, step 3, step 4, step 5\u2026)") + tail << 1;
    QTest::newRow("an LLM span claimed: no notice") << line(span("llm_request", "0000000000000007", "", kVllmAttributes)) << QString() << 0;
    QTest::newRow("one claimed span among web spans: no notice")
        << line(cart + ',' + query) + line(span("llm_request", "0000000000000007", "", kVllmAttributes, "", "0af7651916cd43dd8448eb211c80319c"))
        << QString() << 1;
}

void TestOtlpJsonReader::unclaimedSpans()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, notice);
    QFETCH(int, unmapped);
    const Imported imported = importOne(QStringLiteral("spans.jsonl"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(QString::fromStdString(f.notice), notice);
    QCOMPARE(dump(imported.store->db(), "SELECT coalesce(message, '') FROM import_runs"), notice);
    QCOMPARE(dump(imported.store->db(), "SELECT count(*) FROM requests WHERE flags & 16"), QString::number(unmapped));
}

void TestOtlpJsonReader::realFiles_data()
{
    QTest::addColumn<QString>("file"); // under LX_REALDATA_DIR
    QTest::addColumn<int>("outcome");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<QString>("detail"); // a query's dump, or for an unreadable file words of its message

    using O = lx::FileImport::Outcome;
    // 19 lines of one span each, every span's parent in another service's trace not in the file (or
    // none): 19 root spans, so 19 requests, the spans that SOURCES.md counts.
    QTest::newRow("otlp2parquet/traces.jsonl") << QStringLiteral("otlp2parquet/traces.jsonl") << int(O::Complete) << qint64(19)
        << QStringLiteral("19|19|0|19");
    QTest::newRow("otel-proto/trace.json") << QStringLiteral("otel-proto/trace.json") << int(O::Complete) << qint64(1)
        << QStringLiteral("1|1|0|1");
    // Two identical spans: the second repeats the first's id and is rejected as a duplicate.
    QTest::newRow("jaeger-ui/otlp2jaeger-in.json") << QStringLiteral("jaeger-ui/otlp2jaeger-in.json") << int(O::Complete) << qint64(1)
        << QStringLiteral("1|1|1|1");
    // Four spans of one trace: "main" is the root, the other three are below it.
    QTest::newRow("jaeger-ui/otlp2jaeger-multi-in-combined.json") << QStringLiteral("jaeger-ui/otlp2jaeger-multi-in-combined.json")
        << int(O::Complete) << qint64(1) << QStringLiteral("1|1|0|1");
    // An envoy ingress span and its egress child: one request.
    QTest::newRow("otlp2parquet/trace.json") << QStringLiteral("otlp2parquet/trace.json") << int(O::Complete) << qint64(1)
        << QStringLiteral("1|1|0|1");
    QTest::newRow("invalid/trace_invalid_base64.json") << QStringLiteral("otlp2parquet/invalid/trace_invalid_base64.json")
        << int(O::Complete) << qint64(0) << QStringLiteral(R"(1|span "test-span": spanId "INVALID==" is neither 16 hex digits nor base64 of 8 bytes)");
    QTest::newRow("invalid/trace_invalid_kind.json") << QStringLiteral("otlp2parquet/invalid/trace_invalid_kind.json") << int(O::Complete)
        << qint64(0) << QStringLiteral(R"(1|span "test-span" (span id 57526846903bb13e): invalid kind "SPAN_KIND_INVALID_TYPE")");
    QTest::newRow("invalid/trace_mixed_encoding.json") << QStringLiteral("otlp2parquet/invalid/trace_mixed_encoding.json")
        << int(O::Complete) << qint64(0) << QStringLiteral(R"(1|span "test-span": spanId "xyz" is neither 16 hex digits nor base64 of 8 bytes)");
    QTest::newRow("invalid/malformed.json") << QStringLiteral("otlp2parquet/invalid/malformed.json") << int(O::Unreadable) << qint64(0)
        << QStringLiteral("malformed JSON");
}

void TestOtlpJsonReader::realFiles()
{
    QFETCH(QString, file);
    QFETCH(int, outcome);
    QFETCH(qint64, accepted);
    QFETCH(QString, detail);
    const QString path = QDir(QStringLiteral(LX_REALDATA_DIR)).filePath(file);
    if (!QFileInfo::exists(path))
        QSKIP("the real data folder ../shared/realdata is absent");
    const Imported imported = importPaths({lxtest::pathOf(path)});
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(int(f.outcome) == outcome && f.accepted == accepted, describe(f).constData());
    QCOMPARE(QString::fromStdString(f.format), QStringLiteral("otlp-json"));
    if (f.outcome == lx::FileImport::Outcome::Unreadable) {
        QVERIFY2(f.message.find(detail.toStdString()) != std::string::npos, describe(f).constData());
    } else if (accepted == 0) {
        QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected"), detail);
    } else {
        // requests, requests whose segments are all unattributed and add up to e2e = the span's duration,
        // rejected, and requests with a service.name.
        QCOMPARE(dump(imported.store->db(),
                      "SELECT count(*), sum(unattributed_ns = e2e_ns AND e2e_ns > 0 AND scope_name = 'server'),"
                      " (SELECT count(*) FROM rejected), sum(json_extract(attributes, '$.\"service.name\"') IS NOT NULL)"
                      " FROM requests_readable"),
                 detail);
    }
}

QTEST_GUILESS_MAIN(TestOtlpJsonReader)
// The simulation written as vLLM spans and as native timestamps: the server-side figures vLLM reports must
// come out the same through both readers, request by request.
void TestOtlpJsonReader::agreesWithTheNativeFormOfTheSameRequests()
{
    lx::sim::SimConfig config;
    config.seed = 7;
    config.requests = 3000;
    std::string otlp;
    std::string native;
    lx::sim::simulate(config, [&](const lx::sim::SimRequest &request) {
        lx::sim::appendOtlpLine(otlp, request);
        lx::sim::appendTimestampsLine(native, request);
    });
    const Imported fromOtlp = importOne(QStringLiteral("sim-otlp.jsonl"), QByteArray::fromStdString(otlp));
    const Imported fromNative = importOne(QStringLiteral("sim-native.jsonl"), QByteArray::fromStdString(native));
    QCOMPARE(fromOtlp.files.front().accepted, qint64(3000));
    QCOMPARE(QString::fromStdString(fromOtlp.files.front().format), QStringLiteral("otlp-json"));
    // Ok requests: one refused in preprocess has no first token, so vLLM's attributes (preprocess is
    // TTFT - queue - prefill) cannot carry its preprocess time, which the native form has.
    const char *sql = "SELECT source_id, status_name, preprocess_ns, queue_ns, prefill_ns, decode_ns, ttft_ns, tpot_ns, input_tokens,"
                      " output_tokens, model FROM requests_readable WHERE status = 0 ORDER BY source_id";
    const QString otlpRows = lxtest::dump(fromOtlp.store->db(), sql);
    const QString nativeRows = lxtest::dump(fromNative.store->db(), sql);
    QVERIFY(nativeRows.count(QLatin1Char('\n')) > 2900);
    QCOMPARE(otlpRows, nativeRows);
}

#include "tst_otlp_json_reader.moc"
