// SPDX-License-Identifier: GPL-3.0-or-later
// A ClickHouse engine for the suites that talk to a trace store (docs/CLICKHOUSE.md): tests/clickhouse/shim.mjs
// under node, a loopback HTTP stand-in for ClickHouse's server over npm's chdb (ClickHouse run in-process),
// with the exporter's otel_traces table loaded from OTLP files (tests/clickhouse/otlp_to_rows.mjs).

#pragma once

#include "source/clickhouse_client.h"

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lxtest {

class ClickHouseShim {
public:
    /// The password of the shim's one user, `default`.
    static constexpr const char *kPassword = "test-password";

    ~ClickHouseShim();

    /// Why the shim cannot run here (node or chdb missing), to QSKIP with; empty when it can.
    static QString unavailableReason();
    /// Starts the shim and waits until it listens (loading the engine takes seconds), then creates the
    /// database `otel`. False with the reason in `error`.
    bool start(QString *error);

    int port() const { return m_port; }
    QString node() const { return m_node; }
    /// The URL of `table` in the database `otel`, as a user types it.
    QString url(const QString &table = QStringLiteral("otel_traces")) const;
    lx::source::ClickHouseEndpoint endpoint(const QString &table = QStringLiteral("otel_traces")) const;
    /// Request options with the shim's password and a bound on the time (a hung shim fails, not hangs, a test).
    static lx::source::ClickHouseRequestOptions withPassword();
    /// Runs a statement that returns no rows; a warning with ClickHouse's message when it fails.
    bool exec(const std::string &sql, const std::vector<std::pair<std::string, std::string>> &params = {}) const;
    /// Creates the exporter's table `table` in `otel` and loads the OTLP files into it.
    bool load(const QString &table, const QStringList &files) const;
    /// The distinct ServiceName values of `table`.
    std::vector<std::string> services(const QString &table) const;

private:
    QString m_node;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_shim;
    int m_port = 0;
};

} // namespace lxtest
