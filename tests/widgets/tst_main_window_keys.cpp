// SPDX-License-Identifier: GPL-3.0-or-later
// What the window offers before any file is open: the keys of its actions and the file kinds File ▸ Open
// shows. A suite of its own because tst_main_window.cpp, the window end to end, is at its size limit.

#include "main_window.h"
#include "open_file_filter.h"
#include "test_support.h"

#include <QAction>
#include <QHash>
#include <QKeySequence>
#include <QTemporaryDir>
#include <QTest>

class TestMainWindowKeys : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        lxtest::isolateGuiSettings(m_settings.path());
    }

    /// Keys users reach for: each action (by its text without mnemonics) answers to the key.
    void actionShortcuts_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QKeySequence>("key");
        QTest::newRow("Ctrl+S saves the investigation") << QStringLiteral("Save Investigation As…") << QKeySequence(QKeySequence::Save);
        QTest::newRow("Ctrl+O opens") << QStringLiteral("Open…") << QKeySequence(QKeySequence::Open);
        QTest::newRow("Ctrl+E exports CSV") << QStringLiteral("Export Filtered Requests to CSV…") << QKeySequence(QStringLiteral("Ctrl+E"));
        // Both ask Save / Discard / Cancel first when the investigation is unsaved (tst_main_window_state).
        // Ctrl+Q even where the platform has no Quit key (offscreen, as Windows and bare X11): it had none.
        QTest::newRow("Ctrl+Q quits") << QStringLiteral("Quit") << QKeySequence(QStringLiteral("Ctrl+Q"));
        QTest::newRow("Ctrl+W closes the investigation") << QStringLiteral("Close Investigation") << QKeySequence(QKeySequence::Close);
    }

    void actionShortcuts()
    {
        QFETCH(QString, action);
        QFETCH(QKeySequence, key);
        QVERIFY(!key.isEmpty());
        MainWindow window;
        QList<QAction *> found;
        for (QAction *a : window.findChildren<QAction *>()) {
            if (a->text().remove(QLatin1Char('&')) == action)
                found << a;
        }
        QCOMPARE(found.size(), 1);
        QVERIFY2(found.front()->shortcuts().contains(key), qPrintable(QKeySequence::listToString(found.front()->shortcuts())));
    }

    /// Qt does nothing at all on a key two actions of one window share: every key must be one action's.
    void noKeyIsAmbiguous()
    {
        MainWindow window;
        QHash<QKeySequence, QString> owner;
        for (QAction *a : window.findChildren<QAction *>()) {
            for (const QKeySequence &key : a->shortcuts()) {
                QVERIFY2(!owner.contains(key), qPrintable(key.toString() + QStringLiteral(": ") + owner.value(key) + QStringLiteral(" and ") + a->text()));
                owner.insert(key, a->text());
            }
        }
        QVERIFY(owner.contains(QKeySequence(QKeySequence::Save)));
    }

    /// File ▸ Open shows every kind of file the importer reads, in the filter the dialog starts with.
    void openFileFilterNamesEveryKind_data()
    {
        QTest::addColumn<QString>("pattern");
        for (const char *p : {"*.jsonl", "*.json", "*.csv", "*.pb", "*.binpb", "*.zst", "*.lxdb"})
            QTest::newRow(p) << QString::fromLatin1(p);
    }

    void openFileFilterNamesEveryKind()
    {
        QFETCH(QString, pattern);
        const QStringList filters = openFileFilter().split(QStringLiteral(";;"));
        QVERIFY(filters.size() >= 2);
        const QString first = filters.front();
        const qsizetype open = first.indexOf(QLatin1Char('(')), close = first.lastIndexOf(QLatin1Char(')'));
        QVERIFY2(open > 0 && close > open, qPrintable(first));
        QVERIFY2(first.mid(open + 1, close - open - 1).split(QLatin1Char(' ')).contains(pattern), qPrintable(first));
        QCOMPARE(filters.back(), QStringLiteral("All files (*)"));
    }

private:
    QTemporaryDir m_settings;
};

QTEST_MAIN(TestMainWindowKeys)
#include "tst_main_window_keys.moc"
