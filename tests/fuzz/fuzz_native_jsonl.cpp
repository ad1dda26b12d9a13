// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: native JSON lines (the serial reader; the parallel one shares its line parser), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(native_jsonl)
{
    lxfuzz::readAs(data, size, {"jsonl"});
    return 0;
}
