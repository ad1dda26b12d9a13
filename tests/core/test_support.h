// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers that several Qt Test suites share: fixture files in a temporary directory, a query's rows as
// text, an import's outcome for failure messages, and the zstd command line tool.

#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ingest/importer.h"
#include "simulation/trace_writers.h"
#include "filter/request_filter.h"
#include "store/store.h"

struct sqlite3;

namespace lxtest {

/// Keeps a GUI suite away from the user's settings (QSettings as INI files under `dir`) and from modal
/// dialogs (LX_NO_DIALOGS): call it from initTestCase().
void isolateGuiSettings(const QString &dir);

/// The filter a filter expression compiles to (lx::filterFromExpression); nullopt when it does not compile.
std::optional<lx::RequestFilter> filterOf(const QString &expression);

/// A generated trace of `requests` in `form` with what figures must survive: 5% errors, 2% skewed clocks,
/// token times on every third request.
QByteArray generatedTrace(lx::sim::TraceForm form, int requests, unsigned seed = 5);

/// Everything `report --json` says of a store under `filter`: the report, the load and knee, the findings
/// and an SLO (ttft.p90<=300ms), as JSON text to compare.
std::string everythingReported(const lx::Store &store, const lx::RequestFilter &filter = {}, bool includeErrors = false);

/// Writes `bytes` to the file at `path`, replacing it; false unless every byte was written.
bool writeFile(const QString &path, const QByteArray &bytes);

/// Writes `bytes` to the file `name` in `dir`; its path as lx::importFiles() takes it, empty when the write failed.
std::string writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);

/// A path as UTF-8, as lx::importFiles() and the rest of the core take it (platform/utf8_path.h).
std::string pathOf(const QString &path);

/// The rows of a query, cells joined by '|' and rows by '\n'; NULL as "NULL", a BLOB as its int64 values in
/// brackets; columns named in `skipColumns` are left out.
QString dump(sqlite3 *db, const char *sql, const QStringList &skipColumns = {});

/// What happened to an imported file, for failure messages: the file, its outcome, counts, message and first reasons.
QByteArray describe(const lx::FileImport &file);

/// Runs the zstd command line tool with `args` over `input`; its standard output, empty and *ok false when the
/// tool is missing or does not finish (*ok stays true when it finishes with an error, as on a truncated input).
QByteArray zstd(const QStringList &args, const QByteArray &input, bool *ok = nullptr);

/// The zstd command line tool's compression of `text` (`zstd -q -c`); empty when the tool is missing or fails.
QByteArray zstdCompress(const QByteArray &text);

/// A temporary store with the given files imported into it, and what each import said.
struct Imported {
    std::unique_ptr<lx::Store> store;
    std::vector<lx::FileImport> files;
    std::string error; ///< why the store could not be created
};
Imported importPaths(const std::vector<std::string> &paths);

/// A temporary store holding the JSON lines given, imported from a file in a temporary folder.
struct StoreFixture {
    explicit StoreFixture(const QByteArray &jsonLines);
    std::unique_ptr<QTemporaryDir> dir;
    std::unique_ptr<lx::Store> store;
};

/// What a run of latency-explorer-cli printed and how it ended.
struct CliRun {
    int exitCode = -1; ///< -1 when it crashed or hung
    QByteArray out;
    QByteArray err;
};

/// Runs the CLI at `cliPath` (each suite's LX_CLI_PATH) with `args`, in `environment`; a run that takes
/// more than three minutes is killed and reported as exit -1.
CliRun runCli(const QString &cliPath, const QStringList &args,
              const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment());

/// Mounts a tmpfs with `options` ("size=2m", "ro,size=64k") on the folder `path`: false where this user or
/// system cannot (no superuser, no mount command, a container without the right); the caller then skips.
bool mountTmpfs(const QString &path, const QString &options);

/// Unmounts what mountTmpfs() mounted on `path`.
void unmount(const QString &path);

/// A tmpfs mounted on a folder of its own for one test (a full or a read-only disk), unmounted when it goes.
/// Where none can be mounted, mounted() is false and the test skips.
class ScratchDisk {
public:
    explicit ScratchDisk(const QString &options);
    ~ScratchDisk();
    ScratchDisk(const ScratchDisk &) = delete;
    ScratchDisk &operator=(const ScratchDisk &) = delete;
    bool mounted() const { return m_mounted; }
    QString path() const { return m_path; }
    /// Mounts it again with `options` ("remount,ro", "remount,rw").
    bool remount(const QString &options) { return mountTmpfs(m_path, options); }

private:
    QTemporaryDir m_dir;
    QString m_path;
    bool m_mounted = false;
};

} // namespace lxtest
