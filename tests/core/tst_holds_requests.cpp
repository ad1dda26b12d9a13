// SPDX-License-Identifier: GPL-3.0-or-later
// holdsRequests(): what the CLI's "no request could be read" (exit 2) is decided by for stores.

#include "ingest/importer.h"
#include "store/holds_requests.h"
#include "store/store.h"
#include "test_support.h"

#include <QTest>

using lxtest::StoreFixture;

class TestHoldsRequests : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void holdsRequests_data()
    {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<bool>("expected");
        QTest::newRow("nothing imported") << QByteArray() << false;
        QTest::newRow("every record rejected")
            << QByteArray("{\"id\":\"a\"}\n{\"id\":\"b\",\"t_server_recv_ns\":5,\"t_last_token_ns\":1}\n") << false;
        QTest::newRow("an object that is no record") << QByteArray("{\"foo\":1}\n") << false;
        QTest::newRow("one request") << QByteArray("{\"id\":\"a\",\"t_server_recv_ns\":0,\"t_last_token_ns\":5000000}\n") << true;
        QTest::newRow("one request among rejections")
            << QByteArray("{\"id\":\"a\"}\n{\"id\":\"b\",\"t_server_recv_ns\":0,\"t_last_token_ns\":5000000}\n") << true;
    }

    void holdsRequests()
    {
        QFETCH(QByteArray, lines);
        QFETCH(bool, expected);
        const StoreFixture fixture(lines);
        QVERIFY(fixture.store);
        QCOMPARE(lx::holdsRequests(*fixture.store), expected);
    }
};

QTEST_GUILESS_MAIN(TestHoldsRequests)
#include "tst_holds_requests.moc"
