// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/simulated_store.h"

#include "model/id_hash.h"
#include "store/holds_requests.h"
#include "store/import_runs.h"
#include "store/stamp_scan.h"
#include "store/store.h"
#include "store/store_writer.h"

#include <chrono>
#include <vector>

namespace lx::whatif {

std::optional<std::string> simulatedMarker(const Store &store) { return readMetaValue(store, kSimulatedMetaKey); }

bool writeSimulatedStore(Store &store, std::span<const RequestRecord> requests, const std::string &source,
                         const std::string &markerJson, std::string *error)
{
    const auto fail = [&](const std::string &why) {
        if (error)
            *error = why;
        return false;
    };
    if (holdsRequests(store))
        return fail(store.path() + ": already holds requests: a simulated investigation is written into a new store");
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch());
    ImportRun run;
    run.path = source;
    run.format = "whatif";
    run.startedNs = now.count();
    run.outcome = "running";
    run.id = insertImportRun(store, run);
    std::string why;
    if (run.id == 0 || !store.exec("BEGIN IMMEDIATE", &why))
        return fail(run.id == 0 ? store.lastError() : why);
    StoreWriter writer(store, run.id);
    constexpr std::size_t kBatch = 4096;
    std::vector<std::uint64_t> hashes;
    for (std::size_t from = 0; from < requests.size(); from += kBatch) {
        const std::size_t to = std::min(requests.size(), from + kBatch);
        hashes.clear();
        for (std::size_t i = from; i < to; ++i)
            hashes.push_back(hashRequestId(requests[i].id));
        if (!writer.insertRequests(requests.subspan(from, to - from), hashes)) {
            store.exec("ROLLBACK");
            return fail(writer.error());
        }
    }
    if (!writer.finish()) {
        store.exec("ROLLBACK");
        return fail(writer.error());
    }
    run.accepted = static_cast<std::int64_t>(requests.size());
    run.outcome = "complete";
    run.durationNs = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count()
                     - run.startedNs;
    if (!finishImportRun(store, run) || !writeMetaValue(store, kSimulatedMetaKey, markerJson, &why) || !store.exec("COMMIT", &why)) {
        if (why.empty())
            why = store.lastError();
        store.exec("ROLLBACK");
        return fail(why);
    }
    return true;
}

} // namespace lx::whatif
