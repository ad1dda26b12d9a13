// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: Jaeger's trace JSON (the query API's {"data":[...]} or one trace object), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(jaeger_json)
{
    lxfuzz::readAs(data, size, {"jaeger-json"});
    return 0;
}
