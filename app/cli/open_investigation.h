// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/analysis.h"
#include "store/integrity_check.h"
#include "store/store.h"
#include "store/store_writer.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

/// \file open_investigation.h
/// The inputs of `report` and `compare` as one investigation: a single .lxdb is read as it is; trace files
/// are imported on the fly into a temporary store, into which any .lxdb among them is merged (lx::openInputs();
/// this is its terminal side: the messages, Ctrl-C and the exit statuses).

struct OpenedInvestigation {
    std::unique_ptr<lx::Store> store; ///< null when it could not be opened (exitStatus says why)
    bool inputFailed = false; ///< an input could not be read or was cut off: exit 2 after the output
    int exitStatus = 0; ///< with no store: 2 unreadable or no input gave a request, 130 cancelled
    /// A store read as it is, opened with its integrity check deferred: the check running beside the command.
    std::unique_ptr<lx::BackgroundIntegrityCheck> integrity;
    std::string storePath;            ///< that store's path, for the message when the check fails
    /// The stores among the inputs that could not be merged, as a report lists its inputs (outcome
    /// "unreadable", the reason as the message).
    std::vector<lx::InputSummary> unmerged;

    /// Waits for the deferred check, if any: true when there was none or the file is sound; else writes
    /// `<store>: the store is damaged (...)` to \a err, and the command exits 2 without its output.
    bool sound(std::ostream &err) const;
};

/// What a command that reads its temporary store once needs of it (lx::ImportOptions).
struct ThrowAwayStore {
    lx::DetailRows detailRows = lx::DetailRows::All; ///< which requests keep their request_details row
    bool holdRows = false;                           ///< the requests of one file held in memory
    bool rewriteColumnChunks = true;                 ///< column chunks written anew after a join
};

/// Opens the inputs, printing import summaries and problems to `err` under the command's name. With
/// \a deferIntegrityCheck a single store read as it is gets its quick_check on a thread beside the command
/// (integrity_check.h), which must call sound() before it writes anything of what it read. \a throwAway says
/// how much of the trace files the temporary store keeps (what the command will read of it).
OpenedInvestigation openInvestigation(const std::vector<std::string> &inputs, const std::string &spanMapping,
                                      const char *command, std::ostream &err, bool deferIntegrityCheck = false,
                                      const ThrowAwayStore &throwAway = {});
