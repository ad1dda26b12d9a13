// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// `latency-explorer-cli import --db OUT.lxdb FILE...`: appends the files to the store and prints, per
/// file, the accepted and rejected counts with the first reasons and the time taken. Returns the exit status.
int runImportCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
