// SPDX-License-Identifier: GPL-3.0-or-later
// The what-if server model (core/whatif/server_fit.h) against traces of known constants
// (core/simulation/sim_model.h): the fit recovers the slots, prefill's base and slope and TPOT's growth with
// the batch within its stated standard errors; a line that cannot rise is a flat mean; what a trace cannot
// give is refused with its reason.

#include "simulation/sim_model.h"
#include "whatif/client_fit.h"
#include "whatif/estimates.h"
#include "whatif/server_fit.h"
#include "../whatif/whatif_test_support.h"

#include <QTest>

#include <cmath>

using namespace lx;
using namespace lx::whatif;

namespace {

/// |fitted - truth| within k standard errors; the message says both.
void verifyWithin(const char *what, const Estimate &e, double truth, double sigmas)
{
    QVERIFY2(e.ok(), e.refused.c_str());
    QVERIFY2(e.stdError > 0, what);
    const double z = std::abs(e.value - truth) / e.stdError;
    QVERIFY2(z <= sigmas, qPrintable(QStringLiteral("%1: fitted %2 ± %3, true %4 (%5 standard errors)")
                                         .arg(QLatin1String(what)).arg(e.value).arg(e.stdError).arg(truth).arg(z)));
}

} // namespace

class TestServerFit : public QObject {
    Q_OBJECT
private slots:
    void recoversGeneratorConstants_data()
    {
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<int>("requests");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("32 slots, seed 42") << 32 << 6000 << quint64(42);
        QTest::newRow("16 slots, seed 7") << 16 << 5000 << quint64(7);
        QTest::newRow("64 slots, seed 11") << 64 << 8000 << quint64(11);
        QTest::newRow("8 slots, seed 3") << 8 << 3000 << quint64(3);
    }
    void recoversGeneratorConstants()
    {
        QFETCH(int, slotCount);
        QFETCH(int, requests);
        QFETCH(quint64, seed);
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(slotCount, 0.3, 1.6, requests, seed));
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        QCOMPARE(static_cast<int>(fit.concurrencyLimit.value), slotCount);
        QVERIFY(fit.limitReached);

        // The model mix scales prefill and TPOT alike: the fit sees their request-weighted mean.
        using namespace lx::sim::detail;
        const double factor = meanModelFactor();
        verifyWithin("prefill base", fit.prefillBaseNs, kPrefillBaseMs * factor * kMs, 3);
        verifyWithin("prefill per token", fit.prefillPerTokenNs, kPrefillPerTokenMs * factor * kMs, 3);
        // step = 9 ms (1 + 0.5 (batch - 1) / (slots - 1)): a line in the batch.
        const double perRequest = kTpotMs * factor * kTpotFullBatchGrowth / (slotCount - 1) * kMs;
        verifyWithin("TPOT per request in the batch", fit.tpotPerRequestNs, perRequest, 3);
        verifyWithin("TPOT base", fit.tpotBaseNs, kTpotMs * factor * kMs - perRequest, 3);
        QCOMPARE(fit.prefillBaseNs.n, fit.served);
        QVERIFY(fit.networkIn.ok() && fit.networkOut.ok() && fit.preprocess.ok() && fit.postprocess.ok());
    }

    void limitNotReachedIsALowerBound()
    {
        // A load that stays at a tenth of the capacity never fills the slots.
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(32, 0.05, 0.1, 1500, 5));
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        QVERIFY(!fit.limitReached);
        QVERIFY(fit.concurrencyLimit.value < 32);
        QVERIFY2(fit.concurrencyLimit.refused.find("at least") != std::string::npos, fit.concurrencyLimit.refused.c_str());
    }

    void clientSideTraceIsInferred_data()
    {
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("32 slots, seed 42") << 32 << quint64(42);
        QTest::newRow("16 slots, seed 7") << 16 << quint64(7);
    }
    void clientSideTraceIsInferred()
    {
        QFETCH(int, slotCount);
        QFETCH(quint64, seed);
        // What a benchmark client sees: its send time, TTFT and end-to-end time; no server stamp.
        auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(slotCount, 0.3, 1.6, 5000, seed));
        for (StampRow &r : rows) {
            const std::int64_t send = r.stamp(Stamp::ClientSend), recv = r.stamp(Stamp::ClientRecv);
            const std::int64_t first = r.stamp(Stamp::FirstToken);
            r.ttftNs = isMeasured(first) ? first + (recv - r.stamp(Stamp::ServerSend)) - send : kNotMeasured;
            r.e2eNs = recv - send;
            r.stamps.fill(kNotMeasured);
            r.stamp(Stamp::ClientSend) = send;
        }
        const ServerFit fit = fitServerOrInfer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        QVERIFY(fit.inferredFromClient);
        // An upper estimate: the client's end comes a few ms after the slot's release.
        QVERIFY2(fit.concurrencyLimit.value >= slotCount && fit.concurrencyLimit.value <= slotCount + 3,
                 qPrintable(QString::number(fit.concurrencyLimit.value)));
        // The per-token cost of prefill is the server's; its base now holds the network and preprocess too.
        const double perToken = lx::sim::detail::kPrefillPerTokenMs * lx::sim::detail::meanModelFactor() * lx::sim::detail::kMs;
        QVERIFY2(std::abs(fit.prefillPerTokenNs.value - perToken) <= 0.1 * perToken, qPrintable(QString::number(fit.prefillPerTokenNs.value)));
        QVERIFY(isMeasured(rows.front().stamp(Stamp::Sched)));
    }

    void durationsGetStampsFromSegments_data()
    {
        QTest::addColumn<int>("slotCount");
        QTest::addColumn<bool>("withNetwork");
        QTest::newRow("durations form, 16 slots") << 16 << true;
        QTest::newRow("OTLP spans (no network), 32 slots") << 32 << false;
    }
    void durationsGetStampsFromSegments()
    {
        QFETCH(int, slotCount);
        QFETCH(bool, withNetwork);
        // What the durations form and OTLP spans give: a start and the segments, no inner stamps.
        auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(slotCount, 0.3, 1.6, 4000, 19));
        const auto records = whatiftest::decomposed(rows);
        QCOMPARE(records.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            StampRow &r = rows[i];
            r.segments = records[i].metrics.segments;
            const std::int64_t start = withNetwork ? r.stamp(Stamp::ClientSend) : r.stamp(Stamp::ServerRecv);
            r.stamps.fill(kNotMeasured);
            r.stamp(withNetwork ? Stamp::ClientSend : Stamp::ServerRecv) = start;
            if (!withNetwork)
                r.segments[static_cast<std::size_t>(Segment::Network)] = kNotMeasured;
        }
        const ServerFit fit = fitServerOrInfer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        QVERIFY(fit.stampsFromSegments);
        QVERIFY(fit.limitReached);
        QCOMPARE(static_cast<int>(fit.concurrencyLimit.value), slotCount);
        using namespace lx::sim::detail;
        verifyWithin("prefill per token", fit.prefillPerTokenNs, kPrefillPerTokenMs * meanModelFactor() * kMs, 3);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no requests") << "empty" << "no requests";
        QTest::newRow("no server stamps") << "client-only" << "no server stamps: no queue can be fitted";
        QTest::newRow("a single request") << "single" << "1 request has server stamps: a model needs at least 10";
        QTest::newRow("no input tokens") << "no-input-tokens" << "prefill: no request has its input tokens";
        QTest::newRow("no output tokens") << "no-output-tokens" << "time per output token: no request has 2 output tokens";
    }
    void refusals()
    {
        QFETCH(QString, trace);
        QFETCH(QString, reason);
        auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 200, 9));
        if (trace == QLatin1String("empty")) {
            rows.clear();
        } else if (trace == QLatin1String("client-only")) {
            for (StampRow &r : rows)
                for (Stamp s : {Stamp::ServerRecv, Stamp::PreprocessDone, Stamp::Sched, Stamp::FirstToken, Stamp::LastToken, Stamp::ServerSend})
                    r.stamps[static_cast<int>(s)] = kNotMeasured;
        } else if (trace == QLatin1String("single")) {
            rows.resize(1);
        } else if (trace == QLatin1String("no-input-tokens")) {
            for (StampRow &r : rows)
                r.inputTokens = -1;
        } else if (trace == QLatin1String("no-output-tokens")) {
            for (StampRow &r : rows)
                r.outputTokens = -1;
        }
        const ServerFit fit = fitServer(rows);
        QVERIFY(!fit.ok());
        QVERIFY2(fit.refused.find(reason.toStdString()) != std::string::npos, fit.refused.c_str());
    }

    void flatWhereNothingGrows_data()
    {
        QTest::addColumn<QString>("prompts");
        QTest::addColumn<QString>("reason");
        // A benchmark of one prompt length (vLLM's random dataset): no slope, a constant prefill.
        QTest::newRow("one prompt length") << "same" << "every request has the same value (512)";
        // Prompts whose lengths fall as their prefill grows: a falling line is no server's.
        QTest::newRow("a falling line") << "falling" << "prefill fell as the prompts grew";
    }
    void flatWhereNothingGrows()
    {
        QFETCH(QString, prompts);
        QFETCH(QString, reason);
        auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.2, 400, 9));
        double sum = 0;
        int n = 0;
        for (StampRow &r : rows) {
            const std::int64_t first = r.stamp(Stamp::FirstToken), sched = r.stamp(Stamp::Sched);
            if (!isMeasured(first) || !isMeasured(sched))
                continue;
            r.inputTokens = prompts == QLatin1String("same") ? 512 : std::max<std::int64_t>(1, 100'000 - (first - sched) / 10'000);
            sum += static_cast<double>(first - sched);
            ++n;
        }
        const ServerFit fit = fitServer(rows);
        QVERIFY2(fit.ok(), fit.refused.c_str());
        QCOMPARE(fit.prefillPerTokenNs.value, 0.0);
        QVERIFY2(fit.prefillPerTokenNs.refused.find(reason.toStdString()) != std::string::npos, fit.prefillPerTokenNs.refused.c_str());
        // The mean prefill of the requests served, within a standard error or two of it.
        QVERIFY2(fit.prefillBaseNs.ok() && fit.prefillBaseNs.stdError > 0, fit.prefillBaseNs.refused.c_str());
        QVERIFY2(std::abs(fit.prefillBaseNs.value - sum / n) < 2 * fit.prefillBaseNs.stdError,
                 qPrintable(QStringLiteral("%1 vs %2").arg(fit.prefillBaseNs.value).arg(sum / n)));
    }

    void fitLine_data()
    {
        QTest::addColumn<QList<double>>("x");
        QTest::addColumn<QList<double>>("y");
        QTest::addColumn<double>("intercept");
        QTest::addColumn<double>("slope");
        QTest::addColumn<QString>("refused");
        QTest::newRow("exact line") << QList<double>{1, 2, 3, 4} << QList<double>{5, 7, 9, 11} << 3.0 << 2.0 << "";
        QTest::newRow("noisy symmetric") << QList<double>{0, 0, 2, 2} << QList<double>{1, -1, 5, 3} << 0.0 << 2.0 << "";
        QTest::newRow("two points") << QList<double>{1, 2} << QList<double>{1, 2} << 0.0 << 0.0 << "2 requests: a line needs at least 3";
        QTest::newRow("x never varies") << QList<double>{4, 4, 4} << QList<double>{1, 2, 3} << 0.0 << 0.0
                                        << "every request has the same value (4)";
    }
    void fitLine()
    {
        QFETCH(QList<double>, x);
        QFETCH(QList<double>, y);
        QFETCH(double, intercept);
        QFETCH(double, slope);
        QFETCH(QString, refused);
        const std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
        const LineFit fit = whatif::fitLine(xs, ys, "test");
        if (!refused.isEmpty()) {
            QVERIFY(!fit.slope.ok());
            QVERIFY2(fit.slope.refused.find(refused.toStdString()) != std::string::npos, fit.slope.refused.c_str());
            return;
        }
        QVERIFY(fit.slope.ok());
        QCOMPARE(fit.intercept.value + 1, intercept + 1); // fuzzy compare near 0
        QCOMPARE(fit.slope.value, slope);
        QVERIFY(fit.slope.stdError >= 0);
    }

    void empiricalQuantiles()
    {
        std::vector<double> samples;
        for (int i = 100; i >= 0; --i)
            samples.push_back(i);
        const EmpiricalDistribution d = empiricalOf(samples, "none");
        QVERIFY(d.ok());
        QCOMPARE(d.n, std::int64_t(101));
        QCOMPARE(d.at(0.5), 50.0);
        QCOMPARE(d.at(0.99), 99.0);
        QCOMPARE(d.at(0.0), 0.0);
        QCOMPARE(d.at(1.0), 100.0);
        const EmpiricalDistribution none = empiricalOf({}, "nothing measured");
        QVERIFY(!none.ok());
        QCOMPARE(QString::fromStdString(none.refused), QStringLiteral("nothing measured"));
    }

    void modelJsonNamesEveryParameter()
    {
        const auto rows = whatiftest::simulatedStampRows(whatiftest::rampConfig(8, 0.3, 1.4, 800, 2));
        const std::string json = fitServer(rows).toJson();
        for (const char *key : {"concurrency_limit", "prefill_base_ms", "prefill_per_token_ms", "tpot_base_ms",
                                "tpot_per_request_ms", "network_in", "postprocess", "admission_wait"})
            QVERIFY2(json.find(key) != std::string::npos, key);
    }
};

QTEST_APPLESS_MAIN(TestServerFit)
#include "tst_server_fit.moc"
