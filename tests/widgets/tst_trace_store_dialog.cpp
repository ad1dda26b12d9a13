// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open from Trace Store (app/gui/trace_store_dialog.h) against a real ClickHouse engine
// (tests/clickhouse/clickhouse_shim.h), under the offscreen platform: the connection tested, the services of
// the range listed with the span counts of the files loaded, the count of the services checked and the
// warning above the configured threshold, the connection remembered without its password, and the pull
// made an investigation with the requests of importing the same file. With LX_TEST_GRAB_DIR set, the
// dialog is written there as trace_store_dialog.png (and as a wrong password leaves it,
// trace_store_dialog_error.png), to look at. Skips, saying why, without node or chdb.

#include "clickhouse_shim.h"
#include "investigation.h"
#include "main_window.h"
#include "test_support.h"
#include "trace_store_dialog.h"
#include "trace_store_settings.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTimeZone>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

namespace {

const QString kGolden = QStringLiteral(LX_SOURCE_DIR "/tests/golden/otlp_json/spans.otlp.jsonl");

/// Each span's service and start in OTLP/JSON lines, read here apart from the project's readers.
std::vector<std::pair<QString, qint64>> spanStarts(const QString &path)
{
    std::vector<std::pair<QString, qint64>> spans;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return spans;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonArray resources = QJsonDocument::fromJson(line).object().value(QStringLiteral("resourceSpans")).toArray();
        for (const QJsonValue &resource : resources) {
            QString service;
            for (const QJsonValue &attribute : resource[QStringLiteral("resource")][QStringLiteral("attributes")].toArray()) {
                if (attribute[QStringLiteral("key")].toString() == QStringLiteral("service.name"))
                    service = attribute[QStringLiteral("value")][QStringLiteral("stringValue")].toString();
            }
            for (const QJsonValue &scope : resource[QStringLiteral("scopeSpans")].toArray()) {
                for (const QJsonValue &span : scope[QStringLiteral("spans")].toArray())
                    spans.emplace_back(service, span[QStringLiteral("startTimeUnixNano")].toString().toLongLong());
            }
        }
    }
    return spans;
}

/// Spans of a gateway in traces of their own, a second beside each LLM span: a service the pull of vllm leaves out.
QByteArray gatewayLines(const std::vector<std::pair<QString, qint64>> &llmSpans)
{
    QByteArray lines;
    int id = 0;
    for (const auto &[service, start] : llmSpans) {
        ++id;
        const QJsonObject span{{QStringLiteral("traceId"), QStringLiteral("ff%1").arg(id, 30, 16, QLatin1Char('0'))},
                               {QStringLiteral("spanId"), QStringLiteral("ff%1").arg(id, 14, 16, QLatin1Char('0'))},
                               {QStringLiteral("name"), QStringLiteral("POST /v1/completions")},
                               {QStringLiteral("kind"), 2},
                               {QStringLiteral("startTimeUnixNano"), QString::number(start + 1'000'000)},
                               {QStringLiteral("endTimeUnixNano"), QString::number(start + 2'000'000)}};
        const QJsonObject name{{QStringLiteral("key"), QStringLiteral("service.name")},
                               {QStringLiteral("value"), QJsonObject{{QStringLiteral("stringValue"), QStringLiteral("gateway")}}}};
        const QJsonObject resource{{QStringLiteral("resource"), QJsonObject{{QStringLiteral("attributes"), QJsonArray{name}}}},
                                   {QStringLiteral("scopeSpans"), QJsonArray{QJsonObject{{QStringLiteral("spans"), QJsonArray{span}}}}}};
        lines += QJsonDocument(QJsonObject{{QStringLiteral("resourceSpans"), QJsonArray{resource}}}).toJson(QJsonDocument::Compact) + '\n';
    }
    return lines;
}

template<typename T>
T *child(QObject &parent, const char *name)
{
    T *found = parent.findChild<T *>(QLatin1String(name));
    if (!found)
        qWarning("no child %s", name);
    return found;
}

} // namespace

class TestTraceStoreDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void listsTheServicesOfTheRange();
    void wrongPasswordIsSaid();
    void environmentPasswordIsHonoured();
    void enterTestsEscCloses();
    void escStopsAQuestion();
    void warnsAboveTheThreshold_data();
    void warnsAboveTheThreshold();
    void pullMakesAnInvestigation();
    void menuActionHasAShortcut();
    void grabForALook();

private:
    /// A dialog connected to the shim (Test Connection clicked, answered), its range over every span loaded.
    void connectTo(TraceStoreDialog &dialog, const QString &password = QString::fromLatin1(lxtest::ClickHouseShim::kPassword));
    /// Checks the service `name` and waits for the count of the selection.
    void check(TraceStoreDialog &dialog, const QString &name);

    lxtest::ClickHouseShim m_shim;
    QTemporaryDir m_dir;
    std::vector<std::pair<QString, qint64>> m_spans; ///< every span loaded: the golden file's and the gateway's
};

void TestTraceStoreDialog::initTestCase()
{
    if (const QString why = lxtest::ClickHouseShim::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY(m_dir.isValid());
    lxtest::isolateGuiSettings(m_dir.filePath(QStringLiteral("settings")));
    qunsetenv("LX_CLICKHOUSE_PASSWORD");
    QString error;
    QVERIFY2(m_shim.start(&error), qPrintable(error));
    m_spans = spanStarts(kGolden);
    QVERIFY(!m_spans.empty());
    const QString gateway = m_dir.filePath(QStringLiteral("gateway.otlp.jsonl"));
    QVERIFY(lxtest::writeFile(gateway, gatewayLines(m_spans)));
    const auto gatewaySpans = spanStarts(gateway);
    m_spans.insert(m_spans.end(), gatewaySpans.begin(), gatewaySpans.end());
    QVERIFY(m_shim.load(QStringLiteral("otel_traces"), {kGolden, gateway}));
}

void TestTraceStoreDialog::init()
{
    QSettings().clear();
    qunsetenv("LX_CLICKHOUSE_PASSWORD"); // only the test of it sets it
}

void TestTraceStoreDialog::connectTo(TraceStoreDialog &dialog, const QString &password)
{
    child<QComboBox>(dialog, "url")->setEditText(m_shim.url());
    child<QLineEdit>(dialog, "password")->setText(password);
    qint64 first = m_spans.front().second, last = first;
    for (const auto &span : m_spans) {
        first = std::min(first, span.second);
        last = std::max(last, span.second);
    }
    // Whole seconds, as the range's fields show them, around every span.
    dialog.setTimeRange(QDateTime::fromSecsSinceEpoch(first / 1'000'000'000, QTimeZone::utc()),
                        QDateTime::fromSecsSinceEpoch(last / 1'000'000'000 + 1, QTimeZone::utc()));
    QSignalSpy settled(&dialog, &TraceStoreDialog::settled);
    QTest::mouseClick(child<QPushButton>(dialog, "test"), Qt::LeftButton);
    QVERIFY(settled.wait(60000));
}

void TestTraceStoreDialog::check(TraceStoreDialog &dialog, const QString &name)
{
    auto *services = child<QListWidget>(dialog, "services");
    QListWidgetItem *item = nullptr;
    for (int i = 0; i < services->count(); ++i) {
        if (services->item(i)->data(Qt::UserRole).toString() == name)
            item = services->item(i);
    }
    QVERIFY2(item, qPrintable(name));
    QSignalSpy settled(&dialog, &TraceStoreDialog::settled);
    item->setCheckState(Qt::Checked);
    QVERIFY(settled.wait(60000));
}

void TestTraceStoreDialog::listsTheServicesOfTheRange()
{
    TraceStoreDialog dialog(QString{});
    connectTo(dialog);
    QVERIFY2(child<QLabel>(dialog, "status")->text().startsWith(QStringLiteral("Connected: ClickHouse ")),
             qPrintable(child<QLabel>(dialog, "status")->text()));
    std::map<QString, int> expected;
    for (const auto &span : m_spans)
        ++expected[span.first];
    std::map<QString, int> listed;
    auto *services = child<QListWidget>(dialog, "services");
    for (int i = 0; i < services->count(); ++i) {
        const QString name = services->item(i)->data(Qt::UserRole).toString();
        QVERIFY2(expected.count(name), qPrintable(name));
        listed[name] = expected[name]; // the count the item's text must say
        QVERIFY2(services->item(i)->text().contains(QStringLiteral(" — %L1 spans").arg(expected[name])),
                 qPrintable(services->item(i)->text()));
        QCOMPARE(services->item(i)->checkState(), Qt::Unchecked); // nothing remembered: nothing checked
    }
    QCOMPARE(listed, expected);
    QVERIFY(!child<QPushButton>(dialog, "pull")->isEnabled());

    // Another range is asked again: a day before the spans holds none.
    QSignalSpy settled(&dialog, &TraceStoreDialog::settled);
    dialog.setTimeRange(QDateTime(QDate(2024, 12, 31), QTime(12, 0), QTimeZone::utc()), QDateTime(QDate(2024, 12, 31), QTime(12, 30), QTimeZone::utc()));
    QVERIFY(settled.wait(60000));
    QCOMPARE(services->count(), 0);
    QCOMPARE(child<QLabel>(dialog, "count")->text(), QStringLiteral("No span starts in this range."));
}

void TestTraceStoreDialog::wrongPasswordIsSaid()
{
    TraceStoreDialog dialog(QString{});
    connectTo(dialog, QStringLiteral("wrong"));
    const QString status = child<QLabel>(dialog, "status")->text();
    QVERIFY2(status.startsWith(QStringLiteral("authentication failed for user default")), qPrintable(status));
    QCOMPARE(child<QListWidget>(dialog, "services")->count(), 0);
    QVERIFY(!child<QPushButton>(dialog, "pull")->isEnabled());
}

void TestTraceStoreDialog::environmentPasswordIsHonoured()
{
    qputenv("LX_CLICKHOUSE_PASSWORD", lxtest::ClickHouseShim::kPassword);
    TraceStoreDialog dialog(QString{});
    QCOMPARE(child<QLineEdit>(dialog, "password")->placeholderText(), QStringLiteral("from LX_CLICKHOUSE_PASSWORD"));
    connectTo(dialog, QString()); // nothing typed: the environment's password is sent
    QVERIFY2(child<QLabel>(dialog, "status")->text().startsWith(QStringLiteral("Connected")),
             qPrintable(child<QLabel>(dialog, "status")->text()));
}

void TestTraceStoreDialog::enterTestsEscCloses()
{
    TraceStoreDialog dialog(QString{});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *url = child<QComboBox>(dialog, "url");
    url->setEditText(m_shim.url());
    child<QLineEdit>(dialog, "password")->setText(QString::fromLatin1(lxtest::ClickHouseShim::kPassword));
    QSignalSpy settled(&dialog, &TraceStoreDialog::settled);
    url->lineEdit()->setFocus();
    QTest::keyClick(url->lineEdit(), Qt::Key_Return); // the default button: Test Connection
    QVERIFY(settled.wait(60000));
    QVERIFY2(child<QLabel>(dialog, "status")->text().startsWith(QStringLiteral("Connected")),
             qPrintable(child<QLabel>(dialog, "status")->text()));
    QVERIFY(child<QPushButton>(dialog, "pull")->isDefault()); // once connected, Enter pulls
    QVERIFY(dialog.isVisible());
    QTest::keyClick(&dialog, Qt::Key_Escape); // nothing running: Esc closes
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void TestTraceStoreDialog::escStopsAQuestion()
{
    // A server that takes the connection and never answers: the question runs until it is stopped.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    TraceStoreDialog dialog(QString{});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    child<QComboBox>(dialog, "url")->setEditText(QStringLiteral("clickhouse://127.0.0.1:%1/otel").arg(silent.serverPort()));
    QTest::mouseClick(child<QPushButton>(dialog, "test"), Qt::LeftButton);
    QVERIFY(dialog.busy());
    QTest::qWait(300); // the window still runs its event loop meanwhile
    QVERIFY(dialog.busy());
    QVERIFY(child<QWidget>(dialog, "busy")->isVisible());
    QSignalSpy settled(&dialog, &TraceStoreDialog::settled);
    QTest::keyClick(&dialog, Qt::Key_Escape); // a question running: Esc stops it and leaves the dialog open
    QVERIFY(!dialog.busy());
    QCOMPARE(settled.count(), 1);
    QVERIFY(dialog.isVisible());
    QVERIFY(!child<QWidget>(dialog, "busy")->isVisible());
    QCOMPARE(child<QLabel>(dialog, "status")->text(), QStringLiteral("Stopped."));
}

void TestTraceStoreDialog::warnsAboveTheThreshold_data()
{
    QTest::addColumn<bool>("setThreshold"); ///< false: the default (5,000,000)
    QTest::addColumn<int>("offset");        ///< the threshold set: the count plus this
    QTest::addColumn<bool>("warned");
    QTest::newRow("the default, far above") << false << 0 << false;
    QTest::newRow("one below the count") << true << -1 << true;
    QTest::newRow("at the count") << true << 0 << false;
}

void TestTraceStoreDialog::warnsAboveTheThreshold()
{
    QFETCH(bool, setThreshold);
    QFETCH(int, offset);
    QFETCH(bool, warned);
    // The count of a pull of vllm: the golden file's spans (each in a trace of its own).
    qint64 vllmSpans = 0;
    for (const auto &span : m_spans)
        vllmSpans += span.first == QStringLiteral("vllm");
    if (setThreshold)
        QSettings().setValue(QLatin1String(kSpanWarningThresholdKey), vllmSpans + offset);
    TraceStoreDialog dialog(QString{});
    dialog.show();
    connectTo(dialog);
    check(dialog, QStringLiteral("vllm"));
    const QString count = child<QLabel>(dialog, "count")->text();
    QVERIFY2(count.startsWith(QStringLiteral("A pull reads %L1 spans of %L1 traces").arg(vllmSpans)), qPrintable(count));
    QCOMPARE(child<QLabel>(dialog, "warning")->isVisible(), warned);
    QVERIFY(child<QPushButton>(dialog, "pull")->isEnabled()); // a warning, not a refusal

    // The count and its warning were the range's: another range takes Pull away until it is counted
    // (Enter used to pull the new range with the old count, past the warning).
    dialog.setTimeRange(QDateTime(QDate(2024, 12, 31), QTime(12, 0), QTimeZone::utc()),
                        QDateTime(QDate(2024, 12, 31), QTime(12, 30), QTimeZone::utc()));
    QVERIFY(!child<QPushButton>(dialog, "pull")->isEnabled());
    QVERIFY(!child<QLabel>(dialog, "warning")->isVisible());
}

void TestTraceStoreDialog::pullMakesAnInvestigation()
{
    TraceStoreDialog dialog(QString{});
    connectTo(dialog);
    check(dialog, QStringLiteral("vllm"));
    auto *pull = child<QPushButton>(dialog, "pull");
    QVERIFY(pull->isEnabled());
    QTest::mouseClick(pull, Qt::LeftButton);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));

    // Remembered: the URL, the user, the services and the mapping; the password nowhere in the settings.
    const std::vector<RememberedConnection> remembered = rememberedConnections();
    QCOMPARE(remembered.size(), std::size_t(1));
    QCOMPARE(remembered.front().url, m_shim.url());
    QCOMPARE(remembered.front().services, QStringList{QStringLiteral("vllm")});
    QVERIFY(!remembered.front().passwordInKeychain);
    QSettings settings;
    settings.sync();
    for (const QString &key : settings.allKeys()) {
        QVERIFY2(!key.endsWith(QStringLiteral("/password"), Qt::CaseInsensitive), qPrintable(key));
        QVERIFY2(!settings.value(key).toString().contains(QString::fromLatin1(lxtest::ClickHouseShim::kPassword)), qPrintable(key));
    }
    QFile file(settings.fileName());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(lxtest::ClickHouseShim::kPassword));
    // A new dialog offers it, without a password, with its services checked once listed.
    TraceStoreDialog again(QString{});
    QCOMPARE(child<QComboBox>(again, "url")->currentText(), m_shim.url());
    QVERIFY(child<QLineEdit>(again, "password")->text().isEmpty());
    connectTo(again);
    auto *services = child<QListWidget>(again, "services");
    QVERIFY(services->count() > 1);
    for (int i = 0; i < services->count(); ++i) {
        const bool vllm = services->item(i)->data(Qt::UserRole).toString() == QStringLiteral("vllm");
        QCOMPARE(services->item(i)->checkState(), vllm ? Qt::Checked : Qt::Unchecked);
    }

    MainWindow window;
    QSignalSpy finished(window.investigation(), &Investigation::importFinished);
    QSignalSpy reported(window.investigation(), &Investigation::reportChanged);
    window.pullFromTraceStore(dialog.pull());
    QVERIFY(finished.wait(120000));
    QVERIFY(reported.count() > 0 || reported.wait(60000));
    const std::vector<lx::FileImport> &pulled = window.investigation()->lastImports();
    QCOMPARE(pulled.size(), std::size_t(1));
    QVERIFY2(pulled.front().outcome == lx::FileImport::Outcome::Complete, lxtest::describe(pulled.front()).constData());
    const lxtest::Imported imported = lxtest::importPaths({lxtest::pathOf(kGolden)});
    QVERIFY(imported.files.front().accepted > 0);
    QCOMPARE(pulled.front().accepted, imported.files.front().accepted);
    QVERIFY(window.investigation()->isTemporary());
    QVERIFY2(window.windowTitle().contains(QStringLiteral("otel.otel_traces on 127.0.0.1")), qPrintable(window.windowTitle()));
}

void TestTraceStoreDialog::menuActionHasAShortcut()
{
    MainWindow window;
    QAction *found = nullptr;
    for (QAction *menu : window.menuBar()->actions()) {
        for (QAction *action : menu->menu()->actions()) {
            if (action->text() == QStringLiteral("Open from &Trace Store…"))
                found = action;
        }
    }
    QVERIFY(found);
    QCOMPARE(found->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+T")));
}

void TestTraceStoreDialog::grabForALook()
{
    const QByteArray out = qgetenv("LX_TEST_GRAB_DIR");
    if (out.isEmpty())
        QSKIP("LX_TEST_GRAB_DIR is not set: nothing to write");
    QSettings().setValue(QLatin1String(kSpanWarningThresholdKey), 10);
    TraceStoreDialog dialog(QString{});
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    connectTo(dialog);
    check(dialog, QStringLiteral("vllm"));
    QVERIFY(dialog.grab().save(QDir(QString::fromLocal8Bit(out)).filePath(QStringLiteral("trace_store_dialog.png"))));
    // And as a failure leaves it: ClickHouse's long message under the connection.
    TraceStoreDialog failed(QString{});
    failed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&failed));
    connectTo(failed, QStringLiteral("wrong"));
    QTest::qWait(50); // the layout's request, posted by the message, is handled as the event loop runs
    QVERIFY(failed.grab().save(QDir(QString::fromLocal8Bit(out)).filePath(QStringLiteral("trace_store_dialog_error.png"))));
}

QTEST_MAIN(TestTraceStoreDialog)
#include "tst_trace_store_dialog.moc"
