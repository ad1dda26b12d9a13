// SPDX-License-Identifier: GPL-3.0-or-later
// Jaeger's trace JSON through the jaeger-json reader, from file to store (docs/SPANS.md). The spans become
// requests through the same span mappings as OTLP's (docs/OTLP.md), so the expected figures are those of
// tst_otlp_json_reader for the same spans: vLLM's gen_ai.latency.* seconds become segments, and time no
// mapping claims stays unattributed.

#include "ingest/format_registry.h"
#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using lxtest::describe;
using lxtest::dump;
using lxtest::Imported;

namespace {

constexpr const char *kTrace = "5b8efff798038103d269b633813fc60c";
constexpr qint64 kStartUs = 1700000000000000; // every fixture span starts here (µs) unless a row says otherwise

/// A Jaeger tag: `value` is its JSON, e.g. `0.5` or `"text"`.
QByteArray tag(const char *key, const char *type, const char *value)
{
    return R"({"key":")" + QByteArray(key) + R"(","type":")" + type + R"(","value":)" + value + "}";
}

/// A span of process p1 (vllm) lasting 2 s; `parent` empty: no references. `extra` goes inside.
QByteArray span(const char *name, const char *spanId, const char *parent, const QByteArray &tags, const QByteArray &extra = {},
                qint64 startUs = kStartUs, qint64 durationUs = 2000000, const char *process = "p1")
{
    QByteArray s = R"({"traceID":")" + QByteArray(kTrace) + R"(","spanID":")" + spanId + R"(","operationName":")" + name
                   + R"(","references":[)";
    if (*parent)
        s += R"({"refType":"CHILD_OF","traceID":")" + QByteArray(kTrace) + R"(","spanID":")" + parent + R"("})";
    s += R"(],"startTime":)" + QByteArray::number(startUs) + R"(,"duration":)" + QByteArray::number(durationUs)
         + R"(,"tags":[)" + tags + R"(],"logs":[],"processID":")" + process + '"' + extra + "}";
    return s;
}

/// One trace object of the query API's `data`.
QByteArray trace(const QByteArray &spans, const char *traceId = kTrace)
{
    return R"({"traceID":")" + QByteArray(traceId) + R"(","spans":[)" + spans
           + R"(],"processes":{"p1":{"serviceName":"vllm","tags":[]},"p2":{"serviceName":"gateway","tags":[]}},"warnings":null})";
}

/// The query API's answer (and the UI's download): `{"data":[trace, ...]}`, pretty enough to span lines.
QByteArray document(const QByteArray &traces)
{
    return "{\n  \"data\": [\n    " + traces + "\n  ],\n  \"total\": 0, \"limit\": 0, \"offset\": 0, \"errors\": null\n}\n";
}

const QByteArray kVllmTags = tag("gen_ai.request.id", "string", R"("cmpl-1")") + ','
    + tag("gen_ai.response.model", "string", R"("llama-3.1-8b")") + ',' + tag("gen_ai.usage.prompt_tokens", "int64", "100") + ','
    + tag("gen_ai.usage.completion_tokens", "int64", "11") + ',' + tag("gen_ai.latency.time_in_queue", "float64", "0.01") + ','
    + tag("gen_ai.latency.time_to_first_token", "float64", "0.05") + ',' + tag("gen_ai.latency.time_in_model_prefill", "float64", "0.03")
    + ',' + tag("gen_ai.latency.time_in_model_decode", "float64", "0.9") + ',' + tag("gen_ai.latency.e2e", "float64", "1.0");

// source id, span name, service, mapping, network..unattributed, e2e, scope, dominant, flags, start relative to kStartUs.
constexpr const char *kRequestSql =
    "SELECT source_id, json_extract(attributes, '$.\"span.name\"'), json_extract(attributes, '$.\"service.name\"'),"
    " json_extract(attributes, '$.mapping'), network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns,"
    " unattributed_ns, e2e_ns, scope_name, dominant_name, flags, start_ns - 1700000000000000000 FROM requests_readable ORDER BY id";

constexpr const char *kIdentitySql =
    "SELECT source_id, status_name, model, input_tokens, output_tokens, source_line, attributes FROM requests_readable ORDER BY id";

/// The vLLM figures of kVllmTags: preprocess 10 ms (TTFT − queue − prefill), queue 10, prefill 30, decode 900,
/// unattributed 50, e2e 1 s.
const QString kVllmFigures = QStringLiteral("NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|decode|2|0");

} // namespace

class TestJaegerReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sniffing_data();
    void sniffing();
    void requests_data();
    void requests();
    void identity_data();
    void identity();
    void rejections_data();
    void rejections();
    void unreadable_data();
    void unreadable();
    void realFiles_data();
    void realFiles();

private:
    Imported importOne(const QString &name, const QByteArray &content, const lx::ImportOptions &options = {})
    {
        Imported result;
        result.store = lx::Store::openTemporary(&result.error);
        if (result.store)
            result.files = lx::importFiles(*result.store, {lxtest::writeFile(m_dir, name, content)}, options);
        return result;
    }
    QTemporaryDir m_dir;
};

void TestJaegerReader::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("format"); // what sniffFormat() picks, empty for none

    QTest::newRow("query API answer") << document(trace(span("a", "0000000000000001", "", ""))) << QStringLiteral("jaeger-json");
    QTest::newRow("one trace object, as the UI downloads it")
        << trace(span("a", "0000000000000001", "", "")) << QStringLiteral("jaeger-json");
    QTest::newRow("a trace with no span yet") << QByteArray(R"({"data":[{"traceID":"1","spans":[]}]})") << QStringLiteral("jaeger-json");
    QTest::newRow("native JSONL with a traceID attribute")
        << QByteArray(R"({"id":"r1","start_ns":1,"e2e_ms":2,"traceID":"1","spans":3})" "\n") << QStringLiteral("jsonl");
    QTest::newRow("OTLP/JSON") << QByteArray(R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"1"}]}]}]})")
                               << QStringLiteral("otlp-json");
    QTest::newRow("Zipkin v2 (traceId, not traceID)") << QByteArray(R"([{"traceId":"1","id":"2"}])") << QStringLiteral("zipkin-json");
    // Nothing in it says Jaeger: a one-line object is then the native reader's (which rejects it), as any is.
    QTest::newRow("an empty query answer is not sniffed as Jaeger") << QByteArray(R"({"data":[],"total":0})") << QStringLiteral("jsonl");
}

void TestJaegerReader::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, format);
    std::string why;
    const lx::TraceFormat *f = lx::sniffFormat(std::string_view(head.constData(), head.size()), &why);
    QCOMPARE(f ? QString::fromLatin1(f->name.data(), qsizetype(f->name.size())) : QString(), format);
}

void TestJaegerReader::requests_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mapping"); // ImportOptions::spanMapping; empty: auto
    QTest::addColumn<QString>("expected"); // see kRequestSql, a row per request

    const QByteArray gateway = span("POST /v1/chat/completions", "0000000000000001", "", tag("span.kind", "string", R"("server")"), {},
                                    kStartUs, 1200000, "p2");
    const QByteArray llm = span("llm_request", "0000000000000002", "0000000000000001", kVllmTags, {}, kStartUs + 100000, 1000000);
    QTest::newRow("vLLM llm_request, typed tags") << document(trace(span("llm_request", "0000000000000002", "", kVllmTags)))
        << QString() << QStringLiteral("cmpl-1|llm_request|vllm|vllm|") + kVllmFigures;
    QTest::newRow("one trace object alone: the same") << trace(span("llm_request", "0000000000000002", "", kVllmTags))
        << QString() << QStringLiteral("cmpl-1|llm_request|vllm|vllm|") + kVllmFigures;
    QTest::newRow("the LLM span under a gateway root is the request") << document(trace(gateway + ',' + llm)) << QString()
        << QStringLiteral("cmpl-1|llm_request|vllm|vllm|NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|decode|2|100000000");
    // docs/OTLP.md's http-gateway example, as Jaeger spans: network 100 ms, postprocess 100 ms, e2e the gateway's 1.2 s.
    QTest::newRow("http-gateway: network and postprocess from the gateway span") << document(trace(gateway + ',' + llm))
        << QStringLiteral("http-gateway")
        << QStringLiteral("cmpl-1|POST /v1/chat/completions|gateway|http-gateway|100000000|10000000|10000000|30000000|900000000|100000000|50000000|1200000000|client|decode|2|0");
    // The LLM server's clock is 50 ms behind the gateway's: its span starts before its parent. The negative gap
    // is not measured (docs/OTLP.md), as for OTLP spans; the rest of the request stands (its scope is the
    // server's, as without a measured network).
    QTest::newRow("clock skew: a child starting before its parent leaves network not measured")
        << document(trace(gateway + ',' + span("llm_request", "0000000000000002", "0000000000000001", kVllmTags, {}, kStartUs - 50000, 1050000)))
        << QStringLiteral("http-gateway")
        << QStringLiteral("cmpl-1|POST /v1/chat/completions|gateway|http-gateway|NULL|10000000|10000000|30000000|900000000|200000000|50000000|1200000000|server|decode|2|0");
    // Flag 16: no mapping claimed the span; its 2 s are unattributed for want of a mapping.
    QTest::newRow("a trace no mapping claims: its root's duration, unattributed")
        << document(trace(span("GET /cart", "0000000000000001", "", "") + ',' + span("SELECT cart", "0000000000000002", "0000000000000001", "")))
        << QString() << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QByteArray followsFrom = span("async", "0000000000000002", "", "");
    followsFrom.replace(R"("references":[])", R"("references":[{"refType":"FOLLOWS_FROM","spanID":"0000000000000001"}])");
    QTest::newRow("FOLLOWS_FROM makes a parent when there is no CHILD_OF (the reference's trace is the span's)")
        << document(trace(span("GET /cart", "0000000000000001", "", "") + ',' + followsFrom)) << QString()
        << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QByteArray link = span("consumer", "0000000000000002", "", "");
    link.replace(R"("references":[])", R"("references":[{"refType":"CHILD_OF","traceID":"00000000000000000000000000000abc","spanID":"0000000000000001"}])");
    QTest::newRow("a reference into another trace is a link: the span is a root")
        << document(trace(span("GET /cart", "0000000000000001", "", "") + ',' + link)) << QString()
        << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0\n"
                          "0000000000000002|consumer|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QTest::newRow("a parent not in the file makes a root") << document(trace(span("orphan", "0000000000000005", "00000000000000ff", "")))
        << QString() << QStringLiteral("0000000000000005|orphan|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QTest::newRow("two traces in data") << document(trace(span("llm_request", "0000000000000002", "", kVllmTags)) + ','
                                                    + trace(span("GET /", "0000000000000009", "", ""), "0af7651916cd43dd8448eb211c80319c"))
        << QString()
        << QStringLiteral("cmpl-1|llm_request|vllm|vllm|") + kVllmFigures
               + QStringLiteral("\n0000000000000009|GET /|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QTest::newRow("times as decimal strings and fractional µs")
        << document(trace(span("x", "0000000000000001", "", "")).replace(R"("startTime":1700000000000000)", R"("startTime":"1700000000000000")")
                        .replace(R"("duration":2000000)", R"("duration":0.5)"))
        << QString() << QStringLiteral("0000000000000001|x|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|500|500|server|unattributed|18|0");
}

void TestJaegerReader::requests()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, mapping);
    QFETCH(QString, expected);
    lx::ImportOptions options;
    options.spanMapping = mapping.toStdString();
    const Imported imported = importOne(QStringLiteral("trace.json"), content, options);
    QVERIFY(imported.store);
    QCOMPARE(imported.files.size(), std::size_t(1));
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.format == "jaeger-json" && f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), kRequestSql), expected);
}

void TestJaegerReader::identity_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // see kIdentitySql

    QTest::newRow("vLLM: request id, response model, tokens") << document(trace(span("llm_request", "0000000000000002", "", kVllmTags)))
        << QStringLiteral(R"(cmpl-1|ok|llama-3.1-8b|100|11|1|{"span.name":"llm_request","service.name":"vllm","trace_id":"5b8efff798038103d269b633813fc60c","mapping":"vllm"})");
    QTest::newRow("error tag true is an error; upper-case ids") << document(trace(span("x", "00000000000000AB", "", tag("error", "bool", "true"))))
        << QStringLiteral(R"(00000000000000ab|error|NULL|NULL|NULL|1|{"span.name":"x","service.name":"vllm","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("otel.status_code ERROR is an error") << document(trace(span("x", "0000000000000001", "", tag("otel.status_code", "string", R"("ERROR")"))))
        << QStringLiteral(R"(0000000000000001|error|NULL|NULL|NULL|1|{"span.name":"x","service.name":"vllm","trace_id":"5b8efff798038103d269b633813fc60c"})");
    // Jaeger prints a 128-bit trace id's high half without its leading zeros: 17 digits here.
    QByteArray shortTrace = trace(span("x", "1", "", ""), "1b8efff798038103d");
    shortTrace.replace(QByteArray(R"("traceID":")") + kTrace + '"', R"("traceID":"1b8efff798038103d")");
    QTest::newRow("ids without leading zeros are padded") << document(shortTrace)
        << QStringLiteral(R"(0000000000000001|ok|NULL|NULL|NULL|1|{"span.name":"x","service.name":"vllm","trace_id":"0000000000000001b8efff798038103d"})");
    QTest::newRow("a process inside the span, token counts as strings")
        << document(trace(span("chat", "0000000000000001", "", tag("gen_ai.request.model", "string", R"("m")") + ',' + tag("gen_ai.usage.input_tokens", "string", R"("5")"),
                               R"(,"process":{"serviceName":"api"})")))
        << QStringLiteral(R"(0000000000000001|ok|m|5|NULL|1|{"span.name":"chat","service.name":"api","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("a processID not in processes: no service")
        << document(trace(span("x", "0000000000000001", "", "", {}, kStartUs, 2000000, "p9")))
        << QStringLiteral(R"(0000000000000001|ok|NULL|NULL|NULL|1|{"span.name":"x","trace_id":"5b8efff798038103d269b633813fc60c"})");
}

void TestJaegerReader::identity()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("identity.json"), content);
    QVERIFY(imported.store);
    QVERIFY2(imported.files[0].accepted == 1 && imported.files[0].rejected == 0, describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), kIdentitySql), expected);
}

void TestJaegerReader::rejections_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<QString>("expected"); // line (the span's ordinal in the document)|reason of every rejection

    const QByteArray good = span("ok", "0000000000000001", "", "");
    const auto bad = [](const char *from, const char *to) {
        QByteArray s = span("bad", "00000000000000bb", "", "", {}, kStartUs, 2000000);
        s.replace(from, to);
        if (!s.contains(to))
            qFatal("fixture: %s not found", from);
        return s;
    };
    const auto row = [&](const char *name, const QByteArray &badSpan, const QString &reason) {
        QTest::newRow(name) << document(trace(good + ',' + badSpan)) << qint64(1) << QStringLiteral("2|") + reason;
    };
    row("no spanID", bad(R"("spanID":"00000000000000bb",)", ""), QStringLiteral(R"(span "bad": no spanID)"));
    row("spanID not hex", bad(R"("spanID":"00000000000000bb")", R"("spanID":"xyz")"),
        QStringLiteral(R"(span "bad": spanID "xyz" is not 1 to 16 hex digits)"));
    row("spanID too long", bad(R"("spanID":"00000000000000bb")", R"("spanID":"00000000000000bb0")"),
        QStringLiteral(R"(span "bad": spanID "00000000000000bb0" is not 1 to 16 hex digits)"));
    row("traceID not hex", bad(QByteArray(R"("traceID":")") + kTrace + '"', R"("traceID":"trace-1")"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): traceID "trace-1" is not 1 to 32 hex digits)"));
    row("no startTime", bad(R"("startTime":1700000000000000,)", ""), QStringLiteral(R"(span "bad" (span id 00000000000000bb): no startTime)"));
    row("no duration", bad(R"(,"duration":2000000)", ""), QStringLiteral(R"(span "bad" (span id 00000000000000bb): no duration)"));
    row("startTime past 2262", bad(R"("startTime":1700000000000000)", R"("startTime":9300000000000000)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): startTime 9300000000000000 is outside the times that can be held )"
                       "(1677-09-21 to 2262-04-11, int64 ns since 1970)"));
    row("startTime past int64 µs", bad(R"("startTime":1700000000000000)", R"("startTime":18446744073709551615)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): startTime 18446744073709551615 is outside the times that can be held )"
                       "(1677-09-21 to 2262-04-11, int64 ns since 1970)"));
    row("start plus duration past 2262", bad(R"("startTime":1700000000000000,"duration":2000000)", R"("startTime":9200000000000000,"duration":100000000000000)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): startTime + duration 9200000000000000 + 100000000000000 µs is outside the times )"
                       "that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)"));
    row("duration too large", bad(R"("duration":2000000)", R"("duration":1e300)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): duration 1e+300 is too large a duration (at most 292 years in int64 ns))"));
    row("negative duration", bad(R"("duration":2000000)", R"("duration":-5)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): duration -5 is negative)"));
    row("startTime not a number", bad(R"("startTime":1700000000000000)", R"("startTime":"soon")"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): startTime "soon" is not a number of microseconds)"));
    row("an unknown refType", bad(R"("references":[])", R"("references":[{"refType":"SIBLING_OF","spanID":"0000000000000001"}])"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): references[0].refType "SIBLING_OF" is neither CHILD_OF nor FOLLOWS_FROM)"));
    row("a reference without spanID", bad(R"("references":[])", R"("references":[{"refType":"CHILD_OF"}])"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): references[0] has no spanID)"));
    row("a reference whose spanID is not hex", bad(R"("references":[])", R"("references":[{"refType":"CHILD_OF","spanID":"parent"}])"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): references[0].spanID "parent" is not 1 to 16 hex digits)"));
    row("references not an array", bad(R"("references":[])", R"("references":{})"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): references is not an array)"));
    row("an unknown span.kind", bad(R"("tags":[])", R"("tags":[{"key":"span.kind","type":"string","value":"sideways"}])"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): span.kind tag "sideways" is none of server, client, producer, consumer, internal)"));
    row("a latency tag that is no number", bad(R"("tags":[])", R"("tags":[{"key":"gen_ai.latency.e2e","type":"string","value":"fast"}])"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): gen_ai.latency.e2e is not a number)"));
    row("a span that is no object", "42", QStringLiteral("a span that is not a JSON object"));
    QTest::newRow("no traceID in the span nor in its trace")
        << document(QByteArray(R"({"spans":[)") + good + ',' + bad(QByteArray(R"("traceID":")") + kTrace + R"(",)", "") + "]}")
        << qint64(1) << QStringLiteral(R"(2|span "bad" (span id 00000000000000bb): no traceID)");
    QTest::newRow("a trace that is no object; the next trace's spans are numbered on")
        << document("7," + trace(good)) << qint64(1) << QStringLiteral(R"(1|a trace that is not an object with a "spans" array)");
    QTest::newRow("the same span twice: duplicate id") << document(trace(good + ',' + good)) << qint64(1)
        << QStringLiteral(R"(2|duplicate id "0000000000000001" (already used earlier in this file))");
}

void TestJaegerReader::rejections()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, accepted);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("bad.json"), content);
    QVERIFY(imported.store);
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.format == "jaeger-json" && f.outcome == lx::FileImport::Outcome::Complete && f.accepted == accepted, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line"), expected);
}

void TestJaegerReader::unreadable_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("maxDocumentBytes"); // 0: the default (512 MiB)
    QTest::addColumn<QString>("message");

    const QByteArray good = document(trace(span("ok", "0000000000000001", "", "")));
    // `{\n  "data": [\n    ` is 18 bytes; the trace's `"spans"` key ends at byte 71, where a ':' should follow.
    QTest::newRow("malformed JSON: a missing comma, with its byte offset and line")
        << QByteArray(good).replace(R"("spans":[)", R"("spans" [)") << qint64(0)
        << QStringLiteral("malformed JSON at byte 72 (line 3): The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.");
    QTest::newRow("malformed JSON: cut off") << good.left(good.size() - 30) << qint64(0)
        << QStringLiteral("malformed JSON at byte");
    QTest::newRow("malformed JSON: something after the document") << good + "]\n" << qint64(0)
        << QStringLiteral("malformed JSON at byte %1 (line 7): Unexpected trailing content").arg(good.size());
    QTest::newRow("malformed JSON: an unclosed string has no offset")
        << QByteArray(R"({"data":[{"traceID":"a","spans":[{"spanID":"1}]}]})") << qint64(0)
        << QStringLiteral("malformed JSON (found before any value was read, so no byte offset is known): ");
    QTest::newRow("no spans") << document(trace("")) << qint64(0) << QStringLiteral("no Jaeger span in this JSON document: nothing to import");
    QTest::newRow("data is not an array") << QByteArray(R"({"data":{"traceID":"1","spans":[]}})") << qint64(0)
        << QStringLiteral(R"(not Jaeger trace JSON: "data" is not an array of traces)");
    QTest::newRow("neither data nor spans") << QByteArray(R"({"traceID":"1","spanID":"2"})") << qint64(0)
        << QStringLiteral(R"(not Jaeger trace JSON: neither a "data" array of traces nor a trace with "spans")");
    QTest::newRow("larger than the document cap") << good << qint64(64) << QStringLiteral("the JSON document is larger than 64 bytes: not read");
}

void TestJaegerReader::unreadable()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, maxDocumentBytes);
    QFETCH(QString, message);
    lx::ImportOptions options;
    options.maxDocumentBytes = std::size_t(maxDocumentBytes);
    const Imported imported = importOne(QStringLiteral("unreadable.json"), content, options);
    QVERIFY(imported.store);
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Unreadable && f.accepted == 0, describe(f).constData());
    QVERIFY2(QString::fromStdString(f.message).startsWith(message), describe(f).constData());
}

void TestJaegerReader::realFiles_data()
{
    QTest::addColumn<QString>("file"); // under LX_REALDATA_DIR
    QTest::addColumn<QString>("expected"); // kRequestSql

    // 57 spans of one agentic trace with gen_ai.* token attributes but no gen_ai.latency.*: no preset claims
    // a span, so the trace is one request, its root's 44 s all unattributed.
    QTest::newRow("jaeger-ui/genaiTestTrace.json") << QStringLiteral("jaeger-ui/genaiTestTrace.json")
        << QStringLiteral("0000000000000001|POST /api/graphql|api-edge|NULL|NULL|NULL|NULL|NULL|NULL|NULL|44000000000|44000000000|server|unattributed|18|70000000001000000");
}

void TestJaegerReader::realFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    // LX_REALDATA overrides the folder beside the repository (as for tests/fuzz/seed_corpora.sh).
    const QString path = QDir(qEnvironmentVariable("LX_REALDATA", QStringLiteral(LX_REALDATA_DIR))).filePath(file);
    if (!QFileInfo::exists(path))
        QSKIP("the real data folder ../shared/realdata is absent");
    const Imported imported = lxtest::importPaths({lxtest::pathOf(path)});
    QVERIFY(imported.store);
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.format == "jaeger-json" && f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), kRequestSql), expected);
    QVERIFY2(f.notice.starts_with("57 spans seen"), f.notice.c_str());
}

QTEST_GUILESS_MAIN(TestJaegerReader)
#include "tst_jaeger_reader.moc"
