// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: any bytes as a trace file given to `report --json`: sniffed, decompressed when zstd,
// imported into a temporary store, joined, analysed (decomposition, load profile and knee, findings) and
// formatted. What the per-format targets cannot reach: the store's writer and every statistic after it.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(import_report)
{
    lxfuzz::reportOn(lxfuzz::writeScratch(data, size));
    return 0;
}
