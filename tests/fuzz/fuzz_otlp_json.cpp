// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: OTLP/JSON, lines and documents, read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(otlp_json)
{
    lxfuzz::readAs(data, size, {"otlp-json"});
    return 0;
}
