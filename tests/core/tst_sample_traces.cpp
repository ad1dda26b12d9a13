// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled samples import cleanly and show what they are there to show: the knee, with decode dominant
// below capacity and the queue dominant past it.

#include "analysis/analysis.h"
#include "ingest/importer.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <QFileInfo>
#include <QTest>

using namespace lx;

class TestSampleTraces : public QObject {
    Q_OBJECT

private slots:
    void importsAndShowsTheKnee_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("compressed");
        QTest::newRow("JSONL timestamps form") << QStringLiteral("rising_load.jsonl") << QStringLiteral("jsonl") << false;
        QTest::newRow("JSONL durations form") << QStringLiteral("rising_load_durations.jsonl") << QStringLiteral("jsonl") << false;
        QTest::newRow("CSV") << QStringLiteral("rising_load.csv") << QStringLiteral("csv") << false;
        QTest::newRow("zstd JSONL") << QStringLiteral("rising_load.jsonl.zst") << QStringLiteral("jsonl") << true;
    }

    void importsAndShowsTheKnee()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(bool, compressed);
        const std::string path = std::string(LX_SOURCE_DIR) + "/sample_traces/" + file.toStdString();
        std::string why;
        auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        const auto imports = importFiles(*store, {path});
        QCOMPARE(imports.size(), std::size_t(1));
        const FileImport &in = imports.front();
        QCOMPARE(int(in.outcome), int(FileImport::Outcome::Complete));
        QCOMPARE(in.rejected, qint64(0));
        QVERIFY(in.accepted >= 500);
        QCOMPARE(QString::fromStdString(in.format), format);
        QCOMPARE(in.compressed, compressed);

        // The first and the last fifth of the trace in time.
        Statement range(store->db(), "SELECT min(start_ns), max(start_ns) FROM requests");
        QCOMPARE(range.step(), SQLITE_ROW);
        const std::int64_t first = sqlite3_column_int64(range.get(), 0);
        const std::int64_t last = sqlite3_column_int64(range.get(), 1);
        const std::int64_t fifth = (last - first) / 5;
        RequestFilter early;
        early.toNs = first + fifth;
        RequestFilter late;
        late.fromNs = last - fifth;
        const Report below = analyze(*store, early);
        const Report above = analyze(*store, late);
        const double decodeBelow = below.dominantShare(int(Segment::Decode));
        const double queueAbove = above.dominantShare(int(Segment::Queue));
        QVERIFY2(decodeBelow > 0.9, qPrintable(QStringLiteral("decode dominates %1 of the early requests").arg(decodeBelow)));
        QVERIFY2(queueAbove > 0.9, qPrintable(QStringLiteral("queue dominates %1 of the late requests").arg(queueAbove)));
        // Per-token generation barely moves while the queue grows by orders of magnitude.
        const double tpotBelow = below.tpot.stat.percentilesNs[0].value_or(0);
        const double tpotAbove = above.tpot.stat.percentilesNs[0].value_or(0);
        QVERIFY(tpotBelow > 0 && tpotAbove < 2 * tpotBelow);
        QVERIFY(above.segments[int(Segment::Queue)].stat.percentilesNs[0].value_or(0)
                > 10 * below.segments[int(Segment::Queue)].stat.percentilesNs[0].value_or(1));
    }

    void samplesStayUnder2MB()
    {
        qint64 total = 0;
        for (const char *name : {"rising_load.jsonl", "rising_load_durations.jsonl", "rising_load.csv", "rising_load.jsonl.zst"})
            total += QFileInfo(QString::fromUtf8(LX_SOURCE_DIR "/sample_traces/") + QString::fromUtf8(name)).size();
        QVERIFY2(total < 2'000'000, qPrintable(QString::number(total)));
    }
};

QTEST_GUILESS_MAIN(TestSampleTraces)
#include "tst_sample_traces.moc"
