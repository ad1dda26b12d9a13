// SPDX-License-Identifier: GPL-3.0-or-later
// The decomposition of one request, row by row against docs/DOMAIN.md's tables.

#include "model/decompose.h"

#include <QTest>

using namespace lx;

Q_DECLARE_METATYPE(lx::RequestRecord)
Q_DECLARE_METATYPE(lx::DurationsInput)

namespace {

constexpr qint64 N = kNotMeasured;
constexpr std::int64_t T0 = 1'700'000'000'000'000'000;

/// Stamps relative to T0 in ms (N for absent), in pipeline order.
RequestRecord withStamps(std::initializer_list<std::int64_t> msOffsets, std::int64_t outputTokens = -1)
{
    RequestRecord r;
    r.clear();
    r.id = QTest::currentDataTag() ? QTest::currentDataTag() : "r";
    int i = 0;
    for (std::int64_t ms : msOffsets)
        r.stamps[i++] = ms == N ? N : T0 + ms * 1'000'000;
    r.outputTokens = outputTokens;
    return r;
}

qint64 ms(qint64 v) { return v == N ? N : v * 1000000; }

using Segments = std::array<std::int64_t, kSegmentCount>;

} // namespace

class TestDecompose : public QObject {
    Q_OBJECT

private slots:
    void segments_data()
    {
        QTest::addColumn<RequestRecord>("record");
        QTest::addColumn<QList<qint64>>("segmentsMs"); // network..unattributed, N for not measured
        QTest::addColumn<qint64>("e2eMs");
        QTest::addColumn<int>("scope");
        QTest::addColumn<int>("dominant");

        //                                   cs  sr  pd  sc   ft    lt   ss   cr
        QTest::newRow("all eight stamps") << withStamps({0, 10, 15, 45, 145, 1145, 1155, 1170})
                                          << QList<qint64>{25, 5, 30, 100, 1000, 10, 0} << qint64(1170)
                                          << int(E2eScope::Client) << int(Segment::Decode);
        QTest::newRow("server only: network not measured, server e2e")
            << withStamps({N, 10, 15, 45, 145, 1145, 1155, N}) << QList<qint64>{N, 5, 30, 100, 1000, 10, 0}
            << qint64(1145) << int(E2eScope::Server) << int(Segment::Decode);
        QTest::newRow("no preprocess stamp: queue from server receive")
            << withStamps({N, 10, N, 45, 145, 1145, 1155, N}) << QList<qint64>{N, N, 35, 100, 1000, 10, 0}
            << qint64(1145) << int(E2eScope::Server) << int(Segment::Decode);
        QTest::newRow("no sched stamp: queue and prefill unattributed")
            << withStamps({N, 10, 15, N, 145, 1145, 1155, N}) << QList<qint64>{N, 5, N, N, 1000, 10, 130}
            << qint64(1145) << int(E2eScope::Server) << int(Segment::Decode);
        QTest::newRow("no server send: engine e2e to the last token")
            << withStamps({N, 10, 15, 45, 145, 1145, N, N}) << QList<qint64>{N, 5, 30, 100, 1000, N, 0}
            << qint64(1135) << int(E2eScope::Engine) << int(Segment::Decode);
        QTest::newRow("client stamps without server receive: network unattributed")
            << withStamps({0, N, N, N, N, N, 1155, 1170}) << QList<qint64>{N, N, N, N, N, N, 1170}
            << qint64(1170) << int(E2eScope::Client) << int(Segment::Unattributed);
        QTest::newRow("queue dominates")
            << withStamps({0, 10, 15, 2015, 2115, 2615, 2625, 2640}) << QList<qint64>{25, 5, 2000, 100, 500, 10, 0}
            << qint64(2640) << int(E2eScope::Client) << int(Segment::Queue);
        QTest::newRow("tie goes to the earlier segment")
            << withStamps({N, 0, 0, 100, 200, 300, 300, N}) << QList<qint64>{N, 0, 100, 100, 100, 0, 0}
            << qint64(300) << int(E2eScope::Server) << int(Segment::Queue);
        QTest::newRow("zero-length segments are measured zeros")
            << withStamps({N, 10, 10, 10, 10, 10, 10, N}) << QList<qint64>{N, 0, 0, 0, 0, 0, 0}
            << qint64(0) << int(E2eScope::Server) << int(Segment::Preprocess);
        QTest::newRow("clock skew: negative network kept")
            << withStamps({100, 10, 15, 45, 145, 1145, 1155, 1170}) << QList<qint64>{-75, 5, 30, 100, 1000, 10, 0}
            << qint64(1070) << int(E2eScope::Client) << int(Segment::Decode);
        QTest::newRow("only first token: no e2e, no dominant")
            << withStamps({N, 10, N, N, 145, N, N, N}) << QList<qint64>{N, N, N, N, N, N, N}
            << qint64(N) << int(E2eScope::None) << -1;
    }

    void segments()
    {
        QFETCH(RequestRecord, record);
        QFETCH(QList<qint64>, segmentsMs);
        QFETCH(qint64, e2eMs);
        QFETCH(int, scope);
        QFETCH(int, dominant);

        QCOMPARE(QString::fromStdString(decompose(record)), QString());
        const RequestMetrics &m = record.metrics;
        for (int s = 0; s < kSegmentCount; ++s)
            QCOMPARE(m.segments[s], ms(segmentsMs[s]));
        QCOMPARE(m.e2e, ms(e2eMs));
        QCOMPARE(int(m.e2eScope), scope);
        QCOMPARE(m.dominant, dominant);
        if (isMeasured(m.e2e)) {
            // The invariant: the segments add up to e2e exactly.
            std::int64_t sum = 0;
            for (std::int64_t v : m.segments)
                sum += isMeasured(v) ? v : 0;
            QCOMPARE(sum, m.e2e);
        }
        QCOMPARE(bool(m.flags & kFlagClockSkew), isMeasured(m.segments[0]) && m.segments[0] < 0);
    }

    void tokenMetrics_data()
    {
        QTest::addColumn<RequestRecord>("record");
        QTest::addColumn<qint64>("ttft");
        QTest::addColumn<qint64>("tpot");
        QTest::addColumn<qint64>("ttlt");

        QTest::newRow("ttft tpot ttlt") << withStamps({N, 0, 5, 10, 100, 1100, 1110, N}, 11) << ms(100) << ms(100) << ms(1100);
        QTest::newRow("one output token: no tpot") << withStamps({N, 0, 5, 10, 100, 100, 110, N}, 1) << ms(100) << N << ms(100);
        QTest::newRow("no output count: no tpot") << withStamps({N, 0, 5, 10, 100, 1100, 1110, N}) << ms(100) << N << ms(1100);
        QTest::newRow("tpot rounds to the ns") << withStamps({N, 0, N, N, 100, 200, N, N}, 4) << ms(100) << qint64(33'333'333) << ms(200);
        QTest::newRow("no server receive: no ttft") << withStamps({N, N, N, 10, 100, 1100, N, N}, 11) << N << ms(100) << N;

        RequestRecord fromTokens = withStamps({N, 0, N, N, N, N, N, N});
        fromTokens.tokenTimes = {T0 + ms(50), T0 + ms(60), T0 + ms(80)};
        QTest::newRow("first and last token from token_times") << fromTokens << ms(50) << ms(15) << ms(80);
    }

    void tokenMetrics()
    {
        QFETCH(RequestRecord, record);
        QFETCH(qint64, ttft);
        QFETCH(qint64, tpot);
        QFETCH(qint64, ttlt);
        QCOMPARE(QString::fromStdString(decompose(record)), QString());
        QCOMPARE(record.metrics.ttft, ttft);
        QCOMPARE(record.metrics.tpot, tpot);
        QCOMPARE(record.metrics.ttlt, ttlt);
    }

    void rejected_data()
    {
        QTest::addColumn<RequestRecord>("record");
        QTest::addColumn<QString>("reason");

        QTest::newRow("sched before preprocess done") << withStamps({N, 0, 50, 40, 100, 200, 210, N})
                                                      << QStringLiteral("t_sched_ns is before t_preprocess_done_ns");
        QTest::newRow("last token before first") << withStamps({N, 0, N, N, 100, 90, N, N})
                                                 << QStringLiteral("t_last_token_ns is before t_first_token_ns");
        QTest::newRow("out of order across a gap") << withStamps({N, 100, N, N, N, N, 50, N})
                                                   << QStringLiteral("t_server_send_ns is before t_server_recv_ns");
        QTest::newRow("client receive before send") << withStamps({100, N, N, N, N, N, N, 50})
                                                    << QStringLiteral("t_client_recv_ns is before t_client_send_ns");
        RequestRecord tokens = withStamps({N, 0, N, N, N, N, N, N});
        tokens.tokenTimes = {T0 + 10, T0 + 5};
        QTest::newRow("token times out of order") << tokens << QStringLiteral("token_times_ns is not in order");
    }

    void rejected()
    {
        QFETCH(RequestRecord, record);
        QFETCH(QString, reason);
        QVERIFY2(QString::fromStdString(decompose(record)).contains(reason), qPrintable(QString::fromStdString(decompose(record))));
    }

    void durations_data()
    {
        QTest::addColumn<QList<qint64>>("givenMs"); // network..postprocess, N when absent
        QTest::addColumn<qint64>("e2eMs");          // N when absent
        QTest::addColumn<qint64>("expectedE2eMs");
        QTest::addColumn<qint64>("unattributedMs");
        QTest::addColumn<qint64>("ttftMs");
        QTest::addColumn<int>("scope");
        QTest::addColumn<QString>("reason");

        QTest::newRow("all given, e2e the sum") << QList<qint64>{20, 5, 30, 100, 900, 10} << N << qint64(1065) << qint64(0)
                                                << qint64(135) << int(E2eScope::Client) << QString();
        QTest::newRow("e2e remainder is unattributed") << QList<qint64>{N, 5, 30, 100, 900, 10} << qint64(1100) << qint64(1100)
                                                       << qint64(55) << qint64(135) << int(E2eScope::Server) << QString();
        QTest::newRow("no prefill: no ttft") << QList<qint64>{N, 5, 30, N, 900, N} << N << qint64(935) << qint64(0) << N
                                             << int(E2eScope::Server) << QString();
        QTest::newRow("negative duration") << QList<qint64>{N, -5, 30, 100, 900, 10} << N << N << N << N << 0
                                           << QStringLiteral("preprocess_ms is negative");
        QTest::newRow("e2e below the sum") << QList<qint64>{N, 5, 30, 100, 900, 10} << qint64(500) << N << N << N << 0
                                           << QStringLiteral("e2e_ms is less than the sum");
        QTest::newRow("nothing given") << QList<qint64>{N, N, N, N, N, N} << N << N << N << N << 0
                                       << QStringLiteral("no duration given");
    }

    void durations()
    {
        QFETCH(QList<qint64>, givenMs);
        QFETCH(qint64, e2eMs);
        QFETCH(qint64, expectedE2eMs);
        QFETCH(qint64, unattributedMs);
        QFETCH(qint64, ttftMs);
        QFETCH(int, scope);
        QFETCH(QString, reason);

        RequestRecord r;
        r.clear();
        DurationsInput in;
        in.startNs = T0;
        for (int i = 0; i < kSegmentCount - 1; ++i)
            in.segments[i] = ms(givenMs[i]);
        in.e2e = ms(e2eMs);
        const QString why = QString::fromStdString(decomposeDurations(r, in));
        if (!reason.isEmpty()) {
            QVERIFY2(why.contains(reason), qPrintable(why));
            return;
        }
        QCOMPARE(why, QString());
        QCOMPARE(r.metrics.e2e, ms(expectedE2eMs));
        QCOMPARE(r.metrics.segment(Segment::Unattributed), ms(unattributedMs));
        QCOMPARE(r.metrics.ttft, ms(ttftMs));
        QCOMPARE(int(r.metrics.e2eScope), scope);
        QCOMPARE(r.stamp(scope == int(E2eScope::Client) ? Stamp::ClientSend : Stamp::ServerRecv), T0);
        for (int i = 0; i < kSegmentCount - 1; ++i)
            QCOMPARE(r.metrics.segments[i], ms(givenMs[i])); // absent stays absent, never 0
    }
};

QTEST_GUILESS_MAIN(TestDecompose)
#include "tst_decompose.moc"
