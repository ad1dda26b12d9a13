// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

/// `latency-explorer-cli whatif`: the observed decomposition beside the one a server model fitted from the
/// trace predicts under changes (core/whatif/, docs/WHATIF.md). Exit 0, 1 usage, 2 input refused.
int runWhatIfCommand(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);
