// SPDX-License-Identifier: GPL-3.0-or-later
// The segment table (model/segments.h): each segment's name, title, column and bounds as docs/DOMAIN.md
// defines them, look-up by name both ways, and the parts that read the table (the store's schema, the
// requests table's columns, the filter language, the store's SQL) agreeing with it.

#include "filter/filter_expression.h"
#include "model/segments.h"
#include "store/request_table.h"
#include "store/segment_columns.h"
#include "store/sqlite_util.h"
#include "store/store.h"

#include <QTest>

#include <algorithm>
#include <array>
#include <set>
#include <variant>

using namespace lx;

using Stamps = std::array<std::int64_t, lx::kStampCount>;
Q_DECLARE_METATYPE(lx::Segment)
Q_DECLARE_METATYPE(Stamps)
Q_DECLARE_METATYPE(std::vector<lx::Segment>)

namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000LL;

/// A segment's bounds as text: "from..to" per stretch, joined by " + "; a fallback start as "from|fallback".
QString boundsText(const SegmentDefinition &s)
{
    QStringList parts;
    for (const StampInterval &interval : s.bounds()) {
        QString from = QString::fromLatin1(stampName(interval.from));
        if (interval.fromFallback)
            from += QLatin1Char('|') + QString::fromLatin1(stampName(*interval.fromFallback));
        parts << from + QStringLiteral("..") + QString::fromLatin1(stampName(interval.to));
    }
    return parts.join(QStringLiteral(" + "));
}

QString text(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

/// Stamps at kT0 plus the given offsets in ns; -1 leaves a stamp not measured. In Stamp order.
Stamps stampsAt(std::initializer_list<std::int64_t> offsets)
{
    Stamps stamps{};
    stamps.fill(kNotMeasured);
    std::size_t i = 0;
    for (std::int64_t offset : offsets)
        stamps[i++] = offset < 0 ? kNotMeasured : kT0 + offset;
    return stamps;
}

/// Adds one data row per segment of the table, named by the segment.
void rowPerSegment()
{
    QTest::addColumn<Segment>("segment");
    for (const SegmentDefinition &s : kSegments)
        QTest::newRow(s.name.data()) << s.segment;
}

} // namespace

class TestSegments : public QObject {
    Q_OBJECT

private slots:
    void definition_data()
    {
        QTest::addColumn<Segment>("segment");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("column");
        QTest::addColumn<QString>("bounds");
        // docs/DOMAIN.md, "Segments".
        QTest::newRow("network") << Segment::Network << "network" << "Network" << "network_ns"
                                 << "t_client_send..t_server_recv + t_server_send..t_client_recv";
        QTest::newRow("preprocess") << Segment::Preprocess << "preprocess" << "Preprocess" << "preprocess_ns"
                                    << "t_server_recv..t_preprocess_done";
        QTest::newRow("queue") << Segment::Queue << "queue" << "Queue" << "queue_ns" << "t_preprocess_done|t_server_recv..t_sched";
        QTest::newRow("prefill") << Segment::Prefill << "prefill" << "Prefill" << "prefill_ns" << "t_sched..t_first_token";
        QTest::newRow("decode") << Segment::Decode << "decode" << "Decode" << "decode_ns" << "t_first_token..t_last_token";
        QTest::newRow("postprocess") << Segment::Postprocess << "postprocess" << "Postprocess" << "postprocess_ns"
                                     << "t_last_token..t_server_send";
        QTest::newRow("unattributed") << Segment::Unattributed << "unattributed" << "Unattributed" << "unattributed_ns" << "";
    }

    void definition()
    {
        QFETCH(Segment, segment);
        QFETCH(QString, name);
        const SegmentDefinition &s = segmentDefinition(segment);
        QCOMPARE(s.segment, segment);
        QCOMPARE(text(s.name), name);
        QCOMPARE(text(segmentName(segment)), name);
        QCOMPARE(text(kSegmentNames[std::size_t(segment)]), name);
        QTEST(text(s.title), "title");
        QTEST(text(s.column), "column");
        QTEST(boundsText(s), "bounds");
        QVERIFY(s.colorIndex >= 0 && s.colorIndex <= 8);
    }

    void coloursDiffer()
    {
        std::set<int> colours;
        for (const SegmentDefinition &s : kSegments)
            colours.insert(s.colorIndex);
        QCOMPARE(colours.size(), std::size_t(kSegmentCount));
    }

    void lookUpByName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("expected"); // a Segment, -1 for a name that is none
        for (const SegmentDefinition &s : kSegments)
            QTest::newRow(s.name.data()) << text(s.name) << int(s.segment);
        QTest::newRow("capitalised") << "Queue" << -1;
        QTest::newRow("column name") << "queue_ns" << -1;
        QTest::newRow("durations key") << "decode_ms" << -1;
        QTest::newRow("a metric, not a segment") << "e2e" << -1;
        QTest::newRow("ttft") << "ttft" << -1;
        QTest::newRow("leading space") << " queue" << -1;
        QTest::newRow("trailing space") << "network " << -1;
        QTest::newRow("prefix") << "pre" << -1;
        QTest::newRow("empty") << "" << -1;
    }

    void lookUpByName()
    {
        QFETCH(QString, name);
        QFETCH(int, expected);
        const std::string utf8 = name.toStdString();
        const std::optional<Segment> found = segmentFromName(utf8);
        QCOMPARE(found ? int(*found) : -1, expected);
        if (found)
            QCOMPARE(text(segmentName(*found)), name); // and back
    }

    void duration_data()
    {
        QTest::addColumn<Segment>("segment");
        QTest::addColumn<Stamps>("stamps");
        QTest::addColumn<qint64>("expected"); // kNotMeasured when not measured
        // client send, server recv, preprocess done, sched, first token, last token, server send, client recv
        const auto all = stampsAt({0, 10, 15, 40, 100, 900, 905, 930});
        QTest::newRow("network: in and back") << Segment::Network << all << qint64(10 + 25);
        QTest::newRow("network: no client receive") << Segment::Network << stampsAt({0, 10, 15, 40, 100, 900, 905, -1})
                                                    << qint64(kNotMeasured);
        QTest::newRow("network: no server stamps") << Segment::Network << stampsAt({0, -1, -1, -1, -1, -1, -1, 930})
                                                   << qint64(kNotMeasured);
        QTest::newRow("network: skewed clocks stay negative") << Segment::Network << stampsAt({20, 10, -1, -1, -1, -1, 905, 930})
                                                               << qint64(-10 + 25);
        QTest::newRow("preprocess") << Segment::Preprocess << all << qint64(5);
        QTest::newRow("preprocess: no preprocess done") << Segment::Preprocess << stampsAt({0, 10, -1, 40})
                                                        << qint64(kNotMeasured);
        QTest::newRow("queue from preprocess done") << Segment::Queue << all << qint64(25);
        QTest::newRow("queue from server receive") << Segment::Queue << stampsAt({-1, 10, -1, 40}) << qint64(30);
        QTest::newRow("queue: no start at all") << Segment::Queue << stampsAt({0, -1, -1, 40}) << qint64(kNotMeasured);
        QTest::newRow("queue: no sched") << Segment::Queue << stampsAt({0, 10, 15, -1, 100}) << qint64(kNotMeasured);
        QTest::newRow("prefill") << Segment::Prefill << all << qint64(60);
        QTest::newRow("decode") << Segment::Decode << all << qint64(800);
        QTest::newRow("decode: zero is measured") << Segment::Decode << stampsAt({-1, 10, -1, 40, 100, 100}) << qint64(0);
        QTest::newRow("postprocess") << Segment::Postprocess << all << qint64(5);
        QTest::newRow("postprocess: no last token") << Segment::Postprocess << stampsAt({0, 10, 15, 40, 100, -1, 905, 930})
                                                    << qint64(kNotMeasured);
        QTest::newRow("unattributed: never bound by stamps") << Segment::Unattributed << all << qint64(kNotMeasured);
    }

    void duration()
    {
        QFETCH(Segment, segment);
        QFETCH(Stamps, stamps);
        QTEST(qint64(segmentDuration(segment, stamps)), "expected");
    }

    void joinNames_data()
    {
        QTest::addColumn<QString>("separator");
        QTest::addColumn<QString>("last");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a sentence") << ", " << " and " << kSegmentCount
                                    << "network, preprocess, queue, prefill, decode, postprocess and unattributed";
        QTest::newRow("the measured ones") << ", " << ", " << kSegmentCount - 1
                                           << "network, preprocess, queue, prefill, decode, postprocess";
        QTest::newRow("one") << ", " << " and " << 1 << "network";
        QTest::newRow("two") << ", " << " or " << 2 << "network or preprocess";
        QTest::newRow("none") << ", " << " and " << 0 << "";
        QTest::newRow("more than there are") << "," << "&" << kSegmentCount + 3
                                             << "network,preprocess,queue,prefill,decode,postprocess&unattributed";
        QTest::newRow("negative") << ", " << " and " << -1 << "";
    }

    void joinNames()
    {
        QFETCH(QString, separator);
        QFETCH(QString, last);
        QFETCH(int, count);
        QTEST(QString::fromStdString(joinSegmentNames(separator.toStdString(), last.toStdString(), count)), "expected");
    }

    void schemaHasTheColumns_data() { rowPerSegment(); }

    void schemaHasTheColumns()
    {
        QFETCH(Segment, segment);
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        const SegmentDefinition &s = segmentDefinition(segment);
        Statement column(store->db(), "SELECT type FROM pragma_table_info('requests') WHERE name = ?");
        sqlite3_bind_text(column.get(), 1, s.column.data(), int(s.column.size()), SQLITE_STATIC);
        QVERIFY2(column.step() == SQLITE_ROW, s.column.data());
        QCOMPARE(QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(column.get(), 0))), QByteArray("INTEGER"));
        // requests.dominant holds segments.id: the table's place in pipeline order.
        Statement row(store->db(), "SELECT name FROM segments WHERE id = ?");
        sqlite3_bind_int(row.get(), 1, int(segment));
        QVERIFY(row.step() == SQLITE_ROW);
        QCOMPARE(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(row.get(), 0))), text(s.name));
    }

    void schemaHasNoOtherSegments()
    {
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        Statement count(store->db(), "SELECT count(*), min(id), max(id) FROM segments");
        QVERIFY(count.step() == SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(count.get(), 0), kSegmentCount);
        QCOMPARE(sqlite3_column_int(count.get(), 1), 0);
        QCOMPARE(sqlite3_column_int(count.get(), 2), kSegmentCount - 1);
    }

    void columnListIsTheSchemasOrder_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("from"); // what the prefix names
        QTest::newRow("bare") << "" << "requests";
        QTest::newRow("an alias") << "r." << "requests r";
        QTest::newRow("a table") << "requests." << "requests";
    }

    void columnListIsTheSchemasOrder()
    {
        QFETCH(QString, prefix);
        std::string why;
        const auto store = Store::openTemporary(&why);
        QVERIFY2(store, why.c_str());
        // The schema's columns from the first segment's on, as many as there are segments: the seven in a
        // row, in pipeline order, which is how readers take them by index.
        Statement columns(store->db(), "SELECT name FROM pragma_table_info('requests') WHERE cid >= (SELECT cid FROM"
                                       " pragma_table_info('requests') WHERE name = ?) ORDER BY cid LIMIT ?");
        const std::string_view first = kSegments.front().column;
        sqlite3_bind_text(columns.get(), 1, first.data(), int(first.size()), SQLITE_STATIC);
        sqlite3_bind_int(columns.get(), 2, kSegmentCount);
        QStringList expected;
        while (columns.step() == SQLITE_ROW)
            expected << prefix + QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(columns.get(), 0)));
        QCOMPARE(expected.size(), kSegmentCount);
        const std::string list = segmentColumnList(prefix.toStdString());
        QCOMPARE(QString::fromStdString(list), expected.join(QStringLiteral(", ")));
        // and SQLite reads it as that many columns
        QFETCH(QString, from);
        Statement select(store->db(), "SELECT " + list + " FROM " + from.toStdString());
        QVERIFY2(select.valid(), sqlite3_errmsg(store->db()));
        QCOMPARE(sqlite3_column_count(select.get()), kSegmentCount);
    }

    void columnTerms_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("separator");
        QTest::addColumn<std::vector<Segment>>("segments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one") << "a.{} IS NULL" << " AND " << std::vector{Segment::Queue} << "a.queue_ns IS NULL";
        QTest::newRow("two holes each") << "{} = s.{}" << ", " << std::vector{Segment::Queue, Segment::Decode}
                                        << "queue_ns = s.queue_ns, decode_ns = s.decode_ns";
        QTest::newRow("in the order given") << "{}" << "|" << std::vector{Segment::Unattributed, Segment::Network}
                                            << "unattributed_ns|network_ns";
        QTest::newRow("adjacent holes") << "{}{}" << "," << std::vector{Segment::Prefill} << "prefill_nsprefill_ns";
        QTest::newRow("no hole: the pattern as it is") << "x" << "," << std::vector{Segment::Network, Segment::Decode}
                                                       << "x,x";
        QTest::newRow("a brace alone is no hole") << "{ {}} {" << "," << std::vector{Segment::Decode} << "{ decode_ns} {";
        QTest::newRow("no segments") << "{}" << ", " << std::vector<Segment>{} << "";
        QTest::newRow("empty pattern") << "" << "+" << std::vector{Segment::Network, Segment::Queue} << "+";
    }

    void columnTerms()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, separator);
        QFETCH(std::vector<Segment>, segments);
        QTEST(QString::fromStdString(segmentColumnTerms(pattern.toStdString(), separator.toStdString(), segments)), "expected");
    }

    void columnTermsOfEverySegment_data() { rowPerSegment(); }

    void columnTermsOfEverySegment()
    {
        QFETCH(Segment, segment);
        const std::array one = {segment};
        QCOMPARE(QString::fromStdString(segmentColumnTerms("{}", ",", one)), text(segmentDefinition(segment).column));
    }

    void requestTableColumn_data() { rowPerSegment(); }

    void requestTableColumn()
    {
        QFETCH(Segment, segment);
        const SegmentDefinition &s = segmentDefinition(segment);
        const std::optional<RequestColumn> column = columnFromName(s.name);
        QVERIFY(column);
        const ColumnInfo &info = columnInfo(*column);
        QCOMPARE(text(info.name), text(s.name));
        QCOMPARE(text(info.header), text(s.title));
        QCOMPARE(text(info.csvHeader), text(s.name) + QStringLiteral("_ms"));
        QCOMPARE(int(info.kind), int(ColumnKind::Duration));
        QCOMPARE(int(*column) - int(RequestColumn::Network), int(segment)); // the segment columns in pipeline order
    }

    void filterField_data() { rowPerSegment(); }

    void filterField()
    {
        QFETCH(Segment, segment);
        const SegmentDefinition &s = segmentDefinition(segment);
        const auto names = filterFieldNames();
        QVERIFY(std::find(names.begin(), names.end(), s.name) != names.end());
        const auto compiled = compileFilterExpression(std::string(s.name) + " > 1s");
        const auto *condition = std::get_if<SqlCondition>(&compiled);
        QVERIFY(condition);
        QCOMPARE(QString::fromStdString(condition->sql), QStringLiteral("(r.%1 > ?)").arg(text(s.column)));
        const auto dominant = compileFilterExpression("dominant = " + std::string(s.name));
        QVERIFY(std::holds_alternative<SqlCondition>(dominant));
        QCOMPARE(std::get<std::int64_t>(std::get<SqlCondition>(dominant).values.at(0)), std::int64_t(segment));
    }

    void filterRejectsUnknownSegment_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::newRow("typo") << "dominant = queu";
        QTest::newRow("a metric") << "dominant = e2e";
        QTest::newRow("a column name") << "dominant = queue_ns";
    }

    void filterRejectsUnknownSegment()
    {
        QFETCH(QString, expression);
        const auto compiled = compileFilterExpression(expression.toStdString());
        const auto *error = std::get_if<FilterError>(&compiled);
        QVERIFY(error);
        // The message offers every segment, in pipeline order.
        QVERIFY2(error->message.ends_with(joinSegmentNames(", ", ", ")), error->message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSegments)
#include "tst_segments.moc"
