// SPDX-License-Identifier: GPL-3.0-or-later
// Span mappings (docs/OTLP.md "From spans to requests" and "Mapping files"): each preset on a small
// hand-written trace, TGI's duration strings, mapping files and their errors, and the rule that the time
// of a trace no mapping claims stays unattributed. Expected values are worked out by hand.

#include "ingest/importer.h"
#include "ingest/formats/otlp/otlp_duration_string.h"
#include "ingest/span_mapping.h"
#include "store/store.h"
#include "test_support.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using lxtest::describe;
using lxtest::dump;
using lxtest::Imported;

namespace {

constexpr qint64 kStartMs = 1700000000000; // every fixture span starts at kStartMs + its own offset

/// An OTLP KeyValue; `value` is the AnyValue's inside, e.g. `"doubleValue":0.5`.
QByteArray kv(const char *key, const QByteArray &value)
{
    return R"({"key":")" + QByteArray(key) + R"(","value":{)" + value + "}}";
}
QByteArray text(const char *key, const char *value) { return kv(key, R"("stringValue":")" + QByteArray(value) + '"'); }
QByteArray seconds(const char *key, double value) { return kv(key, "\"doubleValue\":" + QByteArray::number(value)); }

/// A span from `fromMs` to `toMs` after kStartMs; `kind` 2 is SERVER.
QByteArray span(const char *name, const char *spanId, const char *parentId, int fromMs, int toMs, const QByteArray &attributes = {},
                int kind = 2, const char *traceId = "5b8efff798038103d269b633813fc60c")
{
    QByteArray s = R"({"traceId":")" + QByteArray(traceId) + R"(","spanId":")" + spanId + '"';
    if (*parentId)
        s += R"(,"parentSpanId":")" + QByteArray(parentId) + '"';
    s += R"(,"name":")" + QByteArray(name) + R"(","kind":)" + QByteArray::number(kind) + R"(,"startTimeUnixNano":")"
         + QByteArray::number((kStartMs + fromMs) * 1000000) + R"(","endTimeUnixNano":")" + QByteArray::number((kStartMs + toMs) * 1000000)
         + R"(","attributes":[)" + attributes + "]}";
    return s;
}

/// One ResourceSpans of `service`.
QByteArray resource(const char *service, const QByteArray &spans)
{
    return R"({"resource":{"attributes":[)" + text("service.name", service) + R"(]},"scopeSpans":[{"spans":[)" + spans + "]}]}";
}

/// One TracesData object on a line, as the Collector's file exporter writes it.
QByteArray line(const QByteArray &resources) { return R"({"resourceSpans":[)" + resources + "]}\n"; }

QByteArray vllmAttributes(double e2e = 1.0)
{
    return text("gen_ai.request.id", "cmpl-1") + ',' + seconds("gen_ai.latency.time_in_queue", 0.01) + ','
           + seconds("gen_ai.latency.time_to_first_token", 0.05) + ',' + seconds("gen_ai.latency.time_in_model_prefill", 0.03) + ','
           + seconds("gen_ai.latency.time_in_model_decode", 0.9) + ',' + seconds("gen_ai.latency.e2e", e2e);
}

/// SGLang without the latency attributes: a request span and its stage children (ms offsets).
QByteArray sglangStages()
{
    return span("generate_request", "00000000000000a1", "", 0, 1000) + ',' + span("tokenize", "00000000000000a2", "00000000000000a1", 0, 5, {}, 1)
           + ',' + span("prefill_waiting", "00000000000000a3", "00000000000000a1", 5, 25, {}, 1) + ','
           + span("prefill_forward", "00000000000000a4", "00000000000000a1", 25, 55, {}, 1) + ','
           + span("decode_loop", "00000000000000a5", "00000000000000a1", 55, 955, {}, 1);
}

// id, network..unattributed, e2e, scope, the mapping that claimed it.
constexpr const char *kSql = "SELECT source_id, network_ns / 1000, preprocess_ns / 1000, queue_ns / 1000, prefill_ns / 1000,"
                             " decode_ns / 1000, postprocess_ns / 1000, unattributed_ns / 1000, e2e_ns / 1000, scope_name,"
                             " json_extract(attributes, '$.mapping') FROM requests_readable ORDER BY id";

} // namespace

class TestSpanMapping : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void durationStrings_data();
    void durationStrings();
    void presets_data();
    void presets();
    void rejections_data();
    void rejections();
    void mappingFileErrors_data();
    void mappingFileErrors();
    void mappingFileFromDisk();
    void cliRefusesABadMapping_data();
    void cliRefusesABadMapping();

private:
    Imported importWith(const QByteArray &content, const std::string &mapping)
    {
        Imported imported;
        std::string why;
        imported.store = lx::Store::openTemporary(&why);
        imported.error = why;
        if (!imported.store)
            return imported;
        lx::ImportOptions options;
        options.spanMapping = mapping;
        imported.files = lx::importFiles(*imported.store, {lxtest::writeFile(m_dir, QStringLiteral("spans.jsonl"), content)}, options);
        return imported;
    }
    QTemporaryDir m_dir;
};

void TestSpanMapping::durationStrings_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ns"); // -1: refused

    QTest::newRow("ms with a fraction") << QStringLiteral("12.3ms") << qint64(12300000);
    QTest::newRow("seconds") << QStringLiteral("1.2s") << qint64(1200000000);
    QTest::newRow("µs (micro sign, as Rust writes it)") << QStringLiteral("450\u00B5s") << qint64(450000);
    QTest::newRow("μs (Greek mu)") << QStringLiteral("450\u03BCs") << qint64(450000);
    QTest::newRow("us") << QStringLiteral("450us") << qint64(450000);
    QTest::newRow("ns") << QStringLiteral("15ns") << qint64(15);
    QTest::newRow("zero") << QStringLiteral("0ns") << qint64(0);
    QTest::newRow("nine fraction digits, exact") << QStringLiteral("1.000000001s") << qint64(1000000001);
    QTest::newRow("fraction of a µs") << QStringLiteral("1.5\u00B5s") << qint64(1500);
    QTest::newRow("Go's compound form") << QStringLiteral("1m30.5s") << qint64(90500000000);
    QTest::newRow("hours") << QStringLiteral("2h") << qint64(7200000000000);
    QTest::newRow("bad: empty") << QString() << qint64(-1);
    QTest::newRow("bad: no unit") << QStringLiteral("12") << qint64(-1);
    QTest::newRow("bad: no number") << QStringLiteral("ms") << qint64(-1);
    QTest::newRow("bad: nothing after the point") << QStringLiteral("12.ms") << qint64(-1);
    QTest::newRow("bad: negative") << QStringLiteral("-1s") << qint64(-1);
    QTest::newRow("bad: a space") << QStringLiteral("1 s") << qint64(-1);
    QTest::newRow("bad: two points") << QStringLiteral("1.2.3s") << qint64(-1);
    QTest::newRow("bad: unknown unit") << QStringLiteral("12parsecs") << qint64(-1);
    QTest::newRow("bad: exponent") << QStringLiteral("1e3ms") << qint64(-1);
    QTest::newRow("bad: trailing text") << QStringLiteral("12msx") << qint64(-1);
    QTest::newRow("bad: overflow") << QStringLiteral("99999999999h") << qint64(-1);
}

void TestSpanMapping::durationStrings()
{
    QFETCH(QString, text);
    QFETCH(qint64, ns);
    const QByteArray utf8 = text.toUtf8();
    const auto parsed = lx::otlp::parseDurationString(std::string_view(utf8.constData(), utf8.size()));
    QCOMPARE(parsed ? qint64(*parsed) : qint64(-1), ns);
}

void TestSpanMapping::presets_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mapping"); // ImportOptions::spanMapping
    QTest::addColumn<QString>("expected"); // kSql, times in µs

    const QByteArray vllm = line(resource("vllm", span("llm_request", "eee19b7ec3c1b174", "", 0, 2000, vllmAttributes())));
    const QString vllmRow = QStringLiteral("cmpl-1|NULL|10000|10000|30000|900000|NULL|50000|1000000|server|%1");
    QTest::newRow("auto: vLLM") << vllm << QString() << vllmRow.arg(QStringLiteral("vllm"));
    QTest::newRow("vllm") << vllm << QStringLiteral("vllm") << vllmRow.arg(QStringLiteral("vllm"));
    QTest::newRow("sglang: the same keys") << vllm << QStringLiteral("sglang") << vllmRow.arg(QStringLiteral("sglang"));
    // tokenize 5 ms, waiting 20 ms, prefill 30 ms, decode 900 ms of a 1 s span: 45 ms no stage covers.
    QTest::newRow("auto: SGLang stage spans") << line(resource("sglang", sglangStages())) << QString()
        << QStringLiteral("00000000000000a1|NULL|5000|20000|30000|900000|NULL|45000|1000000|server|sglang");
    QTest::newRow("vllm does not claim SGLang's stages: one request, all unattributed")
        << line(resource("sglang", sglangStages())) << QStringLiteral("vllm")
        << QStringLiteral("00000000000000a1|NULL|NULL|NULL|NULL|NULL|NULL|1000000|1000000|server|NULL");
    // TGI's fields win over its children; total_time is the e2e; inference (prefill and decode) stays unattributed.
    const QByteArray tgiFields = text("validation_time", "2ms") + ',' + text("queue_time", "12.3ms") + ','
                                 + text("inference_time", "1.1s") + ',' + text("total_time", "1.2s");
    const QByteArray tgiChildren = ',' + span("queued", "00000000000000b2", "00000000000000b1", 3, 23, {}, 1) + ','
                                   + span("infer", "00000000000000b3", "00000000000000b1", 23, 1500, {}, 1);
    QTest::newRow("auto: TGI fields") << line(resource("tgi", span("generate", "00000000000000b1", "", 0, 2000, tgiFields) + tgiChildren))
        << QString() << QStringLiteral("00000000000000b1|NULL|2000|12300|NULL|NULL|NULL|1185700|1200000|server|tgi");
    QTest::newRow("tgi: children when the fields are absent")
        << line(resource("tgi", span("generate_stream", "00000000000000b1", "", 0, 2000) + tgiChildren)) << QStringLiteral("tgi")
        << QStringLiteral("00000000000000b1|NULL|NULL|20000|NULL|NULL|NULL|1980000|2000000|server|tgi");
    QTest::newRow("tgi: chat_completions, µs") << line(resource("tgi", span("chat_completions", "00000000000000b1", "", 0, 2000,
                                                                             text("queue_time", "450\u00B5s"))))
        << QStringLiteral("tgi") << QStringLiteral("00000000000000b1|NULL|NULL|450|NULL|NULL|NULL|1999550|2000000|server|tgi");
    // Gateway 0-1200 ms (what the client waits for), the vLLM span 100-1100 ms inside it: network is the
    // 100 ms before, postprocess the 100 ms after, the LLM span's own segments come from its attributes.
    const QByteArray gateway = line(resource("gateway", span("POST /v1/chat/completions", "00000000000000c1", "", 0, 1200)) + ','
                                    + resource("vllm", span("llm_request", "00000000000000c2", "00000000000000c1", 100, 1100, vllmAttributes())));
    QTest::newRow("http-gateway") << gateway << QStringLiteral("http-gateway")
        << QStringLiteral("cmpl-1|100000|10000|10000|30000|900000|100000|50000|1200000|client|http-gateway");
    QTest::newRow("auto on the same trace: the vLLM span is the request, the gateway's time is not counted twice")
        << gateway << QString() << QStringLiteral("cmpl-1|NULL|10000|10000|30000|900000|NULL|50000|1000000|server|vllm");
    QTest::newRow("http-gateway: a server span of another service is the LLM span")
        << line(resource("gateway", span("ingress", "00000000000000c1", "", 0, 1200)) + ','
                + resource("llm", span("POST /generate", "00000000000000c2", "00000000000000c1", 250, 1000)))
        << QStringLiteral("http-gateway")
        << QStringLiteral("00000000000000c1|250000|NULL|NULL|NULL|NULL|200000|750000|1200000|client|http-gateway");
    QTest::newRow("http-gateway: no LLM span below, nothing guessed")
        << line(resource("gateway", span("ingress", "00000000000000c1", "", 0, 1200) + ','
                                        + span("auth", "00000000000000c2", "00000000000000c1", 0, 100, {}, 1)))
        << QStringLiteral("http-gateway") << QStringLiteral("00000000000000c1|NULL|NULL|NULL|NULL|NULL|NULL|1200000|1200000|server|http-gateway");
    QTest::newRow("a trace no mapping claims: its root, all unattributed")
        << line(resource("web", span("GET /health", "00000000000000d1", "", 0, 300) + ',' + span("db", "00000000000000d2", "00000000000000d1", 10, 200, {}, 3)))
        << QStringLiteral("tgi") << QStringLiteral("00000000000000d1|NULL|NULL|NULL|NULL|NULL|NULL|300000|300000|server|NULL");
    QTest::newRow("a child exported in an earlier line than its root: one trace")
        << line(resource("sglang", span("decode_loop", "00000000000000a5", "00000000000000a1", 55, 955, {}, 1)))
               + line(resource("sglang", span("generate_request", "00000000000000a1", "", 0, 1000)))
        << QStringLiteral("sglang") << QStringLiteral("00000000000000a1|NULL|NULL|NULL|NULL|900000|NULL|100000|1000000|server|sglang");
    // The root's line ended its trace; a child after it is a root of its own (docs/OTLP.md, Limits).
    QTest::newRow("a child in a later line than its root: a request of its own")
        << line(resource("sglang", span("generate_request", "00000000000000a1", "", 0, 1000)))
               + line(resource("sglang", span("decode_loop", "00000000000000a5", "00000000000000a1", 55, 955, {}, 1)))
        << QStringLiteral("sglang")
        << QStringLiteral("00000000000000a1|NULL|NULL|NULL|NULL|NULL|NULL|1000000|1000000|server|NULL\n"
                          "00000000000000a5|NULL|NULL|NULL|NULL|NULL|NULL|900000|900000|server|NULL");
}

void TestSpanMapping::presets()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, mapping);
    QFETCH(QString, expected);
    const Imported imported = importWith(content, mapping.toStdString());
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(dump(imported.store->db(), kSql), expected);
    // Nothing lost: the segments add up to the e2e of every request.
    QCOMPARE(dump(imported.store->db(), "SELECT count(*) FROM requests WHERE coalesce(network_ns, 0) + coalesce(preprocess_ns, 0)"
                                        " + coalesce(queue_ns, 0) + coalesce(prefill_ns, 0) + coalesce(decode_ns, 0)"
                                        " + coalesce(postprocess_ns, 0) + unattributed_ns != e2e_ns"),
             QStringLiteral("0"));
}

void TestSpanMapping::rejections_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<QString>("expected"); // line|reason

    QTest::newRow("tgi: not a duration string")
        << line(resource("tgi", span("generate", "00000000000000b1", "", 0, 2000, text("queue_time", "12.3 parsecs")))) << QStringLiteral("tgi")
        << QStringLiteral(R"(1|span "generate" (span id 00000000000000b1): queue_time "12.3 parsecs" is not a duration such as "12.3ms", "1.2s" or "450µs")");
    QTest::newRow("tgi: total_time below its parts")
        << line(resource("tgi", span("generate", "00000000000000b1", "", 0, 2000, text("queue_time", "2s") + ',' + text("total_time", "1s"))))
        << QStringLiteral("tgi") << QStringLiteral(R"(1|span "generate" (span id 00000000000000b1): total_time is less than the sum of the measured segments)");
    QTest::newRow("sglang: stage spans longer than the request")
        << line(resource("sglang", span("req", "00000000000000a1", "", 0, 100) + ',' + span("decode_loop", "00000000000000a5", "00000000000000a1", 0, 200, {}, 1)))
        << QStringLiteral("sglang") << QStringLiteral(R"(1|span "req" (span id 00000000000000a1): the span's duration is less than the sum of the measured segments)");
}

void TestSpanMapping::rejections()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, mapping);
    QFETCH(QString, expected);
    const Imported imported = importWith(content, mapping.toStdString());
    QVERIFY2(imported.store, imported.error.c_str());
    QVERIFY2(imported.files[0].accepted == 0, describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line"), expected);
}

void TestSpanMapping::mappingFileErrors_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error"); // empty: valid

    QTest::newRow("valid, one mapping") << QByteArray(R"({"name":"m","root":[{"name":"x"}]})") << QString();
    QTest::newRow("valid, a list of two") << QByteArray(R"([{"root":[{"attribute":"a"}]},{"root":[{"kind":"server","parent":"none"}]}])")
                                          << QString();
    QTest::newRow("malformed JSON") << QByteArray("{\"root\": [") << QStringLiteral("malformed JSON");
    QTest::newRow("no root") << QByteArray(R"({"name":"m"})") << QStringLiteral("no \"root\" selectors");
    QTest::newRow("unknown key") << QByteArray(R"({"root":[{"name":"x"}],"segmentz":{}})") << QStringLiteral("unknown key \"segmentz\"");
    QTest::newRow("unknown selector key") << QByteArray(R"({"root":[{"nam":"x"}]})") << QStringLiteral("unknown key \"nam\" in a span selector");
    QTest::newRow("unknown kind") << QByteArray(R"({"root":[{"kind":"servr"}]})") << QStringLiteral("invalid value of \"kind\"");
    QTest::newRow("unknown segment") << QByteArray(R"({"root":[{"name":"x"}],"segments":{"prefil":[]}})")
                                     << QStringLiteral("unknown segment \"prefil\"");
    QTest::newRow("unknown unit") << QByteArray(R"({"root":[{"name":"x"}],"segments":{"queue":[{"attribute":"q","unit":"min"}]}})")
                                  << QStringLiteral("\"queue\": invalid value of \"unit\"");
    QTest::newRow("two kinds in one source")
        << QByteArray(R"({"root":[{"name":"x"}],"segments":{"queue":[{"attribute":"q","spans":["w"]}]}})") << QStringLiteral("exactly one of");
    QTest::newRow("before without inner") << QByteArray(R"({"root":[{"name":"x"}],"segments":{"network":[{"before":"inner"}]}})")
                                          << QStringLiteral("need \"inner\" selectors");
    QTest::newRow("minus of a subtracting segment")
        << QByteArray(R"({"root":[{"name":"x"}],"segments":{"queue":[{"attribute":"q","minus":["prefill"]}],"prefill":[{"attribute":"p","minus":["queue"]}]}})")
        << QStringLiteral("which subtracts itself");
    QTest::newRow("second mapping of a list") << QByteArray(R"([{"root":[{"name":"x"}]},{"root":7}])") << QStringLiteral("mapping 2: \"root\" is not an array");
}

void TestSpanMapping::mappingFileErrors()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    std::string why;
    const auto mappings = lx::parseSpanMappingJson(std::string_view(json.constData(), json.size()), &why);
    QCOMPARE(bool(mappings), error.isEmpty());
    QVERIFY2(QString::fromStdString(why).contains(error), why.c_str());
}

void TestSpanMapping::mappingFileFromDisk()
{
    // Every preset loads; auto is vllm, sglang and tgi in that order.
    std::string why;
    for (std::string_view name : lx::spanMappingPresetNames())
        QVERIFY2(lx::loadSpanMappings(std::string(name), &why), why.c_str());
    const auto automatic = lx::loadSpanMappings("auto", &why);
    QVERIFY(automatic && automatic->size() == 3);
    QCOMPARE(QString::fromStdString((*automatic)[0].name + ',' + (*automatic)[1].name + ',' + (*automatic)[2].name),
             QStringLiteral("vllm,sglang,tgi"));

    // A service of one's own: the root by attribute, segments from attributes in ms and a child span.
    const QByteArray mapping = R"({"name": "mine", "root": [{"attribute": "app.request"}],
        "segments": {"queue": [{"attribute": "app.wait_ms", "unit": "ms"}], "decode": [{"spans": ["generate"]}]}})";
    const std::string file = lxtest::writeFile(m_dir, QStringLiteral("mine.json"), mapping);
    const QByteArray content = line(resource("app", span("handle", "00000000000000e1", "", 0, 1000,
                                                         text("app.request", "r") + ',' + kv("app.wait_ms", R"("intValue":"40")"))
                                                        + ',' + span("generate", "00000000000000e2", "00000000000000e1", 100, 900, {}, 1)));
    const Imported imported = importWith(content, file);
    QVERIFY2(imported.store && imported.files[0].accepted == 1, describe(imported.files[0]).constData());
    QCOMPARE(dump(imported.store->db(), kSql), QStringLiteral("00000000000000e1|NULL|NULL|40000|NULL|800000|NULL|160000|1000000|server|mine"));

    // An e2e summed from child spans, with no segment summed: the children are read for it too (the e2e
    // used to fall back to the span's duration, 1 s, where push-down summed them).
    const QByteArray summed = R"({"name": "sum", "root": [{"attribute": "app.request"}], "e2e": [{"spans": ["generate"]}]})";
    const Imported e2eOfSpans = importWith(content, lxtest::writeFile(m_dir, QStringLiteral("sum.json"), summed));
    QVERIFY2(e2eOfSpans.store && e2eOfSpans.files[0].accepted == 1, describe(e2eOfSpans.files[0]).constData());
    QCOMPARE(dump(e2eOfSpans.store->db(), kSql), QStringLiteral("00000000000000e1|NULL|NULL|NULL|NULL|NULL|NULL|800000|800000|server|sum"));

    // A trace of spans the file's mapping does not claim: imported unattributed, and the import says so,
    // naming the mapping tried and nothing else.
    const QByteArray other = line(resource("shop", span("GET /cart", "00000000000000e3", "", 0, 200)));
    const Imported unclaimed = importWith(other, file);
    QVERIFY2(unclaimed.store && unclaimed.files[0].accepted == 1, describe(unclaimed.files[0]).constData());
    QVERIFY2(unclaimed.files[0].notice.find("1 span seen (names: GET /cart); no span mapping claimed it (tried: mine)") == 0,
             unclaimed.files[0].notice.c_str());
    QVERIFY(imported.files[0].notice.empty());

    // A file that does not load: every file of the import is unreadable, with the reason naming the file.
    const std::string bad = lxtest::writeFile(m_dir, QStringLiteral("bad.json"), R"({"root": []})");
    const Imported refused = importWith(content, bad);
    QVERIFY(refused.store);
    QCOMPARE(int(refused.files[0].outcome), int(lx::FileImport::Outcome::Unreadable));
    QCOMPARE(QString::fromStdString(refused.files[0].message),
             QStringLiteral("mapping file %1: no \"root\" selectors: a mapping must say which span is the request").arg(QString::fromStdString(bad)));
    QVERIFY(!lx::loadSpanMappings("no-such-preset", &why));
    QVERIFY2(why.find("mapping file no-such-preset: no such preset (auto, vllm, sglang, tgi, http-gateway) and no readable file") == 0, why.c_str());
}

void TestSpanMapping::cliRefusesABadMapping_data()
{
    QTest::addColumn<QString>("command");
    QTest::newRow("import") << QStringLiteral("import");
    QTest::newRow("report") << QStringLiteral("report");
}

void TestSpanMapping::cliRefusesABadMapping()
{
    QFETCH(QString, command);
    const QString cli = QStringLiteral(LX_CLI_PATH);
    if (!QFileInfo::exists(cli))
        QSKIP("latency-explorer-cli is not built");
    const std::string bad = lxtest::writeFile(m_dir, QStringLiteral("broken.json"), "{\"root\": [");
    const std::string trace = lxtest::writeFile(m_dir, QStringLiteral("t.jsonl"), line(resource("x", span("a", "00000000000000f1", "", 0, 1))));
    QStringList args{command, QStringLiteral("--mapping"), QString::fromStdString(bad), QString::fromStdString(trace)};
    if (command == QLatin1String("import"))
        args << QStringLiteral("--db") << m_dir.filePath(QStringLiteral("out.lxdb"));
    QProcess process;
    process.start(cli, args);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 2);
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.startsWith(command + QStringLiteral(": mapping file ") + QString::fromStdString(bad) + QStringLiteral(": malformed JSON")),
             qPrintable(err));
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("out.lxdb"))));
}

QTEST_GUILESS_MAIN(TestSpanMapping)
#include "tst_span_mapping.moc"
