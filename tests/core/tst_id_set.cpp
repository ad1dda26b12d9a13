// SPDX-License-Identifier: GPL-3.0-or-later
// The duplicate-id set of an import (ingest/id_set.h): an id is known by its FNV-1a and a second,
// independent hash, so two ids whose FNV-1a agree stay two ids; growth past the reserve keeps every id.

#include "ingest/id_set.h"
#include "model/id_hash.h"

#include <QTest>

#include <string>

using namespace lx;

class TestIdSet : public QObject {
    Q_OBJECT

private slots:
    /// Each case twice: the id given with its FNV-1a (the single-threaded import), and given as both hashes,
    /// the second taken beforehand as a parser thread takes it (the parallel parse).
    void firstTimeOnly_data()
    {
        QTest::addColumn<QByteArrayList>("ids");
        QTest::addColumn<QList<bool>>("inserted");
        QTest::addColumn<bool>("bothHashesGiven");
        const auto add = [](const char *name, const QByteArrayList &ids, const QList<bool> &inserted) {
            for (const bool both : { false, true })
                QTest::addRow("%s%s", name, both ? ", both hashes given" : "") << ids << inserted << both;
        };
        add("repeats", { "a", "b", "a", "b", "c" }, { true, true, false, false, true });
        add("a byte apart at the end",
            { "chatcmpl-0123456789abcdef", "chatcmpl-0123456789abcdeg", "chatcmpl-0123456789abcdef" },
            { true, true, false });
        add("one word and its prefix", { "12345678", "1234567", "123456789", "12345678" }, { true, true, true, false });
        add("trailing zero bytes are bytes",
            { QByteArray("x", 1), QByteArray("x\0", 2), QByteArray("x\0\0", 3), QByteArray("x\0", 2) },
            { true, true, true, false });
        add("case", { "req-1", "REQ-1", "req-1" }, { true, true, false });
    }

    void firstTimeOnly()
    {
        QFETCH(QByteArrayList, ids);
        QFETCH(QList<bool>, inserted);
        QFETCH(bool, bothHashesGiven);
        IdSet set;
        for (qsizetype i = 0; i < ids.size(); ++i) {
            const std::string_view id(ids[i].constData(), static_cast<std::size_t>(ids[i].size()));
            const bool added
                = bothHashesGiven ? set.insert(hashRequestId(id), idCheckHash(id)) : set.insert(id, hashRequestId(id));
            QCOMPARE(added, inserted[i]);
        }
        QCOMPARE(set.size(), static_cast<std::size_t>(inserted.count(true)));
    }

    /// Two different ids given the same FNV-1a (as two colliding ids would have) are both kept: the second
    /// hash tells them apart. The same id twice is still one.
    void sameFirstHashDifferentIds_data()
    {
        QTest::addColumn<QByteArray>("first");
        QTest::addColumn<QByteArray>("second");
        QTest::newRow("short") << QByteArray("a") << QByteArray("b");
        QTest::newRow("lengths") << QByteArray("abc") << QByteArray("abcd");
        QTest::newRow("past a word") << QByteArray("0123456789abcdef01") << QByteArray("0123456789abcdef02");
        QTest::newRow("words swapped") << QByteArray("AAAAAAAABBBBBBBB") << QByteArray("BBBBBBBBAAAAAAAA");
    }

    void sameFirstHashDifferentIds()
    {
        QFETCH(QByteArray, first);
        QFETCH(QByteArray, second);
        constexpr std::uint64_t kSameHash = 42;
        IdSet set;
        QVERIFY(set.insert(first.toStdString(), kSameHash));
        QVERIFY(set.insert(second.toStdString(), kSameHash));
        QVERIFY(!set.insert(first.toStdString(), kSameHash));
        QVERIFY(!set.insert(second.toStdString(), kSameHash));
        QCOMPARE(set.size(), std::size_t(2));
        QVERIFY(idCheckHash(first.toStdString()) != idCheckHash(second.toStdString()));
    }

    void growsPastItsReserve_data()
    {
        QTest::addColumn<int>("reserved");
        QTest::addColumn<int>("ids");
        QTest::newRow("no reserve") << 0 << 100000;
        QTest::newRow("reserve too small") << 1000 << 50000;
        QTest::newRow("reserve enough") << 50000 << 50000;
    }

    void growsPastItsReserve()
    {
        QFETCH(int, reserved);
        QFETCH(int, ids);
        IdSet set;
        set.reserve(static_cast<std::size_t>(reserved));
        for (int i = 0; i < ids; ++i) {
            const std::string id = "chatcmpl-" + std::to_string(i);
            QVERIFY(set.insert(id, hashRequestId(id)));
        }
        QCOMPARE(set.size(), std::size_t(ids));
        for (int i = 0; i < ids; i += 7) {
            const std::string id = "chatcmpl-" + std::to_string(i);
            QVERIFY2(!set.insert(id, hashRequestId(id)), id.c_str());
        }
        set.clear();
        QCOMPARE(set.size(), std::size_t(0));
        QVERIFY(set.insert("chatcmpl-0", hashRequestId("chatcmpl-0")));
    }

    /// The room made on a thread of its own: the set moves into it when it is ready or when the first table
    /// is full (1M ids pass the 786,432 of the first table, so whichever comes first, no id is lost), and a
    /// set cleared or gone while the thread runs waits for it.
    void reservesAhead_data()
    {
        QTest::addColumn<int>("reserved");
        QTest::addColumn<int>("ids");
        QTest::addColumn<bool>("clearFirst");
        QTest::newRow("small: made at once") << 1000 << 5000 << false;
        QTest::newRow("large, few ids") << 4'000'000 << 1000 << false;
        QTest::newRow("large, past the first table") << 4'000'000 << 1'000'000 << false;
        QTest::newRow("too small, past the first table") << 900'000 << 1'500'000 << false;
        QTest::newRow("cleared while being made") << 4'000'000 << 1000 << true;
        QTest::newRow("gone while being made") << 4'000'000 << 0 << false;
    }

    void reservesAhead()
    {
        QFETCH(int, reserved);
        QFETCH(int, ids);
        QFETCH(bool, clearFirst);
        IdSet set;
        set.reserveAhead(static_cast<std::size_t>(reserved));
        if (clearFirst) {
            set.clear();
            set.reserveAhead(static_cast<std::size_t>(reserved)); // and again, after the first is gone
        }
        const auto idOf = [](int i) { return "chatcmpl-" + std::to_string(i); };
        for (int i = 0; i < ids; ++i)
            QVERIFY(set.insert(idOf(i), hashRequestId(idOf(i))));
        QCOMPARE(set.size(), std::size_t(ids));
        for (int i = 0; i < ids; i += 97)
            QVERIFY2(!set.insert(idOf(i), hashRequestId(idOf(i))), idOf(i).c_str());
        QCOMPARE(set.size(), std::size_t(ids));
    }
};

QTEST_APPLESS_MAIN(TestIdSet)
#include "tst_id_set.moc"
