// SPDX-License-Identifier: GPL-3.0-or-later
// The what-if replay (core/whatif/replay.h) and its simulated store: without a change it gives back the
// observed percentiles; a second replica shortens an overloaded queue; the same seed gives the same rows;
// bad changes and arrivals without token counts are refused with a reason; the store is flagged simulated
// and the report reads it as any other.

#include "analysis/analysis.h"
#include "simulation/trace_writers.h"
#include "model/percentiles.h"
#include "store/store.h"
#include "test_support.h"
#include "whatif/replay.h"
#include "whatif/server_fit.h"
#include "whatif/simulated_store.h"
#include "whatif/whatif_run.h"
#include "../whatif/whatif_test_support.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace lx;
using namespace lx::whatif;

namespace {

/// The type-7 percentile of a segment (or e2e with segment -1) over the ok requests that measured it.
double percentileOf(const std::vector<RequestRecord> &records, int segment, double p)
{
    std::vector<std::int64_t> values;
    for (const RequestRecord &r : records) {
        if (r.status != Status::Ok)
            continue;
        const std::int64_t v = segment < 0 ? r.metrics.e2e : r.metrics.segments[static_cast<std::size_t>(segment)];
        if (isMeasured(v))
            values.push_back(v);
    }
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : percentileOfSorted(values, p);
}

QByteArray fingerprint(const std::vector<RequestRecord> &records)
{
    QByteArray out;
    for (const RequestRecord &r : records) {
        out += QByteArray::fromStdString(r.id) + ' ' + QByteArray::number(static_cast<int>(r.status));
        for (std::int64_t s : r.stamps)
            out += ' ' + QByteArray::number(static_cast<qint64>(s));
        out += ' ' + QByteArray::number(static_cast<qint64>(r.inputTokens)) + '\n';
    }
    return out;
}

} // namespace

class TestReplay : public QObject {
    Q_OBJECT
private slots:
    void noChangeReproducesObserved_data()
    {
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<double>("endShare");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("overloaded ramp, 32 slots") << 32 << 1.6 << quint64(42);
        QTest::newRow("ramp to capacity, 16 slots") << 16 << 1.0 << quint64(8);
        QTest::newRow("light load, 8 slots") << 8 << 0.4 << quint64(4);
    }
    void noChangeReproducesObserved()
    {
        QFETCH(int, slotCount);
        QFETCH(double, endShare);
        QFETCH(quint64, seed);
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(slotCount, 0.2, endShare, 3000, seed));
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        const ReplayResult result = replay(fit, rows, {}, ReplayChanges{});
        QVERIFY2(result.refused.empty(), result.refused.c_str());
        QCOMPARE(result.requests.size(), rows.size());
        const auto observed = whatiftest::decomposed(rows);
        // The fit's own error: its prefill and TPOT lines are within about 2% (their standard errors), and
        // a queue compounds them; 5% of each percentile, or 2 ms for the short segments, holds them.
        for (int segment : {-1, static_cast<int>(Segment::Queue), static_cast<int>(Segment::Prefill),
                            static_cast<int>(Segment::Decode), static_cast<int>(Segment::Postprocess), static_cast<int>(Segment::Network)}) {
            for (double p : {50.0, 99.0}) {
                const double o = percentileOf(observed, segment, p), r = percentileOf(result.requests, segment, p);
                const double tolerance = std::max(0.05 * o, 2e6);
                QVERIFY2(std::abs(o - r) <= tolerance,
                         qPrintable(QStringLiteral("segment %1 p%2: observed %3 ms, replayed %4 ms")
                                        .arg(segment).arg(p).arg(o / 1e6).arg(r / 1e6)));
            }
        }
    }

    void replicasShortenAnOverloadedQueue_data()
    {
        QTest::addColumn<int>("router");
        QTest::newRow("round robin") << static_cast<int>(Router::RoundRobin);
        QTest::newRow("least loaded") << static_cast<int>(Router::LeastLoaded);
    }
    void replicasShortenAnOverloadedQueue()
    {
        QFETCH(int, router);
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(16, 0.3, 1.8, 3000, 21));
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        ReplayChanges two;
        two.replicas = 2;
        two.router = static_cast<Router>(router);
        const ReplayResult one = replay(fit, rows, {}, ReplayChanges{});
        const ReplayResult both = replay(fit, rows, {}, two);
        const int queue = static_cast<int>(Segment::Queue);
        const double before = percentileOf(one.requests, queue, 99), after = percentileOf(both.requests, queue, 99);
        QVERIFY2(after < 0.2 * before, qPrintable(QStringLiteral("p99 queue %1 ms -> %2 ms").arg(before / 1e6).arg(after / 1e6)));
    }

    void changesMoveWhatTheyShould()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(16, 0.2, 0.6, 2000, 13));
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        const ReplayResult base = replay(fit, rows, {}, ReplayChanges{});
        ReplayChanges c;
        c.arrivalFactor = 2;
        QCOMPARE(replay(fit, rows, {}, c).requests.size(), 2 * rows.size());
        c = {};
        c.arrivalFactor = 0.5;
        const double kept = static_cast<double>(replay(fit, rows, {}, c).requests.size()) / static_cast<double>(rows.size());
        QVERIFY2(std::abs(kept - 0.5) < 0.05, qPrintable(QString::number(kept)));
        c = {};
        c.postprocessSpeedup = 2;
        const int post = static_cast<int>(Segment::Postprocess), prefill = static_cast<int>(Segment::Prefill);
        QVERIFY(std::abs(percentileOf(replay(fit, rows, {}, c).requests, post, 50) - percentileOf(base.requests, post, 50) / 2) < 1e5);
        c = {};
        c.inputTokenCap = 100;
        const ReplayResult capped = replay(fit, rows, {}, c);
        QVERIFY(percentileOf(capped.requests, prefill, 99) < 0.5 * percentileOf(base.requests, prefill, 99));
        for (const RequestRecord &r : capped.requests)
            QVERIFY(r.inputTokens <= 100);
    }

    void sameSeedSameRows()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.4, 1500, 17));
        const ServerFit fit = fitServer(rows);
        ReplayChanges c;
        c.arrivalFactor = 1.5;
        c.replicas = 2;
        c.router = Router::LeastLoaded;
        c.seed = 99;
        const QByteArray first = fingerprint(replay(fit, rows, {}, c).requests);
        QCOMPARE(fingerprint(replay(fitServer(rows), rows, {}, c).requests), first);
        c.seed = 100;
        QVERIFY(fingerprint(replay(fit, rows, {}, c).requests) != first);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("zero arrival factor") << "factor 0" << "the arrival factor must be above 0";
        QTest::newRow("negative arrival factor") << "factor -1" << "the arrival factor must be above 0";
        QTest::newRow("zero replicas") << "replicas 0" << "--replicas must be between 1 and 10000";
        QTest::newRow("zero postprocess speedup") << "speedup 0" << "--postprocess-speedup must be a positive factor";
        QTest::newRow("negative postprocess speedup") << "speedup -2" << "--postprocess-speedup must be a positive factor";
        QTest::newRow("postprocess slowdown past 1000x") << "speedup 0.0001" << "from 0.001 to 1000000";
        QTest::newRow("thinned to nothing") << "factor 0.0000001" << "no arrival is left after thinning them";
        QTest::newRow("arrivals without input tokens") << "external no input" << "the arrivals, line 3: no input token count";
        QTest::newRow("arrivals without output tokens") << "external no output" << "the arrivals, line 3: no output token count";
        QTest::newRow("model refused") << "no stamps" << "no server stamps";
    }
    void refusals()
    {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 300, 1));
        ServerFit fit = fitServer(rows);
        ReplayChanges c;
        std::vector<StampRow> external;
        if (change.startsWith(QLatin1String("factor ")))
            c.arrivalFactor = change.mid(7).toDouble();
        else if (change == QLatin1String("replicas 0"))
            c.replicas = 0;
        else if (change.startsWith(QLatin1String("speedup ")))
            c.postprocessSpeedup = change.mid(8).toDouble();
        else if (change.startsWith(QLatin1String("external"))) {
            for (int i = 0; i < 4; ++i) {
                StampRow r;
                r.sourceLine = i + 2;
                r.stamps.fill(kNotMeasured);
                r.stamps[static_cast<int>(Stamp::ClientSend)] = 1'000'000'000LL * i;
                r.inputTokens = 100;
                r.outputTokens = 10;
                if (i == 1)
                    (change.endsWith(QLatin1String("input")) ? r.inputTokens : r.outputTokens) = -1;
                external.push_back(r);
            }
        } else if (change == QLatin1String("no stamps")) {
            for (StampRow &r : rows)
                r.stamps[static_cast<int>(Stamp::Sched)] = kNotMeasured;
            fit = fitServer(rows);
        }
        const ReplayResult result = replay(fit, rows, external, c);
        QVERIFY(result.requests.empty());
        QVERIFY2(result.refused.find(reason.toStdString()) != std::string::npos, result.refused.c_str());
    }

    void externalArrivalsBorrowResiduals()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 600, 6));
        const ServerFit fit = fitServer(rows);
        std::vector<StampRow> external;
        for (int i = 0; i < 50; ++i) {
            StampRow r;
            r.sourceLine = i + 2;
            r.stamps.fill(kNotMeasured);
            r.stamps[static_cast<int>(Stamp::ClientSend)] = 1'700'000'000'000'000'000LL + 200'000'000LL * i;
            r.inputTokens = 1000;
            r.outputTokens = 50;
            external.push_back(r);
        }
        const ReplayResult result = replay(fit, rows, external, ReplayChanges{});
        QVERIFY2(result.refused.empty(), result.refused.c_str());
        QCOMPARE(result.requests.size(), external.size());
        for (const RequestRecord &r : result.requests) {
            QVERIFY(isMeasured(r.metrics.segment(Segment::Prefill)));
            QCOMPARE(r.outputTokens, std::int64_t(50));
        }
    }

    void simulatedStoreIsFlaggedAndReadable()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 500, 12));
        const ServerFit fit = fitServer(rows);
        const ReplayResult result = replay(fit, rows, {}, ReplayChanges{});
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        QVERIFY(!simulatedMarker(*store));
        QVERIFY2(writeSimulatedStore(*store, result.requests, "trace.jsonl", fit.toJson(), &why), why.c_str());
        QVERIFY(simulatedMarker(*store));
        QCOMPARE(analyze(*store).total, static_cast<std::int64_t>(rows.size()));
        // Never mixed: a second replay into the same store is refused.
        QVERIFY(!writeSimulatedStore(*store, result.requests, "trace.jsonl", "{}", &why));
        QVERIFY2(why.find("already holds requests") != std::string::npos, why.c_str());
        // Nor is a simulated store taken for an observed one.
        auto out = Store::openTemporary(&why);
        const WhatIfOutcome outcome = runWhatIf(*store, *out, WhatIfRequest{});
        QVERIFY2(outcome.refused.find("simulated investigation") != std::string::npos, outcome.refused.c_str());
    }

    void sameSeedSameStoreRows()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.4, 400, 5));
        const ServerFit fit = fitServer(rows);
        ReplayChanges c;
        c.arrivalFactor = 1.3;
        QString dumps[2];
        for (QString &dump : dumps) {
            std::string why;
            auto store = Store::openTemporary(&why);
            QVERIFY(writeSimulatedStore(*store, replay(fit, rows, {}, c).requests, "t", fit.toJson(), &why));
            dump = lxtest::dump(store->db(), "SELECT * FROM requests ORDER BY id") + lxtest::dump(store->db(), "SELECT * FROM request_details ORDER BY request_id")
                   + lxtest::dump(store->db(), "SELECT value FROM meta WHERE key = 'simulated'");
        }
        QVERIFY(!dumps[0].isEmpty());
        QCOMPARE(dumps[1], dumps[0]);
    }

    void fullDiskIsTheOutputsFault()
    {
        // A simulated store that cannot be written: said of it, by its path. It was said of the investigation
        // read ("whatif: trace.lxdb: database or disk is full"), whose disk was not the full one.
        QTemporaryDir dir;
        std::string text;
        lx::sim::simulate(whatiftest::rampConfig(8, 0.3, 1.4, 3000, 29), [&](const lx::sim::SimRequest &r) {
            lx::sim::appendRecord(text, lx::sim::TraceForm::Timestamps, r);
        });
        lxtest::Imported observed = lxtest::importPaths(
            { lxtest::writeFile(dir, QStringLiteral("t.jsonl"), QByteArray::fromStdString(text)) });
        QVERIFY2(observed.store, observed.error.c_str());
        std::string why;
        const std::string outPath = dir.filePath(QStringLiteral("simulated.lxdb")).toStdString();
        auto out = Store::open(outPath, &why);
        QVERIFY2(out, why.c_str());
        QCOMPARE(sqlite3_exec(out->db(), "PRAGMA max_page_count=30", nullptr, nullptr, nullptr),
                 SQLITE_OK); // a full disk
        WhatIfRequest request;
        request.observedName = "t.jsonl";
        const WhatIfOutcome outcome = runWhatIf(*observed.store, *out, request);
        QVERIFY(outcome.storeUnwritten);
        QVERIFY2(outcome.refused.find("cannot write the simulated investigation " + outPath + ": ") == 0
                     && outcome.refused.find("full") != std::string::npos,
                 outcome.refused.c_str());
    }

    void runWhatIfForABackgroundJob()
    {
        // The one call the app's background job makes: an observed store in, a simulated store out, both
        // sides analysed; progress is reported and a cancel flag stops it.
        QTemporaryDir dir;
        std::string text;
        lx::sim::simulate(whatiftest::rampConfig(8, 0.3, 1.4, 5000, 23),
                          [&](const lx::sim::SimRequest &r) { lx::sim::appendRecord(text, lx::sim::TraceForm::Timestamps, r); });
        const std::string trace = lxtest::writeFile(dir, QStringLiteral("trace.jsonl"), QByteArray::fromStdString(text));
        lxtest::Imported observed = lxtest::importPaths({trace});
        QVERIFY2(observed.store, observed.error.c_str());
        std::string why;
        auto out = Store::openTemporary(&why);
        WhatIfRequest request;
        request.changes.replicas = 2;
        request.observedName = "trace.jsonl";
        request.slos.push_back(*parseSlo("e2e.p95<=10s", &why));
        std::int64_t calls = 0, lastDone = -1, lastTotal = 0;
        bool increasing = true;
        const WhatIfOutcome outcome = runWhatIf(*observed.store, *out, request, nullptr, [&](std::int64_t done, std::int64_t total) {
            ++calls;
            increasing = increasing && done > lastDone;
            lastDone = done;
            lastTotal = total;
            return true;
        });
        QVERIFY(increasing);
        QVERIFY2(outcome.refused.empty(), outcome.refused.c_str());
        QVERIFY(calls >= 2);
        QCOMPARE(lastDone, lastTotal);
        QVERIFY(outcome.observed && outcome.predicted);
        QCOMPARE(outcome.predicted->report.total, outcome.observed->report.total);
        QCOMPARE(outcome.predicted->slos.size(), std::size_t(1));
        const std::optional<std::string> marker = simulatedMarker(*out);
        QVERIFY(marker && marker->find("\"replicas\":2") != std::string::npos);

        std::atomic<bool> cancel{true};
        auto other = Store::openTemporary(&why);
        const WhatIfOutcome cancelled = runWhatIf(*observed.store, *other, request, &cancel);
        QVERIFY(cancelled.cancelled);
        QVERIFY(!cancelled.predicted);
        QVERIFY(!simulatedMarker(*other));
    }

    void cancelStops()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 300, 1));
        const ServerFit fit = fitServer(rows);
        std::atomic<bool> cancel{true};
        const ReplayResult result = replay(fit, rows, {}, ReplayChanges{}, &cancel);
        QVERIFY(result.cancelled);
        QVERIFY(result.requests.empty());
        std::int64_t calls = 0;
        const ReplayResult stopped = replay(fit, rows, {}, ReplayChanges{}, nullptr, [&](std::int64_t, std::int64_t) {
            ++calls;
            return false;
        });
        QVERIFY(stopped.cancelled);
        QCOMPARE(calls, std::int64_t(1));
    }
};

QTEST_APPLESS_MAIN(TestReplay)
#include "tst_replay.moc"
