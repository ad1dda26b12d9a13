// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: Zipkin v2 JSON (an array of spans, or of arrays of spans), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(zipkin_json)
{
    lxfuzz::readAs(data, size, {"zipkin-json"});
    return 0;
}
