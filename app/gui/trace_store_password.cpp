// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_store_password.h"

#include "source/clickhouse_endpoint.h"

#include <QMetaObject>
#include <QObject>

#ifdef LX_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace {
/// The keychain's service name of every entry the app keeps.
const QString kKeychainService = QStringLiteral("Latency Explorer ClickHouse");
}

bool keychainAvailable()
{
#ifdef LX_HAVE_QTKEYCHAIN
    return true;
#else
    return false;
#endif
}

bool environmentPasswordSet() { return qEnvironmentVariableIsSet(lx::source::kClickHousePasswordVariable); }

QString keychainAccount(const QString &user, const QString &hostAndPort) { return user + QLatin1Char('@') + hostAndPort; }

void readKeychainPassword(const QString &account, QObject *context, std::function<void(const QString &, const QString &)> done)
{
#ifdef LX_HAVE_QTKEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(kKeychainService, context);
    job->setInsecureFallback(false);
    job->setKey(account);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done = std::move(done)] {
        done(job->error() == QKeychain::NoError ? job->textData() : QString(), job->error() == QKeychain::NoError ? QString() : job->errorString());
    });
    job->start(); // the job deletes itself once finished
#else
    Q_UNUSED(account);
    QMetaObject::invokeMethod(context, [done = std::move(done)] {
        done(QString(), QObject::tr("this build has no system keychain (QtKeychain)"));
    }, Qt::QueuedConnection);
#endif
}

void writeKeychainPassword(const QString &account, const QString &password, QObject *context, std::function<void(const QString &)> done)
{
#ifdef LX_HAVE_QTKEYCHAIN
    QKeychain::Job *job = nullptr;
    if (password.isEmpty()) {
        auto *remove = new QKeychain::DeletePasswordJob(kKeychainService, context);
        remove->setKey(account);
        job = remove;
    } else {
        auto *write = new QKeychain::WritePasswordJob(kKeychainService, context);
        write->setKey(account);
        write->setTextData(password);
        job = write;
    }
    job->setInsecureFallback(false);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done = std::move(done)] {
        done(job->error() == QKeychain::NoError || job->error() == QKeychain::EntryNotFound ? QString() : job->errorString());
    });
    job->start();
#else
    Q_UNUSED(account);
    Q_UNUSED(password);
    QMetaObject::invokeMethod(context, [done = std::move(done)] { done(QObject::tr("this build has no system keychain (QtKeychain)")); },
                              Qt::QueuedConnection);
#endif
}
