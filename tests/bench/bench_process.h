// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Timing whole processes for the benchmarks: each stage runs as its own process, so that its wall time and
// peak RSS are that stage's alone, and the peer (DuckDB, cat) is measured the same way.

#include <string>
#include <vector>

namespace bench {

struct Measure {
    double seconds = 0;
    double peakMiB = 0;
    int status = -1; ///< exit status, -1 when it did not run or was killed
};

/// Runs argv (argv[0] searched in PATH) with stdout sent to outPath and stderr dropped.
Measure run(const std::vector<std::string> &argv, const char *outPath = "/dev/null");

double median(std::vector<double> values);

/// The full path of a program found in PATH, or empty.
std::string findInPath(const std::string &program);

} // namespace bench
