// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// \file vllm_sends.h
/// Each request's send time for a vLLM bench result that saved none (`start_times` came in 2025), rebuilt
/// from the run's own settings as vLLM's client sends: in the records' order, all at once at a rate of
/// `inf`, else after gaps drawn from a gamma distribution of the rate and burstiness (exponential at
/// burstiness 1: Poisson arrivals), and with `max_concurrency` each only when one of that many in flight
/// has ended. The draw is seeded (the same sends on every platform) but is not the run's own: a rebuilt
/// send is right in law, not per request, which is what the load, its knee and the what-if's fit need.

namespace lx::bench {

/// What a vLLM result says of how its requests were sent.
struct VllmSendPlan {
    double rate = 0;                   ///< requests per second; infinity for "inf"
    double burstiness = 1;             ///< the gamma distribution's shape (1: Poisson)
    std::optional<int> maxConcurrency; ///< the client's limit on requests in flight
};

/// The sends, in ns from the first, for requests lasting \a durationsNs each (a failed or unmeasured
/// request: 0), in order.
std::vector<std::int64_t> rebuildVllmSends(const VllmSendPlan &plan, const std::vector<std::int64_t> &durationsNs);

/// The reader's notice for rebuilt sends: how they were made, so that nobody takes them for measured ones.
std::string rebuiltSendsNotice(const VllmSendPlan &plan);

} // namespace lx::bench
