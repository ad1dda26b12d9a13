// SPDX-License-Identifier: GPL-3.0-or-later
// Zipkin v2 JSON through the zipkin-json reader, from file to store (docs/SPANS.md). The spans become
// requests through the same span mappings as OTLP's (docs/OTLP.md), so the expected figures are those of
// tst_otlp_json_reader for the same spans. Zipkin's own ways are covered here: string tags, spans without
// timestamp or duration kept with what they have, and the client and server halves of a call sharing an id.

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

constexpr const char *kTrace = "5b8efff798038103"; // a 64-bit trace id, as Zipkin writes most
constexpr qint64 kStartUs = 1700000000000000;       // every fixture span starts here (µs) unless a row says otherwise

/// A span of service vllm lasting 2 s. `tags` is the inside of the tags object (`"k":"v",...`); `extra`
/// goes inside the span; a negative start or duration leaves that field out.
QByteArray span(const char *name, const char *id, const char *parent, const QByteArray &tags, const QByteArray &extra = {},
                qint64 startUs = kStartUs, qint64 durationUs = 2000000, const char *service = "vllm")
{
    QByteArray s = R"({"traceId":")" + QByteArray(kTrace) + '"';
    if (*parent)
        s += R"(,"parentId":")" + QByteArray(parent) + '"';
    s += R"(,"id":")" + QByteArray(id) + R"(","name":")" + name + '"';
    if (startUs >= 0)
        s += R"(,"timestamp":)" + QByteArray::number(startUs);
    if (durationUs >= 0)
        s += R"(,"duration":)" + QByteArray::number(durationUs);
    s += R"(,"localEndpoint":{"serviceName":")" + QByteArray(service) + R"(","ipv4":"10.0.0.1"},"tags":{)" + tags + "}" + extra + "}";
    return s;
}

/// The array of spans Zipkin's API and zipkin-lens take, one span a line.
QByteArray spans(const QByteArray &joined)
{
    return "[\n  " + QByteArray(joined).replace("},{\"traceId\"", "},\n  {\"traceId\"") + "\n]\n";
}

const QByteArray kVllmTags = R"("gen_ai.request.id":"cmpl-1","gen_ai.response.model":"llama-3.1-8b","gen_ai.usage.prompt_tokens":"100",)"
                             R"("gen_ai.usage.completion_tokens":"11","gen_ai.latency.time_in_queue":"0.01",)"
                             R"("gen_ai.latency.time_to_first_token":"0.05","gen_ai.latency.time_in_model_prefill":"0.03",)"
                             R"("gen_ai.latency.time_in_model_decode":"0.9","gen_ai.latency.e2e":"1.0")";

// source id, span name, service, mapping, network..unattributed, e2e, scope, dominant, flags, start relative to kStartUs.
constexpr const char *kRequestSql =
    "SELECT source_id, json_extract(attributes, '$.\"span.name\"'), json_extract(attributes, '$.\"service.name\"'),"
    " json_extract(attributes, '$.mapping'), network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns,"
    " unattributed_ns, e2e_ns, scope_name, dominant_name, flags, start_ns - 1700000000000000000 FROM requests_readable ORDER BY id";

constexpr const char *kIdentitySql =
    "SELECT source_id, status_name, model, input_tokens, output_tokens, source_line, attributes FROM requests_readable ORDER BY id";

const QString kVllmFigures = QStringLiteral("NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|decode|2|0");
const QString kTraceId = QStringLiteral("00000000000000005b8efff798038103");

/// A gateway's SERVER span (0-1.2 s), its CLIENT span calling the LLM server (`clientStartUs`, 1.1 s) and the
/// LLM server's half of that call: the same id, marked shared, `llm_request` with vLLM's tags.
QByteArray gatewayCall(qint64 serverStartUs, qint64 serverDurationUs)
{
    return span("post /v1/chat/completions", "0000000000000001", "", {}, R"(,"kind":"SERVER")", kStartUs, 1200000, "gateway") + ','
           + span("post", "0000000000000002", "0000000000000001", {}, R"(,"kind":"CLIENT")", kStartUs + 50000, 1100000, "gateway") + ','
           + span("llm_request", "0000000000000002", "0000000000000001", kVllmTags, R"(,"kind":"SERVER","shared":true)", serverStartUs,
                  serverDurationUs);
}

} // namespace

class TestZipkinReader : public QObject
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

void TestZipkinReader::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("format"); // what sniffFormat() picks, empty for none

    QTest::newRow("an array of spans") << spans(span("a", "0000000000000001", "", "")) << QStringLiteral("zipkin-json");
    QTest::newRow("an array of traces") << "[" + spans(span("a", "0000000000000001", "", "")) + "]" << QStringLiteral("zipkin-json");
    QTest::newRow("LLMPerf's array of objects") << QByteArray(R"([{"ttft_s":0.1,"end_to_end_latency_s":1.0}])") << QStringLiteral("llmperf");
    QTest::newRow("Jaeger (traceID, an object)") << QByteArray(R"({"data":[{"traceID":"1","spans":[]}]})") << QStringLiteral("jaeger-json");
    QTest::newRow("an empty array: nothing says Zipkin") << QByteArray("[]\n") << QString();
}

void TestZipkinReader::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, format);
    std::string why;
    const lx::TraceFormat *f = lx::sniffFormat(std::string_view(head.constData(), head.size()), &why);
    QCOMPARE(f ? QString::fromLatin1(f->name.data(), qsizetype(f->name.size())) : QString(), format);
}

void TestZipkinReader::requests_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mapping"); // ImportOptions::spanMapping; empty: auto
    QTest::addColumn<QString>("expected"); // see kRequestSql, a row per request

    const QString cart = QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|0");
    QTest::newRow("vLLM llm_request, tags as strings") << spans(span("llm_request", "0000000000000002", "", kVllmTags)) << QString()
        << QStringLiteral("cmpl-1|llm_request|vllm|vllm|") + kVllmFigures;
    QTest::newRow("an array of traces") << "[" + spans(span("llm_request", "0000000000000002", "", kVllmTags)) + "," + spans(span("GET /cart", "0000000000000001", "", "")) + "]"
        << QString() << QStringLiteral("cmpl-1|llm_request|vllm|vllm|") + kVllmFigures + QLatin1Char('\n') + cart;
    QTest::newRow("the server half of a shared call is the LLM request") << spans(gatewayCall(kStartUs + 100000, 1000000)) << QString()
        << QStringLiteral("cmpl-1|llm_request|vllm|vllm|NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|decode|2|100000000");
    // docs/OTLP.md's http-gateway example: the server half is found below the client half, as in OpenTelemetry.
    QTest::newRow("http-gateway: network and postprocess across a shared call") << spans(gatewayCall(kStartUs + 100000, 1000000))
        << QStringLiteral("http-gateway")
        << QStringLiteral("cmpl-1|post /v1/chat/completions|gateway|http-gateway|100000000|10000000|10000000|30000000|900000000|100000000|50000000|1200000000|client|decode|2|0");
    // zipkin-lens's skew.json in small: the server's clock is behind, so its half starts before the client's.
    QTest::newRow("clock skew: a server half starting before its gateway leaves network not measured")
        << spans(gatewayCall(kStartUs - 50000, 1050000)) << QStringLiteral("http-gateway")
        << QStringLiteral("cmpl-1|post /v1/chat/completions|gateway|http-gateway|NULL|10000000|10000000|30000000|900000000|200000000|50000000|1200000000|server|decode|2|0");
    QTest::newRow("a trace no mapping claims: its root's duration, unattributed")
        << spans(span("GET /cart", "0000000000000001", "", "") + ',' + span("SELECT cart", "0000000000000002", "0000000000000001", "")) << QString() << cart;
    QTest::newRow("a child without timestamp or duration is kept in the tree: no second request")
        << spans(span("GET /cart", "0000000000000001", "", "") + ',' + span("cache", "0000000000000002", "0000000000000001", "", {}, -1, -1)
                 + ',' + span("SELECT", "0000000000000003", "0000000000000002", ""))
        << QString() << cart;
    QTest::newRow("a root without duration: a record of its start, no e2e")
        << spans(span("GET /cart", "0000000000000001", "", "", {}, kStartUs, -1)) << QString()
        << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|16|0");
    QTest::newRow("a root without timestamp: its duration, no start")
        << spans(span("GET /cart", "0000000000000001", "", "", {}, -1, 2000000)) << QString()
        << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|unattributed|18|NULL");
    QTest::newRow("a root without either: a record of its id and names") << spans(span("GET /cart", "0000000000000001", "", "", {}, -1, -1))
        << QString() << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|16|NULL");
    QTest::newRow("timestamp and duration 0 are absent, as in Zipkin") << spans(span("GET /cart", "0000000000000001", "", "", {}, 0, 0))
        << QString() << QStringLiteral("0000000000000001|GET /cart|vllm|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|16|NULL");
    // SGLang's stage spans: the queue's span has no duration, so queue is not measured (never a partial sum).
    QTest::newRow("a stage span without duration leaves its segment not measured")
        << spans(span("generate", "0000000000000001", "", "") + ',' + span("tokenize", "0000000000000002", "0000000000000001", "", {}, kStartUs, 10000)
                 + ',' + span("prefill_waiting", "0000000000000003", "0000000000000001", "", {}, kStartUs + 10000, -1) + ','
                 + span("prefill_forward", "0000000000000004", "0000000000000001", "", {}, kStartUs + 50000, 30000) + ','
                 + span("decode_loop", "0000000000000005", "0000000000000001", "", {}, kStartUs + 80000, 900000))
        << QStringLiteral("sglang")
        << QStringLiteral("0000000000000001|generate|vllm|sglang|NULL|10000000|NULL|30000000|900000000|NULL|1060000000|2000000000|server|unattributed|2|0");
}

void TestZipkinReader::requests()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, mapping);
    QFETCH(QString, expected);
    lx::ImportOptions options;
    options.spanMapping = mapping.toStdString();
    const Imported imported = importOne(QStringLiteral("spans.json"), content, options);
    QVERIFY(imported.store);
    QCOMPARE(imported.files.size(), std::size_t(1));
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.format == "zipkin-json" && f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), kRequestSql), expected);
}

void TestZipkinReader::identity_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // see kIdentitySql

    const QString attributes = QStringLiteral(R"({"span.name":"x","service.name":"vllm","trace_id":"00000000000000005b8efff798038103"})");
    QTest::newRow("vLLM: request id, response model, tokens") << spans(span("llm_request", "0000000000000002", "", kVllmTags))
        << QStringLiteral(R"(cmpl-1|ok|llama-3.1-8b|100|11|1|{"span.name":"llm_request","service.name":"vllm","trace_id":"00000000000000005b8efff798038103","mapping":"vllm"})");
    QTest::newRow("an error tag, even empty, is an error") << spans(span("x", "0000000000000001", "", R"("error":"")"))
        << QStringLiteral("0000000000000001|error|NULL|NULL|NULL|1|") + attributes;
    QTest::newRow("upper-case and short ids, a 128-bit trace id")
        << spans(span("x", "AB", "", "").replace(QByteArray(R"("traceId":")") + kTrace + '"', R"("traceId":"5B8EFFF798038103D269B633813FC60C")"))
        << QStringLiteral(R"(00000000000000ab|ok|NULL|NULL|NULL|1|{"span.name":"x","service.name":"vllm","trace_id":"5b8efff798038103d269b633813fc60c"})");
    QTest::newRow("tags as JSON numbers are read too, kind of either case")
        << spans(span("x", "0000000000000001", "", R"("gen_ai.usage.output_tokens":7)", R"(,"kind":"server")"))
        << QStringLiteral("0000000000000001|ok|NULL|NULL|7|1|") + attributes;
    QTest::newRow("a parentId of zeros is no parent") << spans(span("x", "0000000000000001", "0000000000000000", ""))
        << QStringLiteral("0000000000000001|ok|NULL|NULL|NULL|1|") + attributes;
    // Both halves of a call: the client half keeps its place under the id with "-client"; here it is the root.
    QTest::newRow("a client half at the root takes the id with -client")
        << spans(span("x", "0000000000000001", "", "", R"(,"kind":"CLIENT")") + ',' + span("x", "0000000000000001", "", "", R"(,"kind":"SERVER")"))
        << QStringLiteral("0000000000000001-client|ok|NULL|NULL|NULL|1|") + attributes;
}

void TestZipkinReader::identity()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("identity.json"), content);
    QVERIFY(imported.store);
    QVERIFY2(imported.files[0].accepted == 1 && imported.files[0].rejected == 0, describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), kIdentitySql), expected);
}

void TestZipkinReader::rejections_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<QString>("expected"); // line (the span's ordinal in the array)|reason of every rejection

    const QByteArray good = span("ok", "0000000000000001", "", "");
    const auto bad = [](const char *from, const char *to) {
        QByteArray s = span("bad", "00000000000000bb", "", "");
        s.replace(from, to);
        if (!s.contains(to))
            qFatal("fixture: %s not found", from);
        return s;
    };
    const auto row = [&](const char *name, const QByteArray &badSpan, const QString &reason) {
        QTest::newRow(name) << spans(good + ',' + badSpan) << qint64(1) << QStringLiteral("2|") + reason;
    };
    row("no id", bad(R"(,"id":"00000000000000bb")", ""), QStringLiteral(R"(span "bad": no id)"));
    row("id not hex", bad(R"("id":"00000000000000bb")", R"("id":"xyz")"), QStringLiteral(R"(span "bad": id "xyz" is not 1 to 16 hex digits)"));
    row("no traceId", bad(QByteArray(R"("traceId":")") + kTrace + R"(",)", ""), QStringLiteral(R"(span "bad" (span id 00000000000000bb): no traceId)"));
    row("traceId too long", bad(QByteArray(R"("traceId":")") + kTrace + '"', R"("traceId":"5b8efff798038103d269b633813fc60c0")"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): traceId "5b8efff798038103d269b633813fc60c0" is not 1 to 32 hex digits)"));
    row("parentId not hex", bad(R"("id":"00000000000000bb")", R"("parentId":"root","id":"00000000000000bb")"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): parentId "root" is not 1 to 16 hex digits)"));
    row("an unknown kind", bad(R"("tags":{})", R"("tags":{},"kind":"INTERNAL")"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): kind "INTERNAL" is none of CLIENT, SERVER, PRODUCER, CONSUMER)"));
    row("timestamp past 2262", bad(R"("timestamp":1700000000000000)", R"("timestamp":9300000000000000)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): timestamp 9300000000000000 is outside the times that can be held )"
                       "(1677-09-21 to 2262-04-11, int64 ns since 1970)"));
    row("timestamp plus duration past 2262", bad(R"("timestamp":1700000000000000,"duration":2000000)", R"("timestamp":9200000000000000,"duration":100000000000000)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): timestamp + duration 9200000000000000 + 100000000000000 µs is outside the times )"
                       "that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)"));
    row("duration too large", bad(R"("duration":2000000)", R"("duration":9300000000000000)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): duration 9300000000000000 is too large a duration (at most 292 years in int64 ns))"));
    row("negative duration", bad(R"("duration":2000000)", R"("duration":-1)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): duration -1 is negative)"));
    row("timestamp not a number", bad(R"("timestamp":1700000000000000)", R"("timestamp":true)"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): timestamp true is not a number of microseconds)"));
    row("a latency tag that is no number", bad(R"("tags":{})", R"("tags":{"gen_ai.latency.e2e":"fast"})"),
        QStringLiteral(R"(span "bad" (span id 00000000000000bb): gen_ai.latency.e2e is not a number)"));
    row("a span that is no object", "\"span\"", QStringLiteral("a span that is not a JSON object"));
    QTest::newRow("an id repeated, not a client/server pair: the later span is rejected")
        << spans(good + ',' + span("again", "0000000000000001", "", "", R"(,"kind":"CLIENT")")) << qint64(1)
        << QStringLiteral(R"(2|span "again" (span id 0000000000000001): another span of its trace has this id, and the two are not the )"
                          "client and server halves of one call");
}

void TestZipkinReader::rejections()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, accepted);
    QFETCH(QString, expected);
    const Imported imported = importOne(QStringLiteral("bad.json"), content);
    QVERIFY(imported.store);
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.format == "zipkin-json" && f.outcome == lx::FileImport::Outcome::Complete && f.accepted == accepted, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line"), expected);
}

void TestZipkinReader::unreadable_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("maxDocumentBytes"); // 0: the default (512 MiB)
    QTest::addColumn<QString>("message");

    const QByteArray good = spans(span("ok", "0000000000000001", "", "") + ',' + span("ok2", "0000000000000002", "", ""));
    // The second span opens line 3 at byte 188, where a comma (or the closing bracket) should have come.
    QTest::newRow("malformed JSON: a missing comma between spans, with its byte offset and line")
        << QByteArray(good).replace("},\n  {", "}\n  {") << qint64(0)
        << QStringLiteral("malformed JSON at byte 188 (line 3): The JSON document has an improper structure");
    QTest::newRow("malformed JSON: cut off after a span") << good.left(good.size() - 3) << qint64(0)
        << QStringLiteral("malformed JSON at byte %1 (line 3): ").arg(good.size() - 3);
    QTest::newRow("malformed JSON: cut off in a string has no offset") << good.left(good.size() - 10) << qint64(0)
        << QStringLiteral("malformed JSON (found before any value was read, so no byte offset is known): A string is opened, but never closed.");
    QTest::newRow("an empty array: no reader recognises it") << QByteArray("[]\n") << qint64(0)
        << QStringLiteral("a JSON document (an object or an array) that no reader recognises");
    QTest::newRow("larger than the document cap") << good << qint64(100) << QStringLiteral("the JSON document is larger than 100 bytes: not read");
}

void TestZipkinReader::unreadable()
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

void TestZipkinReader::realFiles_data()
{
    QTest::addColumn<QString>("file"); // under LX_REALDATA_DIR
    QTest::addColumn<QString>("expected"); // kRequestSql

    // 16 spans of one trace, three client/server pairs sharing ids: one root, the routing layer's 131.848 ms.
    QTest::newRow("zipkin-lens/yelp.json") << QStringLiteral("zipkin-lens/yelp.json")
        << QStringLiteral("2e8cfb154b59a41f|post /location/update/v4|routing|NULL|NULL|NULL|NULL|NULL|NULL|NULL|131848000|131848000|server|unattributed|18|-128103624762646000");
    // 4 spans, one pair sharing an id, the server half 65 ms before its client (clock skew): one root, "get".
    QTest::newRow("zipkin-lens/skew.json") << QStringLiteral("zipkin-lens/skew.json")
        << QStringLiteral("bf396325699c84bf|get|servicea|NULL|NULL|NULL|NULL|NULL|NULL|NULL|99411000|99411000|server|unattributed|18|-229849995928932000");
}

void TestZipkinReader::realFiles()
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
    QVERIFY2(f.format == "zipkin-json" && f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), kRequestSql), expected);
}

QTEST_GUILESS_MAIN(TestZipkinReader)
#include "tst_zipkin_reader.moc"
