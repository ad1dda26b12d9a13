// SPDX-License-Identifier: GPL-3.0-or-later
// The workload traces' registration. Their sniffers look for headers and keys only these traces have, so
// the native readers after them never see one.

#include "ingest/format_registry.h"
#include "ingest/formats/workload/workload_readers.h"

namespace lx {

void appendWorkloadFormats(std::vector<TraceFormat> &list)
{
    using namespace workload;
    list.push_back({"azure-llm", "Azure LLM inference trace (arrivals only)", kShapeCsv, azureCanRead, createAzureReader});
    list.push_back({"mooncake", "Mooncake trace (arrivals only)", kShapeJsonLines, mooncakeCanRead, createMooncakeReader});
}

} // namespace lx
