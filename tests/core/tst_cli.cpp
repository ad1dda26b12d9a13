// SPDX-License-Identifier: GPL-3.0-or-later
// latency-explorer-cli as scripts see it: exit statuses, the shape of `report --json`, and its numbers
// checked against values worked out by hand for a tiny fixture.

#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using lxtest::writeFile;
using lxtest::zstd;

namespace {

QString cliPath() { return QString::fromUtf8(LX_CLI_PATH); }

using lxtest::CliRun;

CliRun runCli(const QStringList &args) { return lxtest::runCli(cliPath(), args); }

/// One request of the fixture, its segments in ms (network split evenly between in and out).
struct FixtureRequest {
    const char *id;
    const char *status;
    int network, preprocess, queue, prefill, decode, postprocess, outputTokens;
    QList<int> tokenOffsetsMs; // output-token times after the first token
};

// The hand-computed statistics in handComputedValues_data() are over the five ok requests; the error
// request would move every one of them if it were counted.
const QList<FixtureRequest> &fixtureRequests()
{
    static const QList<FixtureRequest> requests = {
        {"r1", "ok", 2, 1, 10, 20, 100, 3, 11, {}},
        {"r2", "ok", 4, 2, 30, 25, 200, 5, 41, {}},
        {"r3", "ok", 6, 1, 50, 30, 150, 4, 6, {}},
        {"r4", "ok", 8, 3, 70, 22, 120, 6, 4, {0, 20, 50, 120}},
        {"r5", "ok", 10, 5, 500, 40, 300, 10, 2, {0, 300}},
        {"e1", "error", 2, 1, 9000, 1, 1, 1, 2, {0, 1}},
    };
    return requests;
}

/// The request's timestamps, client send to client receive, and its token times (ns).
QList<qint64> stampsOf(int index, QList<qint64> *tokens)
{
    const FixtureRequest &r = fixtureRequests()[index];
    constexpr qint64 ms = 1000000;
    QList<qint64> t = {1700000000000000000 + index * 1000000000LL};
    for (int d : {r.network / 2, r.preprocess, r.queue, r.prefill, r.decode, r.postprocess, r.network / 2})
        t << t.last() + d * ms;
    tokens->clear();
    for (int offset : r.tokenOffsetsMs)
        *tokens << t[4] + offset * ms;
    return t;
}

const char *const kStampNames[] = {"t_client_send_ns", "t_server_recv_ns", "t_preprocess_done_ns", "t_sched_ns",
                                   "t_first_token_ns", "t_last_token_ns",  "t_server_send_ns",     "t_client_recv_ns"};

QByteArray jsonlRecords(int from, int to)
{
    QByteArray text;
    for (int i = from; i < to; ++i) {
        QList<qint64> tokens;
        const QList<qint64> t = stampsOf(i, &tokens);
        const FixtureRequest &r = fixtureRequests()[i];
        text += R"({"id":")" + QByteArray(r.id) + R"(","status":")" + r.status + R"(","output_tokens":)" + QByteArray::number(r.outputTokens);
        for (int s = 0; s < 8; ++s)
            text += ",\"" + QByteArray(kStampNames[s]) + "\":" + QByteArray::number(t[s]);
        if (!tokens.isEmpty()) {
            QByteArrayList times;
            for (qint64 v : tokens)
                times << QByteArray::number(v);
            text += R"(,"token_times_ns":[)" + times.join(',') + ']';
        }
        text += "}\n";
    }
    return text;
}

QByteArray csvRecords(int from, int to)
{
    QByteArray text = "id,status,output_tokens";
    for (const char *name : kStampNames)
        text += ',' + QByteArray(name);
    text += ",token_times_ns\n";
    for (int i = from; i < to; ++i) {
        QList<qint64> tokens;
        const QList<qint64> t = stampsOf(i, &tokens);
        const FixtureRequest &r = fixtureRequests()[i];
        text += QByteArray(r.id) + ',' + r.status + ',' + QByteArray::number(r.outputTokens);
        for (qint64 v : t)
            text += ',' + QByteArray::number(v);
        QByteArrayList times;
        for (qint64 v : tokens)
            times << QByteArray::number(v);
        text += ',' + times.join(';') + '\n';
    }
    return text;
}

QStringList sortedKeys(const QJsonObject &object, const QStringList &ignore = {})
{
    QStringList keys = object.keys();
    for (const QString &key : ignore)
        keys.removeAll(key);
    keys.sort();
    return keys;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

QStringList split(const char *words) { return QString::fromLatin1(words).split(QLatin1Char(' ')); }

// Keys that `report --json` writes beyond the documented shape, each with a reason in docs/DOMAIN.md:
// the scope of every figure ("the report says which scope each figure has"), the clock-skew count, the
// dominant segment's base count and the imported files.
const QStringList kExtraTopKeys = split("dominant_count inputs join unmatched_sample relative_time load findings");
const QStringList kExtraRequestKeys = split("clock_skew");
const QStringList kExtraStatisticKeys = split("scope scopes excluded_clock_skew");

/// Empty when the statistic has exactly count, mean, the percentiles and max, as numbers, or all null
/// with count 0; else what is wrong with it.
QString statisticProblem(const QString &name, const QJsonValue &value, const QStringList &percentileKeys)
{
    const QJsonObject s = value.toObject();
    const QStringList expected = sorted(QStringList{QStringLiteral("count"), QStringLiteral("mean"), QStringLiteral("max")} + percentileKeys);
    if (sortedKeys(s, kExtraStatisticKeys) != expected)
        return name + QStringLiteral(" has keys ") + sortedKeys(s).join(QLatin1Char(',')) + QStringLiteral(", expected ") + expected.join(QLatin1Char(','));
    if (!s.value(QLatin1String("count")).isDouble() || s.value(QLatin1String("count")).toDouble() < 0)
        return name + QStringLiteral(": count is not a number");
    const bool none = s.value(QLatin1String("count")).toInteger() == 0;
    for (const QString &key : expected) {
        if (key != QLatin1String("count") && (none ? !s.value(key).isNull() : !s.value(key).isDouble()))
            return name + QLatin1Char('.') + key + (none ? QStringLiteral(" should be null with count 0") : QStringLiteral(" is not a number"));
    }
    return {};
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void exitStatus_data();
    void exitStatus();
    void truncatedInputStillReported();
    void otlpFileCutOff_data();
    void otlpFileCutOff();
    void outSuffixChoosesTheForm_data();
    void outSuffixChoosesTheForm();
    void noRequestNoOutput_data();
    void noRequestNoOutput();
    void reportStatesItsFilter_data();
    void reportStatesItsFilter();
    void saysWhereRejectionsAreKept_data();
    void saysWhereRejectionsAreKept();
    void fullStandardOutput_data();
    void fullStandardOutput();
    void jsonShape_data();
    void jsonShape();
    void handComputedValues_data();
    void handComputedValues();
    void handComputedCounts();
    void storeReportsLikeFiles_data();
    void storeReportsLikeFiles();
    void unmergedStoreListedInInputs();
    void investigationsAddedOnce_data();
    void investigationsAddedOnce();
    void importSaysNoMappingClaimedTheSpans_data();
    void importSaysNoMappingClaimedTheSpans();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    /// The arguments with each @name made the path of that file in the test directory.
    QStringList resolved(QStringList args) const
    {
        for (QString &arg : args) {
            if (arg.startsWith(QLatin1Char('@')))
                arg = path(arg.mid(1));
        }
        return args;
    }
    QJsonObject reportJson(const QStringList &args, int expectedExit = 0);

    QTemporaryDir m_dir;
    qint64 m_truncatedWholeLines = -1; // -1: no zstd tool, no truncated fixture
};

void TestCli::initTestCase()
{
    if (!QFileInfo(cliPath()).isExecutable())
        QSKIP("latency-explorer-cli is not built");
    QVERIFY(m_dir.isValid());
    // fixture.jsonl: all six requests and one malformed line; part1.jsonl + part2.csv: the same split in two.
    QVERIFY(writeFile(path(QStringLiteral("fixture.jsonl")), jsonlRecords(0, 6) + "{\"id\":\"broken\",\n"));
    QVERIFY(writeFile(path(QStringLiteral("part1.jsonl")), jsonlRecords(0, 3) + jsonlRecords(5, 6)));
    QVERIFY(writeFile(path(QStringLiteral("part2.csv")), csvRecords(3, 5) + "ragged,row\n"));
    // Only server receive and last token: every other metric is measured in no request.
    QVERIFY(writeFile(path(QStringLiteral("sparse.jsonl")), "{\"id\":\"s1\",\"t_server_recv_ns\":0,\"t_last_token_ns\":5000000}\n"));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("a-directory")));
    // Nothing to import: every record rejected, and an object that is no record, read as a JSON line.
    QVERIFY(writeFile(path(QStringLiteral("rejected.jsonl")),
                      "{\"id\":\"a\"}\n{\"id\":\"b\",\"t_server_recv_ns\":5,\"t_last_token_ns\":1}\n"));
    QVERIFY(writeFile(path(QStringLiteral("object.json")), "{\"foo\": 1, \"bar\": [1, 2]}\n"));
    // A store with requests and one without (its import gave none, so it exits 2).
    QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), path(QStringLiteral("requests.lxdb")), path(QStringLiteral("fixture.jsonl"))}).exitCode, 0);
    QCOMPARE(runCli({QStringLiteral("import"), QStringLiteral("--db"), path(QStringLiteral("empty.lxdb")), path(QStringLiteral("rejected.jsonl"))}).exitCode, 2);

    if (QStandardPaths::findExecutable(QStringLiteral("zstd")).isEmpty())
        return;
    QRandomGenerator random(3);
    QByteArray text;
    for (int i = 0; i < 1000; ++i) {
        QByteArray noise(600, '0');
        for (char &c : noise)
            c = "0123456789abcdef"[random.bounded(16)]; // spreads the stream over many blocks
        text += R"({"id":"r)" + QByteArray::number(i) + R"(","t_server_recv_ns":1000,"t_last_token_ns":2000,"noise":")" + noise + "\"}\n";
    }
    const QByteArray compressed = zstd({QStringLiteral("-q"), QStringLiteral("-c")}, text);
    const QByteArray cut = compressed.left(compressed.size() / 2);
    m_truncatedWholeLines = zstd({QStringLiteral("-q"), QStringLiteral("-d"), QStringLiteral("-c")}, cut).count('\n');
    QVERIFY(m_truncatedWholeLines > 0 && m_truncatedWholeLines < 1000);
    QVERIFY(writeFile(path(QStringLiteral("cut.jsonl.zst")), cut));
    QVERIFY(writeFile(path(QStringLiteral("whole.jsonl.zst")), compressed));
}

void TestCli::importSaysNoMappingClaimedTheSpans_data()
{
    QTest::addColumn<QStringList>("mapping"); // --mapping and its value, or nothing
    QTest::addColumn<QString>("tried");
    QTest::newRow("auto") << QStringList() << QStringLiteral("vllm, sglang, tgi");
    QTest::newRow("a preset that does not fit either") << split("--mapping vllm") << QStringLiteral("vllm");
}

void TestCli::importSaysNoMappingClaimedTheSpans()
{
    QFETCH(QStringList, mapping);
    QFETCH(QString, tried);
    // A web shop's trace: a page and the query below it, no LLM span.
    const QByteArray shop = R"({"resourceSpans":[{"scopeSpans":[{"spans":[)"
        R"({"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001","name":"GET /cart","kind":2,)"
        R"("startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000000200000000"},)"
        R"({"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000002","parentSpanId":"0000000000000001",)"
        R"("name":"SELECT cart_items","kind":3,"startTimeUnixNano":"1700000000010000000","endTimeUnixNano":"1700000000050000000"})"
        "]}]}]}\n";
    QVERIFY(writeFile(path(QStringLiteral("shop.jsonl")), shop));
    const QString db = path(QStringLiteral("shop-%1.lxdb").arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'))));
    const CliRun run = runCli(QStringList{QStringLiteral("import"), QStringLiteral("--db"), db} + mapping + QStringList{path(QStringLiteral("shop.jsonl"))});
    QCOMPARE(run.exitCode, 0); // the spans are imported: a request each, all unattributed
    const QString out = QString::fromUtf8(run.out);
    const QString said = path(QStringLiteral("shop.jsonl")) + QStringLiteral(": 2 spans seen (names: GET /cart, SELECT cart_items); no span mapping claimed them (tried: ")
                         + tried + QStringLiteral("), so each root span is a request whose time is all unattributed: choose a mapping in "
                                                  "File \u25B8 OTLP Span Mapping or pass --mapping\n");
    QVERIFY2(out.contains(said), qPrintable(out + QString::fromUtf8(run.err)));
    QVERIFY(out.contains(QStringLiteral("1 accepted, 0 rejected")));
}

QJsonObject TestCli::reportJson(const QStringList &args, int expectedExit)
{
    const CliRun run = runCli(QStringList{QStringLiteral("report"), QStringLiteral("--json")} + args);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    if (run.exitCode != expectedExit || !doc.isObject()) {
        qWarning("report --json %s: exit %d, %s\n%s", qPrintable(args.join(QLatin1Char(' '))), run.exitCode,
                 qPrintable(error.errorString()), run.err.constData());
        return {};
    }
    return doc.object();
}

void TestCli::unmergedStoreListedInInputs()
{
    // SQLite's header and nothing of a database after it: a store by its first bytes, not mergeable.
    QVERIFY(
        writeFile(path(QStringLiteral("broken.lxdb")), QByteArray("SQLite format 3\0", 16) + QByteArray(4080, '\x55')));
    const QJsonObject report
        = reportJson({ path(QStringLiteral("broken.lxdb")), path(QStringLiteral("fixture.jsonl")) }, 2);
    const QJsonArray inputs = report[QLatin1String("inputs")].toArray();
    // The store was missing from the inputs: a script read a report of one input, without the one that failed.
    QCOMPARE(inputs.size(), 2);
    const QJsonObject broken = inputs[0].toObject();
    QCOMPARE(broken[QLatin1String("path")].toString(), path(QStringLiteral("broken.lxdb")));
    QCOMPARE(broken[QLatin1String("outcome")].toString(), QStringLiteral("unreadable"));
    QVERIFY(!broken[QLatin1String("message")].toString().isEmpty());
    QCOMPARE(inputs[1].toObject()[QLatin1String("path")].toString(), path(QStringLiteral("fixture.jsonl")));
    QCOMPARE(report[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger(), 6);
}

void TestCli::investigationsAddedOnce_data()
{
    QTest::addColumn<QStringList>("imports"); // `import --db @NAME.lxdb` commands, each as its arguments
    QTest::addColumn<QString>("store"); // then reported on: its total
    QTest::addColumn<qint64>("total");
    QTest::addColumn<QString>("said"); // a part of the last import's output
    // requests.lxdb: the six requests of fixture.jsonl; sparse.jsonl: one.
    QTest::newRow("import merges an investigation")
        << QStringList { QStringLiteral("import --db @m1.lxdb @requests.lxdb @sparse.jsonl") }
        << QStringLiteral("@m1.lxdb") << qint64(7) << QStringLiteral("@requests.lxdb: merged");
    // Were merged once each: twice the requests, every figure weighted as twice the traffic.
    QTest::newRow("an investigation given twice")
        << QStringList { QStringLiteral("import --db @m2.lxdb @requests.lxdb @requests.lxdb") }
        << QStringLiteral("@m2.lxdb") << qint64(6) << QStringLiteral("given twice: merged once");
    QTest::newRow("the investigation into itself")
        << QStringList { QStringLiteral("import --db @m3.lxdb @sparse.jsonl"),
                         QStringLiteral("import --db @m3.lxdb @m3.lxdb") }
        << QStringLiteral("@m3.lxdb") << qint64(1) << QStringLiteral("is this investigation itself");
    QTest::newRow("a file imported before")
        << QStringList { QStringLiteral("import --db @m4.lxdb @sparse.jsonl"),
                         QStringLiteral("import --db @m4.lxdb @sparse.jsonl") }
        << QStringLiteral("@m4.lxdb") << qint64(1) << QStringLiteral("already in this investigation");
    QTest::newRow("a new investigation into itself holds nothing")
        << QStringList { QStringLiteral("import --db @m5.lxdb @m5.lxdb") } << QString() << qint64(-1)
        << QStringLiteral("is this investigation itself");
    QTest::newRow("report of one investigation twice")
        << QStringList() << QStringLiteral("@requests.lxdb @requests.lxdb") << qint64(6) << QString();
}

void TestCli::investigationsAddedOnce()
{
    QFETCH(QStringList, imports);
    QFETCH(QString, store);
    QFETCH(qint64, total);
    QFETCH(QString, said);
    CliRun last;
    for (const QString &import : imports) {
        last = runCli(resolved(import.split(QLatin1Char(' '))));
        // Nothing added twice is a failure; an investigation that holds no request is (total -1).
        QVERIFY2(last.exitCode == (total < 0 ? 2 : 0), last.err.constData());
    }
    if (total < 0) {
        QVERIFY2(last.err.contains("no request could be read"), last.err.constData());
        return;
    }
    const QJsonObject report = reportJson(resolved(store.split(QLatin1Char(' '))));
    QCOMPARE(report[QLatin1String("requests")].toObject()[QLatin1String("total")].toInteger(), total);
    if (!said.isEmpty()) {
        const QString output = QString::fromUtf8(last.out + last.err);
        QVERIFY2(output.contains(resolved({ said }).front()), qPrintable(output));
    }
}

void TestCli::exitStatus_data()
{
    QTest::addColumn<QStringList>("args"); // @name is a file in the test directory
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("stderrWords");

    QTest::newRow("good report") << split("report @fixture.jsonl") << 0 << QStringList();
    QTest::newRow("good report --json") << split("report --json @fixture.jsonl") << 0 << QStringList();
    QTest::newRow("good import") << split("import --db @good.lxdb @part1.jsonl @part2.csv") << 0 << QStringList();
    QTest::newRow("--help") << split("--help") << 0 << QStringList();
    QTest::newRow("no arguments") << QStringList() << 1 << split("Usage");
    QTest::newRow("unknown command") << split("frobnicate") << 1 << split("unknown command frobnicate");
    QTest::newRow("unknown option") << split("report --frobnicate @fixture.jsonl") << 1 << split("unknown option --frobnicate");
    QTest::newRow("--percentiles not a number") << split("report --percentiles 50,abc @fixture.jsonl") << 1 << split("--percentiles abc");
    QTest::newRow("--percentiles above 100") << split("report --percentiles 50,101 @fixture.jsonl") << 1 << split("--percentiles 101");
    QTest::newRow("--percentiles negative") << split("report --percentiles -5 @fixture.jsonl") << 1 << split("--percentiles -5");
    QTest::newRow("--percentiles empty item") << split("report --percentiles 50,,90 @fixture.jsonl") << 1 << split("--percentiles");
    QTest::newRow("--percentiles without a value") << split("report @fixture.jsonl --percentiles") << 1 << split("--percentiles value");
    QTest::newRow("report without input") << split("report --json") << 1 << split("no input");
    QTest::newRow("import without --db") << split("import @fixture.jsonl") << 1 << split("--db");
    // Each once took the last value without a word: a script's import went into the second store only.
    QTest::newRow("--db given twice") << split("import --db @one.lxdb --db @two.lxdb @fixture.jsonl") << 1
                                      << QStringList { QStringLiteral("--db is given twice") };
    // A filter that keeps nothing gave a report of dashes and no word of why; it stays a report (exit 0).
    QTest::newRow("a filter that keeps nothing")
        << split("report --model nosuch @requests.lxdb") << 0
        << QStringList { QStringLiteral("the filter keeps none of the 6 requests"),
                         QStringLiteral("their starts from") };
    // A report written over an investigation lost it, exit status 0 (`--out` for `--db`).
    QTest::newRow("--out over a store") << split("report --out @requests.lxdb @fixture.jsonl") << 1
                                        << QStringList { QStringLiteral("is an investigation store") };
    QTest::newRow("--out given twice") << split("report --out @x.md --out @y.md @fixture.jsonl") << 1
                                       << QStringList { QStringLiteral("--out is given twice") };
    QTest::newRow("--json, then --format md")
        << split("report --json --format md @fixture.jsonl") << 1
        << QStringList { QStringLiteral("--json and --format md ask for two formats") };
    QTest::newRow("--format md, then --json")
        << split("report --format md --json @fixture.jsonl") << 1
        << QStringList { QStringLiteral("--json and --format md ask for two formats") };
    QTest::newRow("--format json and --json agree")
        << split("report --format json --json @fixture.jsonl") << 0 << QStringList();
    QTest::newRow("--db a folder") << split("import --db @a-directory @fixture.jsonl") << 2
                                   << QStringList { QStringLiteral("it is a folder") };
    // The report once replaced its own input, the investigation lost, and said nothing (exit 0).
    QTest::newRow("report --out an input")
        << split("report --out @part1.jsonl @fixture.jsonl @part1.jsonl") << 1 << split("--out @part1.jsonl inputs");
    QTest::newRow("report --out an input, md")
        << split("report --format md --out @requests.lxdb @requests.lxdb") << 1 << split("--out @requests.lxdb inputs");
    QTest::newRow("a missing file") << split("report @missing.jsonl") << 2 << split("@missing.jsonl no such file");
    QTest::newRow("a missing file beside a good one") << split("report @fixture.jsonl @missing.jsonl") << 2 << split("@missing.jsonl no such file");
    QTest::newRow("a directory") << split("report --json @a-directory") << 2 << split("@a-directory directory");
    QTest::newRow("import of a missing file") << split("import --db @other.lxdb @missing.jsonl") << 2 << split("@missing.jsonl no such file");
    QTest::newRow("a complete .zst") << split("report --json @whole.jsonl.zst") << 0 << QStringList();
    QTest::newRow("a truncated .zst") << split("report @cut.jsonl.zst") << 2 << split("@cut.jsonl.zst truncated");
    QTest::newRow("import of a truncated .zst") << split("import --db @cut.lxdb @cut.jsonl.zst") << 2 << split("@cut.jsonl.zst truncated");

    // No input gave a request: exit 2 with the reason, naming each input (@ before a phrase: its path first).
    const QString allRejected = QStringLiteral("@rejected.jsonl: 2 records, all rejected (first: line 1: no timestamps");
    const QString none = QStringLiteral("no request could be read from the inputs");
    QTest::newRow("every record rejected") << split("report @rejected.jsonl") << 2 << QStringList{none, allRejected};
    QTest::newRow("every record rejected, --json") << split("report --json @rejected.jsonl") << 2 << QStringList{none, allRejected};
    QTest::newRow("an object of no native field")
        << split("report @object.json") << 2
        << QStringList { none, QStringLiteral("@object.json: not imported: JSON lines that no reader recognises") };
    QTest::newRow("every input gives none")
        << split("report @rejected.jsonl @object.json") << 2
        << QStringList { allRejected,
                         QStringLiteral("form); ") + path(QStringLiteral("object.json"))
                             + QStringLiteral(": not imported") };
    QTest::newRow("a missing file alone") << split("report @missing.jsonl") << 2 << QStringList{QStringLiteral("@missing.jsonl: not imported")};
    QTest::newRow("rejections beside a request") << split("report @rejected.jsonl @part1.jsonl") << 0 << QStringList();
    QTest::newRow("import of rejected records only") << split("import --db @none.lxdb @rejected.jsonl") << 2
                                                     << QStringList{QStringLiteral("import: ") + none, allRejected};
    QTest::newRow("import into a store with requests, of none") << split("import --db @requests.lxdb @object.json") << 2 << QStringList{none};
    QTest::newRow("import of some") << split("import --db @some.lxdb @rejected.jsonl @part1.jsonl") << 0 << QStringList();
    QTest::newRow("a store without requests") << split("report @empty.lxdb") << 2 << QStringList{QStringLiteral("@empty.lxdb: holds no requests")};
    QTest::newRow("a store without requests and rejections") << split("report @empty.lxdb @rejected.jsonl") << 2
                                                             << QStringList{QStringLiteral("@empty.lxdb: holds no requests"), allRejected};
    QTest::newRow("a store with requests and rejections") << split("report @requests.lxdb @rejected.jsonl") << 0 << QStringList();
    QTest::newRow("a store with requests alone") << split("report @requests.lxdb") << 0 << QStringList();
    QTest::newRow("compare: the baseline gives none") << split("compare @rejected.jsonl @fixture.jsonl") << 2
                                                      << QStringList{QStringLiteral("compare: ") + none, allRejected};
    QTest::newRow("compare: the incident gives none") << split("compare @fixture.jsonl @empty.lxdb") << 2
                                                      << QStringList{QStringLiteral("@empty.lxdb: holds no requests")};
    QTest::newRow("compare of two windows of none") << split("compare --baseline-range ..1 --incident-range 1.. @rejected.jsonl") << 2
                                                    << QStringList{allRejected};
    QTest::newRow("compare of two stores with requests") << split("compare @requests.lxdb @requests.lxdb") << 0 << QStringList();
    QTest::newRow("plot of none") << split("plot --chart cdf --out @none.png @rejected.jsonl") << 2
                                  << QStringList{QStringLiteral("plot: ") + none, allRejected};
    QTest::newRow("plot of some") << split("plot --chart cdf --out @some.png @rejected.jsonl @fixture.jsonl") << 0 << QStringList();
}

void TestCli::fullStandardOutput_data()
{
    QTest::addColumn<QStringList>("args"); // @name is a file in the test directory
    // Each once said nothing and exited 0 with its output lost (a script would read a truncated report).
    QTest::newRow("report") << split("report @fixture.jsonl");
    QTest::newRow("report --json") << split("report --json @fixture.jsonl");
    QTest::newRow("compare") << split("compare @fixture.jsonl @fixture.jsonl");
    QTest::newRow("--help") << split("--help");
}

void TestCli::fullStandardOutput()
{
    QFETCH(QStringList, args);
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full, a device whose writes fail as on a full disk, on this system");
    QProcess process;
    process.setStandardOutputFile(QStringLiteral("/dev/full"));
    process.start(cliPath(), resolved(args));
    QVERIFY(process.waitForFinished(60000));
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 2, err.constData());
    QVERIFY2(err.contains("cannot write to standard output"), err.constData());
}

void TestCli::exitStatus()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QStringList, stderrWords);
    if (args.join(QLatin1Char(' ')).contains(QLatin1String(".zst")) && m_truncatedWholeLines < 0)
        QSKIP("the zstd command line tool is not installed");
    const CliRun run = runCli(resolved(args));
    QVERIFY2(run.exitCode == exitCode, qPrintable(QStringLiteral("exit %1, expected %2; stderr: %3")
                                                      .arg(run.exitCode).arg(exitCode).arg(QString::fromUtf8(run.err))));
    for (const QString &word : resolved(stderrWords))
        QVERIFY2(QString::fromUtf8(run.err).contains(word, Qt::CaseInsensitive),
                 qPrintable(QStringLiteral("stderr lacks \"%1\": %2").arg(word, QString::fromUtf8(run.err))));
}

void TestCli::truncatedInputStillReported()
{
    if (m_truncatedWholeLines < 0)
        QSKIP("the zstd command line tool is not installed");
    const QJsonObject report = reportJson({path(QStringLiteral("cut.jsonl.zst"))}, 2);
    QVERIFY(!report.isEmpty());
    // The records before the cut are in the statistics.
    QCOMPARE(report[QLatin1String("requests")][QLatin1String("total")].toInteger(), m_truncatedWholeLines);
    QCOMPARE(report[QLatin1String("e2e")][QLatin1String("count")].toInteger(), m_truncatedWholeLines);
}

/// A Collector's file copied while it was written, OTLP/JSON lines or a bare protobuf message: the import
/// exits 2 and says where the file ends, and each rejection is named by what its number counts. Both exited
/// 0 as complete, and the protobuf's rejection said "line 18" of a file without lines.
void TestCli::otlpFileCutOff_data()
{
    QTest::addColumn<QString>("file"); // of ../shared/realdata/otlp2parquet
    QTest::addColumn<int>("keptBytes");
    QTest::addColumn<QString>("rejection"); // the start of the line that names the rejection
    QTest::addColumn<QString>("stopped"); // words of the file's message, on stderr
    QTest::newRow("OTLP/JSON lines") << QStringLiteral("traces.jsonl") << 20000
                                     << QStringLiteral(
                                            "  line 17: the file ends inside this line, with no line end: cut off?")
                                     << QStringLiteral("truncated: the file ends inside line 17");
    QTest::newRow("bare protobuf") << QStringLiteral("traces.pb") << 9000
                                   << QStringLiteral("  span 18: malformed protobuf at byte 8728")
                                   << QStringLiteral("truncated: the file ends inside its protobuf message");
}

void TestCli::otlpFileCutOff()
{
    QFETCH(QString, file);
    QFETCH(int, keptBytes);
    QFETCH(QString, rejection);
    QFETCH(QString, stopped);
    QFile whole(QDir(QStringLiteral(LX_REALDATA_DIR)).filePath(QStringLiteral("otlp2parquet/") + file));
    if (!whole.open(QIODevice::ReadOnly))
        QSKIP("../shared/realdata is not here");
    const QString cut = path(QStringLiteral("cut-") + file);
    QVERIFY(writeFile(cut, whole.read(keptBytes)));
    const CliRun run = runCli({ QStringLiteral("import"), QStringLiteral("--db"),
                                path(QStringLiteral("cut-") + file + QStringLiteral(".lxdb")), cut });
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.out).contains(QLatin1Char('\n') + rejection), run.out.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(stopped), run.err.constData());
}

/// `report --out r.json` wrote the text report into r.json: the suffix now says the form, unless --format or
/// --json does; the store given as --out above is left as it was.
void TestCli::outSuffixChoosesTheForm_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("out");
    QTest::addColumn<QString>("starts"); // the file's first characters
    QTest::newRow(".json") << split("report @fixture.jsonl") << QStringLiteral("r.json") << QStringLiteral("{");
    QTest::newRow(".JSON") << split("report @fixture.jsonl") << QStringLiteral("R.JSON") << QStringLiteral("{");
    QTest::newRow(".md") << split("report @fixture.jsonl") << QStringLiteral("r.md")
                         << QStringLiteral("# Latency incident report");
    QTest::newRow(".html") << split("report @fixture.jsonl") << QStringLiteral("r.html")
                           << QStringLiteral("<!DOCTYPE html>");
    QTest::newRow(".txt") << split("report @fixture.jsonl") << QStringLiteral("r.txt") << QStringLiteral("Requests:");
    QTest::newRow("--format text wins") << split("report --format text @fixture.jsonl") << QStringLiteral("t.json")
                                        << QStringLiteral("Requests:");
    QTest::newRow("--json wins") << split("report --json @fixture.jsonl") << QStringLiteral("j.md")
                                 << QStringLiteral("{");
}

void TestCli::outSuffixChoosesTheForm()
{
    QFETCH(QStringList, args);
    QFETCH(QString, out);
    QFETCH(QString, starts);
    const CliRun run = runCli(resolved(args) << QStringLiteral("--out") << path(out));
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QFile written(path(out));
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray text = written.readAll();
    QVERIFY2(text.startsWith(starts.toUtf8()), text.left(200).constData());
    QCOMPARE(
        runCli({ QStringLiteral("report"), QStringLiteral("--json"), path(QStringLiteral("requests.lxdb")) }).exitCode,
        0);
}

void TestCli::noRequestNoOutput_data()
{
    QTest::addColumn<QStringList>("args"); // @name is a file in the test directory
    QTest::addColumn<QString>("out"); // the file --out names, never written; empty: none
    // Each once printed a table of zeros (or wrote a whole incident report of none) after the error.
    QTest::newRow("report of a missing file") << split("report @missing.jsonl") << QString();
    QTest::newRow("report --json of rejected records") << split("report --json @rejected.jsonl") << QString();
    QTest::newRow("report --format html --out, a missing file")
        << split("report --format html --out @none.html @missing.jsonl") << QStringLiteral("none.html");
    QTest::newRow("report --format md --out, a store of none")
        << split("report --format md --out @none.md @empty.lxdb") << QStringLiteral("none.md");
    QTest::newRow("plot of none") << split("plot --chart cdf --out @none.png @rejected.jsonl")
                                  << QStringLiteral("none.png");
    QTest::newRow("compare with a side of none") << split("compare @fixture.jsonl @rejected.jsonl") << QString();
    // Once "Baseline: 0 requests" and a split of nothing, exit 0.
    QTest::newRow("compare with a window of none") << split(
        "compare --baseline-range 2030-01-01T00:00:00Z.. --incident-range ..2030-01-01T00:00:00Z @fixture.jsonl")
                                                   << QString();
}

void TestCli::noRequestNoOutput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, out);
    const CliRun run = runCli(resolved(args));
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), run.out.left(300).constData());
    QVERIFY2(run.err.contains("no request could be read") || run.err.contains("holds no request"), run.err.constData());
    if (!out.isEmpty())
        QVERIFY2(!QFileInfo::exists(path(out)), qPrintable(out));
}

void TestCli::saysWhereRejectionsAreKept_data()
{
    QTest::addColumn<QStringList>("args"); // @name is a file in the test directory
    QTest::addColumn<QString>("said"); // in standard output or error
    // `report FILE` once said its rejections were kept in a store that it deletes as it ends.
    QTest::newRow("import: in the store")
        << split("import --db @kept.lxdb @many-rejected.jsonl")
        << QStringLiteral("all are kept with their reasons in the store's rejected table");
    QTest::newRow("report of a file: not kept")
        << split("report @many-rejected.jsonl") << QStringLiteral("import --db keeps them all with their reasons");
}

void TestCli::saysWhereRejectionsAreKept()
{
    QFETCH(QStringList, args);
    QFETCH(QString, said);
    QByteArray lines = jsonlRecords(0, 2);
    for (int i = 0; i < 12; ++i)
        lines += "{\"id\":\"bad" + QByteArray::number(i) + "\"}\n"; // no timestamps: rejected
    QVERIFY(writeFile(path(QStringLiteral("many-rejected.jsonl")), lines));
    const CliRun run = runCli(resolved(args));
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(QString::fromUtf8(run.out + run.err).contains(said), (run.out + run.err).constData());
}

void TestCli::reportStatesItsFilter_data()
{
    QTest::addColumn<QStringList>("args"); // @name is a file in the test directory
    QTest::addColumn<QString>("text"); // what states the filter
    QTest::addColumn<bool>("stated"); // in standard output, or (no filter) nowhere in it
    // Figures of a subset once read as the whole investigation's, in every format.
    const QString textLine = QStringLiteral("\nFilter: ");
    const QString jsonKey = QStringLiteral("\"clock_skew\": 0, \"filter\""); // findings have filters of their own
    QTest::newRow("text") << split("report --status ok @fixture.jsonl")
                          << QStringLiteral(
                                 "\nFilter: --status ok (the counts and statistics are of the requests it keeps)")
                          << true;
    QTest::newRow("json") << split("report --json --status ok @fixture.jsonl")
                          << QStringLiteral("\"filter\": \"--status ok\"}") << true;
    QTest::newRow("markdown") << split("report --format md --status ok @fixture.jsonl")
                              << QStringLiteral("kept by the filter --status ok") << true;
    QTest::newRow("text, no filter") << split("report @fixture.jsonl") << textLine << false;
    QTest::newRow("json, no filter") << split("report --json @fixture.jsonl") << jsonKey << false;
    QTest::newRow("markdown, no filter") << split("report --format md @fixture.jsonl")
                                         << QStringLiteral("kept by the filter") << false;
}

void TestCli::reportStatesItsFilter()
{
    QFETCH(QStringList, args);
    QFETCH(QString, text);
    QFETCH(bool, stated);
    const CliRun run = runCli(resolved(args));
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(text) == stated, qPrintable(out.left(400)));
}

void TestCli::jsonShape_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QStringList>("percentileKeys");

    const QStringList defaults = split("p50 p90 p95 p99 p99.9");
    for (const char *input : {"fixture.jsonl", "sparse.jsonl"}) {
        QTest::addRow("%s, default percentiles", input) << QString::fromLatin1(input) << QStringList() << defaults;
        QTest::addRow("%s, 50 and 99.9", input) << QString::fromLatin1(input) << split("--percentiles 50,99.9") << split("p50 p99.9");
    }
    QTest::newRow("p-prefixed list") << QStringLiteral("fixture.jsonl") << split("--percentiles p90,p99") << split("p90 p99");
    QTest::newRow("ends and a fine one") << QStringLiteral("fixture.jsonl") << split("--percentiles 0,99.99,100") << split("p0 p99.99 p100");
}

void TestCli::jsonShape()
{
    QFETCH(QString, input);
    QFETCH(QStringList, options);
    QFETCH(QStringList, percentileKeys);
    const QJsonObject report = reportJson(options + QStringList{path(input)});
    QVERIFY(!report.isEmpty());

    QCOMPARE(sortedKeys(report, kExtraTopKeys), split("dominant e2e requests segments tokens"));
    const QJsonObject requests = report[QLatin1String("requests")].toObject();
    QCOMPARE(sortedKeys(requests, kExtraRequestKeys), split("error ok rejected total"));
    for (const QString &key : requests.keys())
        QVERIFY2(requests[key].isDouble(), qPrintable(key));
    const QStringList segmentNames = split("network preprocess queue prefill decode postprocess unattributed");
    const QJsonObject segments = report[QLatin1String("segments")].toObject();
    QCOMPARE(sortedKeys(segments), sorted(segmentNames));
    for (const QString &name : segmentNames) {
        const QString problem = statisticProblem(QStringLiteral("segments.") + name, segments[name], percentileKeys);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QString problem = statisticProblem(QStringLiteral("e2e"), report[QLatin1String("e2e")], percentileKeys);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QJsonObject tokens = report[QLatin1String("tokens")].toObject();
    QCOMPARE(sortedKeys(tokens), split("itl tpot ttft ttlt"));
    for (const QString &name : tokens.keys()) {
        problem = statisticProblem(QStringLiteral("tokens.") + name, tokens[name], percentileKeys);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    const QJsonObject dominant = report[QLatin1String("dominant")].toObject();
    QCOMPARE(sortedKeys(dominant), sorted(segmentNames));
    for (const QString &name : segmentNames)
        QVERIFY2(dominant[name].isDouble(), qPrintable(name));

    if (input == QLatin1String("sparse.jsonl")) {
        // Measured in no request: count 0 and nulls (statisticProblem checked the nulls), never zeros.
        QCOMPARE(tokens[QLatin1String("itl")][QLatin1String("count")].toInteger(), 0);
        QCOMPARE(segments[QLatin1String("network")][QLatin1String("count")].toInteger(), 0);
        QCOMPARE(segments[QLatin1String("unattributed")][QLatin1String("count")].toInteger(), 1);
    }
}

void TestCli::handComputedValues_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<int>("count");
    QTest::addColumn<QList<double>>("values"); // mean, p50, p90, p95, p99, p99.9, max in ms

    // Type 7 over n sorted values x: h = (n - 1) p / 100, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
    // Five requests: h = 2, 3.6, 3.8, 3.96, 3.996. Queue, sorted 10 30 50 70 500: p90 = 70 + 0.6 * 430 = 328.
    const auto row = [](const char *metric, int count, QList<double> values) {
        QTest::newRow(metric) << QString::fromLatin1(metric) << count << values;
    };
    row("segments/network", 5, {6, 6, 9.2, 9.6, 9.92, 9.992, 10});
    row("segments/preprocess", 5, {2.4, 2, 4.2, 4.6, 4.92, 4.992, 5});
    row("segments/queue", 5, {132, 50, 328, 414, 482.8, 498.28, 500});
    row("segments/prefill", 5, {27.4, 25, 36, 38, 39.6, 39.96, 40});
    row("segments/decode", 5, {174, 150, 260, 280, 296, 299.6, 300});
    row("segments/postprocess", 5, {5.6, 5, 8.4, 9.2, 9.84, 9.984, 10});
    row("segments/unattributed", 5, {0, 0, 0, 0, 0, 0, 0});
    row("e2e", 5, {347.4, 241, 625.4, 745.2, 841.04, 862.604, 865});
    // TTFT = preprocess + queue + prefill: 31 57 81 95 545; TTLT adds decode: 131 257 231 215 845.
    row("tokens/ttft", 5, {161.8, 81, 365, 455, 527, 543.2, 545});
    row("tokens/ttlt", 5, {335.8, 231, 609.8, 727.4, 821.48, 842.648, 845});
    // TPOT = decode / (output tokens - 1): 10 5 30 40 300.
    row("tokens/tpot", 5, {77, 30, 196, 248, 289.6, 298.96, 300});
    // ITL pools r4's gaps 20 30 70 and r5's 300 (n = 4: h = 1.5, 2.7, 2.85, 2.97, 2.997).
    row("tokens/itl", 4, {105, 50, 231, 265.5, 293.1, 299.31, 300});
}

void TestCli::handComputedValues()
{
    QFETCH(QString, metric);
    QFETCH(int, count);
    QFETCH(QList<double>, values);
    const QJsonObject report = reportJson({path(QStringLiteral("fixture.jsonl"))});
    QVERIFY(!report.isEmpty());
    QJsonValue value = report;
    for (const QString &part : metric.split(QLatin1Char('/')))
        value = value[part];
    const QJsonObject s = value.toObject();
    QCOMPARE(s[QLatin1String("count")].toInteger(), count);
    const QStringList keys = split("mean p50 p90 p95 p99 p99.9 max");
    for (int i = 0; i < keys.size(); ++i) {
        const double actual = s[keys[i]].toDouble(-1e300);
        QVERIFY2(qAbs(actual - values[i]) <= 0.001, // 1 µs
                 qPrintable(QStringLiteral("%1.%2 = %3, expected %4").arg(metric, keys[i]).arg(actual, 0, 'f', 6).arg(values[i], 0, 'f', 6)));
    }
}

void TestCli::handComputedCounts()
{
    const QJsonObject report = reportJson({path(QStringLiteral("fixture.jsonl"))});
    QVERIFY(!report.isEmpty());
    const QJsonObject requests = report[QLatin1String("requests")].toObject();
    QCOMPARE(requests[QLatin1String("total")].toInteger(), 6);
    QCOMPARE(requests[QLatin1String("ok")].toInteger(), 5);
    QCOMPARE(requests[QLatin1String("error")].toInteger(), 1);
    QCOMPARE(requests[QLatin1String("rejected")].toInteger(), 1);
    // Decode dominates r1..r4, queue r5 (500 > 300).
    const QJsonObject dominant = report[QLatin1String("dominant")].toObject();
    for (const QString &name : dominant.keys()) {
        const double expected = name == QLatin1String("decode") ? 0.8 : name == QLatin1String("queue") ? 0.2 : 0.0;
        QVERIFY2(qAbs(dominant[name].toDouble() - expected) < 1e-9, qPrintable(name));
    }
}

void TestCli::storeReportsLikeFiles_data()
{
    QTest::addColumn<QStringList>("imports");      // one `import` command per item, files separated by '+'
    QTest::addColumn<QStringList>("storeExtras");  // reported together with the store
    QTest::addColumn<QStringList>("direct");       // reported directly, without a store
    QTest::addColumn<bool>("sameAsFixture");       // the numbers equal those of fixture.jsonl

    QTest::newRow("one file") << split("fixture.jsonl") << QStringList() << split("fixture.jsonl") << true;
    QTest::newRow("two files in one import") << split("part1.jsonl+part2.csv") << QStringList() << split("part1.jsonl part2.csv") << true;
    QTest::newRow("two files in two imports") << split("part1.jsonl part2.csv") << QStringList() << split("part1.jsonl part2.csv") << true;
    QTest::newRow("a store and a file") << split("part1.jsonl") << split("part2.csv") << split("part1.jsonl part2.csv") << true;
    QTest::newRow("sparse") << split("sparse.jsonl") << QStringList() << split("sparse.jsonl") << false;
}

void TestCli::storeReportsLikeFiles()
{
    QFETCH(QStringList, imports);
    QFETCH(QStringList, storeExtras);
    QFETCH(QStringList, direct);
    QFETCH(bool, sameAsFixture);
    const auto paths = [this](const QStringList &names) {
        QStringList out;
        for (const QString &name : names)
            out << path(name);
        return out;
    };
    const QString db = path(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".lxdb"));
    QFile::remove(db);
    for (const QString &files : imports) {
        const CliRun run = runCli(QStringList{QStringLiteral("import"), QStringLiteral("--db"), db} + paths(files.split(QLatin1Char('+'))));
        QVERIFY2(run.exitCode == 0, run.err.constData());
    }
    const QJsonObject fromStore = reportJson(QStringList{db} + paths(storeExtras));
    const QJsonObject fromFiles = reportJson(paths(direct));
    QVERIFY(!fromStore.isEmpty() && !fromFiles.isEmpty());
    QCOMPARE(fromStore, fromFiles);
    if (sameAsFixture) {
        // JSONL and CSV parts give the numbers of the whole fixture; only the list of inputs differs.
        QJsonObject whole = reportJson({path(QStringLiteral("fixture.jsonl"))});
        QJsonObject parts = fromFiles;
        whole.remove(QLatin1String("inputs"));
        parts.remove(QLatin1String("inputs"));
        QCOMPARE(parts, whole);
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
