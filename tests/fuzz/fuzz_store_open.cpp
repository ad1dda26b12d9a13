// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: any bytes as a .lxdb given to `report --json`: a foreign, damaged or hostile SQLite file must
// be refused with a reason or read as it is, never crash, hang or be written to.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(store_open)
{
    lxfuzz::reportOn(lxfuzz::writeScratch(data, size));
    return 0;
}
