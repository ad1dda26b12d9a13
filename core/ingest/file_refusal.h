// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"
#include "store/import_runs.h"

#include <optional>
#include <string>
#include <vector>

/// \file file_refusal.h
/// The files of an import that are not read at all, each with its reason, decided before a byte of it is
/// read: the span mapping could not be loaded, the store cannot be written, the import was cancelled at an
/// earlier file, or the investigation holds the file already. Each is said per file, so that the summary of
/// an import names every file it was given.

namespace lx {

class Store;

/// What an import knows of its files before it reads the next one.
struct ImportState {
    const std::string *mappingError = nullptr; ///< why the span mapping could not be loaded; null when it was
    bool cancelled = false; ///< a file before this one was cancelled
    std::vector<ImportRun> runs; ///< the store's import runs before this import
};

/// The FileImport of `path` when it is not to be read, given the files of this import so far (`earlier`);
/// nothing when it is to be read.
std::optional<FileImport> refusedBeforeReading(const std::string &path, const Store &store, const ImportState &state,
                                               const std::vector<FileImport> &earlier);

} // namespace lx
