// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// \file import_runs.h
/// The `import_runs` table: one row per imported file, written by the importer as the file starts and as it
/// ends, and read back as the report's list of inputs.
///
/// Crash safety: the row is written `running` (and committed) before the file's transaction begins, and its
/// final state is written inside that transaction, with the rows, so that the two commit together. A process
/// killed during an import leaves the row `running` and none of its rows (the journal rolls them back); the
/// next open finds it with no writer alive and marks it `interrupted` (markInterruptedRuns()).

namespace lx {

class Store;

/// One imported file as its row holds it.
struct ImportRun {
    std::int64_t id = 0; ///< import_runs.id: what its requests' run_id names
    std::string path;
    std::string format;      ///< the format's name; empty while unknown
    bool compressed = false;
    std::int64_t startedNs = 0;  ///< wall clock, ns since the epoch
    std::int64_t durationNs = 0;
    std::int64_t bytes = 0;
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
    std::string outcome;     ///< outcomeName() of the import, "running" until it ends, "interrupted" when
                             ///< the process importing it ended first
    std::string message;     ///< empty when there is none (stored as NULL)
};

/// Adds the row of a file whose import starts (outcome "running") from path, format, compressed and
/// startedNs; its id, or 0 when the store cannot be written (Store::lastError() says why).
std::int64_t insertImportRun(Store &store, const ImportRun &run);

/// Writes how the import of run.id ended: format, compressed, duration, bytes, counts, outcome, message.
/// Called inside the file's transaction, so that the rows and the counts commit together; false when the
/// store refused the write (Store::lastError() says why).
bool finishImportRun(Store &store, const ImportRun &run);

/// Every file imported, in import order, with path, format, start, bytes, counts, outcome and message. On a read-only
/// store a run that no live process was importing at open is listed `interrupted`, with the rows it left.
std::vector<ImportRun> listImportRuns(const Store &store);

/// On a writable store: the runs left `running` while no process holds the store's write lock (an import
/// holds it from its first row to its commit) are marked `interrupted`, with the rows they left counted
/// truly (none, unless a version before this one was killed between its rows' commit and its count). Takes
/// the lock without waiting: a live import leaves its run alone. False only when the store cannot be written.
bool markInterruptedRuns(Store &store, std::string *error);

/// On a read-only store: the ids of the runs `running` at open whose importer is gone (no process holds
/// the store's write lock); the lock is asked of the file system, since a read-only connection cannot take it.
std::vector<std::int64_t> findDeadRuns(const Store &store);

} // namespace lx
