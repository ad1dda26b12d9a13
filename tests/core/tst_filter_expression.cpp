// SPDX-License-Identifier: GPL-3.0-or-later
// The filter language (docs/FILTER.md): what expressions compile to (the bound values exactly, the SQL only
// loosely), where and why bad ones fail, that no input ever reaches the SQL text or harms a store, and the
// requests each expression selects from a small fixture, counted by hand.

#include "analysis/analysis.h"
#include "filter/filter_expression.h"
#include "ingest/importer.h"
#include "store/sqlite_util.h"
#include "store/store.h"
#include "test_support.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace lx;

namespace {

constexpr qint64 T0 = 1'700'000'000'000'000'000LL; // 2023-11-14T22:13:20Z
constexpr qint64 MS = 1'000'000;

std::string_view view(const QByteArray &b) { return {b.constData(), static_cast<std::size_t>(b.size())}; }

QByteArray rendered(const SqlCondition &c)
{
    QByteArrayList parts;
    for (const auto &v : c.values) {
        if (const auto *i = std::get_if<std::int64_t>(&v))
            parts << QByteArray::number(static_cast<qint64>(*i));
        else if (const auto *d = std::get_if<double>(&v))
            parts << QByteArray::number(*d, 'g', 17) + "d";
        else
            parts << "'" + QByteArray::fromStdString(std::get<std::string>(v)) + "'";
    }
    return parts.join(", ");
}

/// A compilation for a failure message (QVERIFY2 evaluates its message even when the check passes).
QByteArray describe(const std::variant<SqlCondition, FilterError> &result)
{
    if (const auto *c = std::get_if<SqlCondition>(&result))
        return "compiled to " + QByteArray::fromStdString(c->sql);
    const auto &e = std::get<FilterError>(result);
    return "at " + QByteArray::number(qulonglong(e.position)) + "+" + QByteArray::number(qulonglong(e.length)) + ": "
           + QByteArray::fromStdString(e.message);
}

/// The fixture, one request a line; what each one decomposes into, in ms, is in its comment.
QByteArray fixtureLines()
{
    const auto t = [](qint64 ms) { return QByteArray::number(T0 + ms * MS); };
    return
        // a: e2e 3600 (server), dominant queue
        "{\"id\":\"a\",\"start_ns\":" + t(0) + ",\"model\":\"llama-70b\",\"route\":\"chat\",\"status\":\"ok\",\"queue_ms\":3000,"
        "\"prefill_ms\":100,\"decode_ms\":500,\"input_tokens\":1000,\"output_tokens\":200,\"region\":\"eu\",\"priority\":1,\"cached\":true}\n"
        // b: e2e 2560, dominant decode
        "{\"id\":\"b\",\"start_ns\":" + t(1000) + ",\"model\":\"llama-70b\",\"route\":\"chat\",\"queue_ms\":10,\"prefill_ms\":50,"
        "\"decode_ms\":2500,\"input_tokens\":200,\"output_tokens\":800,\"region\":\"us\",\"priority\":2}\n"
        // c: e2e 125, dominant decode
        "{\"id\":\"c\",\"start_ns\":" + t(2000) + ",\"model\":\"llama-8b\",\"route\":\"embed\",\"queue_ms\":5,\"prefill_ms\":20,"
        "\"decode_ms\":100,\"input_tokens\":50,\"output_tokens\":10,\"region\":\"eu\",\"odd key\":\"x y\"}\n"
        // d: an error; e2e 1500, dominant queue, no prefill
        "{\"id\":\"d\",\"start_ns\":" + t(3000) + ",\"model\":\"llama-8b\",\"route\":\"chat\",\"status\":\"error\",\"queue_ms\":1500,"
        "\"region\":\"ap\",\"priority\":\"high\"}\n"
        // e: no model, route or tokens; network 400 (client scope): e2e 700, dominant network
        "{\"id\":\"e\",\"start_ns\":" + t(4000) + ",\"network_ms\":400,\"queue_ms\":100,\"prefill_ms\":100,\"decode_ms\":100}\n"
        // f: e2e 5000 of which 4000 unattributed (dominant), ttft 1000
        "{\"id\":\"f\",\"start_ns\":" + t(5000) + ",\"model\":\"mistral\",\"route\":\"chat\",\"prefill_ms\":1000,\"e2e_ms\":5000,"
        "\"priority\":3,\"cached\":false,\"we\\\"ird\":1}\n"
        // g: timestamps; network (6000 - 6010) + (6260 - 6253) = -3: clock skew; e2e 250 (client), dominant decode
        "{\"id\":\"g\",\"model\":\"llama-70b\",\"route\":\"chat\",\"t_client_send_ns\":" + t(6010) + ",\"t_server_recv_ns\":" + t(6000)
        + ",\"t_preprocess_done_ns\":" + t(6001) + ",\"t_sched_ns\":" + t(6002) + ",\"t_first_token_ns\":" + t(6052)
        + ",\"t_last_token_ns\":" + t(6252) + ",\"t_server_send_ns\":" + t(6253) + ",\"t_client_recv_ns\":" + t(6260) + "}\n"
        // h%_x: LIKE's wildcards in an id; e2e 50, dominant decode, a dotted attribute name
        "{\"id\":\"h%_x\",\"start_ns\":" + t(7000) + ",\"model\":\"llama-70b\",\"route\":\"chat\",\"decode_ms\":50,"
        "\"gen_ai.usage.cached_tokens\":512}\n";
}

/// Where the SQL text has anything this program does not write itself, else empty.
QByteArray foreignSqlIn(const std::string &sql)
{
    static const QRegularExpression token(QStringLiteral("\\s+|'[^']*'|[A-Za-z_][A-Za-z0-9_.]*|[0-9]+|<>|<=|>=|[()?,=<>&]"));
    static const QStringList allowed = QStringLiteral(
        "r.e2e_ns r.network_ns r.preprocess_ns r.queue_ns r.prefill_ns r.decode_ns r.postprocess_ns r.unattributed_ns "
        "r.ttft_ns r.tpot_ns r.ttlt_ns r.input_tokens r.output_tokens r.status r.dominant r.model_id r.route_id nullif "
        "r.e2e_scope r.start_ns r.id r.flags IS NOT NULL IN LIKE ESCAPE AND OR SELECT FROM WHERE AS id text labels "
        "request_id request_details request_attributes_json id_hash source_id json_extract d d.attributes d.request_id v json_each a a.key a.value "
        "typeof '\\' 'text' 'integer' 'real' 0 1").split(QLatin1Char(' '));
    const QString text = QString::fromStdString(sql);
    for (qsizetype at = 0; at < text.size();) {
        const auto m = token.match(text, at, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            return text.mid(at, 20).toUtf8();
        const QString word = m.captured();
        const bool symbol = word.front().isSpace() || QStringLiteral("()?,=<>&").contains(word.front());
        if (!symbol && !allowed.contains(word))
            return word.toUtf8();
        at += m.capturedLength();
    }
    return {};
}

/// Everything in the store, for before and after comparisons.
QString snapshot(sqlite3 *db)
{
    return lxtest::dump(db, "PRAGMA integrity_check") + lxtest::dump(db, "SELECT type, name, sql FROM sqlite_master ORDER BY name")
           + lxtest::dump(db, "SELECT * FROM requests ORDER BY id") + lxtest::dump(db, "SELECT * FROM request_details ORDER BY request_id")
           + lxtest::dump(db, "SELECT * FROM labels ORDER BY id") + lxtest::dump(db, "SELECT * FROM segments ORDER BY id")
           + lxtest::dump(db, "SELECT * FROM meta ORDER BY key");
}

/// Whether SQLite prepares and runs the condition, nested as a caller might: inside toSqlCondition()'s
/// output, twice and two levels deeper, for a margin to SQLite's parser stack. The reason when it does not.
bool runsInSqlite(sqlite3 *db, const SqlCondition &expression, QByteArray *why)
{
    RequestFilter filter;
    filter.status = Status::Ok;
    filter.expression = expression;
    const SqlCondition c = toSqlCondition(filter);
    Statement stmt(db, "SELECT count(*) FROM token_times t CROSS JOIN requests r ON r.id = t.request_id WHERE (("
                           + c.sql + ")) OR r.id IN (SELECT r.id FROM requests r WHERE ((" + c.sql + ")))");
    c.bind(stmt);
    c.bind(stmt, int(c.values.size()) + 1);
    if (stmt.valid() && stmt.step() == SQLITE_ROW)
        return true;
    *why = sqlite3_errmsg(db);
    return false;
}

QByteArray repeated(const QByteArray &part, int n, const QByteArray &separator = {})
{
    QByteArrayList parts;
    for (int i = 0; i < n; ++i)
        parts << part;
    return parts.join(separator);
}

} // namespace

class TestFilterExpression : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Store> m_store;

private slots:
    void filterFromExpression_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("hasCondition");
        QTest::newRow("empty: no condition") << QString() << true << false;
        QTest::newRow("blank: no condition") << QStringLiteral("   ") << true << false;
        QTest::newRow("a condition") << QStringLiteral("e2e > 2s") << true << true;
        QTest::newRow("an error") << QStringLiteral("e2e >") << false << false;
    }

    void filterFromExpression()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(bool, hasCondition);
        const auto result = lx::filterFromExpression(text.toStdString());
        QCOMPARE(std::holds_alternative<RequestFilter>(result), valid);
        if (!valid)
            return;
        const RequestFilter &filter = std::get<RequestFilter>(result);
        QCOMPARE(filter.expression.has_value(), hasCondition);
        if (hasCondition)
            QCOMPARE(filter.expression->sql, std::get<SqlCondition>(compileFilterExpression(text.toStdString())).sql);
    }

    void initTestCase()
    {
        std::string why;
        m_store = Store::openTemporary(&why);
        QVERIFY2(m_store, why.c_str());
        const auto imports = importFiles(*m_store, {lxtest::writeFile(m_dir, QStringLiteral("f.jsonl"), fixtureLines())});
        QCOMPARE(imports.size(), std::size_t(1));
        QVERIFY2(imports[0].accepted == 8, lxtest::describe(imports[0]).constData());
    }

    void compiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArrayList>("sqlParts"); // each must occur in the SQL; one starting "==" is the whole SQL
        QTest::addColumn<QByteArray>("values");
        const auto row = [](const char *name, const QByteArray &text, const QByteArrayList &parts, const QByteArray &values) {
            QTest::newRow(name) << text << parts << values;
        };
        row("empty: everything", "", {"==1"}, "");
        row("blank: everything", " \t\n ", {"==1"}, "");
        row("seconds", "e2e > 2s", {"==(r.e2e_ns > ?)"}, "2000000000");
        row("milliseconds", "e2e > 150ms", {"r.e2e_ns"}, "150000000");
        row("unit written apart", "e2e >= 1.5 s", {"r.e2e_ns >= ?"}, "1500000000");
        row("minutes m", "queue < 2m", {"r.queue_ns < ?"}, "120000000000");
        row("minutes min", "queue < 2min", {"r.queue_ns"}, "120000000000");
        row("hours", "decode <= 1h", {"r.decode_ns <= ?"}, "3600000000000");
        row("microseconds us", "ttft < 500us", {"r.ttft_ns"}, "500000");
        row("microseconds micro sign", "ttft < 500\xC2\xB5s", {"r.ttft_ns"}, "500000");
        row("microseconds Greek mu", "ttft < 500\xCE\xBCs", {"r.ttft_ns"}, "500000");
        row("nanoseconds", "tpot == 20ns", {"r.tpot_ns = ?"}, "20");
        row("bare number is ms", "ttlt > 2", {"r.ttlt_ns"}, "2000000");
        row("bare fraction is ms", "ttlt > 0.25", {"r.ttlt_ns"}, "250000");
        row("negative duration", "network < -1ms", {"r.network_ns < ?"}, "-1000000");
        row("<> is !=", "postprocess <> 1s", {"r.postprocess_ns <> ?"}, "1000000000");
        row("every segment", "preprocess > 1s or prefill > 1s or unattributed > 1s",
            {"r.preprocess_ns", "r.prefill_ns", "r.unattributed_ns"}, "1000000000, 1000000000, 1000000000");
        row("count", "input_tokens > 1000", {"r.input_tokens > ?"}, "1000");
        row("count with a fraction", "output_tokens <= 1.5", {"r.output_tokens <= ?"}, "1.5d");
        row("status", "status = ok", {"r.status = ?"}, "0");
        row("status, any case", "STATUS != Error", {"r.status <> ?"}, "1");
        row("dominant", "dominant = queue", {"==(r.dominant = ?)"}, "2");
        row("dominant quoted", "dominant = 'decode'", {"r.dominant"}, "4");
        row("dominant in", "dominant in (queue, prefill)", {"r.dominant IN (?, ?)"}, "2, 3");
        row("scope", "scope = client", {"nullif(r.e2e_scope, 0) = ?"}, "1");
        row("scope missing", "scope is missing", {"nullif(r.e2e_scope, 0) IS NULL"}, "");
        row("model", "model = \"llama-3.1-70b\"", {"==(r.model_id IN (SELECT id FROM labels WHERE text = ?))"}, "'llama-3.1-70b'");
        row("model bare word", "model != x", {"r.model_id NOT IN (SELECT id FROM labels WHERE text = ?)"}, "'x'");
        row("route in", "route in (chat, 'embed')", {"r.route_id IN", "text IN (?, ?)"}, "'chat', 'embed'");
        row("route not in", "route not in (chat)", {"r.route_id NOT IN", "text IN (?)"}, "'chat'");
        row("model like, wildcards escaped", "model ~ \"70%_b\\\\\"", {"r.model_id IN", "text LIKE ? ESCAPE"}, "'%70\\%\\_b\\\\%'");
        row("model missing", "model is missing", {"==(r.model_id IS NULL)"}, "");
        row("start bare ISO", "start >= 2024-05-01T12:00:00Z", {"r.start_ns >= ?"}, "1714564800000000000");
        row("start quoted ISO with fraction", "start < \"2024-05-01T12:00:00.5Z\"", {"r.start_ns < ?"}, "1714564800500000000");
        row("start ns", "start > 1700000000000000000", {"r.start_ns > ?"}, "1700000000000000000");
        row("start with ns fraction", "start >= 2025-01-01T12:01:01.328771391Z", {"r.start_ns >= ?"}, "1735732861328771391");
        row("start as an offset from 0", "start >= 61.5s", {"r.start_ns >= ?"}, "61500000000");
        row("start offset, unit apart", "start < 2 s", {"r.start_ns < ?"}, "2000000000");
        row("id", "id = abc", {"r.id IN (SELECT request_id FROM request_details WHERE id_hash = ? AND source_id = ?)"},
            QByteArray::number(qint64(hashRequestId("abc"))) + ", 'abc'");
        row("id number", "id = 42", {"source_id = ?"}, QByteArray::number(qint64(hashRequestId("42"))) + ", '42'");
        row("id in", "id in (a, b)", {"id_hash IN (?, ?) AND source_id IN (?, ?)"},
            QByteArray::number(qint64(hashRequestId("a"))) + ", " + QByteArray::number(qint64(hashRequestId("b"))) + ", 'a', 'b'");
        row("id like", "id ~ req", {"r.id IN", "source_id LIKE ? ESCAPE"}, "'%req%'");
        row("flag alone", "skew", {"==((r.flags & 1) = 1)"}, "");
        row("flag negated", "not skew", {"==(NOT ((r.flags & 1) = 1))"}, "");
        row("flag compared", "skew = false", {"(r.flags & 1) = ?"}, "0");
        row("attribute", "region = \"eu\"", {"json_extract(d.attributes, ?)", "d.request_id = r.id", " = ?"}, "'$.\"region\"', 'eu'");
        row("attr. prefix", "attr.region = eu", {"json_extract"}, "'$.\"region\"', 'eu'");
        row("attribute named like no field", "ip = \"10.0.0.1\"", {"json_extract"}, "'$.\"ip\"', '10.0.0.1'");
        row("attr. of a field's name", "attr.model = x", {"json_extract"}, "'$.\"model\"', 'x'");
        row("quoted attribute, numeric order", "attr.\"odd name\" > 3", {"typeof(v) IN ('integer', 'real')", " > ?"}, "'$.\"odd name\"', 3");
        row("attribute, text order", "version >= \"1.2\"", {"typeof(v) = 'text'", " >= ?"}, "'$.\"version\"', '1.2'");
        row("attribute with a quote: json_each", "attr.'x\"y' = 1", {"json_each(d.attributes)", "a.key = ?"}, "'x\"y', 1");
        row("dotted attribute", "gen_ai.usage.cached_tokens >= 100", {"json_extract"}, "'$.\"gen_ai.usage.cached_tokens\"', 100");
        row("unicode attribute", "r\xC3\xA9gion = \xC3\xA9t\xC3\xA9", {"json_extract"}, "'$.\"r\xC3\xA9gion\"', '\xC3\xA9t\xC3\xA9'");
        row("attribute true", "cached = true", {"json_extract"}, "'$.\"cached\"', 1");
        row("attribute mixed list", "priority in (1, 2.5, high)", {" IN (?, ?, ?)"}, "'$.\"priority\"', 1, 2.5d, 'high'");
        row("attribute measured", "region is measured", {" IS NOT NULL"}, "'$.\"region\"'");
        row("is not measured", "region is not measured", {" IS NULL"}, "'$.\"region\"'");
        row("is not missing", "e2e is not missing", {"==(r.e2e_ns IS NOT NULL)"}, "");
        row("not in", "e2e not in (1s, 2s)", {"==(r.e2e_ns NOT IN (?, ?))"}, "1000000000, 2000000000");
        row("string escapes", "model = 'a\\'b\\\"c\\\\d\\te'", {"text = ?"}, "'a'b\"c\\d\te'");
        row("not > and > or", "e2e > 1s or queue > 1s and not decode > 1s",
            {"==((r.e2e_ns > ?) OR ((r.queue_ns > ?) AND (NOT (r.decode_ns > ?))))"}, "1000000000, 1000000000, 1000000000");
        row("symbols", "e2e > 1s || queue > 1s && !decode > 1s",
            {"==((r.e2e_ns > ?) OR ((r.queue_ns > ?) AND (NOT (r.decode_ns > ?))))"}, "1000000000, 1000000000, 1000000000");
        row("keywords in any case", "e2e > 1s AND queue > 1s Or NOT decode > 1s",
            {"==(((r.e2e_ns > ?) AND (r.queue_ns > ?)) OR (NOT (r.decode_ns > ?)))"}, "1000000000, 1000000000, 1000000000");
        row("parentheses", "(e2e > 1s or queue > 1s) and decode > 1s",
            {"==(((r.e2e_ns > ?) OR (r.queue_ns > ?)) AND (r.decode_ns > ?))"}, "1000000000, 1000000000, 1000000000");
        row("values in order", "model = \"m\" and e2e > 2s and dominant = queue and region = eu",
            {"r.model_id", "r.e2e_ns", "r.dominant", "json_extract"}, "'m', 2000000000, 2, '$.\"region\"', 'eu'");
    }

    void compiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArrayList, sqlParts);
        QFETCH(QByteArray, values);
        const auto result = compileFilterExpression(view(text));
        QVERIFY2(std::holds_alternative<SqlCondition>(result), describe(result).constData());
        const SqlCondition &c = std::get<SqlCondition>(result);
        const QByteArray sql = QByteArray::fromStdString(c.sql);
        for (const QByteArray &part : sqlParts) {
            if (part.startsWith("=="))
                QCOMPARE(sql, part.mid(2));
            else
                QVERIFY2(sql.contains(part), (part + " is not in " + sql).constData());
        }
        QCOMPARE(rendered(c), values);
        QCOMPARE(std::size_t(sql.count('?')), c.values.size());
        QByteArray why;
        QVERIFY2(runsInSqlite(m_store->db(), c, &why), why.constData());
    }

    void everyFieldAndSegmentName()
    {
        const std::vector<std::string_view> names = filterFieldNames();
        QCOMPARE(names.size(), std::size_t(23));
        for (std::string_view name : names) {
            const auto result = compileFilterExpression(std::string(name) + " is measured");
            QVERIFY2(std::holds_alternative<SqlCondition>(result), name.data());
            QVERIFY2(std::get<SqlCondition>(result).sql.find("json_extract") == std::string::npos, name.data());
        }
        for (int s = 0; s < kSegmentCount; ++s) {
            const auto result = compileFilterExpression("dominant = " + std::string(segmentName(static_cast<Segment>(s))));
            QCOMPARE(rendered(std::get<SqlCondition>(result)), QByteArray::number(s));
        }
    }

    void fails_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("position");
        QTest::addColumn<int>("length");
        QTest::addColumn<QByteArrayList>("words");
        const auto row = [](const char *name, const QByteArray &text, int position, int length, const QByteArrayList &words) {
            QTest::newRow(name) << text << position << length << words;
        };
        row("unknown field", "e2 > 2s", 0, 2, {"unknown field \"e2\"", "did you mean e2e?", "attr.e2"});
        row("typo of a long field", "prefil > 1s", 0, 6, {"did you mean prefill?"});
        row("itl, which no request has one of", "itl > 20ms", 0, 3,
            { "itl is no field of a request", "tpot > 20ms", "attr.itl" });
        row("swapped letters", "Modle = x", 0, 5, {"did you mean model?"});
        row("no value", "e2e > ", 6, 0, {"expected a duration after \">\"", "2s"});
        row("duration against a string", "e2e > \"abc\"", 6, 5, {"expected a duration"});
        row("unknown unit", "e2e > 2sec", 7, 3, {"unit \"sec\" is not one of ns, us", "ms, s, m", "h"});
        row("unknown unit apart", "e2e > 2 sec", 8, 3, {"unit \"sec\""});
        row("units are case-sensitive", "e2e > 2S", 7, 1, {"unit \"S\""});
        row("hex is no number", "e2e > 0x10", 7, 3, {"unit \"x10\""});
        row("duration out of range", "e2e > 99999999999999h", 6, 15, {"out of range"});
        row("unclosed string", "model = \"abc", 8, 4, {"unclosed string"});
        row("unknown escape", "model = 'a\\qb'", 10, 2, {"unknown escape \"\\q\""});
        row("unclosed parenthesis", "(e2e > 2s", 0, 1, {"unbalanced parenthesis"});
        row("parenthesis never opened", "e2e > 2s)", 8, 1, {"unbalanced parenthesis"});
        row("empty parentheses", "()", 1, 1, {"expected a field name"});
        row("dominant takes a segment", "dominant = queu", 11, 4,
            {"\"dominant\" takes a segment name: network, preprocess, queue, prefill, decode, postprocess, unattributed"});
        row("model is not ordered", "model < \"x\"", 6, 1, {"\"<\" does not apply to model"});
        row("durations have no like", "e2e ~ 2s", 4, 1, {"\"~\" does not apply to e2e"});
        row("status is not ordered", "status >= ok", 7, 2, {"does not apply to status"});
        row("status values", "status = fine", 9, 4, {"\"status\" takes ok, error"});
        row("scope values", "scope = edge", 8, 4, {"client, server, engine"});
        row("flag values", "skew = maybe", 7, 5, {"false, true"});
        row("count with a unit", "input_tokens > 2s", 16, 1, {"count", "without a unit"});
        row("count against a word", "input_tokens > many", 15, 4, {"expected a number"});
        row("attribute with a unit", "latency > 2s", 11, 1, {"attribute", "without a unit"});
        row("start with an unknown unit", "start > 2sec", 9, 3, {"unit \"sec\""});
        row("start as a bare fraction", "start > 1.5", 8, 3, {"ISO-8601"});
        row("start at hour 25", "start > 2024-05-01T25:00:00Z", 8, 20, {"ISO-8601"});
        row("start at minute 60", "start > 2024-05-01T12:60:00Z", 8, 20, {"ISO-8601"});
        row("start with a leap second", "start > 2016-12-31T23:59:60Z", 8, 20, {"ISO-8601"});
        row("start finer than ns", "start > 2024-05-01T12:00:00.0000000001Z", 8, 31, {"ISO-8601"});
        row("start with an empty fraction", "start > 2024-05-01T12:00:00.Z", 8, 21, {"ISO-8601"});
        row("start with a time zone", "start > 2024-05-01T12:00:00+02:00", 8, 25, {"ISO-8601"});
        row("start as a word", "start > \"yesterday\"", 8, 11, {"ISO-8601"});
        row("start with month 13", "start > 2024-13-01T00:00:00Z", 8, 20, {"ISO-8601"});
        row("field alone", "e2e", 3, 0, {"expected an operator after \"e2e\""});
        row("no operator", "e2e 2s", 4, 2, {"expected an operator"});
        row("no field", "> 2s", 0, 1, {"expected a field name"});
        row("string as field", "\"region\" = 1", 0, 8, {"not a string", "attr."});
        row("dangling and", "e2e > 2s and", 12, 0, {"expected a condition after \"and\""});
        row("double or", "e2e > 2s or or queue > 1s", 12, 2, {"expected a field name"});
        row("trailing word", "e2e > 2s foo", 9, 3, {"expected \"and\", \"or\" or the end"});
        row("single ampersand", "e2e > 2s & queue > 1s", 9, 1, {"unexpected character \"&\"", "&&"});
        row("comment", "e2e > 1s -- x", 9, 1, {"unexpected character \"-\""});
        row("empty list", "e2e in ()", 8, 1, {"empty list"});
        row("in without list", "e2e in 1s", 7, 2, {"expected \"(\""});
        row("unclosed list", "e2e in (1s, 2s", 7, 1, {"unbalanced parenthesis"});
        row("list without comma", "e2e in (1s 2s)", 11, 2, {"expected \",\" or \")\""});
        row("is what", "region is null", 10, 4, {"\"measured\" or \"missing\""});
        row("attr. alone", "attr. = 1", 0, 5, {"needs the attribute's name"});
        row("empty attribute name", "attr.\"\" = 1", 0, 7, {"cannot be empty"});
        row("control character", QByteArray("e2e > 1s\x01"), 8, 1, {"unexpected character \\x01"});
        row("NUL in a string", QByteArray("model = \"a\0b\"", 13), 10, 1, {"control character \\x00"});
        row("NUL outside", QByteArray("e2e > 1s\0 or 1=1", 16), 8, 1, {"unexpected character \\x00"});
        row("invalid UTF-8", "model = \"\xff\"", 9, 1, {"UTF-8"});
        row("nested too deeply", repeated("(", 17) + "e2e > 1s" + repeated(")", 17), 16, 1, {"nested too deeply"});
        row("not too deeply", repeated("not ", 17) + "skew", 64, 3, {"nested too deeply"});
        row("too many conditions", repeated("e2e > 1s", 257, " or "), 256 * 12, 3, {"too many conditions"});
        row("too many values", "model in (" + repeated("x", 1001, ", ") + ")", 0, 5, {"too many values"});
        row("long text quoted short", "model = x " + QByteArray(100, 'y'), 10, 100, {"\"yyyyyyyyyy", "...\""});
    }

    void fails()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, position);
        QFETCH(int, length);
        QFETCH(QByteArrayList, words);
        const auto result = compileFilterExpression(view(text));
        QVERIFY2(std::holds_alternative<FilterError>(result), describe(result).constData());
        const FilterError &e = std::get<FilterError>(result);
        const QByteArray message = QByteArray::fromStdString(e.message);
        for (const QByteArray &word : words)
            QVERIFY2(message.contains(word), (word + " is not in: " + message).constData());
        QCOMPARE(int(e.position), position);
        QCOMPARE(int(e.length), length);
        QVERIFY(e.position + e.length <= std::size_t(text.size()));
    }

    void whitelistCheckNoticesForeignText()
    {
        QCOMPARE(foreignSqlIn("((r.e2e_ns > ?) OR (r.model_id IS NULL))"), QByteArray());
        QCOMPARE(foreignSqlIn("(r.e2e_ns > 'x')"), QByteArray("'x'"));
        QCOMPARE(foreignSqlIn("(r.e2e_ns > 2)"), QByteArray("2"));
        QCOMPARE(foreignSqlIn("(r.x_ns > ?)"), QByteArray("r.x_ns"));
        QCOMPARE(foreignSqlIn("(_x > ?)"), QByteArray("_x"));
        QVERIFY(foreignSqlIn("1; DROP TABLE requests").startsWith(";"));
    }

    void injectionIsOnlyEverBound_data()
    {
        QTest::addColumn<bool>("accepted"); // either way, nothing of the text may reach the SQL or the store
        QTest::addColumn<QByteArray>("text");
        const auto row = [](const char *name, bool accepted, const QByteArray &text) { QTest::newRow(name) << accepted << text; };
        row("closing quote and paren", true, "model = \"x') OR 1=1 --\"");
        row("single-quoted escapes", true, "model = 'x\\' OR \\'1\\'=\\'1'");
        row("drop table as the text", false, "\"; DROP TABLE requests; --\"");
        row("drop table in a value", true, "model = \"\\\"; DROP TABLE requests; --\"");
        row("semicolon after a condition", false, "e2e > 1s; DELETE FROM requests");
        row("union in an id", true, "id = \"a' UNION SELECT sql FROM sqlite_master --\"");
        row("id list with quotes", true, "id in (\"a'\", \"b\\\"\", \"'); DROP TABLE labels; --\")");
        row("like with quotes and wildcards", true, "model ~ \"%' OR '%'='\"");
        row("route list with quotes", true, "route in (\"a\", \"b') OR ('1'='1\")");
        row("field name with a quote", false, "mod\"el = 1");
        row("field name with a single quote", false, "model' OR 1=1 -- = x");
        row("attribute name with quote paren", true, "attr.\"')\" = 1");
        row("attribute name with SQL", true, "attr.\"x') OR 1=1 --\" >= 1");
        row("attribute name with a double quote", true, "attr.'a\"); DROP TABLE requests; --' = 1");
        row("attribute name with a backslash", true, "attr.\"a\\\\\" = 1");
        row("attribute name with a newline", true, "attr.\"a\\nb\" = 1");
        row("attribute name JSON path", true, "attr.\"$.x[0]\" = 1 or attr.\"a.b\" ~ \"'\"");
        row("attribute value with quotes", true, "region = \"eu' OR '1'='1\"");
        row("comment in a value", true, "model = \"x /* y */ --\"");
        row("block comment outside", false, "model = x /* y */");
        row("numbers that look like SQL", false, "e2e > 1e9 or priority = 0x7fffffff");
        row("unicode value", true, "model = \"\xC3\xBC' OR 1=1 \xE6\x97\xA5\xE6\x9C\xAC\"");
        row("unicode attribute name", true, "attr.\"\xF0\x9F\x98\x80\" = \"\xE2\x80\xAE\"");
        row("unicode word", true, "mod\xC3\xA8le = \xE6\x97\xA5\xE6\x9C\xAC");
        row("NUL in a name", false, QByteArray("attr.\"a\0\" = 1", 13));
        row("NUL after a value", false, QByteArray("model = x\0'); DROP TABLE requests; --", 37));
        row("long value", true, "model = \"" + QByteArray(1'000'000, '\'') + "\"");
        row("long attribute name", true, "attr.\"" + QByteArray(100'000, ')') + "\" = 1");
        row("long bare name", true, QByteArray(5'000, 'a') + " = 1");
        row("many parentheses", false, repeated("(", 10'000) + "e2e > 1s" + repeated(")", 10'000));
        row("many conditions", false, repeated("model = \"');\"", 5'000, " or "));
        // The deepest nestings accepted, with the largest leaves, must still fit SQLite's parser stack.
        row("deepest not", true, repeated("not ", 16) + "skew");
        row("deepest or and", true, repeated("priority > 1 or (attr.'a\\\\' < 2 and (", 8) + "attr.'x\"y' >= 'a'" + repeated("))", 8));
        row("deepest not over groups", true, repeated("not (priority > 1 or ", 8) + "id in (a, b)" + repeated(")", 8));
        row("largest accepted", true, repeated("not (", 8) + repeated("attr.\"a b\" > 1", 256, " or ") + repeated(")", 8));
    }

    void injectionIsOnlyEverBound()
    {
        QFETCH(bool, accepted);
        QFETCH(QByteArray, text);
        const QString before = snapshot(m_store->db());
        const auto result = compileFilterExpression(view(text));
        QVERIFY2(std::holds_alternative<SqlCondition>(result) == accepted, describe(result).left(300).constData());
        if (const auto *e = std::get_if<FilterError>(&result)) {
            QVERIFY(e->position + e->length <= std::size_t(text.size()));
            QVERIFY(!e->message.empty());
            return;
        }
        const SqlCondition &c = std::get<SqlCondition>(result);
        const QByteArray foreign = foreignSqlIn(c.sql);
        QVERIFY2(foreign.isEmpty(), ("not written by the program: " + foreign).constData());
        QVERIFY(c.sql.find("--") == std::string::npos && c.sql.find(';') == std::string::npos);
        QByteArray why;
        QVERIFY2(runsInSqlite(m_store->db(), c, &why), why.constData());
        RequestFilter filter;
        filter.expression = c;
        analyze(*m_store, filter);
        QCOMPARE(snapshot(m_store->db()), before);
    }

    void selects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("count");
        const auto row = [](const char *name, const QByteArray &text, int count) { QTest::newRow(name) << text << count; };
        row("everything", "", 8);
        row("model", "model = \"llama-70b\"", 4);
        row("model and e2e", "model = \"llama-70b\" and e2e > 2s", 2);
        // Values as people write them, unquoted (the README's examples failed: expected "and", "or" or the
        // end, not "-70b"; unexpected character "/").
        row("bare model with dashes", "model = llama-70b and e2e > 2s", 2);
        row("bare model, no spaces", "model=llama-70b&&e2e>2s", 2);
        row("bare model, not equal", "model != llama-70b", 3); // as quoted: 3
        row("bare models in a list", "model in (llama-70b, llama-8b)", 6);
        row("bare model, not in a list", "model not in (llama-70b,llama-8b)", 1);
        row("bare model in parentheses", "(model = llama-8b) or e2e > 2.56s", 4);
        row("bare route with slashes", "route = /chat", 0);
        row("bare contains", "model ~ llama-7", 4);
        row("the example", "model = \"llama-70b\" and e2e > 2s and dominant = queue", 1);
        row("seconds", "e2e > 2s", 3);
        row("bare ms", "e2e > 2000", 3);
        row("ns", "e2e > 2000000000ns", 3);
        row("fraction, inclusive", "e2e >= 2.56 s", 3);
        row("fraction, exclusive", "e2e > 2.56s", 2);
        row("minutes", "e2e < 0.2 min", 8);
        row("microseconds", "e2e <= 125000us", 2);
        row("micro sign, exclusive", "e2e < 125000\xC2\xB5s", 1);
        row("range", "e2e > 1.5 s and e2e < 3 s", 1);
        row("in durations", "e2e in (125ms, 50ms)", 2);
        row("dominant", "dominant = decode", 4);
        row("dominant in", "dominant in (queue, network)", 3);
        row("dominant not in", "dominant not in (decode)", 4);
        row("errors", "status = error", 1);
        row("not errors", "status != error", 7);
        row("network missing", "network is missing", 6);
        row("network measured", "network is measured", 2);
        row("negative network", "network < 0", 1);
        row("!= never matches not measured", "network != 400ms", 1);
        row("not never matches not measured", "not network > 0", 1);
        row("skew", "skew", 1);
        row("not skew", "not skew", 7);
        row("attribute", "region = \"eu\"", 2);
        row("attribute !=, absent excluded", "region != \"eu\"", 2);
        row("attribute not, absent excluded", "not region = eu", 2);
        row("attribute in", "region in (eu, ap)", 3);
        row("attribute not in", "region not in (eu)", 2);
        row("attribute missing", "region is missing", 4);
        row("attribute like", "attr.region ~ \"U\"", 3);
        row("attribute numeric order skips text", "priority > 1", 2);
        row("attribute text order skips numbers", "priority >= \"a\"", 1);
        row("attribute bare word", "priority = high", 1);
        row("attribute number list", "priority in (1, 3)", 2);
        row("attribute true", "cached = true", 1);
        row("attribute false", "cached = false", 1);
        row("attribute with a space", "attr.\"odd key\" = \"x y\"", 1);
        row("attribute with a quote", "attr.'we\"ird' = 1", 1);
        row("attribute with a quote, ordered", "attr.\"we\\\"ird\" >= 1", 1);
        row("dotted attribute", "gen_ai.usage.cached_tokens >= 512", 1);
        row("and not, absent model excluded", "route = chat and not model = \"llama-70b\"", 2);
        row("and binds tighter than or", "model = \"llama-8b\" or model = mistral and status = error", 2);
        row("parentheses first", "(model = \"llama-8b\" or model = mistral) and status = error", 1);
        row("not binds tighter than and", "not status = error and dominant = queue", 1);
        row("not over parentheses", "not (status = error and dominant = queue)", 7);
        row("symbols", "status = ok && dominant = queue || dominant = network", 2);
        row("nested", "decode > 1s or (queue > 1s and status = ok)", 2);
        row("model like", "model ~ \"llama\"", 6);
        row("like is case-insensitive", "model ~ \"LLAMA\"", 6);
        row("model like digits", "model ~ 70", 4);
        row("model missing", "model is missing", 1);
        row("id like percent, escaped", "id ~ \"%\"", 1);
        row("id like underscore, escaped", "id ~ \"_\"", 1);
        row("id", "id = a", 1);
        row("id with wildcards", "id = \"h%_x\"", 1);
        row("id in", "id in (a, b, zz)", 2);
        row("id !=", "id != a", 7);
        row("scope client", "scope = client", 2);
        row("scope server", "scope = server", 6);
        row("scope !=", "scope != client", 6);
        row("start ISO", "start >= 2023-11-14T22:13:23Z", 5);
        row("start ISO quoted", "start < \"2023-11-14T22:13:21.5Z\"", 2);
        row("start ns", "start > 1700000000000000000", 7);
        row("tokens", "input_tokens > 100", 2);
        row("tokens missing", "input_tokens is missing", 5);
        row("tokens in", "output_tokens in (10, 200)", 2);
        row("queue range", "queue > 1s and queue < 2000ms", 1);
        row("prefill missing", "prefill is missing", 2);
        row("unattributed", "unattributed > 1s", 1);
        row("ttft", "ttft > 1s", 1);
        row("ttft inclusive", "ttft >= 1s", 2);
        row("ttlt", "ttlt > 3s", 1);
    }

    void selects()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, count);
        const auto result = compileFilterExpression(view(text));
        QVERIFY2(std::holds_alternative<SqlCondition>(result), describe(result).constData());
        RequestFilter filter;
        filter.expression = std::get<SqlCondition>(result);
        AnalysisOptions options;
        options.includeErrors = true;
        QCOMPARE(analyze(*m_store, filter, options).total, qint64(count));
    }

    void combinesWithTheOtherFilters()
    {
        RequestFilter filter;
        filter.expression = std::get<SqlCondition>(compileFilterExpression("dominant = queue"));
        filter.status = Status::Ok;
        filter.models = {"llama-70b", "llama-8b"};
        filter.fromNs = T0;
        QCOMPARE(analyze(*m_store, filter).total, qint64(1)); // a; d is an error
    }
};

QTEST_GUILESS_MAIN(TestFilterExpression)

#include "tst_filter_expression.moc"
