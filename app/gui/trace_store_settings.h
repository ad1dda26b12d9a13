// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

/// \file trace_store_settings.h
/// What File ▸ Open from Trace Store remembers in the settings (QSettings, docs/CLICKHOUSE.md): the
/// connections used, newest first, each with its user, the services last pulled and the span mapping, and
/// whether its password is in the system keychain. Never the password itself.

struct RememberedConnection {
    QString url;  ///< as typed: clickhouse://HOST:8123/DB?table=otel_traces, http:// or https://
    QString user;
    QStringList services; ///< checked at the last pull
    QString mapping;      ///< "" automatic, a preset name or a mapping file
    bool passwordInKeychain = false;
};

/// The remembered connections, newest first.
std::vector<RememberedConnection> rememberedConnections();
/// Puts `connection` first, replacing the one of the same URL and user; keeps the ten newest.
void rememberConnection(const RememberedConnection &connection);
/// The span count above which the dialog warns before a pull (settings key traceStore/spanWarningThreshold).
std::uint64_t spanWarningThreshold();

/// The settings group and keys, for the tests that read them back.
inline constexpr const char *kTraceStoreConnectionsKey = "traceStore/connections";
inline constexpr const char *kSpanWarningThresholdKey = "traceStore/spanWarningThreshold";
inline constexpr std::uint64_t kDefaultSpanWarningThreshold = 5'000'000;
