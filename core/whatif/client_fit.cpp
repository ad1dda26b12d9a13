// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/client_fit.h"

#include "whatif/client_inference.h"
#include "whatif/segment_stamps.h"

namespace lx::whatif {

ServerFit fitServerOrInfer(std::vector<StampRow> &rows)
{
    ServerFit fit = fitServer(rows);
    if (fit.ok() || fit.served > 0 || rows.empty())
        return fit;
    std::vector<StampRow> rebuilt = rows;
    if (rebuildStampsFromSegments(rebuilt) > 0) {
        ServerFit fromSegments = fitServer(rebuilt);
        fromSegments.stampsFromSegments = true;
        rows = std::move(rebuilt);
        return fromSegments;
    }
    InferredStamps inferred = inferServerStamps(rows);
    if (!inferred.refused.empty()) {
        fit.refused = inferred.refused;
        return fit;
    }
    ServerFit fromClient = fitServer(inferred.rows);
    fromClient.inferredFromClient = true;
    fromClient.inconsistentShare = inferred.inconsistentShare;
    if (!fromClient.ok())
        fromClient.refused = "from the client's times: " + fromClient.refused;
    rows = std::move(inferred.rows);
    return fromClient;
}

} // namespace lx::whatif
