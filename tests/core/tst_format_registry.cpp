// SPDX-License-Identifier: GPL-3.0-or-later
// The format registry: which format a head is sniffed as, and that the reasons for refusing a head name
// exactly the registered formats that read inputs of its shape (so that they stay true as formats come).

#include "ingest/format_registry.h"

#include <QTest>

#include <string>

Q_DECLARE_METATYPE(std::string)

class TestFormatRegistry : public QObject {
    Q_OBJECT

private slots:
    void sniff_data();
    void sniff();
    void reasonNamesTheFormatsOfItsShape_data();
    void reasonNamesTheFormatsOfItsShape();
    void formatsReading_data();
    void formatsReading();
    void everyFactoryMakesAReader();
};

void TestFormatRegistry::sniff_data()
{
    QTest::addColumn<std::string>("head");
    QTest::addColumn<QString>("format"); // empty: refused
    QTest::addColumn<QString>("reason"); // a part of the refusal's reason

    QTest::newRow("native JSON lines") << std::string(R"({"id":"r1","t_server_recv_ns":1})" "\n") << "jsonl" << "";
    QTest::newRow("native CSV") << std::string("id,t_server_recv_ns\nr1,1\n") << "csv" << "";
    QTest::newRow("a BOM before CSV") << std::string("\xEF\xBB\xBFid,model\nr1,m\n") << "csv" << "";
    QTest::newRow("OTLP/JSON document") << std::string("{\n  \"resourceSpans\": []\n}\n") << "otlp-json" << "";
    QTest::newRow("LLMPerf array") << std::string(R"([{"ttft_s":0.1,"end_to_end_latency_s":1.0}])") << "llmperf" << "";
    QTest::newRow("Azure workload") << std::string("TIMESTAMP,ContextTokens,GeneratedTokens\n") << "azure-llm" << "";
    QTest::newRow("Mooncake workload") << std::string(R"({"timestamp":0,"input_length":5,"output_length":7})" "\n")
                                       << "mooncake" << "";
    QTest::newRow("AIPerf summary: recognised, refused when read") << std::string("Metric,avg,min,max\n")
                                                                    << "aiperf-summary" << "";
    QTest::newRow("empty") << std::string() << "" << "the file is empty";
    QTest::newRow("blank lines") << std::string("\n \t\r\n") << "" << "only blank lines";
    QTest::newRow("binary") << std::string("\x01\x02\x03garbage\x7f", 11) << "" << "binary data";
    QTest::newRow("pretty JSON object") << std::string("{\n  \"foo\": 1\n}\n") << "" << "JSON document";
    QTest::newRow("JSON array") << std::string("[1, 2, 3]\n") << "" << "JSON document (an object or an array)";
    QTest::newRow("plain text") << std::string("hello world\n") << "" << "not a trace format";
    // Another tool's JSON lines were once read as native ones and rejected line by line as "missing id".
    QTest::newRow("another tool's JSON lines") << std::string(R"({"latency":1.2,"ttft":0.1,"model":"m"})"
                                                              "\n")
                                               << ""
                                               << "JSON lines that no reader recognises";
    QTest::newRow("native: an id alone") << std::string(R"({"id":"r1","model":"m"})"
                                                        "\n")
                                         << "jsonl"
                                         << "";
    QTest::newRow("native: the durations form") << std::string(R"({"start_ns":1,"queue_ms":2})"
                                                               "\n")
                                                << "jsonl"
                                                << "";
    QTest::newRow("native: an escaped key") << std::string(R"({"i\u0064":"r1"})"
                                                           "\n")
                                            << "jsonl"
                                            << "";
    QTest::newRow("a first line that does not parse: the reader's to reject")
        << std::string("{\"id\": oops}\n") << "jsonl"
        << "";
}

void TestFormatRegistry::sniff()
{
    QFETCH(std::string, head);
    QFETCH(QString, format);
    QFETCH(QString, reason);
    std::string why;
    const lx::TraceFormat *found = lx::sniffFormat(head, &why);
    QCOMPARE(found ? QString::fromUtf8(found->name.data(), qsizetype(found->name.size())) : QString(), format);
    QVERIFY2(QString::fromStdString(why).contains(reason), why.c_str());
    QCOMPARE(why.empty(), found != nullptr);
}

void TestFormatRegistry::reasonNamesTheFormatsOfItsShape_data()
{
    QTest::addColumn<std::string>("head");
    QTest::addColumn<unsigned>("shapes"); // the formats named in the reason: those reading any of these

    QTest::newRow("binary: the binary formats") << std::string("\x01\x02\x03garbage", 10) << unsigned(lx::kShapeBinary);
    QTest::newRow("a JSON document: the document and JSON-lines formats")
        << std::string("{\n  \"foo\": 1\n}\n") << unsigned(lx::kShapeJsonDocument | lx::kShapeJsonLines);
    QTest::newRow("a JSON array: the same") << std::string("[\"a\"]") << unsigned(lx::kShapeJsonDocument | lx::kShapeJsonLines);
    QTest::newRow("another tool's JSON lines: the JSON-lines formats")
        << std::string("{\"latency\":1}\n") << unsigned(lx::kShapeJsonLines);
    QTest::newRow("text: the JSON-lines and CSV formats") << std::string("hello\n") << unsigned(lx::kShapeJsonLines | lx::kShapeCsv);
}

void TestFormatRegistry::reasonNamesTheFormatsOfItsShape()
{
    QFETCH(std::string, head);
    QFETCH(unsigned, shapes);
    std::string why;
    QVERIFY(!lx::sniffFormat(head, &why));
    int named = 0;
    for (const lx::TraceFormat &format : lx::traceFormats()) {
        const bool expected = (format.shapes & shapes) != 0;
        const bool said = why.find(format.description) != std::string::npos;
        QVERIFY2(said == expected, (std::string(format.description) + (expected ? " missing from: " : " wrongly in: ") + why).c_str());
        named += said ? 1 : 0;
    }
    QVERIFY(named > 0);
}

void TestFormatRegistry::formatsReading_data()
{
    QTest::addColumn<unsigned>("shapes");
    QTest::addColumn<QString>("contains");
    QTest::addColumn<QString>("lacks");

    QTest::newRow("CSV") << unsigned(lx::kShapeCsv) << "native CSV" << "native JSON lines";
    QTest::newRow("JSON documents are read") << unsigned(lx::kShapeJsonDocument) << "OTLP/JSON" << "native CSV";
    QTest::newRow("the last joined by or") << unsigned(lx::kShapeJsonLines | lx::kShapeCsv) << " or native CSV" << "AIPerf aggregate";
    QTest::newRow("refusals are never named") << unsigned(lx::kShapeNone) << "" << "summary";
}

void TestFormatRegistry::formatsReading()
{
    QFETCH(unsigned, shapes);
    QFETCH(QString, contains);
    QFETCH(QString, lacks);
    const QString text = QString::fromStdString(lx::formatsReading(shapes));
    QVERIFY2(text.contains(contains), qPrintable(text));
    QVERIFY2(!text.contains(lacks), qPrintable(text));
    QCOMPARE(text.isEmpty(), shapes == lx::kShapeNone);
}

void TestFormatRegistry::everyFactoryMakesAReader()
{
    const lx::ReaderOptions options;
    QVERIFY(!lx::traceFormats().empty());
    for (const lx::TraceFormat &format : lx::traceFormats())
        QVERIFY2(format.create(options) != nullptr, format.name.data());
}

QTEST_GUILESS_MAIN(TestFormatRegistry)
#include "tst_format_registry.moc"
