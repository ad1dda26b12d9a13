// SPDX-License-Identifier: GPL-3.0-or-later
// The background-job runner every view uses: only the newest result lands, on the receiver's thread; a
// cancelled job or a receiver gone before the worker ends gets nothing; a store job opens its own store.
#include "background_pool.h"
#include "background_job.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace {

/// What the workers and the deliveries of one test saw, shared with workers that may outlive the test's objects.
struct Record {
    std::atomic<bool> release = false;    ///< the workers block until it is set (or they are cancelled)
    std::atomic<int> started = 0;
    std::atomic<int> sawCancel = 0;       ///< workers that returned because their cancel flag was set
    std::vector<int> delivered;           ///< results, in the order they landed
    std::vector<QThread *> deliveryThreads;
    std::atomic<QThread *> workerThread = nullptr;
};

/// Work returning -1 as soon as it is cancelled, else `value` once released (bounded: never hangs a test).
auto blockingWork(std::shared_ptr<Record> record, int value)
{
    return [record, value](const std::atomic<bool> &cancel) {
        ++record->started;
        record->workerThread = QThread::currentThread();
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (;;) {
            if (cancel) {
                ++record->sawCancel;
                return -1;
            }
            if (record->release || std::chrono::steady_clock::now() > deadline)
                return value;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    };
}

auto recordDelivery(std::shared_ptr<Record> record)
{
    return [record](int value) {
        record->delivered.push_back(value);
        record->deliveryThreads.push_back(QThread::currentThread());
    };
}

/// Lets every worker end and every delivery that is to come land.
void settle(Record &record)
{
    record.release = true;
    backgroundPool().waitForDone();
    QTest::qWait(50);
}

} // namespace

class TestBackgroundJob : public QObject {
    Q_OBJECT

private slots:
    void workLeavesQtsGlobalPoolFree_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("one job") << 1;
        QTest::newRow("more jobs than cores") << QThread::idealThreadCount() + 2;
    }

    void workLeavesQtsGlobalPoolFree()
    {
        // Qt's raster painter waits for the global pool: background work there froze the window (up to
        // 1.2 s on a million requests) until an analysis ended. It runs on its own pool.
        QFETCH(int, jobs);
        QObject receiver;
        auto record = std::make_shared<Record>();
        std::vector<std::unique_ptr<BackgroundJob<int>>> running;
        for (int i = 0; i < jobs; ++i) {
            running.push_back(std::make_unique<BackgroundJob<int>>(&receiver));
            running.back()->start(blockingWork(record, i), recordDelivery(record));
        }
        QTRY_VERIFY(record->started >= std::min(jobs, backgroundPool().maxThreadCount()));
        QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);
        QVERIFY(backgroundPool().activeThreadCount() >= 1);
        settle(*record);
    }

    void onlyTheNewestLands_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("one job") << 1;
        QTest::newRow("two jobs") << 2;
        QTest::newRow("five jobs in a row") << 5;
    }
    void onlyTheNewestLands()
    {
        QFETCH(int, jobs);
        auto record = std::make_shared<Record>();
        QObject receiver;
        BackgroundJob<int> job(&receiver);
        for (int i = 0; i < jobs; ++i)
            job.start(blockingWork(record, i), recordDelivery(record));
        QVERIFY(job.running());
        settle(*record);
        QCOMPARE(record->delivered, std::vector<int>{jobs - 1});
        QVERIFY(!job.running());
        QCOMPARE(record->sawCancel.load(), jobs - 1); // each superseded job was told to stop
        QCOMPARE(record->started.load(), jobs);
    }

    void landsOnTheReceiversThread_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("one job") << 1;
        QTest::newRow("three jobs, each after the last landed") << 3;
    }
    void landsOnTheReceiversThread()
    {
        QFETCH(int, jobs);
        auto record = std::make_shared<Record>();
        record->release = true;
        QObject receiver;
        BackgroundJob<int> job(&receiver);
        for (int i = 0; i < jobs; ++i) {
            job.start(blockingWork(record, i), recordDelivery(record));
            QTRY_COMPARE(int(record->delivered.size()), i + 1);
            QVERIFY(record->workerThread.load() != receiver.thread());
        }
        std::vector<int> expected;
        for (int i = 0; i < jobs; ++i)
            expected.push_back(i);
        QCOMPARE(record->delivered, expected);
        for (QThread *thread : record->deliveryThreads)
            QCOMPARE(thread, receiver.thread());
    }

    void cancelDropsTheResult_data()
    {
        QTest::addColumn<bool>("waitForWorker");
        QTest::newRow("cancelled while the worker runs") << true;
        QTest::newRow("cancelled right after the start") << false;
    }
    void cancelDropsTheResult()
    {
        QFETCH(bool, waitForWorker);
        auto record = std::make_shared<Record>();
        QObject receiver;
        BackgroundJob<int> job(&receiver);
        job.start(blockingWork(record, 7), recordDelivery(record));
        if (waitForWorker)
            QTRY_COMPARE(record->started.load(), 1);
        job.cancel();
        QVERIFY(!job.running());
        QTRY_COMPARE(record->sawCancel.load(), 1); // the worker stops before it is released
        settle(*record);
        QVERIFY(record->delivered.empty());
    }

    void nothingLandsOnAGoneReceiver_data()
    {
        QTest::addColumn<bool>("jobOutlivesReceiver");
        QTest::newRow("the receiver goes, the job stays") << true;
        QTest::newRow("the receiver and its job go") << false;
    }
    void nothingLandsOnAGoneReceiver()
    {
        QFETCH(bool, jobOutlivesReceiver);
        auto record = std::make_shared<Record>();
        auto receiver = std::make_unique<QObject>();
        auto job = std::make_unique<BackgroundJob<int>>(receiver.get());
        job->start(blockingWork(record, 3), recordDelivery(record));
        QTRY_COMPARE(record->started.load(), 1);
        if (!jobOutlivesReceiver)
            job.reset(); // cancels the worker, which then ends on its own
        receiver.reset();
        if (!jobOutlivesReceiver)
            QTRY_COMPARE(record->sawCancel.load(), 1);
        settle(*record);
        QVERIFY(record->delivered.empty());
        QCOMPARE(record->sawCancel.load(), jobOutlivesReceiver ? 0 : 1); // a job kept is not cancelled
    }

    void deliverLaterLandsUnlessSuperseded_data()
    {
        QTest::addColumn<bool>("startAfter");
        QTest::addColumn<std::vector<int>>("expected");
        QTest::newRow("alone") << false << std::vector<int>{5};
        QTest::newRow("a job started after it") << true << std::vector<int>{9};
    }
    void deliverLaterLandsUnlessSuperseded()
    {
        QFETCH(bool, startAfter);
        QFETCH(std::vector<int>, expected);
        auto record = std::make_shared<Record>();
        record->release = true;
        QObject receiver;
        BackgroundJob<int> job(&receiver);
        job.deliverLater(5, recordDelivery(record));
        QVERIFY(record->delivered.empty()); // never synchronously: it lands from the event loop
        if (startAfter)
            job.start(blockingWork(record, 9), recordDelivery(record));
        settle(*record);
        QCOMPARE(record->delivered, expected);
    }

    void onOwnStoreOpensTheFile_data()
    {
        QTest::addColumn<bool>("fileExists");
        QTest::newRow("an investigation") << true;
        QTest::newRow("error: no such file") << false;
    }
    void onOwnStoreOpensTheFile()
    {
        QFETCH(bool, fileExists);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("t.lxdb")).toStdString();
        std::string why;
        if (fileExists)
            QVERIFY2(lx::Store::open(path, &why), why.c_str());
        QObject receiver;
        BackgroundJob<QString> job(&receiver);
        std::vector<QString> landed;
        const auto opened = [](const lx::Store &store, const std::atomic<bool> &) {
            return QStringLiteral("opened ") + QString::fromStdString(store.path());
        };
        const auto failed = [](const std::string &reason) { return QStringLiteral("failed: ") + QString::fromStdString(reason); };
        job.start(onOwnStore(path, opened, failed), [&](const QString &result) { landed.push_back(result); });
        QTRY_COMPARE(int(landed.size()), 1);
        if (fileExists) {
            QCOMPARE(landed.front(), QStringLiteral("opened ") + QString::fromStdString(path));
        } else {
            QVERIFY2(landed.front().startsWith(QStringLiteral("failed: ")), qPrintable(landed.front()));
            QVERIFY(landed.front().size() > QStringLiteral("failed: ").size()); // says why
            QVERIFY(!QFile::exists(QString::fromStdString(path)));              // and creates nothing
        }
    }
};

QTEST_MAIN(TestBackgroundJob)
#include "tst_background_job.moc"
