// SPDX-License-Identifier: GPL-3.0-or-later
// lx::tunablesWithHugePages(): the GLIBC_TUNABLES value the desktop application starts itself again with,
// so that glibc's malloc asks for transparent huge pages under large blocks; a value that already names
// the tunable is left as the user set it. And allocateHugePages(): memory that can be written end to end.

#include "platform/huge_pages.h"

#include <QTest>

#include <cstring>

class TestHugePages : public QObject {
    Q_OBJECT

private slots:
    void tunables_data();
    void tunables();
    void allocationIsUsable();
};

void TestHugePages::tunables_data()
{
    QTest::addColumn<bool>("unset");
    QTest::addColumn<QByteArray>("current");
    QTest::addColumn<bool>("changed");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("unset") << true << QByteArray() << true << QByteArray("glibc.malloc.hugetlb=1");
    QTest::newRow("empty") << false << QByteArray("") << true << QByteArray("glibc.malloc.hugetlb=1");
    QTest::newRow("another tunable") << false << QByteArray("glibc.malloc.arena_max=2") << true
                                     << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    QTest::newRow("already asked") << false << QByteArray("glibc.malloc.hugetlb=1") << false << QByteArray();
    QTest::newRow("the user said no") << false << QByteArray("glibc.malloc.hugetlb=0") << false << QByteArray();
    QTest::newRow("among others") << false << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2:glibc.x=1") << false
                                  << QByteArray();
    QTest::newRow("a longer name is another tunable") << false << QByteArray("glibc.malloc.hugetlbx=1") << true
                                                      << QByteArray("glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1");
}

void TestHugePages::tunables()
{
    QFETCH(bool, unset);
    QFETCH(QByteArray, current);
    QFETCH(bool, changed);
    QFETCH(QByteArray, expected);
    const std::optional<std::string> result = lx::tunablesWithHugePages(unset ? nullptr : current.constData());
    QCOMPARE(result.has_value(), changed);
    if (changed)
        QCOMPARE(QByteArray::fromStdString(*result), expected);
}

void TestHugePages::allocationIsUsable()
{
    const std::size_t bytes = lx::kHugePageBytes * 3 + 123;
    auto *p = static_cast<unsigned char *>(lx::allocateHugePages(bytes));
    QVERIFY(p);
    std::memset(p, 0xab, bytes);
    QCOMPARE(p[0], 0xab);
    QCOMPARE(p[bytes - 1], 0xab);
    lx::freeHugePages(p, bytes);
}

QTEST_APPLESS_MAIN(TestHugePages)
#include "tst_huge_pages.moc"
