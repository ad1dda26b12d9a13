// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulation/server_simulation.h"
#include "simulation/trace_output.h"
#include "simulation/trace_writers.h"

#include <QTest>

#include <algorithm>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace lx;
using namespace lx::sim;

namespace {

std::string generate(const SimConfig &config, TraceForm form)
{
    std::string text;
    if (form == TraceForm::Csv)
        appendCsvHeader(text);
    simulate(config, [&](const SimRequest &r) { appendRecord(text, form, r); });
    return text;
}

/// FNV-1a: a platform-independent digest for the golden check.
std::uint64_t fnv1a(std::string_view text)
{
    std::uint64_t h = 14695981039346656037ull;
    for (char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ull;
    }
    return h;
}

/// The segments of a request with every stamp, computed here from the definitions in docs/DOMAIN.md
/// rather than with decompose(), so the check does not depend on the code it could share a bug with.
std::array<std::int64_t, kSegmentCount> segmentsOf(const SimRequest &r)
{
    const auto t = [&r](Stamp s) { return r.stamp(s); };
    std::array<std::int64_t, kSegmentCount> s{};
    s[0] = (t(Stamp::ServerRecv) - t(Stamp::ClientSend)) + (t(Stamp::ClientRecv) - t(Stamp::ServerSend));
    s[1] = t(Stamp::PreprocessDone) - t(Stamp::ServerRecv);
    s[2] = t(Stamp::Sched) - t(Stamp::PreprocessDone);
    s[3] = t(Stamp::FirstToken) - t(Stamp::Sched);
    s[4] = t(Stamp::LastToken) - t(Stamp::FirstToken);
    s[5] = t(Stamp::ServerSend) - t(Stamp::LastToken);
    s[6] = (t(Stamp::ClientRecv) - t(Stamp::ClientSend)) - (s[0] + s[1] + s[2] + s[3] + s[4] + s[5]);
    return s;
}

/// Splits one RFC 4180 record (no line break inside) into its fields, undoing the quoting.
std::vector<std::string> splitCsv(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[++i];
            else if (c == '"')
                quoted = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<std::string> lines(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

} // namespace

class TestSimulation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameSeedSameBytes_data();
    void sameSeedSameBytes();
    void goldenOutput_data();
    void goldenOutput();
    void differentSeedsDiffer_data();
    void differentSeedsDiffer();
    void tokenTimesLeaveOtherFieldsAlone_data();
    void tokenTimesLeaveOtherFieldsAlone();
    void emitsRequestedCountInArrivalOrder_data();
    void emitsRequestedCountInArrivalOrder();
    void stampsAreConsistent_data();
    void stampsAreConsistent();
    void csvRoundTripsFields_data();
    void csvRoundTripsFields();
    void csvQuotesFieldsThatNeedIt_data();
    void csvQuotesFieldsThatNeedIt();
    void millisecondsAreExact_data();
    void millisecondsAreExact();
    void kneeMovesDominanceFromDecodeToQueue_data();
    void kneeMovesDominanceFromDecodeToQueue();
    void zstdOutputIsAFrame_data();
    void zstdOutputIsAFrame();
    void invalidConfigIsRejected_data();
    void invalidConfigIsRejected();
    void clientLineIsAiperf_data();
    void clientLineIsAiperf();
    void loadShapeNames_data();
    void loadShapeNames();
    void arrivalsFollowTheShape_data();
    void arrivalsFollowTheShape();
    void capacityIsTheSaturatedThroughput_data();
    void capacityIsTheSaturatedThroughput();
};

void TestSimulation::sameSeedSameBytes_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("tokenTimesEvery");
    QTest::newRow("timestamps") << int(TraceForm::Timestamps) << quint64(42) << 0;
    QTest::newRow("timestamps with token times") << int(TraceForm::Timestamps) << quint64(42) << 3;
    QTest::newRow("durations") << int(TraceForm::Durations) << quint64(7) << 0;
    QTest::newRow("csv") << int(TraceForm::Csv) << quint64(1) << 0;
    QTest::newRow("otlp") << int(TraceForm::Otlp) << quint64(3) << 0;
    QTest::newRow("client with token times") << int(TraceForm::Client) << quint64(3) << 2;
    QTest::newRow("largest seed") << int(TraceForm::Timestamps) << std::numeric_limits<quint64>::max() << 0;
}

void TestSimulation::sameSeedSameBytes()
{
    QFETCH(int, form);
    QFETCH(quint64, seed);
    QFETCH(int, tokenTimesEvery);
    SimConfig config;
    config.seed = seed;
    config.requests = 500;
    config.tokenTimesEvery = tokenTimesEvery;
    const std::string first = generate(config, static_cast<TraceForm>(form));
    const std::string second = generate(config, static_cast<TraceForm>(form));
    QVERIFY(first.size() > 500 * 100);
    QVERIFY2(first == second, "the same seed must give byte-identical output");
}

// The digests pin the output: if a platform, compiler or standard library changes a single byte, this
// fails there. They were taken on Linux/x86-64 with GCC 12 and Clang 14; change them only with the model.
// The long row is there because rounding differences are rare: fused multiply-adds (see sim_random.h)
// showed up only after some 20,000 requests.
void TestSimulation::goldenOutput_data()
{
    QTest::addColumn<int>("form");
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<qint64>("requests");
    QTest::addColumn<quint64>("digest");
    QTest::newRow("timestamps seed 42") << int(TraceForm::Timestamps) << quint64(42) << qint64(300)
                                        << quint64(7283597629446770692ull);
    QTest::newRow("durations seed 42") << int(TraceForm::Durations) << quint64(42) << qint64(300)
                                       << quint64(7091861217588560789ull);
    QTest::newRow("csv seed 7") << int(TraceForm::Csv) << quint64(7) << qint64(300) << quint64(14115570771618202220ull);
    QTest::newRow("timestamps 50000 requests") << int(TraceForm::Timestamps) << quint64(42) << qint64(50000)
                                               << quint64(17145058203547459289ull);
}

void TestSimulation::goldenOutput()
{
    QFETCH(int, form);
    QFETCH(quint64, seed);
    QFETCH(qint64, requests);
    QFETCH(quint64, digest);
    SimConfig config;
    config.seed = seed;
    config.requests = requests;
    config.tokenTimesEvery = 10;
    QCOMPARE(quint64(fnv1a(generate(config, static_cast<TraceForm>(form)))), digest);
}

void TestSimulation::differentSeedsDiffer_data()
{
    QTest::addColumn<quint64>("seedA");
    QTest::addColumn<quint64>("seedB");
    QTest::newRow("42 vs 43") << quint64(42) << quint64(43);
    QTest::newRow("0 vs 1") << quint64(0) << quint64(1);
    QTest::newRow("small vs large") << quint64(5) << quint64(5) + (quint64(1) << 63);
}

void TestSimulation::differentSeedsDiffer()
{
    QFETCH(quint64, seedA);
    QFETCH(quint64, seedB);
    SimConfig a;
    a.seed = seedA;
    a.requests = 200;
    SimConfig b = a;
    b.seed = seedB;
    const std::vector<std::string> linesA = lines(generate(a, TraceForm::Timestamps));
    const std::vector<std::string> linesB = lines(generate(b, TraceForm::Timestamps));
    QCOMPARE(linesA.size(), linesB.size());
    // Not just one differing byte: nearly every request must differ.
    std::size_t same = 0;
    for (std::size_t i = 0; i < linesA.size(); ++i)
        same += linesA[i] == linesB[i] ? 1 : 0;
    QVERIFY2(same < linesA.size() / 20, "different seeds must give different requests");
}

void TestSimulation::tokenTimesLeaveOtherFieldsAlone_data()
{
    QTest::addColumn<int>("every");
    QTest::newRow("every request") << 1;
    QTest::newRow("every 3rd") << 3;
    QTest::newRow("every 10th") << 10;
}

// Token times come from a generator of their own, so asking for them must not move any other field:
// the durations form, which has no token times, stays the same byte for byte.
void TestSimulation::tokenTimesLeaveOtherFieldsAlone()
{
    QFETCH(int, every);
    SimConfig without;
    without.requests = 400;
    SimConfig with = without;
    with.tokenTimesEvery = every;
    QVERIFY(generate(with, TraceForm::Durations) == generate(without, TraceForm::Durations));
    QVERIFY(generate(with, TraceForm::Timestamps).size() > generate(without, TraceForm::Timestamps).size());
}

void TestSimulation::emitsRequestedCountInArrivalOrder_data()
{
    QTest::addColumn<qint64>("requests");
    QTest::addColumn<int>("decodeSlots");
    QTest::newRow("one request") << qint64(1) << 32;
    QTest::newRow("two requests") << qint64(2) << 32;
    QTest::newRow("one slot, long queue") << qint64(300) << 1;
    QTest::newRow("many slots") << qint64(1000) << 4096;
    QTest::newRow("default") << qint64(2000) << 32;
}

void TestSimulation::emitsRequestedCountInArrivalOrder()
{
    QFETCH(qint64, requests);
    QFETCH(int, decodeSlots);
    SimConfig config;
    config.requests = requests;
    config.decodeSlots = decodeSlots;
    std::int64_t count = 0;
    std::int64_t previousRecv = std::numeric_limits<std::int64_t>::min();
    std::set<std::string> ids;
    simulate(config, [&](const SimRequest &r) {
        QCOMPARE(r.index, count);
        // Arrival order is the order the requests reach the server.
        QVERIFY(r.stamp(Stamp::ServerRecv) >= previousRecv);
        previousRecv = r.stamp(Stamp::ServerRecv);
        ids.insert(r.id);
        ++count;
    });
    QCOMPARE(count, requests);
    QCOMPARE(qint64(ids.size()), requests);
}

void TestSimulation::stampsAreConsistent_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<int>("decodeSlots");
    QTest::addColumn<double>("errorRate");
    QTest::addColumn<double>("skewRate");
    QTest::newRow("defaults") << quint64(42) << 32 << 0.01 << 0.002;
    QTest::newRow("every request fails") << quint64(3) << 32 << 1.0 << 0.0;
    QTest::newRow("every client clock skewed") << quint64(4) << 32 << 0.0 << 1.0;
    QTest::newRow("no errors, no skew") << quint64(5) << 32 << 0.0 << 0.0;
    QTest::newRow("one slot") << quint64(6) << 1 << 0.05 << 0.05;
}

void TestSimulation::stampsAreConsistent()
{
    QFETCH(quint64, seed);
    QFETCH(int, decodeSlots);
    QFETCH(double, errorRate);
    QFETCH(double, skewRate);
    SimConfig config;
    config.seed = seed;
    config.requests = 1500;
    config.decodeSlots = decodeSlots;
    config.errorRate = errorRate;
    config.skewRate = skewRate;
    config.tokenTimesEvery = 7;
    std::int64_t errors = 0, skewed = 0;
    simulate(config, [&](const SimRequest &r) {
        std::int64_t previous = std::numeric_limits<std::int64_t>::min();
        for (int i = int(Stamp::ServerRecv); i <= int(Stamp::ServerSend); ++i) {
            if (!isMeasured(r.stamps[i]))
                continue;
            QVERIFY2(r.stamps[i] >= previous, r.id.c_str());
            previous = r.stamps[i];
        }
        for (Stamp s : {Stamp::ClientSend, Stamp::ServerRecv, Stamp::PreprocessDone, Stamp::ServerSend, Stamp::ClientRecv})
            QVERIFY(isMeasured(r.stamp(s)));
        QVERIFY(r.stamp(Stamp::ClientRecv) > r.stamp(Stamp::ClientSend));
        QVERIFY(r.inputTokens >= 1);
        errors += r.status == Status::Error ? 1 : 0;
        if (r.status == Status::Ok) {
            QVERIFY(isMeasured(r.stamp(Stamp::Sched)) && isMeasured(r.stamp(Stamp::LastToken)));
            QVERIFY(r.outputTokens >= 1);
            const auto seg = segmentsOf(r);
            QCOMPARE(seg[int(Segment::Unattributed)], std::int64_t(0)); // every stamp present: nothing missing
            QVERIFY(seg[int(Segment::Network)] > 0);                   // the skew cancels over the round trip
        }
        // Clock skew shows as a negative inbound network time, never as a broken server order.
        skewed += r.stamp(Stamp::ServerRecv) < r.stamp(Stamp::ClientSend) ? 1 : 0;
        if (!r.tokenTimes.empty()) {
            QCOMPARE(std::int64_t(r.tokenTimes.size()), r.outputTokens);
            QCOMPARE(r.tokenTimes.front(), r.stamp(Stamp::FirstToken));
            QCOMPARE(r.tokenTimes.back(), r.stamp(Stamp::LastToken));
            QVERIFY(std::is_sorted(r.tokenTimes.begin(), r.tokenTimes.end()));
        }
    });
    const double n = double(config.requests);
    QVERIFY2(std::abs(errors / n - errorRate) <= 0.02, qPrintable(QString::number(errors)));
    QVERIFY2(std::abs(skewed / n - skewRate) <= 0.02, qPrintable(QString::number(skewed)));
}

void TestSimulation::csvRoundTripsFields_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::newRow("seed 42") << quint64(42);
    QTest::newRow("seed 2024") << quint64(2024);
}

void TestSimulation::csvRoundTripsFields()
{
    QFETCH(quint64, seed);
    SimConfig config;
    config.seed = seed;
    config.requests = 400;
    const std::vector<std::string> rows = lines(generate(config, TraceForm::Csv));
    QCOMPARE(qint64(rows.size()), config.requests + 1);
    const std::vector<std::string> header = splitCsv(rows.front());
    std::vector<std::string> expected = {"id", "status", "model", "route", "input_tokens", "output_tokens",
                                         "region", "user_agent"};
    for (int i = 0; i < kStampCount; ++i)
        expected.push_back(std::string(stampName(Stamp(i))) + "_ns");
    QCOMPARE(header.size(), expected.size());
    for (const std::string &name : expected)
        QVERIFY2(std::find(header.begin(), header.end(), name) != header.end(), name.c_str());
    const auto column = [&header](std::string_view name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    bool sawQuoted = false;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const std::vector<std::string> fields = splitCsv(rows[i]);
        QCOMPARE(fields.size(), header.size());
        sawQuoted = sawQuoted || rows[i].find('"') != std::string::npos;
        QVERIFY(fields[column("user_agent")].find('"') == std::string::npos);
    }
    QVERIFY2(sawQuoted, "some user agents contain a comma and must be quoted");
}

void TestSimulation::csvQuotesFieldsThatNeedIt_data()
{
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<bool>("quoted");
    QTest::newRow("plain") << QByteArray("llama") << false;
    QTest::newRow("comma") << QByteArray("a,b") << true;
    QTest::newRow("quote") << QByteArray("say \"hi\"") << true;
    QTest::newRow("line break") << QByteArray("two\nlines") << true;
    QTest::newRow("carriage return") << QByteArray("cr\rhere") << true;
    QTest::newRow("empty") << QByteArray() << false;
}

void TestSimulation::csvQuotesFieldsThatNeedIt()
{
    QFETCH(QByteArray, model);
    QFETCH(bool, quoted);
    SimRequest r;
    r.id = "r1";
    r.model = model.toStdString();
    r.stamps.fill(kNotMeasured);
    std::string row;
    appendCsvRow(row, r);
    QCOMPARE(row.back(), '\n');
    row.pop_back();
    QCOMPARE(row.find('"') != std::string::npos, quoted);
    if (r.model.find_first_of("\r\n") == std::string::npos) {
        const std::vector<std::string> fields = splitCsv(row);
        QCOMPARE(fields.size(), std::size_t(8 + kStampCount));
        QCOMPARE(QByteArray::fromStdString(fields[1]), model);
    }
    // The same text survives JSON escaping as well: no raw quote or control character inside the string.
    std::string json;
    appendTimestampsLine(json, r);
    QCOMPARE(std::count(json.begin(), json.end(), '\n'), std::ptrdiff_t(1));
}

void TestSimulation::millisecondsAreExact_data()
{
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("zero") << qint64(0) << QByteArray("0.000000");
    QTest::newRow("one ns") << qint64(1) << QByteArray("0.000001");
    QTest::newRow("minus one ns") << qint64(-1) << QByteArray("-0.000001");
    QTest::newRow("one ms") << qint64(1000000) << QByteArray("1.000000");
    QTest::newRow("long") << qint64(1234567890123) << QByteArray("1234567.890123");
    QTest::newRow("int64 min") << std::numeric_limits<qint64>::min() << QByteArray("-9223372036854.775808");
    QTest::newRow("int64 max") << std::numeric_limits<qint64>::max() << QByteArray("9223372036854.775807");
}

void TestSimulation::millisecondsAreExact()
{
    QFETCH(qint64, ns);
    QFETCH(QByteArray, text);
    std::string out;
    appendMilliseconds(out, ns);
    QCOMPARE(QByteArray::fromStdString(out), text);
}

void TestSimulation::kneeMovesDominanceFromDecodeToQueue_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<qint64>("requests");
    QTest::newRow("sample jsonl") << quint64(42) << qint64(1500);
    QTest::newRow("sample csv seed") << quint64(7) << qint64(1500);
    QTest::newRow("small") << quint64(11) << qint64(500);
    QTest::newRow("larger") << quint64(2024) << qint64(5000);
}

void TestSimulation::kneeMovesDominanceFromDecodeToQueue()
{
    QFETCH(quint64, seed);
    QFETCH(qint64, requests);
    SimConfig config;
    config.seed = seed;
    config.requests = requests;
    // The knee must lie between the two windows for the check to mean anything.
    QVERIFY(kneeArrivalFraction(config) > 0.2 && kneeArrivalFraction(config) < 0.8);

    struct Window {
        double ok = 0, decode = 0, queue = 0, queueNs = 0, e2eNs = 0;
    } early, late;
    simulate(config, [&](const SimRequest &r) {
        if (r.status != Status::Ok)
            return;
        Window *w = r.index < requests / 5 ? &early : r.index >= requests - requests / 5 ? &late : nullptr;
        if (!w)
            return;
        const auto seg = segmentsOf(r);
        // The largest segment, ties to the earlier one in pipeline order.
        const auto dominant = std::max_element(seg.begin(), seg.end()) - seg.begin();
        w->ok += 1;
        w->decode += dominant == int(Segment::Decode) ? 1 : 0;
        w->queue += dominant == int(Segment::Queue) ? 1 : 0;
        w->queueNs += double(seg[int(Segment::Queue)]);
        w->e2eNs += double(r.stamp(Stamp::ClientRecv) - r.stamp(Stamp::ClientSend));
    });
    const QByteArray shares = "early decode " + QByteArray::number(early.decode / early.ok) + ", late queue "
                              + QByteArray::number(late.queue / late.ok);
    QVERIFY2(early.decode / early.ok >= 0.8, shares.constData());
    QVERIFY2(late.queue / late.ok >= 0.8, shares.constData());
    // Below the knee the queue is near-empty; past it, it holds most of the end-to-end time.
    QVERIFY2(early.queueNs / early.e2eNs < 0.05, shares.constData());
    QVERIFY2(late.queueNs / late.e2eNs > 0.5, shares.constData());
}

void TestSimulation::zstdOutputIsAFrame_data()
{
    QTest::addColumn<bool>("compress");
    QTest::newRow("plain") << false;
    QTest::newRow("zstd") << true;
}

void TestSimulation::zstdOutputIsAFrame()
{
    QFETCH(bool, compress);
    std::ostringstream stream(std::ios::binary);
    TraceOutput output(stream, compress);
    const std::string text = generate(SimConfig{}, TraceForm::Timestamps);
    // Several writes, as the CLI makes them.
    QVERIFY(output.write(std::string_view(text).substr(0, 1000)));
    QVERIFY(output.write(std::string_view(text).substr(1000)));
    QVERIFY(output.finish());
    QVERIFY(output.error().empty());
    QCOMPARE(output.bytesIn(), std::uint64_t(text.size()));
    const std::string bytes = stream.str();
    QCOMPARE(output.bytesWritten(), std::uint64_t(bytes.size()));
    if (!compress) {
        QVERIFY(bytes == text);
        return;
    }
    QVERIFY(bytes.size() < text.size() / 4);
    QCOMPARE(QByteArray::fromStdString(bytes.substr(0, 4)), QByteArray("\x28\xb5\x2f\xfd", 4)); // zstd's magic
}

void TestSimulation::invalidConfigIsRejected_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QByteArray>("reason");
    QTest::newRow("no requests") << 0 << QByteArray("number of requests");
    QTest::newRow("zero rate") << 1 << QByteArray("rates must be positive");
    QTest::newRow("no slots") << 2 << QByteArray("number of slots");
    QTest::newRow("error rate above one") << 3 << QByteArray("error and skew rates");
    QTest::newRow("negative token times every") << 4 << QByteArray("K >= 0");
    QTest::newRow("unknown load shape") << 5 << QByteArray("load shape");
}

void TestSimulation::invalidConfigIsRejected()
{
    QFETCH(int, which);
    QFETCH(QByteArray, reason);
    SimConfig config;
    switch (which) {
    case 0: config.requests = 0; break;
    case 1: config.startRateRps = 0; break;
    case 2: config.decodeSlots = 0; break;
    case 3: config.errorRate = 1.5; break;
    case 4: config.tokenTimesEvery = -1; break;
    default: config.shape = static_cast<LoadShape>(7); break;
    }
    const std::string why = validateConfig(config);
    QVERIFY2(why.find(reason.toStdString()) != std::string::npos, why.c_str());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(config, [](const SimRequest &) {}));
}

void TestSimulation::clientLineIsAiperf_data()
{
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("expected");
    // Send 1000, server 1500..3100, receive 3400: the response delay is 300 ns, so the client sees the
    // first token at 2000 + 300, TTFT 1300; the chunk gaps are the token gaps; request latency 2400.
    QTest::newRow("ok with token times")
        << true
        << QByteArray(R"({"metadata":{"x_request_id":"r1","timestamp_ns":1000,"credit_phase":"profiling"},"metrics":{)"
                      R"("input_sequence_length":{"value":5,"unit":"tokens"},"output_sequence_length":{"value":3,"unit":"tokens"},)"
                      R"("ttft":{"value":1300,"unit":"ns"},"request_latency":{"value":2400,"unit":"ns"},)"
                      R"("inter_chunk_latency":{"value":[400,600],"unit":"ns"}},"error":null})" "\n");
    // Refused in preprocess: no first token, so no TTFT and no chunks; AIPerf's error object.
    QTest::newRow("error before the first token")
        << false
        << QByteArray(R"({"metadata":{"x_request_id":"r1","timestamp_ns":1000,"credit_phase":"profiling"},"metrics":{)"
                      R"("input_sequence_length":{"value":5,"unit":"tokens"},"output_sequence_length":{"value":3,"unit":"tokens"},)"
                      R"("request_latency":{"value":2400,"unit":"ns"}},)"
                      R"("error":{"code":500,"type":"InternalServerError","message":"simulated failure"}})" "\n");
}

void TestSimulation::clientLineIsAiperf()
{
    QFETCH(bool, ok);
    QFETCH(QByteArray, expected);
    SimRequest r;
    r.id = "r1";
    r.status = ok ? lx::Status::Ok : lx::Status::Error;
    r.inputTokens = 5;
    r.outputTokens = 3;
    r.stamps = {1000, 1500, 1600, 1700, 2000, 3000, 3100, 3400};
    if (ok) {
        r.tokenTimes = {2000, 2400, 3000};
    } else {
        for (lx::Stamp stamp : {lx::Stamp::Sched, lx::Stamp::FirstToken, lx::Stamp::LastToken})
            r.stamps[static_cast<int>(stamp)] = lx::kNotMeasured;
    }
    std::string line;
    lx::sim::appendClientLine(line, r);
    QCOMPARE(QByteArray::fromStdString(line), expected);
    QCOMPARE(lx::sim::traceFormFromName("client"), std::optional<TraceForm>(TraceForm::Client));
}

QTEST_GUILESS_MAIN(TestSimulation)
#include "tst_simulation.moc"

void TestSimulation::loadShapeNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("shape"); // -1: not a shape
    QTest::newRow("ramp") << QStringLiteral("ramp") << int(LoadShape::Ramp);
    QTest::newRow("step") << QStringLiteral("step") << int(LoadShape::Step);
    QTest::newRow("diurnal") << QStringLiteral("diurnal") << int(LoadShape::Diurnal);
    QTest::newRow("unknown") << QStringLiteral("sawtooth") << -1;
    QTest::newRow("case matters") << QStringLiteral("Ramp") << -1;
    QTest::newRow("empty") << QString() << -1;
}

void TestSimulation::loadShapeNames()
{
    QFETCH(QString, name);
    QFETCH(int, shape);
    const std::string text = name.toStdString();
    const std::optional<LoadShape> parsed = loadShapeFromName(text);
    QCOMPARE(parsed ? int(*parsed) : -1, shape);
    if (parsed)
        QCOMPARE(loadShapeName(*parsed), std::string_view(text));
}

// The arrivals in each twelfth of the trace are what the shape's offered load expects there, within
// five standard deviations of a Poisson count (and two arrivals of rounding).
void TestSimulation::arrivalsFollowTheShape_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<double>("startRate");
    QTest::addColumn<double>("endRate");
    QTest::newRow("ramp up") << int(LoadShape::Ramp) << 1.0 << 18.0;
    QTest::newRow("ramp down") << int(LoadShape::Ramp) << 12.0 << 2.0;
    QTest::newRow("flat") << int(LoadShape::Ramp) << 5.0 << 5.0;
    QTest::newRow("step up") << int(LoadShape::Step) << 2.0 << 14.0;
    QTest::newRow("step down") << int(LoadShape::Step) << 14.0 << 2.0;
    QTest::newRow("diurnal") << int(LoadShape::Diurnal) << 1.0 << 15.0;
}

void TestSimulation::arrivalsFollowTheShape()
{
    QFETCH(int, shape);
    QFETCH(double, startRate);
    QFETCH(double, endRate);
    SimConfig config;
    config.shape = LoadShape(shape);
    config.startRateRps = startRate;
    config.endRateRps = endRate;
    config.requests = 24000;
    const OfferedLoad load(config.shape, startRate, endRate, double(config.requests));
    constexpr int kSlices = 12;
    std::array<double, kSlices> counts{};
    simulate(config, [&](const SimRequest &r) {
        const double t = double(r.stamp(Stamp::ServerRecv) - config.startTimeNs) / 1e9;
        counts[std::size_t(std::clamp(int(t / load.duration() * kSlices), 0, kSlices - 1))] += 1;
    });
    // Not the last slice: the trace ends with its last request, a few hundred arrivals before or after the
    // expected end (the sum of 24000 unit exponentials is 24000 give or take 155).
    for (int i = 0; i + 1 < kSlices; ++i) {
        const double expected = load.arrivalsBefore(load.duration() * (i + 1) / kSlices) - load.arrivalsBefore(load.duration() * i / kSlices);
        QVERIFY2(std::abs(counts[std::size_t(i)] - expected) <= 5 * std::sqrt(expected) + 2,
                 qPrintable(QStringLiteral("slice %1: %2 arrivals, %3 expected").arg(i).arg(counts[std::size_t(i)]).arg(expected)));
    }
    // The shapes' turning points: a step's rate jumps halfway, a diurnal load peaks mid-cycle.
    const double mid = load.duration() / 2;
    if (config.shape == LoadShape::Step) {
        QCOMPARE(load.rateAt(0.99 * mid), startRate);
        QCOMPARE(load.rateAt(1.01 * mid), endRate);
    } else if (config.shape == LoadShape::Diurnal) {
        const double cycle = load.duration() / kDiurnalCycles;
        QVERIFY(std::abs(load.rateAt(cycle / 2) - endRate) < 1e-9 * endRate);
        QVERIFY(std::abs(load.rateAt(cycle) - startRate) < 1e-9 * endRate);
    }
}

// The capacity the tests of the knee hold it to is what the server completes with every slot busy: under
// a constant offered load of twice the estimate, the completions per second once the queue has built up.
void TestSimulation::capacityIsTheSaturatedThroughput_data()
{
    QTest::addColumn<int>("decodeSlots");
    QTest::newRow("8 slots") << 8;
    QTest::newRow("16 slots") << 16;
    QTest::newRow("64 slots") << 64;
    QTest::newRow("256 slots") << 256;
}

void TestSimulation::capacityIsTheSaturatedThroughput()
{
    QFETCH(int, decodeSlots);
    SimConfig config;
    config.decodeSlots = decodeSlots;
    config.startRateRps = config.endRateRps = 2 * estimatedCapacityRps(config);
    config.requests = 20000;
    std::vector<std::int64_t> ends;
    simulate(config, [&](const SimRequest &r) {
        if (isMeasured(r.stamp(Stamp::LastToken)))
            ends.push_back(r.stamp(Stamp::LastToken));
    });
    std::sort(ends.begin(), ends.end());
    // The middle half of the completions: past the first requests, which found free slots, and before the
    // arrivals stop.
    const std::size_t from = ends.size() / 4, to = ends.size() / 2;
    const double measured = double(to - from) / (double(ends[to] - ends[from]) / 1e9);
    const double estimate = estimatedCapacityRps(config);
    QVERIFY2(std::abs(measured - estimate) <= 0.04 * estimate,
             qPrintable(QStringLiteral("measured %1 req/s, estimated %2").arg(measured).arg(estimate)));
}
