// SPDX-License-Identifier: GPL-3.0-or-later
#include "clickhouse_shim.h"

#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace lxtest {

namespace {

/// The bytes after `prefix` until the end of the line, from a process's standard output.
QByteArray lineAfter(const QByteArray &output, const QByteArray &prefix)
{
    for (const QByteArray &line : output.split('\n')) {
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed();
    }
    return {};
}

QString chdbModule() { return QStringLiteral(LX_CHDB_MODULE); }

} // namespace

ClickHouseShim::~ClickHouseShim()
{
    if (m_shim) {
        m_shim->terminate();
        if (!m_shim->waitForFinished(10000))
            m_shim->kill();
    }
}

QString ClickHouseShim::unavailableReason()
{
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        return QStringLiteral("node is not installed: the ClickHouse engine (chdb) runs under it");
    if (!QFileInfo::exists(chdbModule() + QStringLiteral("/package.json")))
        return QStringLiteral("chdb is not installed in the build folder (cmake --build --preset release --target chdb_engine; "
                              "docs/CLICKHOUSE.md): ") + chdbModule();
    return {};
}

bool ClickHouseShim::start(QString *error)
{
    m_node = QStandardPaths::findExecutable(QStringLiteral("node"));
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        *error = QStringLiteral("no temporary folder for chdb's data");
        return false;
    }
    m_shim = std::make_unique<QProcess>();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LX_SHIM_PASSWORD"), QString::fromLatin1(kPassword));
    environment.remove(QStringLiteral("LX_CLICKHOUSE_PASSWORD"));
    m_shim->setProcessEnvironment(environment);
    m_shim->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_shim->start(m_node, {QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/shim.mjs"), chdbModule(), m_dir->filePath(QStringLiteral("chdb"))});
    if (!m_shim->waitForStarted()) {
        *error = m_shim->errorString();
        return false;
    }
    QByteArray output;
    // Loading ClickHouse's engine takes a few seconds; a minute covers a loaded machine.
    for (int i = 0; i < 600 && !output.contains('\n'); ++i) {
        m_shim->waitForReadyRead(100);
        output += m_shim->readAllStandardOutput();
        if (m_shim->state() != QProcess::Running) {
            *error = QStringLiteral("the ClickHouse shim stopped before it listened");
            return false;
        }
    }
    m_port = lineAfter(output, "port ").toInt();
    if (m_port <= 0) {
        *error = QStringLiteral("the ClickHouse shim said no port: ") + QString::fromUtf8(output);
        return false;
    }
    if (!exec("CREATE DATABASE IF NOT EXISTS otel")) {
        *error = QStringLiteral("cannot create the database otel");
        return false;
    }
    return true;
}

QString ClickHouseShim::url(const QString &table) const
{
    return QStringLiteral("clickhouse://127.0.0.1:%1/otel?table=%2").arg(m_port).arg(table);
}

lx::source::ClickHouseEndpoint ClickHouseShim::endpoint(const QString &table) const
{
    lx::source::ClickHouseEndpoint endpoint;
    std::string error;
    if (!lx::source::parseClickHouseUrl(url(table).toStdString(), endpoint, &error))
        qWarning("%s", error.c_str());
    return endpoint;
}

lx::source::ClickHouseRequestOptions ClickHouseShim::withPassword()
{
    lx::source::ClickHouseRequestOptions options;
    options.password = kPassword;
    options.totalTimeoutMs = 120'000;
    return options;
}

bool ClickHouseShim::exec(const std::string &sql, const std::vector<std::pair<std::string, std::string>> &params) const
{
    lx::source::ClickHouseQuery query;
    query.sql = sql;
    query.params = params;
    lx::source::ClickHouseEndpoint server = endpoint();
    server.database = "default"; // the statements name their database: it may not exist yet
    const lx::source::ClickHouseResult result =
        lx::source::runClickHouseQuery(server, query, [](std::string_view) { return true; }, withPassword());
    if (!result.ok())
        qWarning("%s", result.message.c_str());
    return result.ok();
}

bool ClickHouseShim::load(const QString &table, const QStringList &files) const
{
    QFile ddlFile(QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/otel_traces.sql"));
    if (!ddlFile.open(QIODevice::ReadOnly))
        return false;
    const std::string ddl = ddlFile.readAll().toStdString();
    if (!exec(ddl, {{"database", "otel"}, {"table", table.toStdString()}}))
        return false;
    QProcess convert;
    convert.start(m_node, QStringList{QStringLiteral(LX_SOURCE_DIR "/tests/clickhouse/otlp_to_rows.mjs")} + files);
    if (!convert.waitForFinished(120000) || convert.exitCode() != 0) {
        qWarning("otlp_to_rows.mjs failed: %s", convert.readAllStandardError().constData());
        return false;
    }
    const QByteArray rows = convert.readAllStandardOutput();
    // The timestamps are ISO-8601 with a Z: best_effort reads them in UTC whatever the engine's time zone.
    return exec("INSERT INTO {database:Identifier}.{table:Identifier} SETTINGS date_time_input_format = 'best_effort' "
                "FORMAT JSONEachRow\n" + rows.toStdString(),
                {{"database", "otel"}, {"table", table.toStdString()}});
}

std::vector<std::string> ClickHouseShim::services(const QString &table) const
{
    std::vector<std::string> list;
    lx::source::ClickHouseQuery query;
    query.sql = "SELECT DISTINCT ServiceName FROM {database:Identifier}.{table:Identifier} ORDER BY ServiceName";
    query.params = {{"database", "otel"}, {"table", table.toStdString()}};
    query.format = "TSV";
    const auto result = lx::source::runClickHouseQuery(endpoint(), query, [&](std::string_view row) {
        list.emplace_back(row);
        return true;
    }, withPassword());
    if (!result.ok())
        qWarning("%s", result.message.c_str());
    return list;
}

} // namespace lxtest
