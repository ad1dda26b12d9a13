// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ OTLP Span Mapping: automatic, a preset or a mapping file; the choice is checked in the menu, kept in
// the settings and read back, a file that cannot be loaded is refused with its name and changes nothing, a
// remembered file that vanished falls back to automatic, and an import through the investigation applies
// the choice (a vLLM span's queue time is measured under vllm, not under tgi).

#include "background_pool.h"
#include "investigation.h"
#include "span_mapping_menu.h"
#include "test_support.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// One Collector line holding a vLLM request span with its latency attributes (queue 10 ms of 1 s).
QByteArray vllmSpanLine()
{
    const auto seconds = [](const char *key, double value) {
        return R"({"key":")" + QByteArray(key) + R"(","value":{"doubleValue":)" + QByteArray::number(value) + "}}";
    };
    const QByteArray attributes = seconds("gen_ai.latency.time_in_queue", 0.01) + ',' + seconds("gen_ai.latency.time_to_first_token", 0.05)
        + ',' + seconds("gen_ai.latency.time_in_model_prefill", 0.03) + ',' + seconds("gen_ai.latency.time_in_model_decode", 0.9) + ','
        + seconds("gen_ai.latency.e2e", 1.0);
    return R"({"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}}]},)"
           R"("scopeSpans":[{"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174",)"
           R"("name":"llm_request","kind":2,"startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000",)"
           R"("attributes":[)"
        + attributes + "]}]}]}]}\n";
}

QAction *actionWithData(const SpanMappingMenu &menu, const QString &data)
{
    for (QAction *action : menu.actions()) {
        if (!action->isSeparator() && action->data().toString() == data && action->isCheckable())
            return action;
    }
    return nullptr;
}

} // namespace

class TestSpanMappingMenu : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        QSettings().clear();
    }

    void presetsAreChosenAndRemembered_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("vllm") << QStringLiteral("vllm");
        QTest::newRow("sglang") << QStringLiteral("sglang");
        QTest::newRow("tgi") << QStringLiteral("tgi");
        QTest::newRow("http-gateway") << QStringLiteral("http-gateway");
    }

    void presetsAreChosenAndRemembered()
    {
        QFETCH(QString, preset);
        SpanMappingMenu menu;
        QCOMPARE(menu.mapping(), QString()); // automatic at first
        QAction *automatic = actionWithData(menu, QString());
        QVERIFY(automatic && automatic->isChecked());
        QSignalSpy changed(&menu, &SpanMappingMenu::mappingChanged);
        QAction *action = actionWithData(menu, preset);
        QVERIFY(action);
        action->trigger();
        QCOMPARE(menu.mapping(), preset);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), preset);
        QVERIFY(action->isChecked() && !automatic->isChecked());
        SpanMappingMenu reopened; // the next run
        QCOMPARE(reopened.mapping(), preset);
        QVERIFY(actionWithData(reopened, preset)->isChecked());
    }

    void filesAreCheckedFirst_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("a mapping file") << QStringLiteral(LX_SOURCE_DIR "/resources/mappings/tgi.json") << true;
        QTest::newRow("no such file") << QStringLiteral("/nonexistent/mapping.json") << false;
        QTest::newRow("not a mapping") << QStringLiteral(LX_SOURCE_DIR "/sample_traces/rising_load.csv") << false;
        QTest::newRow("auto by name") << QStringLiteral("auto") << true;
    }

    void filesAreCheckedFirst()
    {
        QFETCH(QString, file);
        QFETCH(bool, accepted);
        SpanMappingMenu menu;
        QString why;
        QVERIFY(menu.setMapping(QStringLiteral("vllm"), &why));
        QSignalSpy changed(&menu, &SpanMappingMenu::mappingChanged);
        QCOMPARE(menu.setMapping(file, &why), accepted);
        if (!accepted) {
            QVERIFY2(why.contains(file), qPrintable(why)); // the reason names the file
            QCOMPARE(menu.mapping(), QStringLiteral("vllm"));
            QVERIFY(actionWithData(menu, QStringLiteral("vllm"))->isChecked());
            QCOMPARE(changed.count(), 0);
            return;
        }
        QCOMPARE(changed.count(), 1);
        const QString expected = file == QLatin1String("auto") ? QString() : file;
        QCOMPARE(menu.mapping(), expected);
        QCOMPARE(QSettings().value(QStringLiteral("import/spanMapping")).toString(), expected);
    }

    void aVanishedFileFallsBackToAutomatic()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.json"));
        QVERIFY(QFile::copy(QStringLiteral(LX_SOURCE_DIR "/resources/mappings/vllm.json"), path));
        {
            SpanMappingMenu menu;
            QString why;
            QVERIFY2(menu.setMapping(path, &why), qPrintable(why));
        }
        QCOMPARE(SpanMappingMenu().mapping(), path);
        QVERIFY(QFile::remove(path));
        QCOMPARE(SpanMappingMenu().mapping(), QString());
    }

    void importsApplyIt_data()
    {
        QTest::addColumn<QString>("mapping");
        QTest::addColumn<qint64>("queueMeasured"); // requests with a queue time
        QTest::newRow("vllm") << QStringLiteral("vllm") << qint64(1);
        QTest::newRow("automatic") << QString() << qint64(1);
        QTest::newRow("tgi: no such attributes") << QStringLiteral("tgi") << qint64(0);
    }

    void importsApplyIt()
    {
        QFETCH(QString, mapping);
        QFETCH(qint64, queueMeasured);
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("spans.jsonl"), vllmSpanLine());
        {
            Investigation investigation;
            investigation.setSpanMapping(mapping);
            QSignalSpy reported(&investigation, &Investigation::reportChanged);
            investigation.open({ QString::fromStdString(path) });
            QVERIFY(reported.wait(30000));
            QCOMPARE(investigation.report().total, qint64(1));
            QCOMPARE(investigation.report().segments[std::size_t(lx::Segment::Queue)].stat.count, queueMeasured);
        }
        // The summary comes before the import has written its store (summary_first.h): the import goes on
        // after the investigation is gone, and one still running at the process's exit crashed it (1 run in
        // 15), calling a reader factory the exit had destroyed. The application's main() waits the same way.
        backgroundPool().waitForDone();
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestSpanMappingMenu)
#include "tst_span_mapping_menu.moc"
