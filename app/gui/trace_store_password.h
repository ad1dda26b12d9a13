// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

class QObject;

/// \file trace_store_password.h
/// Where the password of a trace store comes from in the app (docs/CLICKHOUSE.md, "In the app"): the field,
/// typed for the session or filled from the system keychain when the program was built with QtKeychain
/// (Secret Service, macOS Keychain, Windows Credential Manager); when it is empty, LX_CLICKHOUSE_PASSWORD,
/// which the request reads itself. Never the settings file: QtKeychain's plain-text fallback stays off.

/// Whether this build can keep passwords in the system keychain.
bool keychainAvailable();
/// Whether LX_CLICKHOUSE_PASSWORD is set (the request then sends it when no password is typed).
bool environmentPasswordSet();
/// The keychain entry of a connection: the user and the server, "reader@ch.internal:8123".
QString keychainAccount(const QString &user, const QString &hostAndPort);

/// Reads the password of `account` from the keychain; `done(password, error)` runs later on `context`'s
/// thread (an empty password and an error when there is none, or no keychain in this build).
void readKeychainPassword(const QString &account, QObject *context, std::function<void(const QString &, const QString &)> done);
/// Keeps `password` for `account` in the keychain, or forgets it when `password` is empty; `done(error)` later.
void writeKeychainPassword(const QString &account, const QString &password, QObject *context, std::function<void(const QString &)> done);
