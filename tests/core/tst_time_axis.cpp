// SPDX-License-Identifier: GPL-3.0-or-later
// The one rule for whether a time axis shows dates or offsets (time_axis.h), and that the waterfall, the
// dominant segment's windows and the load chart all follow it on the requests each of them draws.

#include "analysis/dominant_breakdown.h"
#include "analysis/load_chart_data.h"
#include "analysis/time_axis.h"
#include "analysis/waterfall_data.h"
#include "ingest/importer.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace lx;

namespace {

constexpr std::uint32_t kRel = kFlagRelativeTime;
constexpr std::int64_t kNone = kNotMeasured;

} // namespace

class TestTimeAxis : public QObject {
    Q_OBJECT

private slots:
    void rule_data()
    {
        QTest::addColumn<QList<qint64>>("starts");
        QTest::addColumn<QList<uint>>("flags");
        QTest::addColumn<bool>("relative");

        QTest::newRow("no request") << QList<qint64>{} << QList<uint>{} << false;
        QTest::newRow("dates") << QList<qint64>{1'700'000'000'000'000'000, 1'700'000'001'000'000'000} << QList<uint>{0, 0} << false;
        QTest::newRow("offsets") << QList<qint64>{0, 5'000'000} << QList<uint>{kRel, kRel} << true;
        QTest::newRow("one offset among dates: dates") << QList<qint64>{0, 1'700'000'000'000'000'000} << QList<uint>{kRel, 0} << false;
        QTest::newRow("a request without a start is not on the axis") << QList<qint64>{0, kNone} << QList<uint>{kRel, 0} << true;
        QTest::newRow("only requests without a start: no axis, dates") << QList<qint64>{kNone, kNone} << QList<uint>{kRel, kRel} << false;
        QTest::newRow("other flags do not count") << QList<qint64>{7} << QList<uint>{kFlagClockSkew} << false;
    }
    void rule()
    {
        QFETCH(QList<qint64>, starts);
        QFETCH(QList<uint>, flags);
        QFETCH(bool, relative);
        TimeAxisCount whole, firstHalf, secondHalf;
        for (qsizetype i = 0; i < starts.size(); ++i) {
            whole.add(starts[i], flags[i]);
            (i < starts.size() / 2 ? firstHalf : secondHalf).add(starts[i], flags[i]);
        }
        QCOMPARE(whole.relative(), relative);
        firstHalf.add(secondHalf); // the halves of a scan add up to the whole
        QCOMPARE(firstHalf.withStart, whole.withStart);
        QCOMPARE(firstHalf.relative(), relative);
    }

    // Every view with a time axis answers as the rule does, on the same store.
    void viewsAgree_data()
    {
        QTest::addColumn<QByteArray>("trace");
        QTest::addColumn<bool>("relative");
        // The dominant segment's windows hold only the requests with a dominant segment: Mooncake's
        // arrivals have none, so nothing is on that axis, and an empty axis is a date axis.
        QTest::addColumn<bool>("dominantRelative");
        const QByteArray dated = R"({"id":"a","t_server_recv_ns":1700000000000000000,"t_last_token_ns":1700000000500000000})" "\n";
        const QByteArray offsets = R"({"timestamp":0,"input_length":5,"output_length":7})" "\n"
                                   R"({"timestamp":250,"input_length":6,"output_length":8})" "\n";
        QTest::newRow("dates (native JSON lines)") << dated << false << false;
        QTest::newRow("offsets (Mooncake)") << offsets << true << false;
    }
    void viewsAgree()
    {
        QFETCH(QByteArray, trace);
        QFETCH(bool, relative);
        QFETCH(bool, dominantRelative);
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("t.jsonl"), trace);
        std::string error;
        auto store = Store::openTemporary(&error);
        QVERIFY2(store, error.c_str());
        const auto imported = importFiles(*store, {path});
        QCOMPARE(imported.front().outcome, FileImport::Outcome::Complete);
        const auto waterfall = loadWaterfall(*store, {}, nullptr, &error);
        QVERIFY2(waterfall, error.c_str());
        QCOMPARE(waterfall->relativeTime, relative);
        QCOMPARE(computeDominantBreakdown(*store, {}).relativeTime, dominantRelative);
        QCOMPARE(computeLoadChartData(*store, {}).relativeTime, relative);
    }
};

QTEST_GUILESS_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
