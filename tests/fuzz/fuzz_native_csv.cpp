// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: native CSV, read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(native_csv)
{
    lxfuzz::readAs(data, size, {"csv"});
    return 0;
}
