// SPDX-License-Identifier: GPL-3.0-or-later
// A segment's words in the views (segment_text.h): the name and the title of the segment table, one row per
// segment as docs/DOMAIN.md names them.

#include "segment_text.h"

#include <QTest>

Q_DECLARE_METATYPE(lx::Segment)

class TestSegmentText : public QObject {
    Q_OBJECT

private slots:
    void words_data()
    {
        QTest::addColumn<lx::Segment>("segment");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("title");
        QTest::newRow("network") << lx::Segment::Network << "network" << "Network";
        QTest::newRow("preprocess") << lx::Segment::Preprocess << "preprocess" << "Preprocess";
        QTest::newRow("queue") << lx::Segment::Queue << "queue" << "Queue";
        QTest::newRow("prefill") << lx::Segment::Prefill << "prefill" << "Prefill";
        QTest::newRow("decode") << lx::Segment::Decode << "decode" << "Decode";
        QTest::newRow("postprocess") << lx::Segment::Postprocess << "postprocess" << "Postprocess";
        QTest::newRow("unattributed") << lx::Segment::Unattributed << "unattributed" << "Unattributed";
    }

    void words()
    {
        QFETCH(lx::Segment, segment);
        QTEST(segmentNameText(segment), "name");
        QTEST(segmentTitleText(segment), "title");
    }
};

QTEST_GUILESS_MAIN(TestSegmentText)
#include "tst_segment_text.moc"
