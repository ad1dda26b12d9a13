// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input (issue 14): times that do not fit int64 ns are rejected records with that reason, never
// wrapped; a trace whose times lie centuries apart makes a load profile, not an abort; a window that would
// make more windows than the bound is widened and said; a line or a document past its cap is refused as it
// is read, with its line number, and reading goes on. Each row is named after what broke.

#include "analysis/load_profile.h"
#include "ingest/importer.h"
#include "ingest/input_file.h"
#include "ingest/line_reader.h"
#include "ingest/span_mapping.h"
#include "model/decompose.h"
#include "model/duration_parse.h"
#include "model/time_range.h"
#include "store/store.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using lxtest::describe;
using lxtest::dump;
using lxtest::writeFile;

namespace {

constexpr qint64 S = 1'000'000'000;

/// An AIPerf profile_export.jsonl record with the given send time (as written in the JSON).
QByteArray aiperf(const char *id, const char *timestampNs)
{
    return R"({"metadata":{"x_request_id":")" + QByteArray(id) + R"(","timestamp_ns":)" + timestampNs
           + R"(},"metrics":{"ttft":{"value":82.4,"unit":"ms"},"request_latency":{"value":134.0,"unit":"ms"},)"
             R"("inter_chunk_latency":{"value":[10.2,23.6,16.5],"unit":"ms"},"output_sequence_length":{"value":4,"unit":"tokens"}},"error":null})"
             "\n";
}

/// A native record in the timestamps form, server receive and send as written.
QByteArray native(const char *id, const char *recv, const char *send)
{
    return R"({"id":")" + QByteArray(id) + R"(","t_server_recv_ns":)" + recv + R"(,"t_server_send_ns":)" + send + "}\n";
}

/// One OTLP/JSON TracesData line holding one span that starts and ends as written.
QByteArray otlp(const char *spanId, const char *start, const char *end)
{
    return R"({"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":")"
           + QByteArray(spanId) + R"(","name":"x","kind":2,"startTimeUnixNano":)" + start + R"(,"endTimeUnixNano":)" + end + "}]}]}]}\n";
}

QByteArray azure(const char *timestamp)
{
    return "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:04.1827900,912,29\n" + QByteArray(timestamp) + ",1151,93\n";
}

struct Outcome {
    lx::FileImport file;
    QString stored; ///< start_ns of every request, in id order
};

Outcome importOne(const std::string &path, lx::ImportOptions options = {})
{
    Outcome out;
    std::string why;
    auto store = lx::Store::openTemporary(&why);
    if (!store)
        return out;
    options.joinClientServer = false;
    const auto files = lx::importFiles(*store, {path}, options);
    if (!files.empty())
        out.file = files.front();
    out.stored = dump(store->db(), "SELECT start_ns FROM requests ORDER BY id");
    return out;
}

/// The requests' rows for a load profile: a start and an e2e each.
lx::LatencyRow rowAt(qint64 start, qint64 e2e)
{
    lx::LatencyRow r;
    r.start = start;
    r.e2e = e2e;
    r.segments.fill(lx::kNotMeasured);
    r.segments[int(lx::Segment::Unattributed)] = e2e;
    r.ok = true;
    return r;
}

/// The latency-explorer-*.lxdb files a CLI run left in its temporary folder.
QStringList leftoverStores(const QString &tmp)
{
    return QDir(tmp).entryList({QStringLiteral("latency-explorer-*")}, QDir::Files);
}

} // namespace

class TestHostileInput : public QObject {
    Q_OBJECT

private slots:
    // Issue 14, point 2: a time that does not fit int64 ns is a rejected record with that reason.
    void timesOutOfRange_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("accepted");
        QTest::addColumn<qint64>("badLine");
        QTest::addColumn<QString>("reason");

        QTest::newRow("Azure TIMESTAMP in 6023 wrapped to 1932")
            << "AzureLLMInferenceTrace_code.csv" << azure("6023-11-16 18:17:04.3007620") << qint64(1) << qint64(3)
            << "TIMESTAMP 6023-11-16 18:17:04.3007620 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("Azure TIMESTAMP in 2263 wrapped")
            << "AzureLLMInferenceTrace_code.csv" << azure("2263-01-01 00:00:00") << qint64(1) << qint64(3)
            << "TIMESTAMP 2263-01-01 00:00:00 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("Azure TIMESTAMP in 1600 wrapped")
            << "AzureLLMInferenceTrace_code.csv" << azure("1600-01-01 00:00:00") << qint64(1) << qint64(3)
            << "TIMESTAMP 1600-01-01 00:00:00 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("native stamp past int64 read as 'expected an integer'")
            << "t.jsonl" << native("a", "1000", "2000") + native("b", "99999999999999999999", "99999999999999999999")
            << qint64(1) << qint64(2)
            << "t_server_recv_ns 1e+20 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("native stamp INT64_MIN taken for 'not measured'")
            << "t.jsonl" << native("a", "1000", "2000") + native("b", "-9223372036854775808", "0") << qint64(1) << qint64(2)
            << "t_server_recv_ns -9223372036854775808 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("native CSV stamp past int64")
            << "t.csv" << QByteArray("id,t_server_recv_ns,t_server_send_ns\na,1000,2000\nb,99999999999999999999,1\n")
            << qint64(1) << qint64(3)
            << "t_server_recv_ns 99999999999999999999 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("native e2e_ms past int64 ns wrapped by llround")
            << "t.jsonl"
            << QByteArray(R"({"id":"a","start_ns":1000,"decode_ms":5})" "\n" R"({"id":"b","start_ns":1000,"e2e_ms":1e13})" "\n")
            << qint64(1) << qint64(2) << "e2e_ms 1e+13 is too large a duration (at most 292 years in int64 ns)";
        QTest::newRow("native durations that overflow when added")
            << "t.jsonl"
            << QByteArray(R"({"id":"a","start_ns":1000,"decode_ms":5})" "\n"
                          R"({"id":"b","start_ns":1000,"queue_ms":9e12,"decode_ms":9e12})" "\n")
            << qint64(1) << qint64(2) << "the segments add up to more than 73 years: not one request's times";
        QTest::newRow("native start plus e2e past 2262")
            << "t.jsonl"
            << QByteArray(R"({"id":"a","start_ns":1000,"decode_ms":5})" "\n"
                          R"({"id":"b","start_ns":9223372036854000000,"decode_ms":5})" "\n")
            << qint64(1) << qint64(2)
            << "start_ns + e2e 9223372036854000000 + 5000000 ns is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("native stamps 320 years apart in one record overflowed e2e")
            << "t.jsonl" << native("a", "1000", "2000") + native("b", "-1000000000000000000", "9223372035000000000")
            << qint64(1) << qint64(2)
            << "t_server_recv_ns (-1000000000000000000) and t_server_send_ns (9223372035000000000) lie more than 73 years apart: not one request's times";
        QTest::newRow("AIPerf timestamp_ns past int64")
            << "profile_export.jsonl" << aiperf("a", "1759522420573099587") + aiperf("b", "9223372036854775808") << qint64(1)
            << qint64(2) << "timestamp_ns 9.223372037e+18 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("AIPerf send plus latency past 2262")
            << "profile_export.jsonl" << aiperf("a", "1759522420573099587") + aiperf("b", "9223372036854775807") << qint64(1)
            << qint64(2)
            << "the request's end (its start 9223372036854775807 ns + 134000000 ns) is past 2262-04-11, the last time that can be held in int64 ns";
        QTest::newRow("OTLP/JSON startTimeUnixNano past int64 read as 'no valid'")
            << "otlp.jsonl" << otlp("eee19b7ec3c1b174", "\"1700000000000000000\"", "\"1700000002000000000\"") + otlp("aaa19b7ec3c1b174", "\"99999999999999999999\"", "\"99999999999999999999\"")
            << qint64(1) << qint64(2)
            << "span \"x\" (span id aaa19b7ec3c1b174): startTimeUnixNano \"99999999999999999999\" is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("OTLP/JSON endTimeUnixNano as a number past int64")
            << "otlp.jsonl" << otlp("eee19b7ec3c1b174", "\"1700000000000000000\"", "\"1700000002000000000\"") + otlp("aaa19b7ec3c1b174", "1700000000000000000", "1e20")
            << qint64(1) << qint64(2)
            << "span \"x\" (span id aaa19b7ec3c1b174): endTimeUnixNano 1e+20 is outside the times that can be held (1677-09-21 to 2262-04-11, int64 ns since 1970)";
        QTest::newRow("Mooncake timestamp past int64 ns")
            << "mooncake.jsonl"
            << QByteArray(R"({"timestamp": 0, "input_length": 10, "output_length": 5, "hash_ids": [1]})" "\n"
                          R"({"timestamp": 1e16, "input_length": 10, "output_length": 5, "hash_ids": [1]})" "\n")
            << qint64(1) << qint64(2) << "timestamp 1e+16 is too large a duration (at most 292 years in int64 ns)";
    }
    void timesOutOfRange()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, text);
        QFETCH(qint64, accepted);
        QFETCH(qint64, badLine);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const Outcome o = importOne(writeFile(dir, name, text));
        QVERIFY2(o.file.outcome == lx::FileImport::Outcome::Complete, describe(o.file));
        QCOMPARE(o.file.accepted, accepted);
        QCOMPARE(o.file.rejected, qint64(1));
        QCOMPARE(o.file.firstRejections.at(0).line, badLine);
        QCOMPARE(QString::fromStdString(o.file.firstRejections.at(0).reason), reason);
    }

    void azureEdgesOfTheRange_data()
    {
        QTest::addColumn<QByteArray>("timestamp");
        QTest::addColumn<QString>("startNs");
        QTest::newRow("the last ns that can be held") << QByteArray("2262-04-11 23:47:16.854775807") << "9223372036854775807";
        QTest::newRow("the first ns that can be held") << QByteArray("1677-09-21 00:12:43.145224193") << "-9223372036854775807";
    }
    void azureEdgesOfTheRange()
    {
        QFETCH(QByteArray, timestamp);
        QFETCH(QString, startNs);
        QTemporaryDir dir;
        const QByteArray text = "TIMESTAMP,ContextTokens,GeneratedTokens\n" + timestamp + ",1,1\n";
        const Outcome o = importOne(writeFile(dir, QStringLiteral("AzureLLMInferenceTrace_conv.csv"), text));
        QCOMPARE(o.file.accepted, qint64(1));
        QCOMPARE(o.stored, startNs);
    }

    // Issue 14, point 1: computeLoadProfile aborted (std::length_error) over times ~292 years apart.
    void loadProfileOverCenturies_data()
    {
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("windowNs");
        QTest::newRow("AIPerf starts INT64_MAX and -1e18 aborted the report") << qint64(-1'000'000'000'000'000'000) << qint64(lx::kLatestTimeNs) << qint64(0);
        QTest::newRow("native starts -1e18 and 9.223372035e18 aborted the report")
            << qint64(-1'000'000'000'000'000'000) << qint64(9'223'372'035'000'000'000) << qint64(0);
        QTest::newRow("the whole int64 range") << qint64(lx::kEarliestTimeNs) << qint64(lx::kLatestTimeNs) << qint64(0);
        QTest::newRow("the whole range at 1 s windows") << qint64(lx::kEarliestTimeNs) << qint64(lx::kLatestTimeNs) << S;
    }
    void loadProfileOverCenturies()
    {
        QFETCH(qint64, first);
        QFETCH(qint64, last);
        QFETCH(qint64, windowNs);
        const std::vector<lx::LatencyRow> rows = {rowAt(first, S), rowAt(last, S), rowAt(first / 2 + last / 2, 3600 * S)};
        for (bool untilLastEnd : {false, true}) {
            lx::LoadOptions options;
            options.windowNs = windowNs;
            options.untilLastEnd = untilLastEnd;
            const lx::LoadProfile p = lx::computeLoadProfile(rows, options);
            QVERIFY(!p.windows.empty());
            QVERIFY2(p.windows.size() <= lx::kMaxProfileWindows, QByteArray::number(qulonglong(p.windows.size())));
            QVERIFY(p.windowNs > 0);
            QVERIFY(p.windows.front().startNs <= first);
            QVERIFY(p.windows.back().startNs <= last);
            qint64 arrivals = 0;
            for (std::size_t i = 0; i < p.windows.size(); ++i) {
                arrivals += p.windows[i].arrivals;
                QVERIFY(p.windows[i].coveredNs >= 0 && p.windows[i].coveredNs <= p.windowNs);
                if (i > 0)
                    QVERIFY(p.windows[i].startNs > p.windows[i - 1].startNs); // no window start wrapped
            }
            QCOMPARE(arrivals, qint64(3));
        }
    }

    // Issue 14, point 3: --window 1ns aborted with std::bad_alloc; 1us on a 20 s trace took 3.9 GB.
    void windowBound_data()
    {
        QTest::addColumn<qint64>("windowNs");
        QTest::addColumn<qint64>("expectedWidth");
        QTest::addColumn<qint64>("requested");
        QTest::newRow("--window 1ns over 20 s aborted with bad_alloc") << qint64(1) << qint64(200'000) << qint64(1);
        QTest::newRow("--window 1us over 20 s took 3.9 GB") << qint64(1'000) << qint64(200'000) << qint64(1'000);
        QTest::newRow("--window 200us over 20 s: exactly the bound, as asked") << qint64(200'000) << qint64(200'000) << qint64(0);
        QTest::newRow("--window 1ms over 20 s: as asked") << qint64(1'000'000) << qint64(1'000'000) << qint64(0);
    }
    void windowBound()
    {
        QFETCH(qint64, windowNs);
        QFETCH(qint64, expectedWidth);
        QFETCH(qint64, requested);
        const qint64 t0 = 1'700'000'000 * S; // a whole second: 200 µs windows align on it
        std::vector<lx::LatencyRow> rows;
        for (int i = 0; i < 1000; ++i)
            rows.push_back(rowAt(t0 + qint64(i) * 20 * S / 1000, S / 10));
        rows.push_back(rowAt(t0 + 20 * S - 1, S / 10));
        lx::LoadOptions options;
        options.windowNs = windowNs;
        const lx::LoadProfile p = lx::computeLoadProfile(rows, options);
        QCOMPARE(p.windowNs, expectedWidth);
        QCOMPARE(p.requestedWindowNs, requested);
        QVERIFY(p.windows.size() <= lx::kMaxProfileWindows);
        QCOMPARE(qulonglong(p.windows.size()), qulonglong((20 * S + expectedWidth - 1) / expectedWidth));
    }

    // Issue 14, point 4: the serial LineReader held a whole line before the cap applied.
    void longLines_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("compress");
        QTest::addColumn<qint64>("accepted");
        QTest::addColumn<qint64>("longLine");
        QTest::addColumn<QString>("reason");
        const QByteArray pad(100'000, 'x');
        const QByteArray jsonl = native("a", "1000", "2000") + native("b", "1000", "2000").chopped(2) + ",\"pad\":\"" + pad
                                 + "\"}\n" + native("c", "1000", "2000");
        QTest::newRow("native JSON lines, serial read, held a 100 KB line whole")
            << "t.jsonl" << jsonl << false << qint64(2) << qint64(2) << "line longer than 1024 bytes: not read";
        QTest::newRow("native JSON lines in zstd, held a long line whole")
            << "t.jsonl.zst" << jsonl << true << qint64(2) << qint64(2) << "line longer than 1024 bytes: not read";
        QTest::newRow("long last line without a line end")
            << "t.jsonl" << native("a", "1000", "2000") + pad << false << qint64(1) << qint64(2) << "line longer than 1024 bytes: not read";
        QTest::newRow("native CSV, a long row")
            << "t.csv" << "id,t_server_recv_ns,t_server_send_ns\na,1,2\nb,1,2" + pad + "\nc,1,2\n" << false << qint64(2)
            << qint64(3) << "line longer than 1024 bytes: not read";
        QTest::newRow("native CSV, an unclosed quote joined the rest of the file")
            << "t.csv" << "id,t_server_recv_ns,t_server_send_ns\na,1,2\n\"b\n" + QByteArray(2000, '\n').replace("\n", "x,1,2\n") + "c,1,2\n"
            << false << qint64(-1) << qint64(3)
            << "a quoted field is still open after 1024 bytes (an unclosed quote?): not read; reading goes on at the next line";
        QTest::newRow("AIPerf, a long line")
            << "profile_export.jsonl" << aiperf("a", "1759522420573099587") + "{\"metadata\":\"" + pad + "\"}\n" + aiperf("c", "1759522420573099588")
            << false << qint64(2) << qint64(2) << "line longer than 1024 bytes: not read";
        QTest::newRow("Azure CSV, a long line")
            << "AzureLLMInferenceTrace_code.csv" << azure("2023-11-16 18:17:05") + pad + "\n2023-11-16 18:17:06,1,1\n" << false
            << qint64(3) << qint64(4) << "line longer than 1024 bytes: not read";
    }
    void longLines()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, text);
        QFETCH(bool, compress);
        QFETCH(qint64, accepted);
        QFETCH(qint64, longLine);
        QFETCH(QString, reason);
        if (compress) {
            text = lxtest::zstdCompress(text);
            if (text.isEmpty())
                QSKIP("the zstd command line tool is not installed");
        }
        QTemporaryDir dir;
        lx::ImportOptions options;
        options.parserThreads = 1; // the serial read: the parallel one is tst_parallel_parse's
        options.maxLineBytes = 1024;
        const Outcome o = importOne(writeFile(dir, name, text), options);
        QVERIFY2(o.file.outcome == lx::FileImport::Outcome::Complete, describe(o.file));
        if (accepted >= 0)
            QCOMPARE(o.file.accepted, accepted);
        QVERIFY2(!o.file.firstRejections.empty(), describe(o.file));
        QCOMPARE(o.file.firstRejections.at(0).line, longLine);
        QCOMPARE(QString::fromStdString(o.file.firstRejections.at(0).reason), reason);
    }

    void longLineIsNeverHeld()
    {
        // 10 MB in one line through a 64-byte chunk and a 1 KiB cap: the buffer never grows past the cap.
        QTemporaryDir dir;
        const std::string path = writeFile(dir, QStringLiteral("long.txt"), "short\n" + QByteArray(10'000'000, 'x') + "\nafter\n");
        std::string why;
        auto input = lx::InputFile::open(path, &why);
        QVERIFY2(input, why.c_str());
        lx::LineReader lines(*input, 64, 1024);
        std::vector<std::int64_t> refused;
        lines.setOversizedLineHandler([&](std::int64_t line, std::string_view head) {
            refused.push_back(line);
            QVERIFY(head.size() <= 256);
        });
        std::string_view line;
        std::int64_t number = 0;
        QVERIFY(lines.next(line, number));
        QCOMPARE(line, std::string_view("short"));
        QVERIFY(lines.next(line, number));
        QCOMPARE(line, std::string_view("after"));
        QCOMPARE(number, std::int64_t(3));
        QVERIFY(lines.capacityAfter(line.data()) <= 4096 + lx::kLinePadding); // the cap, or the sniffers' 4 KiB head
        QVERIFY(!lines.next(line, number));
        QCOMPARE(refused, std::vector<std::int64_t>{2});
    }

    // Issue 14, point 4: a single-document reader read a 600 MiB document whole before refusing nothing.
    void documentCap_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("text");
        const QByteArray many = QByteArray("0.01,").repeated(1000).chopped(1);
        QTest::newRow("vLLM bench JSON on one line past the cap")
            << "vllm.json" << R"({"backend":"vllm","num_prompts":1000,"model_id":"m","ttfts":[)" + many + "]}\n";
        QTest::newRow("vLLM bench JSON pretty-printed past the cap")
            << "vllm.json" << "{\n\"backend\": \"vllm\",\n\"ttfts\": [\n" + QByteArray(many).replace(",", ",\n") + "\n]\n}\n";
        QTest::newRow("LLMPerf responses past the cap")
            << "llmperf_individual_responses.json"
            << "[" + QByteArray(R"({"ttft_s":0.1,"end_to_end_latency_s":0.5},)").repeated(100) + R"({"ttft_s":0.1,"end_to_end_latency_s":0.5}])";
    }
    void documentCap()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, text);
        QTemporaryDir dir;
        lx::ImportOptions options;
        options.maxDocumentBytes = 1024;
        const Outcome o = importOne(writeFile(dir, name, text), options);
        QCOMPARE(o.file.outcome, lx::FileImport::Outcome::Unreadable);
        QCOMPARE(QString::fromStdString(o.file.message), QStringLiteral("the JSON document is larger than 1024 bytes: not read"));
        QCOMPARE(o.file.accepted, qint64(0));
        QCOMPARE(o.file.rejected, qint64(0));
    }

    // Durations typed as options: the fraction carried the product past int64 and wrapped.
    void durationOptionsOutOfRange_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ns"); // -1: refused
        QTest::newRow("9223372036.9s wrapped to a negative window") << "9223372036.9s" << qint64(-1);
        QTest::newRow("9223372036.8s is the last whole-ns duration below it") << "9223372036.8s" << qint64(9'223'372'036'800'000'000);
        QTest::newRow("99999999999999999999ns") << "99999999999999999999ns" << qint64(-1);
    }
    void durationOptionsOutOfRange()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ns);
        std::string why;
        const auto parsed = lx::parseDurationNs(text.toStdString(), &why);
        if (ns < 0) {
            QVERIFY(!parsed);
            QCOMPARE(QString::fromStdString(why), QStringLiteral("the duration \"%1\" is out of range").arg(text));
        } else {
            QCOMPARE(parsed.value_or(-1), ns);
        }
    }

    // A span mapping file was read whole, whatever its size (--mapping /dev/zero never ended).
    void spanMappingFileBound()
    {
        QTemporaryDir dir;
        const std::string path = writeFile(dir, QStringLiteral("big.json"), "[" + QByteArray(2 << 20, ' ') + "]");
        std::string why;
        QVERIFY(!lx::loadSpanMappings(path, &why));
        QCOMPARE(why, "mapping file " + path + ": larger than 1 MiB, so not a span mapping");
    }

    // Issue 14, points 1 and 3 through the CLI: no abort, no temporary store left behind.
    void cli_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("options"); // the command and its options; OUT: a file in a temporary folder
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("AIPerf 9223372036854775807 and -1e18 aborted report")
            << "profile_export.jsonl" << aiperf("a", "9223372036854775807") + aiperf("b", "-1e18") + aiperf("c", "1759522420573099587")
            << QStringList{QStringLiteral("report")} << 0 << "2 accepted, 1 rejected";
        QTest::newRow("native -1e18 and 9.223372035e18 aborted report")
            << "t.jsonl" << native("a", "-1000000000000000000", "-999999999000000000") + native("b", "9.223372035e18", "9.223372035e18")
            << QStringList{QStringLiteral("report")} << 0 << "2 accepted, 0 rejected";
        QTest::newRow("Azure 2263 aborted report")
            << "AzureLLMInferenceTrace_code.csv" << azure("2263-11-16 18:17:04.3007620") << QStringList{QStringLiteral("report")} << 0 << "1 accepted, 1 rejected";
        const QByteArray centuries = native("a", "-1000000000000000000", "-999999999000000000") + native("b", "0", "1000000000")
                                     + native("c", "9223372035000000000", "9223372035100000000");
        for (const char *chart : {"load", "waterfall", "dominant", "cdf"}) {
            QTest::newRow(qPrintable(QStringLiteral("plot --chart %1 over 1938 to 2262").arg(QLatin1String(chart))))
                << "t.jsonl" << centuries
                << QStringList{QStringLiteral("plot"), QStringLiteral("--chart"), QLatin1String(chart), QStringLiteral("--out"), QStringLiteral("OUT.png")}
                << 0 << "3 accepted, 0 rejected";
        }
        QTest::newRow("report --format md over 1938 to 2262")
            << "t.jsonl" << centuries << QStringList{QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("--out"), QStringLiteral("OUT.md")}
            << 0 << "3 accepted, 0 rejected";
        QTest::newRow("--window 1ns aborted with bad_alloc")
            << "t.jsonl" << native("a", "1700000000000000000", "1700000000100000000") + native("b", "1700000020000000000", "1700000020100000000")
            << QStringList{QStringLiteral("report"), QStringLiteral("--window"), QStringLiteral("1ns")} << 0
            << "report: --window 1ns would make more than 100,000 windows over this trace; widened to 500 µs";
        QTest::newRow("--window 1us on a 20 s trace took 3.9 GB")
            << "t.jsonl" << native("a", "1700000000000000000", "1700000000100000000") + native("b", "1700000020000000000", "1700000020100000000")
            << QStringList{QStringLiteral("report"), QStringLiteral("--json"), QStringLiteral("--window"), QStringLiteral("1us")} << 0
            << "report: --window 1us would make more than 100,000 windows over this trace; widened to 500 µs";
    }
    void cli()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, text);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrHas);
        QTemporaryDir dir, tmp;
        const std::string path = writeFile(dir, name, text);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("TMPDIR"), tmp.path());
        const QString out = dir.filePath(QStringLiteral("out"));
        const bool writesFile = !options.filter(QStringLiteral("OUT")).isEmpty();
        options.replaceInStrings(QStringLiteral("OUT"), out);
        const lxtest::CliRun run = lxtest::runCli(QStringLiteral(LX_CLI_PATH), options + QStringList{QString::fromStdString(path)}, environment);
        QVERIFY2(run.exitCode == exitCode, run.err.constData());
        QVERIFY2(QString::fromUtf8(run.err).contains(stderrHas), run.err.constData());
        QCOMPARE(leftoverStores(tmp.path()), QStringList());
        if (writesFile)
            QVERIFY(!QDir(dir.path()).entryList({QStringLiteral("out.*")}, QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostile_input.moc"
