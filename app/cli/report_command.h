// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// `latency-explorer-cli report [--json] [--percentiles LIST] [filters] FILE_OR_STORE...`: trace files are
/// imported on the fly into a temporary store, .lxdb stores are read as they are; several inputs form
/// one investigation. Returns the exit status.
int runReportCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
