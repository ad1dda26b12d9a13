// SPDX-License-Identifier: GPL-3.0-or-later
// Exact percentiles in two passes (model/rank_histogram.h), and summarize() on the inputs that take that
// path: every figure equal to a full sort's, on values spread, alike, negative and at the ends of int64.

#include "model/percentiles.h"
#include "model/rank_histogram.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>

using namespace lx;

namespace {

const std::vector<double> kPercentiles{99.9, 0.0, 50.0, 12.5, 90.0, 95.0, 99.0, 100.0, 99.99}; // unsorted on purpose

enum class Spread { Wide, Lognormal, Mixed, Extremes, FewDistinct, AllAlike, Microseconds };

std::vector<std::int64_t> values(Spread spread, int size, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> lognormal(18.0, 1.2);
    std::vector<std::int64_t> out(static_cast<std::size_t>(size));
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min(), kMax = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i < out.size(); ++i) {
        switch (spread) {
        case Spread::Wide: out[i] = static_cast<std::int64_t>(rng() % 5'000'000'000ull); break;
        case Spread::Lognormal: out[i] = static_cast<std::int64_t>(lognormal(rng)); break;
        case Spread::Mixed: out[i] = static_cast<std::int64_t>(rng() % 2'000'001) - 1'000'000; break; // skew: negative
        case Spread::Extremes: {
            const std::int64_t pick[] = {kMin, kMin + 1, -1, 0, 1, 1023, 1024, kMax - 1, kMax};
            out[i] = pick[rng() % std::size(pick)];
            break;
        }
        case Spread::FewDistinct: out[i] = static_cast<std::int64_t>(rng() % 3) * 1'000'000; break;
        case Spread::AllAlike: out[i] = 42; break;
        case Spread::Microseconds: out[i] = static_cast<std::int64_t>(rng() % 400'000) * 1000; break;
        }
    }
    return out;
}

/// The mean of the values, independently: the upper and lower 32 bits summed apart (neither sum overflows
/// for these sizes), then joined in long double.
double referenceMean(const std::vector<std::int64_t> &v)
{
    std::int64_t high = 0, low = 0;
    for (std::int64_t x : v) {
        high += x >> 32; // arithmetic shift: the lower bits below are then always positive
        low += static_cast<std::int64_t>(static_cast<std::uint64_t>(x) & 0xffffffffu);
    }
    const long double sum = static_cast<long double>(high) * 4294967296.0L + static_cast<long double>(low);
    return static_cast<double>(sum / static_cast<long double>(v.size()));
}

void compareWithSort(const std::vector<std::int64_t> &input, const Statistic &s)
{
    std::vector<std::int64_t> sorted = input;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(s.count, qint64(input.size()));
    QCOMPARE(*s.maxNs, static_cast<double>(sorted.back()));
    const double mean = referenceMean(input);
    QVERIFY2(std::fabs(*s.meanNs - mean) <= 1e-9 * std::max(1.0, std::fabs(mean)),
             qPrintable(QStringLiteral("mean %1 vs %2").arg(*s.meanNs).arg(mean)));
    for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
        const double reference = percentileOfSorted(sorted, kPercentiles[i]);
        QVERIFY2(*s.percentilesNs[i] == reference,
                 qPrintable(QStringLiteral("p%1: %2 vs %3").arg(kPercentiles[i]).arg(*s.percentilesNs[i], 0, 'f').arg(reference, 0, 'f')));
    }
}

} // namespace

class TestRankHistogram : public QObject {
    Q_OBJECT

private slots:
    void bucketsKeepTheOrder_data()
    {
        QTest::addColumn<qint64>("lower");
        QTest::addColumn<qint64>("higher");
        QTest::addColumn<bool>("apart"); ///< in different buckets (values within 0.2% may share one)
        constexpr qint64 kMin = std::numeric_limits<qint64>::min(), kMax = std::numeric_limits<qint64>::max();
        QTest::newRow("int64 min, next: one bucket") << kMin << kMin + 1 << false;
        QTest::newRow("int64 min, max") << kMin << kMax << true;
        QTest::newRow("-1, 0") << qint64(-1) << qint64(0) << true;
        QTest::newRow("1022, 1023: exact below 1024") << qint64(1022) << qint64(1023) << true;
        QTest::newRow("1023, 1024: the exact buckets end") << qint64(1023) << qint64(1024) << true;
        QTest::newRow("1024, 1025: one bucket") << qint64(1024) << qint64(1025) << false;
        QTest::newRow("a power of two") << qint64(65535) << qint64(65536) << true;
        QTest::newRow("-1024, -1023") << qint64(-1024) << qint64(-1023) << true;
        QTest::newRow("1 s and 1.01 s") << qint64(1'000'000'000) << qint64(1'010'000'000) << true;
        QTest::newRow("next to int64 max") << kMax - (qint64(1) << 54) << kMax << true;
    }

    void bucketsKeepTheOrder()
    {
        QFETCH(qint64, lower);
        QFETCH(qint64, higher);
        QFETCH(bool, apart);
        const unsigned a = RankHistogram::bucketOf(lower), b = RankHistogram::bucketOf(higher);
        QVERIFY(apart ? a < b : a == b);
        QVERIFY(b < RankHistogram::kBuckets);
    }

    void summarizeMatchesFullSort_data()
    {
        QTest::addColumn<int>("spread");
        QTest::addColumn<int>("size");
        QTest::newRow("wide, just under the histogram") << int(Spread::Wide) << 65535;
        QTest::newRow("wide, the first size counted") << int(Spread::Wide) << 65536;
        QTest::newRow("lognormal 300k") << int(Spread::Lognormal) << 300000;
        QTest::newRow("negative and positive") << int(Spread::Mixed) << 200000;
        QTest::newRow("ends of int64 (the two lowest share a bucket)") << int(Spread::Extremes) << 100000;
        QTest::newRow("three values: one a bucket") << int(Spread::FewDistinct) << 100000;
        QTest::newRow("all alike") << int(Spread::AllAlike) << 70000;
        QTest::newRow("whole microseconds") << int(Spread::Microseconds) << 250000;
    }

    void summarizeMatchesFullSort()
    {
        QFETCH(int, spread);
        QFETCH(int, size);
        const std::vector<std::int64_t> input = values(Spread(spread), size, 7u + unsigned(spread));
        std::vector<std::int64_t> work = input;
        compareWithSort(input, summarize(work, kPercentiles));
    }

    void partsMergeToTheWhole_data()
    {
        QTest::addColumn<int>("spread");
        QTest::addColumn<int>("size");
        QTest::newRow("lognormal") << int(Spread::Lognormal) << 50001;
        QTest::newRow("ends of int64") << int(Spread::Extremes) << 999;
        QTest::newRow("all alike, kept") << int(Spread::AllAlike) << 1000;
        QTest::newRow("all alike, too many to keep: one value a bucket") << int(Spread::AllAlike) << 300000;
        QTest::newRow("three values, too many to keep") << int(Spread::FewDistinct) << 300001;
        QTest::newRow("one value") << int(Spread::Wide) << 1;
    }

    void partsMergeToTheWhole()
    {
        // Two threads each count and keep their half; the merged histogram gives the whole's figures.
        QFETCH(int, spread);
        QFETCH(int, size);
        const std::vector<std::int64_t> input = values(Spread(spread), size, 11u);
        const std::size_t half = input.size() / 2;
        RankHistogram whole, upper;
        for (std::size_t i = 0; i < input.size(); ++i)
            (i < half ? whole : upper).count(input[i]);
        whole.addCounts(upper);
        QCOMPARE(whole.count(), qint64(input.size()));
        whole.plan(kPercentiles);
        upper = whole; // the upper part's second pass keeps into a copy of the plan
        for (std::size_t i = 0; i < input.size(); ++i)
            (i < half ? whole : upper).keep(input[i]);
        whole.addKept(upper);
        const std::optional<Statistic> s = whole.finish();
        QVERIFY(s);
        compareWithSort(input, *s);
    }

    void alikeButNotEqualCannotTell()
    {
        // A million and a few ns: one bucket holds them all, too many to keep, and they differ. The
        // histogram says it cannot tell; summarize() then selects in place, with the same figures.
        std::mt19937_64 rng(5);
        std::vector<std::int64_t> input(100000);
        for (auto &v : input)
            v = 1'000'000 + static_cast<std::int64_t>(rng() % 100);
        RankHistogram h;
        for (std::int64_t v : input)
            h.count(v);
        QCOMPARE(h.plan(kPercentiles), qint64(input.size()));
        for (std::int64_t v : input)
            h.keep(v);
        QVERIFY(!h.finish());
        std::vector<std::int64_t> work = input;
        compareWithSort(input, summarize(work, kPercentiles));
    }

    void emptyHasNoValues()
    {
        RankHistogram h;
        QCOMPARE(h.plan(kPercentiles), qint64(0));
        const Statistic s = *h.finish();
        QCOMPARE(s.count, qint64(0));
        QVERIFY(!s.meanNs && !s.maxNs);
        QCOMPARE(s.percentilesNs.size(), kPercentiles.size());
        QVERIFY(!s.percentilesNs[2]);
    }
};

QTEST_APPLESS_MAIN(TestRankHistogram)
#include "tst_rank_histogram.moc"
