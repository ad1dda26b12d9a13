// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/store.h"

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
    bool inputFailed = false;         ///< an input could not be read or was cut off, or no input gave a request:
                                      ///< exit 2 after the output
    int exitStatus = 0;               ///< with no store: 2 unreadable, 130 cancelled
};

/// Opens the inputs, printing import summaries and problems to `err` under the command's name.
OpenedInvestigation openInvestigation(const std::vector<std::string> &inputs, const std::string &spanMapping,
                                      const char *command, std::ostream &err);
