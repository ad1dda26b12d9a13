// SPDX-License-Identifier: GPL-3.0-or-later
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

/// \file clickhouse_engine.h
/// The real ClickHouse engine the ClickHouse suites talk to (docs/CLICKHOUSE.md, "Tests against a real
/// ClickHouse engine"): npm's chdb run under node behind tests/clickhouse/shim.mjs, a loopback HTTP stand-in
/// for ClickHouse's server, with one user whose password is kEnginePassword; and the exporter's otel_traces
/// tables loaded from OTLP files (tests/clickhouse/otlp_to_rows.mjs).

namespace lxtest {

inline constexpr const char *kEnginePassword = "test-password";

class ClickHouseEngine {
public:
    ~ClickHouseEngine();

    /// Starts the shim; empty when it listens, else why not. `skip` is set when the reason is that node or
    /// chdb is not installed (the suite skips, saying so) rather than a failure.
    QString start(bool &skip);

    /// The endpoint of the `otel` database and `table`.
    lx::source::ClickHouseEndpoint endpoint(const QString &table = QStringLiteral("otel_traces")) const;
    /// Request options with the password and a timeout that fails a hung shim rather than hanging the test.
    lx::source::ClickHouseRequestOptions withPassword() const;
    /// Runs a statement that returns no rows; warns with ClickHouse's message when it fails.
    bool exec(const std::string &sql, const std::vector<std::pair<std::string, std::string>> &params = {}) const;
    /// Creates the exporter's table `table` in `otel` and loads the OTLP files into it.
    bool load(const QString &table, const QStringList &files) const;
    /// The distinct ServiceName values of `table`.
    std::vector<std::string> services(const QString &table) const;

    const QString &node() const { return m_node; }
    int port() const { return m_port; }

private:
    QString m_node;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_shim;
    int m_port = 0;
};

} // namespace lxtest
