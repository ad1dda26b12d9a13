// SPDX-License-Identifier: GPL-3.0-or-later
// The keys the parsing side gives the texts that repeat (text_keys.h): one per text, in the order they
// come, none for an empty text, no more than kMaxTextKeys, and no look-ups once hardly any text is known.

#include "model/text_keys.h"

#include <QTest>

using namespace lx;

class TestTextKeys : public QObject {
    Q_OBJECT

private slots:
    void keysInTheOrderTextsCome_data()
    {
        QTest::addColumn<QByteArrayList>("texts");
        QTest::addColumn<QList<quint32>>("keys");
        QTest::newRow("repeats") << QByteArrayList{"a", "b", "a", "c", "b"} << QList<quint32>{1, 2, 1, 3, 2};
        QTest::newRow("empty: no key") << QByteArrayList{"", "a", ""} << QList<quint32>{kNoText, 1, kNoText};
        QTest::newRow("case and spaces are other texts") << QByteArrayList{"a", "A", "a "} << QList<quint32>{1, 2, 3};
    }

    void keysInTheOrderTextsCome()
    {
        QFETCH(QByteArrayList, texts);
        QFETCH(QList<quint32>, keys);
        TextKeys numbering;
        for (qsizetype i = 0; i < texts.size(); ++i)
            QCOMPARE(numbering.keyOf(texts[i].toStdString()), keys[i]);
    }

    void boundedInNumber()
    {
        TextKeys numbering;
        for (std::size_t i = 0; i < kMaxTextKeys; ++i)
            QCOMPARE(numbering.keyOf("t" + std::to_string(i)), std::uint32_t(i + 1));
        QCOMPARE(numbering.keyOf("one more"), kUnkeyedText);
        QCOMPARE(numbering.keyOf("t7"), std::uint32_t(8)); // the known keep their keys
        QCOMPARE(numbering.keyOf(""), kNoText);
    }

    void givesUpLookingWhenHardlyAnyTextIsKnown_data()
    {
        QTest::addColumn<int>("knownEvery"); // past the cap, every n-th text is a known one; 0: none is
        QTest::addColumn<bool>("gaveUp");
        QTest::newRow("a value per request: gives up") << 0 << true;
        QTest::newRow("1 in 32 known: gives up") << 32 << true;
        QTest::newRow("1 in 8 known: keeps looking") << 8 << false;
        QTest::newRow("half known: keeps looking") << 2 << false;
    }

    void givesUpLookingWhenHardlyAnyTextIsKnown()
    {
        QFETCH(int, knownEvery);
        QFETCH(bool, gaveUp);
        TextKeys numbering;
        for (std::size_t i = 0; i < kMaxTextKeys; ++i)
            numbering.keyOf("t" + std::to_string(i));
        for (std::size_t i = 0; i + 1 < kMaxTextKeys; ++i) {
            const bool known = knownEvery > 0 && i % std::size_t(knownEvery) == 0;
            QCOMPARE(numbering.keyOf(known ? "t3" : "n" + std::to_string(i)), known ? std::uint32_t(4) : kUnkeyedText);
        }
        QVERIFY(!numbering.gaveUp()); // decided at the end of a round only
        numbering.keyOf("one more");
        QCOMPARE(numbering.gaveUp(), gaveUp);
        QCOMPARE(numbering.keyOf("t7"), gaveUp ? kUnkeyedText : std::uint32_t(8));
        QCOMPARE(numbering.keyOf(""), kNoText);
    }

    void labelsShareANumberingAttributesHaveTheirOwn()
    {
        RecordKeyer keyer;
        const RecordKeys first = keyer.of("m", "/v1", "{\"a\":1}");
        const RecordKeys second = keyer.of("/v1", "m", "{\"a\":1}");
        QCOMPARE(first.model, second.route);
        QCOMPARE(first.route, second.model);
        QCOMPARE(first.attributes, std::uint32_t(1));
        QCOMPARE(second.attributes, std::uint32_t(1));
    }
};

QTEST_GUILESS_MAIN(TestTextKeys)
#include "tst_text_keys.moc"
