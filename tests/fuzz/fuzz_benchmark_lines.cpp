// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: benchmark results as JSON lines (AIPerf profile_export.jsonl), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(benchmark_lines)
{
    lxfuzz::readAs(data, size, {"aiperf"});
    return 0;
}
