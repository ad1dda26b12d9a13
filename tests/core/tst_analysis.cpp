// SPDX-License-Identifier: GPL-3.0-or-later
// The report over a store: counts, filters, scopes, dominant shares, and percentiles that agree with an
// independent computation (sort everything, interpolate) to well under 1 µs.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "model/segments.h"
#include "store/latency_rows.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>
#include <stdexcept>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
constexpr qint64 MS = 1'000'000;

using Fixture = lxtest::StoreFixture;

/// One timestamps-form line with stamps given as ms after T0 + startMs (-1 = absent).
QByteArray line(const char *id, qint64 startMs, std::initializer_list<qint64> offsetsMs, const char *extra = "")
{
    static const char *names[] = {"t_client_send_ns", "t_server_recv_ns", "t_preprocess_done_ns", "t_sched_ns",
                                  "t_first_token_ns", "t_last_token_ns", "t_server_send_ns", "t_client_recv_ns"};
    QByteArray out = QByteArray("{\"id\":\"") + id + "\"" + extra;
    int i = 0;
    for (qint64 ms : offsetsMs) {
        if (ms >= 0)
            out += QByteArray(",\"") + names[i] + "\":" + QByteArray::number(T0 + (startMs + ms) * MS);
        ++i;
    }
    return out + "}\n";
}

double ms(const std::optional<double> &ns) { return ns ? *ns / 1e6 : -1.0; }

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

private slots:
    void countsAndDominant()
    {
        Fixture f(line("a", 0, {-1, 0, 1, 11, 21, 121, 122, -1}, ",\"status\":\"ok\"")        // decode 100
                  + line("b", 10, {-1, 0, 1, 201, 211, 261, 262, -1}, ",\"status\":\"ok\"")    // queue 200
                  + line("c", 20, {-1, 0, 1, 2, 3, 504, 505, -1}, ",\"status\":\"ok\"")        // decode 501
                  + line("d", 30, {-1, 0, 1, 900, 901, 902, 903, -1}, ",\"status\":\"error\"")); // queue, but error
        const Report r = analyze(*f.store);
        QCOMPARE(r.total, qint64(4));
        QCOMPARE(r.ok, qint64(3));
        QCOMPARE(r.error, qint64(1));
        QCOMPARE(r.dominantTotal, qint64(3));
        QCOMPARE(r.dominantShare(int(Segment::Decode)), 2.0 / 3.0);
        QCOMPARE(r.dominantShare(int(Segment::Queue)), 1.0 / 3.0);
        QCOMPARE(r.e2e.stat.count, qint64(3));
        QCOMPARE(r.e2e.scope, std::string("server"));

        AnalysisOptions withErrors;
        withErrors.includeErrors = true;
        const Report all = analyze(*f.store, {}, withErrors);
        QCOMPARE(all.e2e.stat.count, qint64(4));
        QCOMPARE(all.dominantShare(int(Segment::Queue)), 0.5);
    }

    void notMeasuredIsNotZero()
    {
        Fixture f(line("a", 0, {-1, 0, -1, -1, 20, 120, -1, -1}) + line("b", 0, {-1, 0, -1, -1, 40, 140, -1, -1}));
        const Report r = analyze(*f.store);
        QCOMPARE(r.segments[int(Segment::Network)].stat.count, qint64(0));
        QVERIFY(!r.segments[int(Segment::Network)].stat.meanNs);
        QCOMPARE(r.segments[int(Segment::Queue)].stat.count, qint64(0));
        QCOMPARE(r.segments[int(Segment::Decode)].stat.count, qint64(2));
        QCOMPARE(r.segments[int(Segment::Unattributed)].stat.count, qint64(2)); // recv..first token
        QCOMPARE(ms(r.segments[int(Segment::Unattributed)].stat.percentilesNs[0]), 30.0);
        QCOMPARE(r.e2e.scope, std::string("engine"));
    }

    void clockSkewLeftOutOfNetwork()
    {
        Fixture f(line("skewed", 0, {50, 10, 11, 12, 13, 100, 101, 120}) + line("fine", 0, {0, 10, 11, 12, 13, 100, 101, 120}));
        const Report r = analyze(*f.store);
        QCOMPARE(r.clockSkew, qint64(1));
        const MetricSummary &network = r.segments[int(Segment::Network)];
        QCOMPARE(network.stat.count, qint64(1));
        QCOMPARE(network.excluded, qint64(1));
        QCOMPARE(ms(network.stat.maxNs), 29.0);
        QCOMPARE(network.scope, std::string("client"));
        QCOMPARE(r.e2e.stat.count, qint64(2)); // the skewed request's e2e is still a client-side fact

        // An error request with skew counts too, as the findings count it: the header said 0 beside a
        // finding's 1. Its network stays out of the statistics, which leave error requests out.
        Fixture withError(line("skewed error", 0, { 50, 10, 11, 12, 13, 100, 101, 120 }, ",\"status\":\"error\"")
                          + line("fine", 0, { 0, 10, 11, 12, 13, 100, 101, 120 }));
        const Report e = analyze(*withError.store);
        QCOMPARE(e.error, qint64(1));
        QCOMPARE(e.clockSkew, qint64(1));
        QCOMPARE(e.segments[int(Segment::Network)].excluded, qint64(0));
    }

    void mixedScopesAreSaid()
    {
        Fixture f(line("client", 0, {0, 1, 2, 3, 4, 5, 6, 7}) + line("server", 0, {-1, 1, 2, 3, 4, 5, 6, -1}));
        const Report r = analyze(*f.store);
        QCOMPARE(r.e2e.scope, std::string("mixed"));
        QCOMPARE(r.e2e.scopes.at("client"), qint64(1));
        QCOMPARE(r.e2e.scopes.at("server"), qint64(1));
        // A segment says the clock it was read on: unattributed is part of each request's e2e, so it is
        // mixed here too; decode was read on the server's clock in both.
        QCOMPARE(r.segments[int(Segment::Unattributed)].scope, std::string("mixed"));
        QCOMPARE(r.segments[int(Segment::Decode)].scope, std::string("server"));
        QCOMPARE(r.segments[int(Segment::Queue)].scope, std::string("server"));
    }

    void filters_data()
    {
        QTest::addColumn<QStringList>("models");
        QTest::addColumn<QStringList>("routes");
        QTest::addColumn<int>("status"); // -1 any
        QTest::addColumn<qint64>("fromMs");
        QTest::addColumn<qint64>("toMs");
        QTest::addColumn<qint64>("total");

        QTest::newRow("no filter") << QStringList() << QStringList() << -1 << qint64(-1) << qint64(-1) << qint64(6);
        QTest::newRow("one model") << QStringList{QStringLiteral("big")} << QStringList() << -1 << qint64(-1) << qint64(-1) << qint64(3);
        QTest::newRow("two models") << QStringList{QStringLiteral("big"), QStringLiteral("small")} << QStringList() << -1
                                    << qint64(-1) << qint64(-1) << qint64(5);
        QTest::newRow("unknown model") << QStringList{QStringLiteral("none")} << QStringList() << -1 << qint64(-1) << qint64(-1) << qint64(0);
        QTest::newRow("route") << QStringList() << QStringList{QStringLiteral("/chat")} << -1 << qint64(-1) << qint64(-1) << qint64(2);
        QTest::newRow("errors only") << QStringList() << QStringList() << int(Status::Error) << qint64(-1) << qint64(-1) << qint64(1);
        QTest::newRow("time range [2s, 4s)") << QStringList() << QStringList() << -1 << qint64(2000) << qint64(4000) << qint64(2);
        QTest::newRow("from 5s on") << QStringList() << QStringList() << -1 << qint64(5000) << qint64(-1) << qint64(1);
        QTest::newRow("model and time") << QStringList{QStringLiteral("big")} << QStringList() << -1 << qint64(0) << qint64(1500)
                                        << qint64(2);
        QTest::newRow("text is bound, never SQL") << QStringList{QStringLiteral("big' OR '1'='1")} << QStringList() << -1
                                                  << qint64(-1) << qint64(-1) << qint64(0);
    }

    void filters()
    {
        QFETCH(QStringList, models);
        QFETCH(QStringList, routes);
        QFETCH(int, status);
        QFETCH(qint64, fromMs);
        QFETCH(qint64, toMs);
        QFETCH(qint64, total);
        Fixture f(line("1", 0, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"big\",\"route\":\"/chat\"")
                  + line("2", 1000, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"big\"")
                  + line("3", 2000, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"big\",\"route\":\"/chat\",\"status\":\"error\"")
                  + line("4", 3000, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"small\"")
                  + line("5", 4000, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"small\"")
                  + line("6", 5000, {-1, 0, 1, 2, 3, 4, 5, -1}, ",\"model\":\"other\""));
        RequestFilter filter;
        for (const QString &m : models)
            filter.models.push_back(m.toStdString());
        for (const QString &r : routes)
            filter.routes.push_back(r.toStdString());
        if (status >= 0)
            filter.status = Status(status);
        if (fromMs >= 0)
            filter.fromNs = T0 + fromMs * MS;
        if (toMs >= 0)
            filter.toNs = T0 + toMs * MS;
        QCOMPARE(analyze(*f.store, filter).total, total);
    }

    void timeRangeText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("from");
        QTest::newRow("ns both sides") << QStringLiteral("100..200") << true << qint64(100);
        QTest::newRow("open end") << QStringLiteral("100..") << true << qint64(100);
        QTest::newRow("ISO UTC") << QStringLiteral("2023-11-14T22:13:20Z..") << true << qint64(T0);
        QTest::newRow("ISO with fraction") << QStringLiteral("2023-11-14T22:13:20.5Z..") << true << qint64(T0 + 500 * MS);
        QTest::newRow("no dots") << QStringLiteral("100") << false << qint64(0);
        QTest::newRow("garbage") << QStringLiteral("yesterday..") << false << qint64(0);
        QTest::newRow("reversed") << QStringLiteral("200..100") << false << qint64(0);
        QTest::newRow("empty: end at start") << QStringLiteral("100..100") << false << qint64(0);
        QTest::newRow("reversed ISO") << QStringLiteral("2023-11-14T22:13:21Z..2023-11-14T22:13:20Z") << false << qint64(0);
        QTest::newRow("one ns wide") << QStringLiteral("100..101") << true << qint64(100);
        // ISO-8601 with less than the seconds (refused before as "neither ... nor an ISO-8601 UTC time").
        constexpr qint64 S = 1000 * MS;
        QTest::newRow("a date alone: its midnight") << QStringLiteral("2023-11-14..") << true << qint64(T0 - (22 * 3600 + 13 * 60 + 20) * S);
        QTest::newRow("minutes, no seconds") << QStringLiteral("2023-11-14T22:13Z..") << true << qint64(T0 - 20 * S);
        QTest::newRow("minutes after a space") << QStringLiteral("2023-11-14 22:13..") << true << qint64(T0 - 20 * S);
        QTest::newRow("dates both sides") << QStringLiteral("2023-11-14..2023-11-15") << true << qint64(T0 - (22 * 3600 + 13 * 60 + 20) * S);
        QTest::newRow("a fraction of a minute") << QStringLiteral("2023-11-14T22:13.5Z..") << false << qint64(0);
        QTest::newRow("an offset is not UTC") << QStringLiteral("2023-11-14T22:13:20+01:00..") << false << qint64(0);
        QTest::newRow("a sign in the day") << QStringLiteral("2023-11-+4..") << false << qint64(0);
        QTest::newRow("an hour alone") << QStringLiteral("2023-11-14T22..") << false << qint64(0);
        QTest::newRow("no such day") << QStringLiteral("2023-02-30..") << false << qint64(0);
    }

    void timeRangeText()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, from);
        RequestFilter filter;
        std::string why;
        QCOMPARE(parseTimeRange(text.toStdString(), filter, &why), valid);
        if (valid)
            QCOMPARE(filter.fromNs, from);
        else
            QVERIFY(!why.empty());
    }

    void statisticsFromCollectedRowsAreTheSame_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<bool>("includeErrors");
        QTest::newRow("errors, skew, unmeasured; ok only") << 0 << false;
        QTest::newRow("errors, skew, unmeasured; errors too") << 0 << true;
        QTest::newRow("two-thread scan") << 240000 << false;
    }

    void statisticsFromCollectedRowsAreTheSame()
    {
        // AnalysisOptions::rows reads e2e and the segments back from the collected rows instead of columns
        // of their own: every figure must be the one the columns give.
        QFETCH(int, requests);
        QFETCH(bool, includeErrors);
        QByteArray lines = line("skewed", 0, {50, 10, 11, 12, 13, 100, 101, 120}) + line("fine", 5, {0, 10, 11, 12, 13, 100, 101, 120})
                           + line("err", 9, {-1, 0, 1, 900, 901, 902, 903, -1}, ",\"status\":\"error\"")
                           + line("partial", 3, {-1, 0, -1, -1, 20, 120, -1, -1});
        std::mt19937_64 rng(3);
        for (int i = 0; i < requests; ++i) {
            const qint64 queued = qint64(rng() % 700);
            lines += line(QByteArray::number(i).constData(), i, {0, 1, 2, 2 + queued, 40 + queued, 90 + queued, 91 + queued, 93 + queued},
                          i % 97 == 0 ? ",\"status\":\"error\"" : "");
        }
        Fixture f(lines);
        AnalysisOptions plain;
        plain.includeErrors = includeErrors;
        LatencyRowCollector collector;
        collector.reserve(requestIdRange(*f.store));
        AnalysisOptions withRows = plain;
        withRows.rows = &collector;
        const Report a = analyze(*f.store, {}, plain);
        const Report b = analyze(*f.store, {}, withRows);
        QCOMPARE(qint64(collector.take().size()), a.total);
        const auto same = [](const MetricSummary &x, const MetricSummary &y, const char *name) {
            QVERIFY2(x.stat.count == y.stat.count && x.stat.meanNs == y.stat.meanNs && x.stat.maxNs == y.stat.maxNs
                         && x.stat.percentilesNs == y.stat.percentilesNs && x.scope == y.scope && x.scopes == y.scopes
                         && x.excluded == y.excluded,
                     name);
        };
        for (int s = 0; s < kSegmentCount; ++s)
            same(a.segments[s], b.segments[s], std::string(kSegmentNames[s]).c_str());
        same(a.e2e, b.e2e, "e2e");
        same(a.ttft, b.ttft, "ttft");
        same(a.tpot, b.tpot, "tpot");
        same(a.ttlt, b.ttlt, "ttlt");
        same(a.itl, b.itl, "itl");
        QCOMPARE(a.dominantCounts, b.dominantCounts);
        QVERIFY(a.segments[int(Segment::Network)].excluded > 0); // the skewed row is left out of network
    }

    void collectedRowsAreInIdOrder_data()
    {
        QTest::addColumn<int>("requests");
        QTest::addColumn<bool>("twoHalves");
        QTest::addColumn<int>("skipped"); ///< the first requests, left out by a time filter
        QTest::newRow("one scan") << 1000 << false << 0;
        QTest::newRow("one scan, filtered") << 1000 << false << 10;
        QTest::newRow("two halves, no gap") << 230000 << true << 0;
        QTest::newRow("two halves, the upper one moved down") << 230000 << true << 20000;
    }

    void collectedRowsAreInIdOrder()
    {
        // The two halves of a scan write into one array, the upper half from the middle of the id range
        // on; take() closes the gap. Every row comes back once, in id order (the starts here grow by id).
        QFETCH(int, requests);
        QFETCH(bool, twoHalves);
        QFETCH(int, skipped);
        QByteArray lines;
        for (int i = 0; i < requests; ++i)
            lines += line(QByteArray::number(i).constData(), i, {0, 1, 2, 3, 4, 5, 6, 7});
        Fixture f(lines);
        QCOMPARE(requestIdRange(*f.store).twoHalves, twoHalves);
        RequestFilter filter;
        if (skipped > 0)
            filter.fromNs = T0 + skipped * MS;
        const LatencyRows rows = readLatencyRows(*f.store, filter);
        QCOMPARE(qint64(rows.size()), qint64(requests - skipped));
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].start != T0 + (skipped + qint64(i)) * MS)
                QFAIL(qPrintable(QStringLiteral("row %1 starts at %2").arg(i).arg(rows[i].start - T0)));
        // A row the reserved range has no room for is refused, not written past the array.
        LatencyRowCollector collector;
        RowIdRange two;
        two.lo = 1;
        two.hi = 4;
        collector.reserve(two);
        RequestRow row;
        collector(0, row);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, collector(1, row)); // one range, no upper half
        for (int i = 0; i < 3; ++i)
            collector(0, row);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, collector(0, row));
        QCOMPARE(collector.take().size(), std::size_t(4));
    }

    void agreesWithIndependentComputation_data()
    {
        QTest::addColumn<int>("requests");
        QTest::newRow("small store, one scan") << 1000;
        QTest::newRow("large store, two-thread scan") << 250000;
    }

    void agreesWithIndependentComputation()
    {
        // Random requests; the reference sorts each metric and interpolates (type 7) on its own.
        QFETCH(int, requests);
        std::mt19937_64 rng(7);
        std::vector<std::int64_t> e2e, queue, ttft, itl;
        QByteArray lines;
        lines.reserve(requests * 260);
        for (int i = 0; i < requests; ++i) {
            const qint64 recv = T0 + qint64(i) * MS;
            const qint64 queued = qint64(rng() % (2000 * MS));
            const qint64 sched = recv + 2 * MS + queued;
            const qint64 first = sched + qint64(rng() % (300 * MS));
            const qint64 gap = qint64(rng() % (40 * MS)) + 1;
            const qint64 last = first + 2 * gap;
            const qint64 send = last + 3 * MS;
            queue.push_back(queued);
            e2e.push_back(send - recv);
            ttft.push_back(first - recv);
            itl.push_back(gap);
            itl.push_back(gap);
            lines += "{\"id\":\"" + QByteArray::number(i) + "\",\"t_server_recv_ns\":" + QByteArray::number(recv)
                     + ",\"t_preprocess_done_ns\":" + QByteArray::number(recv + 2 * MS) + ",\"t_sched_ns\":" + QByteArray::number(sched)
                     + ",\"t_server_send_ns\":" + QByteArray::number(send) + ",\"token_times_ns\":[" + QByteArray::number(first) + ","
                     + QByteArray::number(first + gap) + "," + QByteArray::number(last) + "]}\n";
        }
        Fixture f(lines);
        const Report r = analyze(*f.store);
        QCOMPARE(r.total, qint64(requests));
        const auto check = [&](std::vector<std::int64_t> &values, const MetricSummary &m, const char *name) {
            std::sort(values.begin(), values.end());
            QCOMPARE(m.stat.count, qint64(values.size()));
            for (std::size_t i = 0; i < r.percentiles.size(); ++i) {
                const double reference = percentileOfSorted(values, r.percentiles[i]);
                const double diff = std::fabs(*m.stat.percentilesNs[i] - reference);
                QVERIFY2(diff < 1000.0, qPrintable(QStringLiteral("%1 p%2 differs by %3 ns").arg(QLatin1String(name)).arg(r.percentiles[i]).arg(diff)));
            }
            QCOMPARE(*m.stat.maxNs, double(values.back()));
        };
        check(e2e, r.e2e, "e2e");
        check(queue, r.segments[int(Segment::Queue)], "queue");
        check(ttft, r.ttft, "ttft");
        check(itl, r.itl, "itl");
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
