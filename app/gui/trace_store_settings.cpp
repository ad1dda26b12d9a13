// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_store_settings.h"

#include <QSettings>

namespace {
constexpr int kKept = 10;
}

std::vector<RememberedConnection> rememberedConnections()
{
    QSettings settings;
    std::vector<RememberedConnection> connections;
    const int size = settings.beginReadArray(QLatin1String(kTraceStoreConnectionsKey));
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        RememberedConnection connection;
        connection.url = settings.value(QStringLiteral("url")).toString();
        connection.user = settings.value(QStringLiteral("user")).toString();
        connection.services = settings.value(QStringLiteral("services")).toStringList();
        connection.mapping = settings.value(QStringLiteral("mapping")).toString();
        connection.passwordInKeychain = settings.value(QStringLiteral("passwordInKeychain")).toBool();
        if (!connection.url.isEmpty())
            connections.push_back(connection);
    }
    settings.endArray();
    return connections;
}

void rememberConnection(const RememberedConnection &connection)
{
    std::vector<RememberedConnection> connections{connection};
    for (const RememberedConnection &old : rememberedConnections()) {
        if ((old.url != connection.url || old.user != connection.user) && int(connections.size()) < kKept)
            connections.push_back(old);
    }
    QSettings settings;
    settings.remove(QLatin1String(kTraceStoreConnectionsKey)); // a shorter list leaves no stale entries
    settings.beginWriteArray(QLatin1String(kTraceStoreConnectionsKey), int(connections.size()));
    for (int i = 0; i < int(connections.size()); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("url"), connections[i].url);
        settings.setValue(QStringLiteral("user"), connections[i].user);
        settings.setValue(QStringLiteral("services"), connections[i].services);
        settings.setValue(QStringLiteral("mapping"), connections[i].mapping);
        settings.setValue(QStringLiteral("passwordInKeychain"), connections[i].passwordInKeychain);
    }
    settings.endArray();
}

std::uint64_t spanWarningThreshold()
{
    bool ok = false;
    const qulonglong value = QSettings().value(QLatin1String(kSpanWarningThresholdKey)).toULongLong(&ok);
    return ok && value > 0 ? value : kDefaultSpanWarningThreshold;
}
