// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers that several Qt Test suites share; see test_support.h.

#include "test_support.h"

#include "analysis/diagnosis.h"
#include "analysis/slo.h"
#include "filter/filter_expression.h"
#include "ingest/importer.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "simulation/server_simulation.h"

#include <sqlite3.h>

#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cstring>

namespace lxtest {

void isolateGuiSettings(const QString &dir)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
    qputenv("LX_NO_DIALOGS", "1");
}

std::optional<lx::RequestFilter> filterOf(const QString &expression)
{
    auto compiled = lx::filterFromExpression(expression.toStdString());
    if (auto *filter = std::get_if<lx::RequestFilter>(&compiled))
        return std::move(*filter);
    return std::nullopt;
}

QByteArray generatedTrace(lx::sim::TraceForm form, int requests, unsigned seed)
{
    lx::sim::SimConfig config;
    config.requests = requests;
    config.seed = seed;
    config.errorRate = 0.05;
    config.skewRate = 0.02;
    config.tokenTimesEvery = 3;
    std::string text;
    if (form == lx::sim::TraceForm::Csv)
        lx::sim::appendCsvHeader(text);
    lx::sim::simulate(config, [&](const lx::sim::SimRequest &r) { lx::sim::appendRecord(text, form, r); });
    return QByteArray::fromStdString(text);
}

std::string everythingReported(const lx::Store &store, const lx::RequestFilter &filter, bool includeErrors)
{
    lx::DiagnosisOptions options;
    options.analysis.includeErrors = includeErrors;
    std::string why;
    const std::optional<lx::SloTarget> slo = lx::parseSlo("ttft.p90<=300ms", &why);
    if (!slo)
        return "the SLO does not parse: " + why;
    options.slos = {*slo};
    const lx::Diagnosis d = lx::diagnose(store, filter, options);
    return lx::reportToJson(d.report) + lx::loadToJson(d.load) + lx::findingsToJson(d.findings) + lx::slosToJson(d.slos);
}

namespace {

/// The outcome of one run of the zstd tool.
struct ZstdRun {
    bool finished = false; ///< the tool was found and finished in time
    int exitCode = -1;
    QByteArray out;
};

/// Runs the zstd tool with `args`, `input` on its standard input.
ZstdRun runZstd(const QStringList &args, const QByteArray &input)
{
    ZstdRun run;
    const QString program = QStandardPaths::findExecutable(QStringLiteral("zstd"));
    if (program.isEmpty())
        return run;
    QProcess process;
    process.start(program, args);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000))
        return run;
    run.finished = true;
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    return run;
}

} // namespace

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

std::string writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    return writeFile(path, bytes) ? pathOf(path) : std::string();
}

std::string pathOf(const QString &path)
{
    return path.toStdString(); // UTF-8, what the core takes on every system (encodeName is ANSI on Windows)
}

QString dump(sqlite3 *db, const char *sql, const QStringList &skipColumns)
{
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK)
        return QStringLiteral("SQL error: ") + QString::fromUtf8(sqlite3_errmsg(db));
    QStringList rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        QStringList cells;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            if (skipColumns.contains(QString::fromUtf8(sqlite3_column_name(stmt, c))))
                continue;
            const int type = sqlite3_column_type(stmt, c);
            if (type == SQLITE_NULL) {
                cells << QStringLiteral("NULL");
            } else if (type == SQLITE_BLOB) {
                const auto *bytes = static_cast<const char *>(sqlite3_column_blob(stmt, c));
                QStringList values;
                for (int i = 0; i + 8 <= sqlite3_column_bytes(stmt, c); i += 8) {
                    qint64 v = 0;
                    std::memcpy(&v, bytes + i, 8);
                    values << QString::number(v);
                }
                cells << QLatin1Char('[') + values.join(QLatin1Char(' ')) + QLatin1Char(']');
            } else {
                cells << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(stmt, c)));
            }
        }
        rows << cells.join(QLatin1Char('|'));
    }
    sqlite3_finalize(stmt);
    return rows.join(QLatin1Char('\n'));
}

QByteArray describe(const lx::FileImport &file)
{
    QByteArray text = QByteArray::fromStdString(file.path) + ": "
        + QByteArray::fromStdString(std::string(lx::outcomeName(file.outcome))) + ", accepted "
        + QByteArray::number(file.accepted) + ", rejected " + QByteArray::number(file.rejected) + ", "
        + QByteArray::fromStdString(file.message);
    for (const lx::RejectionSample &r : file.firstRejections)
        text += "; line " + QByteArray::number(r.line) + ": " + QByteArray::fromStdString(r.reason);
    return text;
}

QByteArray zstd(const QStringList &args, const QByteArray &input, bool *ok)
{
    const ZstdRun run = runZstd(args, input);
    if (ok)
        *ok = run.finished;
    return run.out;
}

QByteArray zstdCompress(const QByteArray &text)
{
    const ZstdRun run = runZstd({QStringLiteral("-q"), QStringLiteral("-c")}, text);
    return run.finished && run.exitCode == 0 ? run.out : QByteArray();
}

Imported importPaths(const std::vector<std::string> &paths)
{
    Imported result{lx::Store::openTemporary(&result.error), {}, {}};
    if (result.store)
        result.files = lx::importFiles(*result.store, paths);
    return result;
}

StoreFixture::StoreFixture(const QByteArray &jsonLines)
    : dir(std::make_unique<QTemporaryDir>())
{
    const std::string path = writeFile(*dir, QStringLiteral("t.jsonl"), jsonLines);
    std::string why;
    store = lx::Store::openTemporary(&why);
    if (store)
        lx::importFiles(*store, {path});
}

CliRun runCli(const QString &cliPath, const QStringList &args, const QProcessEnvironment &environment)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(cliPath, args);
    CliRun run;
    if (!process.waitForFinished(180000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

bool mountTmpfs(const QString &path, const QString &options)
{
    QProcess mount;
    mount.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), options,
                                          QStringLiteral("tmpfs"), path});
    return mount.waitForFinished(30000) && mount.exitStatus() == QProcess::NormalExit && mount.exitCode() == 0;
}

void unmount(const QString &path)
{
    QProcess umount;
    umount.start(QStringLiteral("umount"), {path});
    umount.waitForFinished(30000);
}

ScratchDisk::ScratchDisk(const QString &options)
    : m_path(m_dir.filePath(QStringLiteral("disk")))
{
    m_mounted = QDir().mkpath(m_path) && mountTmpfs(m_path, options);
}

ScratchDisk::~ScratchDisk()
{
    if (m_mounted)
        unmount(m_path);
}

} // namespace lxtest
