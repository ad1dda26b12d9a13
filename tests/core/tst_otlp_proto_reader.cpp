// SPDX-License-Identifier: GPL-3.0-or-later
// OTLP/protobuf traces through the otlp-proto reader, from file to store (docs/OTLP.md). The fixtures are
// encoded here by hand (tag, length, payload) so that each byte is known; the real traces.pb of
// ../shared/realdata must give the same requests as its traces.jsonl, since both readers share one mapping.

#include "ingest/importer.h"
#include "ingest/formats/otlp/otlp_proto_reader.h"
#include "store/store.h"
#include "test_support.h"
#include "ingest/format_registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using lxtest::describe;
using lxtest::dump;
using lxtest::Imported;

namespace {

constexpr quint64 kStart = 1700000000000000000ULL;
constexpr quint64 kEnd = 1700000002000000000ULL;

QByteArray varint(quint64 v)
{
    QByteArray out;
    do {
        const auto byte = static_cast<char>((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        out += byte;
        v >>= 7;
    } while (v);
    return out;
}

QByteArray lengthDelimited(int field, const QByteArray &payload)
{
    return varint(quint64(field) << 3 | 2) + varint(quint64(payload.size())) + payload;
}

QByteArray varintField(int field, quint64 v) { return varint(quint64(field) << 3) + varint(v); }

QByteArray fixed64(int field, quint64 v)
{
    QByteArray out = varint(quint64(field) << 3 | 1);
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xFF);
    return out;
}

QByteArray anyString(const QByteArray &s) { return lengthDelimited(1, s); }
QByteArray anyInt(qint64 i) { return varintField(3, quint64(i)); }
QByteArray anyDouble(double d)
{
    quint64 bits = 0;
    std::memcpy(&bits, &d, 8);
    return fixed64(4, bits);
}

/// A KeyValue as the Span's attributes field (9) or the Resource's (1).
QByteArray attribute(const QByteArray &key, const QByteArray &anyValue, int field = 9)
{
    return lengthDelimited(field, lengthDelimited(1, key) + lengthDelimited(2, anyValue));
}

/// A Span; ids as hex (empty: absent), `extra` appended inside (attributes, status, unknown fields).
QByteArray span(const QByteArray &name, const QByteArray &spanId, const QByteArray &parentId, const QByteArray &extra = {},
                const QByteArray &traceId = "5b8efff798038103d269b633813fc60c", quint64 start = kStart, quint64 end = kEnd)
{
    QByteArray s;
    if (!traceId.isEmpty())
        s += lengthDelimited(1, QByteArray::fromHex(traceId));
    if (!spanId.isEmpty())
        s += lengthDelimited(2, QByteArray::fromHex(spanId));
    if (!parentId.isEmpty())
        s += lengthDelimited(4, QByteArray::fromHex(parentId));
    s += lengthDelimited(5, name) + varintField(6, 2) + fixed64(7, start) + fixed64(8, end) + extra;
    return lengthDelimited(2, s); // as ScopeSpans.spans
}

/// A TracesData message holding one ResourceSpans of `service` with the spans given (each from span()).
QByteArray message(const QByteArray &spans, const QByteArray &service = "vllm")
{
    const QByteArray resource = lengthDelimited(1, attribute("service.name", anyString(service), 1));
    const QByteArray scope = lengthDelimited(2, lengthDelimited(1, lengthDelimited(1, "vllm.tracing")) + spans);
    return lengthDelimited(1, resource + scope);
}

/// Each message preceded by its length, 4 bytes big-endian, as the Collector's file exporter writes them.
QByteArray prefixed(const QList<QByteArray> &messages)
{
    QByteArray out;
    for (const QByteArray &m : messages) {
        const auto n = quint32(m.size());
        out += char(n >> 24);
        out += char((n >> 16) & 0xFF);
        out += char((n >> 8) & 0xFF);
        out += char(n & 0xFF);
        out += m;
    }
    return out;
}

QByteArray vllmAttributes()
{
    return attribute("gen_ai.request.id", anyString("cmpl-1")) + attribute("gen_ai.response.model", anyString("llama-3.1-8b"))
           + attribute("gen_ai.usage.prompt_tokens", anyInt(100)) + attribute("gen_ai.usage.completion_tokens", anyInt(11))
           + attribute("gen_ai.latency.time_in_queue", anyDouble(0.01)) + attribute("gen_ai.latency.time_to_first_token", anyDouble(0.05))
           + attribute("gen_ai.latency.time_in_model_prefill", anyDouble(0.03))
           + attribute("gen_ai.latency.time_in_model_decode", anyDouble(0.9)) + attribute("gen_ai.latency.e2e", anyDouble(1.0));
}

// The same columns as the OTLP/JSON suite: segments, e2e, scope, TTFT/TPOT/TTLT, dominant, flags, start.
constexpr const char *kRequestsSql =
    "SELECT source_id, source_line, network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns, postprocess_ns, unattributed_ns,"
    " e2e_ns, scope_name, ttft_ns, tpot_ns, dominant_name, start_ns - 1700000000000000000, model, input_tokens, output_tokens,"
    " status_name FROM requests_readable ORDER BY id";

constexpr const char *kVllmRow = "cmpl-1|1|NULL|10000000|10000000|30000000|900000000|NULL|50000000|1000000000|server|50000000|"
                                 "90000000|decode|0|llama-3.1-8b|100|11|ok";

QString realPath(const char *file) { return QDir(QStringLiteral(LX_REALDATA_DIR)).filePath(QString::fromLatin1(file)); }

} // namespace

class TestOtlpProtoReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sniffing_data();
    void sniffing();
    void requests_data();
    void requests();
    void rejections_data();
    void rejections();
    void unreadable_data();
    void unreadable();
    void sameRequestsAsOtlpJson_data();
    void sameRequestsAsOtlpJson();
    void realSpansLengthPrefixed_data();
    void realSpansLengthPrefixed();

private:
    Imported importOne(const QString &name, const QByteArray &content)
    {
        return lxtest::importPaths({lxtest::writeFile(m_dir, name, content)});
    }
    QTemporaryDir m_dir;
};

void TestOtlpProtoReader::sniffing_data()
{
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<QString>("format"); // what sniffFormat() picks, empty for none

    const QByteArray one = message(span("llm_request", "eee19b7ec3c1b174", {}));
    QTest::newRow("bare message") << one << QStringLiteral("otlp-proto");
    QTest::newRow("length-prefixed messages") << prefixed({one, one}) << QStringLiteral("otlp-proto");
    QTest::newRow("one empty length-prefixed message") << prefixed({QByteArray()}) << QStringLiteral("otlp-proto");
    QTest::newRow("OTLP/JSON stays JSON") << QByteArray(R"({"resourceSpans":[]})" "\n") << QStringLiteral("otlp-json");
    QTest::newRow("JSON lines after a blank line") << QByteArray("\n{\"id\":\"r1\",\"t_server_recv_ns\":1,\"t_last_token_ns\":2}\n")
                                                   << QStringLiteral("jsonl");
    QTest::newRow("garbage") << QByteArray("\x01\x02\x03\x04garbage\xff\xfe", 13) << QString();
    QTest::newRow("a length prefix of something else") << prefixed({QByteArray("\x08\x96\x01", 3)}) << QString();
    QTest::newRow("a truncated file: the reader says where") << prefixed({one}).left(12) << QStringLiteral("otlp-proto");
}

void TestOtlpProtoReader::sniffing()
{
    QFETCH(QByteArray, head);
    QFETCH(QString, format);
    std::string why;
    const lx::TraceFormat *f = lx::sniffFormat(std::string_view(head.constData(), head.size()), &why);
    QCOMPARE(f ? QString::fromLatin1(f->name.data(), qsizetype(f->name.size())) : QString(), format);
}

void TestOtlpProtoReader::requests_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("compress");
    QTest::addColumn<QString>("expected"); // kRequestsSql

    const QByteArray vllm = message(span("llm_request", "eee19b7ec3c1b174", {}, vllmAttributes()));
    QTest::newRow("bare vLLM span") << vllm << false << QString::fromLatin1(kVllmRow);
    QTest::newRow("vLLM 0.29 span without span_id: the same") << message(span("llm_request", {}, {}, vllmAttributes())) << false
                                                                << QString::fromLatin1(kVllmRow);
    QTest::newRow("length-prefixed vLLM span") << prefixed({vllm}) << false << QString::fromLatin1(kVllmRow);
    QTest::newRow("bare, zstd") << vllm << true << QString::fromLatin1(kVllmRow);
    QTest::newRow("length-prefixed, zstd") << prefixed({vllm}) << true << QString::fromLatin1(kVllmRow);
    const QByteArray root = message(span("POST /v1/completions", "0000000000000001", {}), "gateway");
    QTest::newRow("the line of a prefixed span is its message; an empty message between")
        << prefixed({root, QByteArray(), message(span("other", "0000000000000003", {}, {}, "0af7651916cd43dd8448eb211c80319c"))})
        << false
        << QStringLiteral("0000000000000001|1|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok\n"
                          "0000000000000003|3|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok");
    QTest::newRow("one bare message: root and child are one request, the line is the span's ordinal")
        << message(span("tokenize", "0000000000000002", "0000000000000001") + span("POST /v1/completions", "0000000000000001", {}), "gateway")
        << false
        << QStringLiteral("0000000000000001|2|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok");
    QTest::newRow("no span_id, no request id: the id is made up from the trace id, like in OTLP/JSON")
        << prefixed({message(span("tokenize", {}, "0000000000000001") + span("POST /v1/completions", "0000000000000001", {}), "gateway"),
                     message(span("x", {}, {}, {}, "0af7651916cd43dd8448eb211c80319c"))})
        << false
        << QStringLiteral("0000000000000001|1|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok\n"
                          "0af7651916cd43dd8448eb211c80319c-2|2|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok");
    QTest::newRow("two ResourceSpans in a message, unknown fields skipped, status error")
        << root + message(span("x", "0000000000000009", {}, varintField(12, 3) + lengthDelimited(15, varintField(3, 2)) + fixed64(16, 1)
                                                               + lengthDelimited(99, "future")))
        << false
        << QStringLiteral("0000000000000001|1|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|ok\n"
                          "0000000000000009|2|NULL|NULL|NULL|NULL|NULL|NULL|2000000000|2000000000|server|NULL|NULL|unattributed|0|NULL|NULL|NULL|error");
}

void TestOtlpProtoReader::requests()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, compress);
    QFETCH(QString, expected);
    QByteArray bytes = content;
    if (compress) {
        bytes = lxtest::zstdCompress(content);
        if (bytes.isEmpty())
            QSKIP("the zstd tool is missing");
    }
    const Imported imported = importOne(QStringLiteral("traces.pb"), bytes);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Complete && f.rejected == 0, describe(f).constData());
    QCOMPARE(QString::fromStdString(f.format), QStringLiteral("otlp-proto"));
    QCOMPARE(f.compressed, compress);
    QCOMPARE(dump(imported.store->db(), kRequestsSql, {}), expected);
}

void TestOtlpProtoReader::rejections_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<qint64>("accepted");
    QTest::addColumn<QString>("expected"); // line|reason of every rejection
    // A file cut off (copied while the Collector wrote it) or whose messages cannot be found past a corrupt
    // length prefix is no longer "complete" (it was, exit status 0): the import says where it stopped.
    QTest::addColumn<int>("outcome"); // FileImport::Outcome
    QTest::addColumn<QString>("stopped"); // the start of the file's message; empty for a complete file
    constexpr int complete = int(lx::FileImport::Outcome::Complete);
    constexpr int truncated = int(lx::FileImport::Outcome::Truncated);
    constexpr int readError = int(lx::FileImport::Outcome::ReadError);

    const QByteArray good = message(span("ok", "0000000000000001", {}));
    const QByteArray good2 = message(span("ok2", "0000000000000002", {}));
    // Message 2 starts at byte 4 + good.size(); its payload 4 bytes later.
    const QString second = QString::number(4 + good.size());
    const QString secondPayload = QString::number(8 + good.size());
    QTest::newRow("truncated: the last message is cut off")
        << prefixed({ good, good2 }).chopped(5) << qint64(1)
        << QStringLiteral("2|message 2 at byte %1: truncated: the length prefix says %2 bytes, only %3 follow")
               .arg(second, QString::number(good2.size()), QString::number(good2.size() - 5))
        << truncated
        << QStringLiteral("truncated: the file ends inside message 2 (byte %1), %2 of its %3 bytes read")
               .arg(second, QString::number(good2.size() - 5), QString::number(good2.size()));
    QTest::newRow("cut off inside a length prefix")
        << prefixed({ good }) + QByteArray("\0\0", 2) << qint64(1)
        << QStringLiteral("2|message 2 at byte %1: cut off inside its 4-byte length prefix").arg(second) << truncated
        << QStringLiteral("truncated: the file ends inside the length prefix of message 2 (byte %1)").arg(second);
    QTest::newRow("a corrupt message between good ones: the next is read")
        << prefixed({ good, QByteArray("\x0a\x04\x12\x09zz", 6), good2 }) << qint64(2)
        << QStringLiteral(
               "2|message 2: malformed protobuf at byte %1 in a ResourceSpans: field 2 says 9 bytes, only 2 remain "
               "(truncated or corrupt) (part starting at byte %2)")
               .arg(QString::number(10 + good.size()), QString::number(10 + good.size()))
        << complete << QString();
    QTest::newRow("a corrupt message's framing")
        << prefixed({ good, QByteArray("\x0a\x7f\x01", 3) }) << qint64(1)
        << QStringLiteral(
               "2|message 2: malformed protobuf at byte %1 in a TracesData: field 1 says 127 bytes, only 1 remain "
               "(truncated or corrupt) (part starting at byte %1)")
               .arg(secondPayload)
        << complete << QString();
    QTest::newRow("a length prefix over 512 MiB: the messages after it cannot be found")
        << prefixed({ good }) + QByteArray("\x7f\xff\xff\xff", 4) + prefixed({ good2 }) << qint64(1)
        << QStringLiteral(
               "2|message 2 at byte %1: the length prefix says 2147483647 bytes, more than 512 MiB: corrupt, the "
               "rest of the file cannot be read")
               .arg(second)
        << readError
        << QStringLiteral(
               "the length prefix of message 2 (byte %1) is corrupt, so the messages after it cannot be found; "
               "the 1 records before it are kept")
               .arg(second);
    QTest::newRow("a bare message cut off: the ResourceSpans before the cut are kept")
        << (good + good2).chopped(3) << qint64(1)
        << QStringLiteral("2|malformed protobuf at byte %1 in a TracesData: field 1 says %2 bytes, only %3 remain "
                          "(truncated or corrupt) "
                          "(part starting at byte 0)")
               .arg(QString::number(good.size()), QString::number(good2.size() - 2), QString::number(good2.size() - 5))
        << truncated
        << QStringLiteral("truncated: the file ends inside its protobuf message (at byte %1 in a TracesData")
               .arg(good.size());
    QTest::newRow("span id of 7 bytes") << message(span("bad", "00000000000000", {})) + good << qint64(1)
                                        << QStringLiteral(R"(1|span "bad": span_id is 7 bytes, not 8)") << complete
                                        << QString();
    QTest::newRow("no trace id") << message(span("bad", "00000000000000bb", {}, {}, {})) << qint64(0)
                                 << QStringLiteral(R"(1|span "bad" (span id 00000000000000bb): no trace_id)")
                                 << complete << QString();
    QTest::newRow("no span_id nor trace_id") << message(span("bad", {}, {}, {}, {})) << qint64(0)
                                             << QStringLiteral(R"(1|span "bad": no trace_id)") << complete << QString();
    QTest::newRow("no span_id, and a span of its trace lacks its parent")
        << good
            + message(span("llm_request", {}, {}, attribute("gen_ai.latency.e2e", anyDouble(1.0)))
                      + span("prefill_forward", "0000000000000002", "00000000000000aa"))
        << qint64(2)
        << QStringLiteral(
               R"(2|span "llm_request": no span id, and span "prefill_forward" of its trace names a parent (00000000000000aa) )"
               "that is not in the file: it may be this span, so the trace cannot be linked")
        << complete << QString();
    QTest::newRow("invalid kind") << message(span("bad", "00000000000000bb", {}, varintField(6, 9))) << qint64(0)
                                  << QStringLiteral(R"(1|span "bad" (span id 00000000000000bb): invalid kind 9)")
                                  << complete << QString();
    QTest::newRow("ends before it starts")
        << message(span("bad", "00000000000000bb", {}, {}, "5b8efff798038103d269b633813fc60c", kEnd, kStart))
        << qint64(0)
        << QStringLiteral(
               R"(1|span "bad" (span id 00000000000000bb): ends before it starts (end_time_unix_nano < start_time_unix_nano))")
        << complete << QString();
    QTest::newRow("a latency that is a string")
        << message(span("llm_request", "00000000000000bb", {}, attribute("gen_ai.latency.e2e", anyString("1"))))
        << qint64(0)
        << QStringLiteral(R"(1|span "llm_request" (span id 00000000000000bb): gen_ai.latency.e2e is not a number)")
        << complete << QString();
    QTest::newRow("a known field of the wrong wire type")
        << message(span("bad", "00000000000000bb", {}, varintField(7, 5))) << qint64(0)
        << QStringLiteral(
               R"(1|span "bad" (span id 00000000000000bb): malformed protobuf at byte %1 in a Span: start_time_unix_nano (field 7) )"
               "is varint, expected fixed64")
               .arg(message(span("bad", "00000000000000bb", {})).size())
        << complete << QString();
}

void TestOtlpProtoReader::rejections()
{
    QFETCH(QByteArray, content);
    QFETCH(qint64, accepted);
    QFETCH(QString, expected);
    QFETCH(int, outcome);
    QFETCH(QString, stopped);
    const Imported imported = importOne(QStringLiteral("bad.pb"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(int(f.outcome) == outcome && f.accepted == accepted, describe(f).constData());
    QVERIFY2(QString::fromStdString(f.message).startsWith(stopped), describe(f).constData());
    QCOMPARE(stopped.isEmpty(), f.message.empty());
    QCOMPARE(f.failed(), outcome != int(lx::FileImport::Outcome::Complete)); // the CLI's exit status 2
    // What a rejection's line counts (the CLI prints it): the message of a length-prefixed file, the span of a bare
    // one.
    QCOMPARE(QString::fromStdString(f.locationUnit),
             content.startsWith('\x0a') ? QStringLiteral("span") : QStringLiteral("message"));
    QCOMPARE(dump(imported.store->db(), "SELECT line, reason FROM rejected ORDER BY line"), expected);
}

void TestOtlpProtoReader::unreadable_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message"); // words of the file's message

    QTest::newRow("garbage") << QByteArray("\x01\x02\x03\x04garbage\xff\xfe", 13) << QStringLiteral("binary data");
    QTest::newRow("an empty message") << prefixed({QByteArray()}) << QStringLiteral("no OTLP span in this protobuf input");
    QTest::newRow("a message without spans") << message({}) << QStringLiteral("no OTLP span in this protobuf input");
}

void TestOtlpProtoReader::unreadable()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    const Imported imported = importOne(QStringLiteral("unreadable.pb"), content);
    QVERIFY2(imported.store, imported.error.c_str());
    const lx::FileImport &f = imported.files[0];
    QVERIFY2(f.outcome == lx::FileImport::Outcome::Unreadable && f.accepted == 0, describe(f).constData());
    QVERIFY2(f.message.find(message.toStdString()) != std::string::npos, describe(f).constData());
}

void TestOtlpProtoReader::sameRequestsAsOtlpJson_data()
{
    QTest::addColumn<QString>("protobuf");
    QTest::addColumn<QString>("json");
    QTest::addColumn<qint64>("requests");

    // The same 19 spans: 19 TracesData lines of one span each, and one bare message of 19 ResourceSpans.
    QTest::newRow("otlp2parquet/traces") << realPath("otlp2parquet/traces.pb") << realPath("otlp2parquet/traces.jsonl") << qint64(19);
    QTest::newRow("otlp2parquet/trace") << realPath("otlp2parquet/trace.pb") << realPath("otlp2parquet/trace.json") << qint64(1);
    QTest::newRow("otel-proto/trace") << realPath("otel-proto/trace.protobuf-bin") << realPath("otel-proto/trace.json") << qint64(1);
}

void TestOtlpProtoReader::sameRequestsAsOtlpJson()
{
    QFETCH(QString, protobuf);
    QFETCH(QString, json);
    QFETCH(qint64, requests);
    if (!QFileInfo::exists(protobuf) || !QFileInfo::exists(json))
        QSKIP("the real data folder ../shared/realdata is absent");
    const Imported fromProto = lxtest::importPaths({lxtest::pathOf(protobuf)});
    const Imported fromJson = lxtest::importPaths({lxtest::pathOf(json)});
    QVERIFY2(fromProto.store && fromJson.store, fromProto.error.c_str());
    const lx::FileImport &p = fromProto.files[0];
    QVERIFY2(p.outcome == lx::FileImport::Outcome::Complete && p.accepted == requests && p.rejected == 0, describe(p).constData());
    QCOMPARE(QString::fromStdString(p.format), QStringLiteral("otlp-proto"));
    QCOMPARE(fromJson.files[0].accepted, requests);
    // Ids, times, segments, the line (a span's ordinal in the bare message, its line in the JSON lines) and
    // the attributes kept.
    const char *sql = "SELECT source_id, source_line, start_ns, e2e_ns, network_ns, preprocess_ns, queue_ns, prefill_ns, decode_ns,"
                      " postprocess_ns, unattributed_ns, status_name, attributes FROM requests_readable ORDER BY source_id";
    const QString protoRows = dump(fromProto.store->db(), sql);
    QCOMPARE(protoRows.count(QLatin1Char('\n')) + 1, int(requests));
    QCOMPARE(protoRows, dump(fromJson.store->db(), sql));
}

void TestOtlpProtoReader::realSpansLengthPrefixed_data()
{
    QTest::addColumn<bool>("compress");
    QTest::newRow("plain") << false;
    QTest::newRow("zstd") << true;
}

/// The real traces.pb cut into one message per ResourceSpans, as the Collector's file exporter would have
/// written its 19 batches: the same requests as traces.jsonl, line for line.
void TestOtlpProtoReader::realSpansLengthPrefixed()
{
    QFETCH(bool, compress);
    QFile file(realPath("otlp2parquet/traces.pb"));
    const QString json = realPath("otlp2parquet/traces.jsonl");
    if (!file.open(QIODevice::ReadOnly) || !QFileInfo::exists(json))
        QSKIP("the real data folder ../shared/realdata is absent");
    const QByteArray bare = file.readAll();
    QList<QByteArray> messages;
    for (qsizetype pos = 0; pos < bare.size();) {
        QCOMPARE(int(quint8(bare[pos])), 0x0A); // resource_spans, length-delimited
        quint64 length = 0;
        int shift = 0;
        qsizetype at = pos + 1;
        for (; quint8(bare[at]) & 0x80; ++at, shift += 7)
            length |= quint64(quint8(bare[at]) & 0x7F) << shift;
        length |= quint64(quint8(bare[at])) << shift;
        const qsizetype end = at + 1 + qsizetype(length);
        messages.append(bare.mid(pos, end - pos));
        pos = end;
    }
    QCOMPARE(messages.size(), 19);
    QByteArray bytes = prefixed(messages);
    if (compress && (bytes = lxtest::zstdCompress(bytes)).isEmpty())
        QSKIP("the zstd tool is missing");
    const Imported fromProto = importOne(QStringLiteral("traces-prefixed.pb"), bytes);
    const Imported fromJson = lxtest::importPaths({lxtest::pathOf(json)});
    QVERIFY2(fromProto.store && fromJson.store, fromProto.error.c_str());
    const lx::FileImport &p = fromProto.files[0];
    QVERIFY2(p.outcome == lx::FileImport::Outcome::Complete && p.accepted == 19 && p.rejected == 0, describe(p).constData());
    QCOMPARE(p.compressed, compress);
    const char *sql = "SELECT source_id, source_line, start_ns, e2e_ns, unattributed_ns, status_name, attributes FROM requests_readable"
                      " ORDER BY source_id";
    QCOMPARE(dump(fromProto.store->db(), sql), dump(fromJson.store->db(), sql));
}

QTEST_GUILESS_MAIN(TestOtlpProtoReader)
#include "tst_otlp_proto_reader.moc"
