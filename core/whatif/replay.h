// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "store/stamp_scan.h"
#include "whatif/server_fit.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

/// \file replay.h
/// A discrete-event replay of arrivals through a fitted server model with changes (docs/WHATIF.md): the
/// observed arrivals, the same scaled by thinning and duplication, or an external workload's; replicas
/// behind a router; another concurrency limit; a cap on the input tokens; a faster postprocess. Seeded and
/// deterministic on every platform (std::mt19937_64 through simulation/sim_random.h). Its output is
/// requests as an importer makes them, for a store flagged simulated (simulated_store.h).

namespace lx::whatif {

enum class Router { RoundRobin, LeastLoaded };

/// "rr" / "least-loaded".
const char *routerName(Router router);

struct ReplayChanges {
    int replicas = 1;
    Router router = Router::RoundRobin;
    /// The arrivals ×factor: below 1 each is kept with that probability, above 1 each gets copies (the
    /// whole part minus one, and one more with the fractional part's probability) placed at a uniform
    /// time between its neighbours, so the load rises by the factor at every moment of the trace.
    double arrivalFactor = 1;
    int concurrencyLimit = 0;       ///< slots per replica; 0 keeps the fitted limit (none when it was not reached)
    std::int64_t inputTokenCap = 0; ///< prompts cut to this many tokens; 0 for no cap
    double postprocessSpeedup = 1;  ///< postprocess divided by this
    std::uint64_t seed = 42;
};

/// Why the changes cannot be replayed ("--replicas must be at least 1"), empty when they can.
std::string validateChanges(const ReplayChanges &changes);

/// The inclusive bounds of the changes, stated in the README.
inline constexpr int kMaxReplicas = 10'000;
inline constexpr double kMaxArrivalFactor = 100;
inline constexpr double kMinPostprocessSpeedup = 0.001, kMaxPostprocessSpeedup = 1'000'000;
/// The most requests a replay makes: each is held until the store is written (about 1 KB at the peak, with
/// its observed row), so 20 million take some 20 GB. A factor that would make more is refused.
inline constexpr std::int64_t kMaxReplayedRequests = 20'000'000;

/// Progress of a replay in requests; returning false cancels it.
using ReplayProgress = std::function<bool(std::int64_t done, std::int64_t total)>;

struct ReplayResult {
    std::vector<RequestRecord> requests; ///< decomposed, in arrival order, ids "sim-0000001"...
    int concurrencyLimit = 0;            ///< the slots per replica used; 0 for none (a limit the trace never reached)
    std::string refused;                 ///< why nothing was replayed; empty when it was
    bool cancelled = false;
};

/// Replays \a observed (the requests the model was fitted from, in the same order as fit.residuals) or, when
/// \a external is not empty, those arrivals, each borrowing the residuals of an observed request drawn at
/// random. Every external arrival needs its input and output tokens: the first without is refused, naming
/// its line (runWhatIf() names its file too). \a cancel (may be null) and \a progress let a background job stop it.
ReplayResult replay(const ServerFit &fit, std::span<const StampRow> observed, std::span<const StampRow> external,
                    const ReplayChanges &changes, const std::atomic<bool> *cancel = nullptr,
                    const ReplayProgress &progress = {});

} // namespace lx::whatif
