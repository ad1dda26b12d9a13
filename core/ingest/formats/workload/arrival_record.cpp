// SPDX-License-Identifier: GPL-3.0-or-later
// What every arrival-only record is: a client send time and nothing else measured.

#include "ingest/formats/workload/workload_readers.h"

#include "model/decompose.h"
#include "ingest/formats/benchmark/benchmark_common.h"

namespace lx::workload {

std::string buildArrival(RequestRecord &r, std::int64_t arrival)
{
    r.stamp(Stamp::ClientSend) = arrival;
    std::string why = decompose(r);
    bench::setClientScope(r);
    return why;
}

} // namespace lx::workload
