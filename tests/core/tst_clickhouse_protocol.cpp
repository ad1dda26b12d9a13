// SPDX-License-Identifier: GPL-3.0-or-later
// ClickHouse's HTTP interface without a server (core/source, docs/CLICKHOUSE.md): the URLs a user types,
// the request's query string (every value a bound parameter), the zstd stream decoded in pieces of any
// size, the rows split across pieces, an exception written mid-body in the old and the new form, and the
// progress header.

#include "source/clickhouse_body.h"
#include "source/clickhouse_client.h"
#include "source/clickhouse_endpoint.h"
#include "source/otel_traces_rows.h"
#include "source/zstd_stream_decoder.h"
#include "test_support.h"

#include <QTest>
#include <QUrl>
#include <QUrlQuery>

using lx::source::ClickHouseEndpoint;

class TestClickHouseProtocol : public QObject {
    Q_OBJECT

private slots:
    void parsesUrls_data();
    void parsesUrls();
    void refusesUrls_data();
    void refusesUrls();
    void requestUrlBindsEveryValue();
    void stringValuesEscaped_data();
    void stringValuesEscaped();
    void decodesZstdInPieces_data();
    void decodesZstdInPieces();
    void refusesCorruptZstd();
    void splitsRowsAndFindsExceptions_data();
    void splitsRowsAndFindsExceptions();
    void splitterStopsWhenTheRowCallbackSaysSo();
    void readsProgressHeaders();
    void readsOtelTracesRows();
    void rejectsOtelTracesRows_data();
    void rejectsOtelTracesRows();
};

void TestClickHouseProtocol::parsesUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("database");
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("display");

    QTest::newRow("clickhouse scheme, table") << u"clickhouse://ch.example:8123/otel?table=otel_traces"_qs
                                              << u"http://ch.example:8123/"_qs << u"otel"_qs << u"otel_traces"_qs << u"default"_qs
                                              << u"clickhouse://ch.example:8123/otel?table=otel_traces&user=default"_qs;
    QTest::newRow("defaults") << u"clickhouse://localhost"_qs << u"http://localhost:8123/"_qs << u"default"_qs << u"otel_traces"_qs
                              << u"default"_qs << u"clickhouse://localhost:8123/default?table=otel_traces&user=default"_qs;
    QTest::newRow("https default port") << u"https://ch.example/db"_qs << u"https://ch.example:8443/"_qs << u"db"_qs << u"otel_traces"_qs
                                        << u"default"_qs << u"https://ch.example:8443/db?table=otel_traces&user=default"_qs;
    QTest::newRow("http with database parameter and user")
        << u"http://reader@10.0.0.5:9000/?database=traces&table=spans%20v2"_qs << u"http://10.0.0.5:9000/"_qs << u"traces"_qs
        << u"spans v2"_qs << u"reader"_qs << u"clickhouse://10.0.0.5:9000/traces?table=spans%20v2&user=reader"_qs;
    QTest::newRow("user parameter") << u"clickhouse://h:1/d?table=t&user=u"_qs << u"http://h:1/"_qs << u"d"_qs << u"t"_qs << u"u"_qs
                                    << u"clickhouse://h:1/d?table=t&user=u"_qs;
    QTest::newRow("ipv6") << u"clickhouse://[::1]:8123/db"_qs << u"http://[::1]:8123/"_qs << u"db"_qs << u"otel_traces"_qs << u"default"_qs
                          << u"clickhouse://[::1]:8123/db?table=otel_traces&user=default"_qs;
    QTest::newRow("quote in a table name stays a name") << u"clickhouse://h/db?table=a'b"_qs << u"http://h:8123/"_qs << u"db"_qs
                                                        << u"a'b"_qs << u"default"_qs
                                                        << u"clickhouse://h:8123/db?table=a%27b&user=default"_qs;
}

void TestClickHouseProtocol::parsesUrls()
{
    QFETCH(QString, url);
    QFETCH(QString, base);
    QFETCH(QString, database);
    QFETCH(QString, table);
    QFETCH(QString, user);
    QFETCH(QString, display);
    ClickHouseEndpoint endpoint;
    std::string error;
    QVERIFY2(lx::source::parseClickHouseUrl(url.toStdString(), endpoint, &error), error.c_str());
    QCOMPARE(QString::fromStdString(endpoint.httpBase()), base);
    QCOMPARE(QString::fromStdString(endpoint.database), database);
    QCOMPARE(QString::fromStdString(endpoint.table), table);
    QCOMPARE(QString::fromStdString(endpoint.user), user);
    QCOMPARE(QString::fromStdString(endpoint.displayUrl()), display);
}

void TestClickHouseProtocol::refusesUrls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no scheme") << u"localhost:8123"_qs << u"expected clickhouse://"_qs;
    QTest::newRow("other scheme") << u"ftp://h/db"_qs << u"the scheme must be"_qs;
    QTest::newRow("password in userinfo") << u"clickhouse://u:secret@h/db"_qs << u"a password in the URL is not accepted: set LX_CLICKHOUSE_PASSWORD"_qs;
    QTest::newRow("password parameter") << u"clickhouse://h/db?password=secret"_qs << u"a password in the URL is not accepted"_qs;
    QTest::newRow("no host") << u"clickhouse:///db"_qs << u"no host"_qs;
    QTest::newRow("port not a number") << u"clickhouse://h:80x/db"_qs << u"the port must be a number"_qs;
    QTest::newRow("port zero") << u"clickhouse://h:0/db"_qs << u"the port must be a number"_qs;
    QTest::newRow("port too large") << u"clickhouse://h:65536/db"_qs << u"the port must be a number"_qs;
    QTest::newRow("nested path") << u"clickhouse://h/db/more"_qs << u"the path must be the database alone"_qs;
    QTest::newRow("unknown parameter") << u"clickhouse://h/db?tabel=x"_qs << u"unknown query parameter 'tabel'"_qs;
    QTest::newRow("empty table") << u"clickhouse://h/db?table="_qs << u"the table name is not valid"_qs;
    QTest::newRow("control character") << u"clickhouse://h/db?table=a%0Ab"_qs << u"the table name is not valid"_qs;
    QTest::newRow("bad percent escape") << u"clickhouse://h/d%zz"_qs << u"the database name is not valid"_qs;
}

void TestClickHouseProtocol::refusesUrls()
{
    QFETCH(QString, url);
    QFETCH(QString, reason);
    ClickHouseEndpoint endpoint;
    std::string error;
    QVERIFY(!lx::source::parseClickHouseUrl(url.toStdString(), endpoint, &error));
    QVERIFY2(QString::fromStdString(error).contains(reason), error.c_str());
    QVERIFY2(!QString::fromStdString(error).contains(u"secret"_qs) || url.contains(u"secret"_qs), error.c_str());
}

void TestClickHouseProtocol::requestUrlBindsEveryValue()
{
    ClickHouseEndpoint endpoint;
    std::string error;
    QVERIFY(lx::source::parseClickHouseUrl("clickhouse://h:8123/my%20db?table=t", endpoint, &error));
    lx::source::ClickHouseQuery query;
    query.sql = "SELECT 1 FROM {db:Identifier}.{table:Identifier} WHERE ServiceName = {service:String}";
    query.params = {{"service", "vllm'; DROP TABLE x --"}, {"db", endpoint.database}};
    const std::string url = lx::source::clickHouseRequestUrl(endpoint, query, true);
    QCOMPARE(QString::fromStdString(url),
             u"http://h:8123/?database=my%20db&default_format=JSONEachRow&send_progress_in_http_headers=1"
             "&cancel_http_readonly_queries_on_client_close=1"
             "&enable_http_compression=1&param_service=vllm%27%3B%20DROP%20TABLE%20x%20--&param_db=my%20db"_qs);
    QVERIFY(!QString::fromStdString(lx::source::clickHouseRequestUrl(endpoint, query, false)).contains(u"enable_http_compression"_qs));
}

void TestClickHouseProtocol::stringValuesEscaped_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("sent"); ///< the param_ value, URL-decoded: what ClickHouse unescapes
    QTest::newRow("plain") << u"vllm"_qs << u"vllm"_qs;
    QTest::newRow("backslash") << u"a\\b"_qs << u"a\\\\b"_qs;
    QTest::newRow("trailing backslash") << u"gpu\\"_qs << u"gpu\\\\"_qs;
    QTest::newRow("escape look-alike") << u"a\\tb"_qs << u"a\\\\tb"_qs;
    QTest::newRow("tab and line end") << u"a\tb\nc\rd"_qs << u"a\\tb\\nc\\rd"_qs;
}

/// ClickHouse reads a String parameter's value in its escaped form: a backslash, a tab or a line end the
/// user's text holds must arrive as itself, not as an escape (a service `a\tb` is not `a<TAB>b`).
/// Identifiers are taken as they are.
void TestClickHouseProtocol::stringValuesEscaped()
{
    QFETCH(QString, value);
    QFETCH(QString, sent);
    ClickHouseEndpoint endpoint;
    std::string error;
    QVERIFY(lx::source::parseClickHouseUrl("clickhouse://h:8123/otel", endpoint, &error));
    lx::source::ClickHouseQuery query;
    query.sql = "SELECT 1 FROM {table:Identifier} WHERE ServiceName = {service:String}";
    query.params = {{"service", value.toStdString()}, {"table", value.toStdString()}};
    const QUrlQuery parts(QUrl(QString::fromStdString(lx::source::clickHouseRequestUrl(endpoint, query, false))));
    QCOMPARE(parts.queryItemValue(u"param_service"_qs, QUrl::FullyDecoded), sent);
    QCOMPARE(parts.queryItemValue(u"param_table"_qs, QUrl::FullyDecoded), value);
}

void TestClickHouseProtocol::decodesZstdInPieces_data()
{
    QTest::addColumn<int>("pieceBytes");
    QTest::addColumn<int>("lines");
    QTest::newRow("one byte at a time") << 1 << 200;
    QTest::newRow("7 bytes") << 7 << 2000;
    QTest::newRow("16 KiB") << 16384 << 200000;
    QTest::newRow("whole") << 0 << 200000; // larger than the decoder's output buffer: several outputs per feed
}

void TestClickHouseProtocol::decodesZstdInPieces()
{
    QFETCH(int, pieceBytes);
    QFETCH(int, lines);
    QByteArray text;
    for (int i = 0; i < lines; ++i)
        text += "{\"row\":" + QByteArray::number(i) + ",\"name\":\"span number " + QByteArray::number(i * 7919) + "\"}\n";
    const QByteArray compressed = lxtest::zstdCompress(text);
    if (compressed.isEmpty())
        QSKIP("the zstd command line tool is missing: it makes this test's compressed input");
    std::string decoded;
    int outputs = 0;
    lx::source::ZstdStreamDecoder decoder([&](std::string_view piece) {
        ++outputs;
        decoded.append(piece);
        return true;
    });
    const qsizetype step = pieceBytes > 0 ? pieceBytes : compressed.size();
    for (qsizetype at = 0; at < compressed.size(); at += step) {
        const qsizetype n = std::min(step, compressed.size() - at);
        QVERIFY2(decoder.feed(std::string_view(compressed.constData() + at, static_cast<std::size_t>(n))), decoder.error().c_str());
        if (at + n < compressed.size() && pieceBytes == 1)
            QVERIFY(!decoder.atFrameEnd() || at < 4); // mid-frame until the last byte
    }
    QVERIFY(decoder.atFrameEnd());
    QCOMPARE(QByteArray::fromStdString(decoded), text);
    if (text.size() > 200000)
        QVERIFY2(outputs > 1, "a large body is handed on in pieces, never whole");
}

void TestClickHouseProtocol::refusesCorruptZstd()
{
    const QByteArray compressed = lxtest::zstdCompress(QByteArray(5000, 'x') + "tail");
    if (compressed.isEmpty())
        QSKIP("the zstd command line tool is missing");
    QByteArray corrupt = compressed;
    corrupt[corrupt.size() / 2] = static_cast<char>(corrupt[corrupt.size() / 2] ^ 0x5a);
    corrupt[corrupt.size() - 2] = static_cast<char>(corrupt[corrupt.size() - 2] ^ 0x5a);
    lx::source::ZstdStreamDecoder decoder([](std::string_view) { return true; });
    const bool fed = decoder.feed(std::string_view(corrupt.constData(), static_cast<std::size_t>(corrupt.size())));
    QVERIFY(!fed || !decoder.atFrameEnd());
    if (!fed)
        QVERIFY2(QString::fromStdString(decoder.error()).contains(u"corrupt"_qs), decoder.error().c_str());

    lx::source::ZstdStreamDecoder cut([](std::string_view) { return true; });
    QVERIFY(cut.feed(std::string_view(compressed.constData(), static_cast<std::size_t>(compressed.size() - 3))));
    QVERIFY2(!cut.atFrameEnd(), "a stream cut short is not at a frame's end");
}

void TestClickHouseProtocol::splitsRowsAndFindsExceptions_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<QString>("exception");
    QTest::addColumn<int>("code");

    QTest::newRow("rows") << QByteArray("{\"a\":1}\n{\"a\":2}\n") << QStringList{u"{\"a\":1}"_qs, u"{\"a\":2}"_qs} << u""_qs << 0;
    QTest::newRow("last row without newline") << QByteArray("x\ny") << QStringList{u"x"_qs, u"y"_qs} << u""_qs << 0;
    QTest::newRow("CRLF") << QByteArray("x\r\ny\r\n") << QStringList{u"x"_qs, u"y"_qs} << u""_qs << 0;
    QTest::newRow("empty body") << QByteArray() << QStringList{} << u""_qs << 0;
    QTest::newRow("old mid-body exception")
        << QByteArray("{\"a\":1}\nCode: 395. DB::Exception: boom: while executing 'FUNCTION throwIf'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 24.3.1)\n")
        << QStringList{u"{\"a\":1}"_qs} << u"Code: 395. DB::Exception: boom: while executing 'FUNCTION throwIf'. (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO) (version 24.3.1)"_qs << 395;
    QTest::newRow("exception glued to a row") // ClickHouse may write it where a row's newline would be
        << QByteArray("{\"a\":1}\n{\"a\":2}\nCode: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)")
        << QStringList{u"{\"a\":1}"_qs, u"{\"a\":2}"_qs} << u"Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)"_qs << 241;
    QTest::newRow("new mid-body exception with tag")
        << QByteArray("{\"a\":1}\n__exception__\r\nk7r2mx9qa1b2c3d4\r\nCode: 60. DB::Exception: Unknown table. (UNKNOWN_TABLE)\n52 k7r2mx9qa1b2c3d4\r\n__exception__\r\n")
        << QStringList{u"{\"a\":1}"_qs} << u"Code: 60. DB::Exception: Unknown table. (UNKNOWN_TABLE)"_qs << 60;
    QTest::newRow("exception as a JSON row")
        << QByteArray("{\"a\":1}\n{\"exception\": \"Code: 395. DB::Exception: \\\"boom\\\". (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)\"}\n")
        << QStringList{u"{\"a\":1}"_qs} << u"Code: 395. DB::Exception: \"boom\". (FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)"_qs << 395;
    QTest::newRow("a row with an exception column that is no exception")
        << QByteArray("{\"exception\":\"none\"}\n") << QStringList{u"{\"exception\":\"none\"}"_qs} << u""_qs << 0;
    QTest::newRow("a row that mentions Code: is a row") << QByteArray("{\"msg\":\"Code: 1. DB::Exception\"}\n")
                                                        << QStringList{u"{\"msg\":\"Code: 1. DB::Exception\"}"_qs} << u""_qs << 0;
}

void TestClickHouseProtocol::splitsRowsAndFindsExceptions()
{
    QFETCH(QByteArray, body);
    QFETCH(QStringList, rows);
    QFETCH(QString, exception);
    QFETCH(int, code);
    // Every split of the body into two pieces gives the same rows: a line may end in any piece.
    for (qsizetype cut = 0; cut <= body.size(); ++cut) {
        QStringList seen;
        lx::source::ClickHouseLineSplitter splitter([&](std::string_view row) {
            seen << QString::fromUtf8(row.data(), static_cast<qsizetype>(row.size()));
            return true;
        });
        QVERIFY(splitter.push(std::string_view(body.constData(), static_cast<std::size_t>(cut))));
        QVERIFY(splitter.push(std::string_view(body.constData() + cut, static_cast<std::size_t>(body.size() - cut))));
        QVERIFY(splitter.finish());
        QCOMPARE(seen, rows);
        QCOMPARE(splitter.rows(), static_cast<std::uint64_t>(rows.size()));
        QCOMPARE(QString::fromStdString(splitter.exception()), exception);
        QCOMPARE(lx::source::exceptionCode(splitter.exception()), code);
    }
}

void TestClickHouseProtocol::splitterStopsWhenTheRowCallbackSaysSo()
{
    int seen = 0;
    lx::source::ClickHouseLineSplitter splitter([&](std::string_view) { return ++seen < 2; });
    QVERIFY(!splitter.push("a\nb\nc\nd\n"));
    QCOMPARE(seen, 2);
}

void TestClickHouseProtocol::readsProgressHeaders()
{
    const auto progress = lx::source::parseProgressHeader(
        R"({"read_rows":"1024","read_bytes":"65536","written_rows":"0","written_bytes":"0","total_rows_to_read":"4096","result_rows":"0","result_bytes":"0","elapsed_ns":"1000"})");
    QVERIFY(progress);
    QCOMPARE(progress->readRows, 1024u);
    QCOMPARE(progress->readBytes, 65536u);
    QCOMPARE(progress->totalRowsToRead, 4096u);
    const auto bare = lx::source::parseProgressHeader(R"({"read_rows":7,"read_bytes":8})");
    QVERIFY(bare);
    QCOMPARE(bare->readRows, 7u);
    QCOMPARE(bare->totalRowsToRead, 0u);
    QVERIFY(!lx::source::parseProgressHeader("not json"));
}

namespace {

/// A row of otelTracesQuery() with `replace` applied to the good one ("key" → "key" of another value).
QByteArray otelRow(const QByteArray &from = {}, const QByteArray &to = {})
{
    QByteArray row = R"({"StartNs":"1735732800323466172","DurationNs":"3791941538","TraceId":"5B8EFFF798038103D269B633813FC60C",)"
                     R"("SpanId":"eee19b7ec3c1b174","ParentSpanId":"","SpanName":"llm_request","SpanKind":"Server",)"
                     R"("ServiceName":"vllm","StatusCode":"Error","SpanAttributes":{"gen_ai.request.id":"cmpl-1",)"
                     R"("gen_ai.usage.completion_tokens":"11","gen_ai.latency.e2e":"3.5","http.route":"/v1/x"}})";
    if (!from.isEmpty())
        row.replace(from, to);
    return row;
}

lx::otlp::AttributeFilter genAiFilter()
{
    lx::otlp::AttributeFilter filter;
    filter.prefixes = {"gen_ai.latency."};
    return filter;
}

} // namespace

void TestClickHouseProtocol::readsOtelTracesRows()
{
    const QByteArray row = otelRow();
    lx::otlp::Span span;
    const std::string why = lx::source::readOtelTracesRow(row.toStdString(), genAiFilter(), span);
    QVERIFY2(why.empty(), why.c_str());
    QCOMPARE(QString::fromStdString(span.traceId), u"5b8efff798038103d269b633813fc60c"_qs);
    QCOMPARE(QString::fromStdString(span.spanId), u"eee19b7ec3c1b174"_qs);
    QVERIFY(span.parentId.empty());
    QCOMPARE(span.startNs, 1735732800323466172);
    QCOMPARE(span.endNs, 1735732800323466172 + 3791941538);
    QCOMPARE(span.kind, 2);
    QVERIFY(span.error);
    QCOMPARE(QString::fromStdString(span.service), u"vllm"_qs);
    QCOMPARE(QString::fromStdString(span.requestId), u"cmpl-1"_qs);
    QCOMPARE(span.outputTokens, 11);
    // The Map's strings that spell numbers are numbers for the mappings; the filter keeps only what they read.
    const lx::otlp::AttributeValue *e2e = span.attribute("gen_ai.latency.e2e");
    QVERIFY(e2e && e2e->number);
    QCOMPARE(*e2e->number, 3.5);
    QVERIFY(!e2e->integer);
    QVERIFY(!span.attribute("http.route"));

    lx::otlp::Span older;
    QVERIFY(lx::source::readOtelTracesRow(otelRow("\"Server\"", "\"SPAN_KIND_CLIENT\"").toStdString(), genAiFilter(), older).empty());
    QCOMPARE(older.kind, 3);
    lx::otlp::Span unquoted; // ClickHouse quotes 64-bit integers only when output_format_json_quote_64bit_integers says so
    QVERIFY(lx::source::readOtelTracesRow(otelRow("\"1735732800323466172\"", "1735732800323466172").toStdString(), genAiFilter(), unquoted).empty());
    QCOMPARE(unquoted.startNs, 1735732800323466172);
}

void TestClickHouseProtocol::rejectsOtelTracesRows_data()
{
    QTest::addColumn<QByteArray>("row");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not JSON") << QByteArray("{\"StartNs\":") << u"not a JSON object"_qs;
    QTest::newRow("an array") << QByteArray("[1]") << u"not a JSON object"_qs;
    QTest::newRow("column missing") << otelRow("\"SpanKind\"", "\"Kind\"") << u"a column of the otel_traces query is missing"_qs;
    QTest::newRow("trace id not hex") << otelRow("5B8EFFF798038103D269B633813FC60C", "5B8EFFF798038103D269B633813FC60Z")
                                      << u"span \"llm_request\" (span id eee19b7ec3c1b174): TraceId '5B8EFFF798038103D269B633813FC60Z' is not 32 hex digits"_qs;
    QTest::newRow("span id short") << otelRow("eee19b7ec3c1b174", "eee19b7e") << u"SpanId 'eee19b7e' is not 16 hex digits"_qs;
    QTest::newRow("parent id not hex") << otelRow("\"ParentSpanId\":\"\"", "\"ParentSpanId\":\"xyz\"") << u"ParentSpanId 'xyz' is not 16 hex digits"_qs;
    QTest::newRow("unknown kind") << otelRow("\"Server\"", "\"Sever\"") << u"SpanKind 'Sever' is not a span kind"_qs;
    QTest::newRow("epoch start") << otelRow("\"1735732800323466172\"", "\"0\"") << u"no start time"_qs;
    QTest::newRow("duration past 2262") << otelRow("\"3791941538\"", "\"9223372036854775807\"") << u"past what int64 ns can hold"_qs;
    QTest::newRow("latency not a number") << otelRow("\"3.5\"", "\"fast\"") << u"gen_ai.latency.e2e is not a number"_qs;
    QTest::newRow("tokens not an integer") << otelRow("\"11\"", "\"11.5\"") << u"gen_ai.usage.completion_tokens is not an integer"_qs;
}

void TestClickHouseProtocol::rejectsOtelTracesRows()
{
    QFETCH(QByteArray, row);
    QFETCH(QString, reason);
    lx::otlp::Span span;
    const std::string why = lx::source::readOtelTracesRow(row.toStdString(), genAiFilter(), span);
    QVERIFY2(QString::fromStdString(why).contains(reason), why.c_str());
}

QTEST_GUILESS_MAIN(TestClickHouseProtocol)
#include "tst_clickhouse_protocol.moc"
