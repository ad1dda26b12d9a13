// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <ostream>
#include <vector>

/// Where the rejected records go: into the investigation's file (`import --db`), or into a temporary store
/// that the command deletes when it ends (`report FILE`).
enum class RejectionsKept { InTheStore, NotKept };

/// Prints, per file, the accepted and rejected counts with the first reasons and the time taken to `out`;
/// why a file could not be read in full goes to `err`, naming the file.
void printImportSummary(const std::vector<lx::FileImport> &imports, std::ostream &out, std::ostream &err,
                        RejectionsKept kept = RejectionsKept::InTheStore);

/// True when any input could not be read in full (exit status 2).
bool anyInputFailed(const std::vector<lx::FileImport> &imports);
