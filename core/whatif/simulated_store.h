// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <optional>
#include <span>
#include <string>

/// \file simulated_store.h
/// A replay as an investigation: the same schema as an observed one, so that the report, the load view, the
/// knee, the SLOs and `compare` read it unchanged, marked simulated in the meta table (key `simulated`, a
/// JSON object of the fitted model and the changes) so that it is never taken for what a server did.

namespace lx {
class Store;
}

namespace lx::whatif {

/// The `simulated` meta value (kSimulatedMetaKey, store/stamp_scan.h) of the store: nullopt for an observed investigation.
std::optional<std::string> simulatedMarker(const Store &store);

/// Writes the replayed requests into an empty store as one import run (format "whatif", path \a source)
/// in one transaction, then marks it simulated with \a markerJson. False with the reason when the store
/// already holds requests (a replay is never mixed with observed rows) or SQLite fails.
bool writeSimulatedStore(Store &store, std::span<const RequestRecord> requests, const std::string &source,
                         const std::string &markerJson, std::string *error);

} // namespace lx::whatif
