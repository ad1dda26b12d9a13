// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: OTLP/protobuf (ExportTraceServiceRequest, length-delimited or whole), read from any bytes.
#include "fuzz_support.h"
#include "fuzz_target.h"

LX_FUZZ_TARGET(otlp_proto)
{
    lxfuzz::readAs(data, size, {"otlp-proto"});
    return 0;
}
