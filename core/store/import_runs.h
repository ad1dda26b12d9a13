// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// \file import_runs.h
/// The `import_runs` table: one row per imported file, written by the importer as the file starts and as it
/// ends, and read back as the report's list of inputs.

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
    std::string outcome;     ///< outcomeName() of the import, "running" until it ends
    std::string message;     ///< empty when there is none (stored as NULL)
};

/// Adds the row of a file whose import starts (outcome "running") from path, format, compressed and
/// startedNs; its id, or 0 when the store cannot be written (Store::lastError() says why).
std::int64_t insertImportRun(Store &store, const ImportRun &run);

/// Writes how the import of run.id ended: format, compressed, duration, bytes, counts, outcome, message.
void finishImportRun(Store &store, const ImportRun &run);

/// Every file imported, in import order, with path, format, counts, outcome and message.
std::vector<ImportRun> listImportRuns(const Store &store);

} // namespace lx
