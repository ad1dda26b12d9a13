// SPDX-License-Identifier: GPL-3.0-or-later
// Exact type-7 percentiles, checked against hand-computed values and against a full sort.

#include "model/percentiles.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace lx;

class TestPercentiles : public QObject {
    Q_OBJECT

private slots:
    void knownValues_data()
    {
        QTest::addColumn<QList<qint64>>("samples");
        QTest::addColumn<double>("percentile");
        QTest::addColumn<double>("expected");

        // numpy.percentile(x, q) with its default linear method gives these.
        const QList<qint64> five{10, 20, 30, 40, 50};
        QTest::newRow("median of five") << five << 50.0 << 30.0;
        QTest::newRow("p90 of five") << five << 90.0 << 46.0;
        QTest::newRow("p99.9 of five") << five << 99.9 << 49.96;
        QTest::newRow("p0 is the minimum") << five << 0.0 << 10.0;
        QTest::newRow("p100 is the maximum") << five << 100.0 << 50.0;
        QTest::newRow("unsorted input") << QList<qint64>{50, 10, 40, 20, 30} << 25.0 << 20.0;
        QTest::newRow("median of two") << QList<qint64>{1, 4} << 50.0 << 2.5;
        QTest::newRow("single value") << QList<qint64>{7} << 99.0 << 7.0;
        QTest::newRow("repeated values") << QList<qint64>{3, 3, 3, 9} << 75.0 << 4.5;
        QTest::newRow("negative values") << QList<qint64>{-30, -10, 0, 10} << 50.0 << -5.0;
    }

    void knownValues()
    {
        QFETCH(QList<qint64>, samples);
        QFETCH(double, percentile);
        QFETCH(double, expected);
        std::vector<std::int64_t> values(samples.begin(), samples.end());
        const Statistic s = summarize(values, {percentile});
        QCOMPARE(s.count, qint64(samples.size()));
        QVERIFY(s.percentilesNs[0].has_value());
        QVERIFY2(std::fabs(*s.percentilesNs[0] - expected) < 1e-9, qPrintable(QString::number(*s.percentilesNs[0])));
    }

    void meanAndMax_data()
    {
        QTest::addColumn<QList<qint64>>("samples");
        QTest::addColumn<double>("mean");
        QTest::addColumn<double>("max");
        QTest::newRow("small values") << QList<qint64>{4, 1, 7, 2} << 3.5 << 7.0;
        // The sum is 128-bit: a small negative sum must not vanish between its two halves.
        QTest::newRow("negative sum") << QList<qint64>{-3, -7} << -5.0 << -3.0;
        QTest::newRow("sum past 64 bits") << QList<qint64>{9'000'000'000'000'000'000LL, 9'000'000'000'000'000'000LL}
                                          << 9e18 << 9e18;
        QTest::newRow("negative sum past 64 bits")
            << QList<qint64>{-9'000'000'000'000'000'000LL, -9'000'000'000'000'000'000LL, 6} << -6e18 << 6.0;
    }

    void meanAndMax()
    {
        QFETCH(QList<qint64>, samples);
        QFETCH(double, mean);
        QFETCH(double, max);
        std::vector<std::int64_t> values(samples.begin(), samples.end());
        const Statistic s = summarize(values, defaultPercentiles());
        QCOMPARE(*s.meanNs, mean);
        QCOMPARE(*s.maxNs, max);
    }

    void emptyHasCountZeroAndNoValues()
    {
        std::vector<std::int64_t> none;
        const Statistic s = summarize(none, defaultPercentiles());
        QCOMPARE(s.count, qint64(0));
        QVERIFY(!s.meanNs && !s.maxNs);
        QCOMPARE(s.percentilesNs.size(), defaultPercentiles().size());
        for (const auto &p : s.percentilesNs)
            QVERIFY(!p);
    }

    void matchesFullSort_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<unsigned>("seed");
        QTest::newRow("1 value") << 1 << 1u;
        QTest::newRow("2 values") << 2 << 2u;
        QTest::newRow("1000 values") << 1000 << 3u;
        QTest::newRow("100001 values") << 100001 << 4u;
    }

    void matchesFullSort()
    {
        // An independent reference: sort everything, then interpolate between closest ranks.
        QFETCH(int, size);
        QFETCH(unsigned, seed);
        std::mt19937_64 rng(seed);
        std::vector<std::int64_t> values(static_cast<std::size_t>(size));
        for (auto &v : values)
            v = static_cast<std::int64_t>(rng() % 5'000'000'000ull); // up to 5 s in ns, many ties unlikely
        std::vector<std::int64_t> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const std::vector<double> ps{99.9, 0.0, 50.0, 12.5, 90.0, 95.0, 99.0, 100.0}; // unsorted on purpose
        const Statistic s = summarize(values, ps);
        for (std::size_t i = 0; i < ps.size(); ++i) {
            const double reference = percentileOfSorted(sorted, ps[i]);
            QVERIFY2(std::fabs(*s.percentilesNs[i] - reference) < 1e-3,
                     qPrintable(QStringLiteral("p%1: %2 vs %3").arg(ps[i]).arg(*s.percentilesNs[i]).arg(reference)));
        }
    }

    void parseList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<double>>("expected");
        QTest::addColumn<bool>("valid");
        QTest::newRow("plain") << QStringLiteral("50,90,99.9") << QList<double>{50, 90, 99.9} << true;
        QTest::newRow("p prefix and spaces") << QStringLiteral("p50, p99") << QList<double>{50, 99} << true;
        QTest::newRow("out of range") << QStringLiteral("50,101") << QList<double>{} << false;
        QTest::newRow("not a number") << QStringLiteral("50,abc") << QList<double>{} << false;
        QTest::newRow("empty item") << QStringLiteral("50,,90") << QList<double>{} << false;
    }

    void parseList()
    {
        QFETCH(QString, text);
        QFETCH(QList<double>, expected);
        QFETCH(bool, valid);
        std::string why;
        const auto list = parsePercentileList(text.toStdString(), &why);
        QCOMPARE(list.has_value(), valid);
        if (!valid) {
            QVERIFY(!why.empty());
            return;
        }
        QCOMPARE(QList<double>(list->begin(), list->end()), expected);
    }

    void keys_data()
    {
        QTest::addColumn<double>("percentile");
        QTest::addColumn<QString>("key");
        QTest::newRow("integer") << 50.0 << QStringLiteral("p50");
        QTest::newRow("fraction") << 99.9 << QStringLiteral("p99.9");
        QTest::newRow("two decimals") << 99.99 << QStringLiteral("p99.99");
    }

    void keys()
    {
        QFETCH(double, percentile);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(percentileKey(percentile)), key);
    }
};

QTEST_GUILESS_MAIN(TestPercentiles)
#include "tst_percentiles.moc"
