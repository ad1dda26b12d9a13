// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/stamp_scan.h"

#include <span>
#include <string>
#include <vector>

/// \file client_inference.h
/// Server stamps for a trace measured at the client only (a benchmark client's send time, TTFT and
/// end-to-end time, as AIPerf writes them): inferred under the model's own assumption, a FIFO queue in
/// front of a limit of requests in service, so that the same fit (server_fit.h) can be made. With too few
/// slots the implied queue would still hold requests whose first token had already come: the smallest limit
/// that schedules at most 1% so is consistent with the trace. It is an upper estimate (the client's end
/// comes after the slot's release, by the postprocess and the way back), so client_fit.h calibrates below it.

namespace lx::whatif {

struct InferredStamps {
    std::vector<StampRow> rows; ///< one per input row, in order; server stamps set where the row could be used
    int limit = 0;              ///< the slots the stamps were inferred with
    int consistentLimit = 0;    ///< the fewest slots that schedule at most kMaxInconsistentShare after their first token
    std::int64_t used = 0;      ///< rows with a send time, TTFT and an end
    double inconsistentShare = 0; ///< of the used rows, those whose implied schedule came after their first token
    std::string refused;        ///< why nothing could be inferred; empty when it could
};

/// At most this share of requests may have an implied schedule after their first token (the client's
/// clock adds the network to both ends, by a few ms).
inline constexpr double kMaxInconsistentShare = 0.02;

/// Infers t_server_recv (the send), t_sched (the FIFO's), t_first_token, t_last_token and t_server_send
/// (the client's end) for rows with a send time, TTFT and an end-to-end time or TTLT, with \a limit slots
/// (at most the consistent limit), or with the consistent limit when \a limit is 0.
InferredStamps inferServerStamps(std::span<const StampRow> rows, int limit = 0);

} // namespace lx::whatif
