// SPDX-License-Identifier: GPL-3.0-or-later
// The text report for people: columns that never run together whatever the width of a value, and the
// dominant-segment line by share with only the segments that dominate a request.

#include "model/duration_format.h"
#include "model/segments.h"
#include "report/dominant_order.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/text_table.h"

#include <QStringList>
#include <QTest>

using namespace lx;

using DominantCounts = std::array<std::int64_t, kSegmentCount>;
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(DominantCounts)
using Cells = std::vector<std::string>;
Q_DECLARE_METATYPE(Cells)

namespace {

constexpr double kMinute = 60e9;
constexpr double kHour = 3600e9;

/// A report with the percentiles p50 and p99 whose queue takes the four durations as mean, p50, p99 and max
/// (e2e the same, rotated by one); every other metric is not measured.
Report reportWithDurations(const std::vector<double> &durationsNs)
{
    Report r;
    r.percentiles = {50, 99};
    r.total = r.ok = 3;
    const auto fill = [&](MetricSummary &m, std::size_t from) {
        const auto at = [&](std::size_t i) { return durationsNs[(from + i) % durationsNs.size()]; };
        m.stat.count = 3;
        m.stat.meanNs = at(0);
        m.stat.percentilesNs = {at(1), at(2)};
        m.stat.maxNs = at(3);
        m.scope = "server";
    };
    fill(r.segments[static_cast<std::size_t>(Segment::Queue)], 0);
    fill(r.e2e, 1);
    for (MetricSummary *m : {&r.ttft, &r.tpot, &r.itl, &r.ttlt})
        m->stat.percentilesNs = {std::nullopt, std::nullopt};
    for (auto &m : r.segments)
        if (m.stat.percentilesNs.empty())
            m.stat.percentilesNs = {std::nullopt, std::nullopt};
    return r;
}

/// The lines of the statistics table: from the header ("count") to the blank line before "Dominant".
QStringList tableLines(const std::string &text)
{
    const QStringList lines = QString::fromStdString(text).split(QLatin1Char('\n'));
    QStringList table;
    bool inside = false;
    for (const QString &line : lines) {
        if (line.contains(QLatin1String("count")) && line.contains(QLatin1String("scope")))
            inside = true;
        if (line.startsWith(QLatin1String("Dominant")))
            break;
        if (inside && !line.isEmpty())
            table << line;
    }
    return table;
}

QString spaces(int n) { return QString(n, QLatin1Char(' ')); }

Report reportWithDominantCounts(const DominantCounts &counts)
{
    Report r;
    r.dominantCounts = counts;
    for (std::int64_t c : counts)
        r.dominantTotal += c;
    return r;
}

} // namespace

class TestReportText : public QObject {
    Q_OBJECT

private slots:
    void columnsNeverTouch_data()
    {
        QTest::addColumn<std::vector<double>>("durations");
        QTest::newRow("seconds (the usual widths)") << std::vector<double>{5.05e9, 2.5e9, 7.1e9, 9.99e9};
        QTest::newRow("tens of minutes") << std::vector<double>{5.05e9, 29 * kMinute + 36e9, 59 * kMinute + 14e9, 59 * kMinute + 59e9};
        QTest::newRow("hours") << std::vector<double>{kHour + 2 * kMinute, 59 * kMinute + 14e9, 13 * kHour + 59 * kMinute, 850.0};
        QTest::newRow("days of hours") << std::vector<double>{1234 * kHour + 59 * kMinute, 12.4e3, 99 * kHour, 59 * kMinute + 14e9};
        QTest::newRow("negative (clock skew)") << std::vector<double>{-(59 * kMinute + 14e9), -75e6, 59 * kMinute + 14e9, 0.0};
    }

    void columnsNeverTouch()
    {
        QFETCH(std::vector<double>, durations);
        const Report r = reportWithDurations(durations);
        const QStringList lines = tableLines(reportToText(r));
        QCOMPARE(lines.size(), kSegmentCount + 1 + 4 + 1); // header, segments, e2e, token metrics

        // Every value is its own cell: split at runs of two spaces, each duration appears whole.
        const QString queueLine = lines[1 + int(Segment::Queue)];
        const QStringList cells = queueLine.split(QStringLiteral("  "), Qt::SkipEmptyParts);
        QStringList expected{QStringLiteral("queue"), QStringLiteral("3")};
        for (std::size_t i = 0; i < 4; ++i)
            expected << QString::fromStdString(formatDuration(durations[i % durations.size()]));
        expected << QStringLiteral("server");
        QStringList trimmed;
        for (const QString &c : cells)
            trimmed << c.trimmed();
        QCOMPARE(trimmed, expected);

        // The header's right-aligned labels end where the values of their column end.
        const QString header = lines[0];
        for (const char *label : {"count", "mean", "p50", "p99", "max"}) {
            const int end = int(header.indexOf(QLatin1String(label))) + int(qstrlen(label));
            for (int row = 1; row < lines.size(); ++row) {
                QVERIFY2(lines[row].size() > end, qPrintable(lines[row]));
                QVERIFY2(lines[row][end - 1] != QLatin1Char(' ') && lines[row][end] == QLatin1Char(' '),
                         qPrintable(QStringLiteral("%1 | %2").arg(header, lines[row])));
            }
        }
        QCOMPARE(int(header.indexOf(QLatin1String("scope"))), int(queueLine.indexOf(QLatin1String("server"))));
    }

    void textTable_data()
    {
        QTest::addColumn<Cells>("cells");
        QTest::addColumn<QString>("text");
        // Columns: a name (left, at least 6), a number (right, at least 5), a note (left, last: never padded).
        const QString header = spaces(10) + QStringLiteral("n  note\n");
        QTest::newRow("fits the usual widths") << Cells{"ab", "12", "x"} << header + QStringLiteral("ab") + spaces(7) + QStringLiteral("12  x\n");
        QTest::newRow("a long name pushes the rest right")
            << Cells{"abcdefgh", "12", "x"} << spaces(12) + QStringLiteral("n  note\nabcdefgh") + spaces(3) + QStringLiteral("12  x\n");
        QTest::newRow("a wide number keeps two spaces")
            << Cells{"ab", "1234567", "x"} << spaces(14) + QStringLiteral("n  note\nab") + spaces(6) + QStringLiteral("1234567  x\n");
        QTest::newRow("µ counts as one character")
            << Cells{"µµµµµµ", "µs", "x"} << header + QStringLiteral("µµµµµµ") + spaces(3) + QStringLiteral("µs  x\n");
        QTest::newRow("empty cells") << Cells{"", "", ""} << header + spaces(13) + QLatin1Char('\n');
        QTest::newRow("missing cells are empty") << Cells{"ab"} << header + QStringLiteral("ab") + spaces(11) + QLatin1Char('\n');
        QTest::newRow("extra cells are ignored") << Cells{"ab", "12", "x", "y"} << header + QStringLiteral("ab") + spaces(7) + QStringLiteral("12  x\n");
    }

    void textTable()
    {
        QFETCH(Cells, cells);
        QFETCH(QString, text);
        TextTable table({{"", TextTable::Align::Left, 6}, {"n", TextTable::Align::Right, 5}, {"note", TextTable::Align::Left, 0}});
        table.addRow(cells);
        QCOMPARE(QString::fromStdString(table.render()), text);
    }

    void textTableBlankLineSharesWidths()
    {
        TextTable table({{"", TextTable::Align::Left, 0}, {"value", TextTable::Align::Right, 0}});
        table.addRow({"a", "1"});
        table.addBlankLine();
        table.addRow({"b", "59 min 14 s"});
        QCOMPARE(QString::fromStdString(table.render()),
                 spaces(9) + QStringLiteral("value\na") + spaces(12) + QStringLiteral("1\n\nb  59 min 14 s\n"));
    }

    void dominantOrder_data()
    {
        using Counts = DominantCounts;
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<QString>("line");
        // Pipeline order: network, preprocess, queue, prefill, decode, postprocess, unattributed.
        QTest::newRow("largest first") << Counts{0, 0, 30, 10, 60, 0, 0} << QStringLiteral("decode 60.0%, queue 30.0%, prefill 10.0%");
        QTest::newRow("ties keep pipeline order") << Counts{0, 0, 25, 25, 25, 0, 25}
                                                  << QStringLiteral("queue 25.0%, prefill 25.0%, decode 25.0%, unattributed 25.0%");
        QTest::newRow("one request in ten thousand is not 0.0%")
            << Counts{0, 0, 0, 0, 9999, 1, 0} << QStringLiteral("decode >99.9%, postprocess <0.1%");
        QTest::newRow("a segment alone") << Counts{0, 0, 0, 0, 0, 0, 7} << QStringLiteral("unattributed 100.0%");
        QTest::newRow("no request") << Counts{} << QString();
    }

    void dominantOrder()
    {
        QFETCH(DominantCounts, counts);
        QFETCH(QString, line);
        const Report r = reportWithDominantCounts(counts);
        QStringList parts;
        for (Segment s : dominantSegmentsByShare(r))
            parts << QStringLiteral("%1 %2").arg(QString::fromUtf8(segmentName(s).data()),
                                                 QString::fromStdString(shareText(r.dominantShare(int(s)))));
        QCOMPARE(parts.join(QStringLiteral(", ")), line);

        // The text report lists the same, two spaces apart; the JSON keeps every segment.
        QString textLine = QStringLiteral(" requests):");
        for (const QString &p : parts)
            textLine += QStringLiteral("  ") + p;
        QVERIFY(QString::fromStdString(reportToText(r)).contains(textLine + QLatin1Char('\n')));
        const QString json = QString::fromStdString(reportToJson(r));
        const qsizetype from = json.indexOf(QLatin1String("\"dominant\": {"));
        const QString dominant = json.mid(from, json.indexOf(QLatin1Char('}'), from) - from);
        qsizetype previous = -1;
        for (int s = 0; s < kSegmentCount; ++s) {
            const qsizetype at = dominant.indexOf(QStringLiteral("\"%1\": ").arg(QString::fromUtf8(segmentName(Segment(s)).data())));
            QVERIFY2(at > previous, segmentName(Segment(s)).data());
            previous = at;
        }
    }

    void shareTexts_data()
    {
        QTest::addColumn<double>("share");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << QStringLiteral("0.0%");
        QTest::newRow("whole") << 1.0 << QStringLiteral("100.0%");
        QTest::newRow("rounds down to zero") << 0.0001 << QStringLiteral("<0.1%");
        QTest::newRow("rounds up to 0.1") << 0.0005 << QStringLiteral("0.1%");
        QTest::newRow("rounds up to whole") << 0.9999 << QStringLiteral(">99.9%");
        QTest::newRow("just below the top") << 0.999 << QStringLiteral("99.9%");
        QTest::newRow("a third") << 1.0 / 3.0 << QStringLiteral("33.3%");
    }

    void shareTexts()
    {
        QFETCH(double, share);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(shareText(share)), text);
    }

    /// A trace of arrivals alone (Azure's, Mooncake's) is said to be one, in the text report, instead of a
    /// table of "-" and "0 requests" that never says why; never when a time is measured, nor when the
    /// errors, left out of the statistics, may hold some.
    void noLatencySentence_data()
    {
        QTest::addColumn<int>("ok");
        QTest::addColumn<int>("errors");
        QTest::addColumn<bool>("includeErrors");
        QTest::addColumn<int>("measuredE2e");
        QTest::addColumn<int>("measuredSegment"); // queue values
        QTest::addColumn<int>("skewedNetwork");   // network values left out for clock skew
        QTest::addColumn<bool>("said");
        QTest::newRow("arrivals only") << 8819 << 0 << false << 0 << 0 << 0 << true;
        QTest::newRow("no request") << 0 << 0 << false << 0 << 0 << 0 << false;
        QTest::newRow("an e2e measured") << 10 << 0 << false << 1 << 0 << 0 << false;
        QTest::newRow("a segment measured") << 10 << 0 << false << 0 << 3 << 0 << false;
        QTest::newRow("network, all of it skewed") << 10 << 0 << false << 0 << 0 << 10 << false;
        QTest::newRow("errors left out: unknown") << 10 << 2 << false << 0 << 0 << 0 << false;
        QTest::newRow("errors counted, none measured") << 10 << 2 << true << 0 << 0 << 0 << true;
    }
    void noLatencySentence()
    {
        QFETCH(int, ok);
        QFETCH(int, errors);
        QFETCH(bool, includeErrors);
        QFETCH(int, measuredE2e);
        QFETCH(int, measuredSegment);
        QFETCH(int, skewedNetwork);
        QFETCH(bool, said);
        Report r;
        r.percentiles = {50};
        r.ok = ok;
        r.error = errors;
        r.total = ok + errors;
        r.includeErrors = includeErrors;
        r.e2e.stat.count = measuredE2e;
        r.segments[static_cast<std::size_t>(Segment::Queue)].stat.count = measuredSegment;
        r.segments[static_cast<std::size_t>(Segment::Network)].excluded = skewedNetwork;
        for (MetricSummary *m : {&r.e2e, &r.ttft, &r.tpot, &r.itl, &r.ttlt})
            m->stat.percentilesNs.resize(1);
        for (MetricSummary &m : r.segments)
            m.stat.percentilesNs.resize(1);
        const std::string sentence = lx::noLatencySentence(r);
        QCOMPARE(!sentence.empty(), said);
        if (said) {
            QVERIFY2(sentence.starts_with("No time is measured in these " + std::to_string(r.total) + " requests"), sentence.c_str());
            QVERIFY(reportToText(r).find(sentence) != std::string::npos);
        }
    }

    /// The load line counts its windows and buckets in words that agree with the number, and points to
    /// the JSON only when it has buckets to show ("1 windows ... in 0 buckets (--json has them)").
    void loadLineCounts_data()
    {
        QTest::addColumn<int>("windows");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one window, no bucket")
            << 1 << 0 << QStringLiteral("  1 window of 1.00 ms; e2e by arrival rate in 0 buckets\n");
        QTest::newRow("one bucket")
            << 12 << 1
            << QStringLiteral("  12 windows of 1.00 ms; e2e by arrival rate in 1 bucket (--json has them)\n");
        QTest::newRow("several")
            << 12 << 3
            << QStringLiteral("  12 windows of 1.00 ms; e2e by arrival rate in 3 buckets (--json has them)\n");
    }
    void loadLineCounts()
    {
        QFETCH(int, windows);
        QFETCH(int, buckets);
        QFETCH(QString, expected);
        LoadAnalysis load;
        load.profile.windowNs = 1'000'000;
        load.profile.windows.resize(static_cast<std::size_t>(windows));
        load.buckets.resize(static_cast<std::size_t>(buckets));
        load.noKneeReason = "a reason";
        const QString text = QString::fromStdString(loadToText(load));
        QVERIFY2(text.endsWith(expected), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestReportText)
#include "tst_report_text.moc"
