// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/open_inputs.h"

#include <string>
#include <vector>

/// \file no_request.h
/// Why no input gave a request, for the exit status 2 of `import`, `report`, `compare` and `plot`: a
/// script must not take an investigation of zero requests for a success. Rejected records alone are no
/// failure as long as some input gave a request.

/// True when some file gave at least one request, or is in the investigation already (its requests are).
bool anyRequestImported(const std::vector<lx::FileImport> &imports);

/// "no request could be read from the inputs: a.jsonl: 12 records, all rejected (first: line 1: ...); b.lxdb:
/// holds no requests": the store resumed (`resumedStore`, empty when none), the stores merged, then the trace
/// files. Why a file could not be read at all, or a store not merged, is printed already, so it is only named.
std::string noRequestReason(const std::string &resumedStore, const std::vector<lx::StoreMerge> &merges,
                            const std::vector<lx::FileImport> &imports);

namespace lx {
class Store;
}

/// Of a filter that keeps no request of a store that holds some: "the filter keeps none of the 2000
/// requests; their models: a, b; their routes: /v1/x; their starts from ... to ...", so that a misspelt model
/// or a time range beside the trace shows at once. Its models and routes are listed up to a handful.
std::string noMatchHint(const lx::Store &store);
