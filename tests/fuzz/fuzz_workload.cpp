// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: workload traces (Azure LLM inference CSV, Mooncake JSONL), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(workload)
{
    lxfuzz::readAs(data, size, {"azure-llm", "mooncake"});
    return 0;
}
