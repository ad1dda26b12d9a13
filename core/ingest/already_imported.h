// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"
#include "ingest/open_inputs.h"
#include "store/import_runs.h"

#include <string>
#include <vector>

/// \file already_imported.h
/// A file an investigation holds already is not imported into it again: its requests would be counted
/// twice, every percentile weighted as if the incident had twice the traffic, and nothing in the figures
/// would say so. The same file is the same file system object (std::filesystem::equivalent: a link, a
/// relative and an absolute path of it are one file), read in full before, at the size it has now, and not
/// written or moved since that read began.

namespace lx {

/// Why the import should not read `path`: the file is one of `runs` (the store's import_runs) imported
/// complete at its present size and unchanged since that import began, or one of `earlier` (this import's files so far)
/// read complete, and gave requests. Empty when it is not, or when it is no regular file (a pipe is read once whatever
/// its name). A file that gave no request is read again: no figure counts it twice, and it still says why it gives
/// none.
std::string alreadyImported(const std::string &path, const std::vector<ImportRun> &runs,
                            const std::vector<FileImport> &earlier);

/// The same for an investigation store merged into `intoPath` (the store receiving it; empty for a
/// temporary one): why not, when it is that store itself or one of `earlier` merged already.
std::string alreadyMerged(const std::string &path, const std::string &intoPath, const std::vector<StoreMerge> &earlier);

} // namespace lx
