// SPDX-License-Identifier: GPL-3.0-or-later
#include "ingest/formats/benchmark/vllm_sends.h"

#include "model/time_range.h"
#include "simulation/sim_random.h" // the exact-IEEE draws of the generator: the same sends everywhere

#include <cmath>
#include <functional>
#include <queue>

namespace lx::bench {

namespace {

/// The seed of the rebuilt arrivals: fixed, so that importing a file twice gives the same store.
constexpr std::uint64_t kSendSeed = 0x766c6c6d; // "vllm"

} // namespace

std::vector<std::int64_t> rebuildVllmSends(const VllmSendPlan &plan, const std::vector<std::int64_t> &durationsNs)
{
    std::vector<std::int64_t> sends(durationsNs.size(), 0);
    sim::detail::Random random(kSendSeed);
    const bool paced = std::isfinite(plan.rate) && plan.rate > 0;
    const double shape = plan.burstiness > 0 ? plan.burstiness : 1.0;
    // vLLM's get_request(): a request, then a gap of gamma(shape, 1 / (rate * shape)) seconds.
    double arrivalNs = 0;
    // The ends of the requests in flight, earliest first: the client's semaphore lets one in when one ends.
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> inFlight;
    for (std::size_t i = 0; i < durationsNs.size(); ++i) {
        std::int64_t send = static_cast<std::int64_t>(std::llround(arrivalNs));
        if (plan.maxConcurrency && *plan.maxConcurrency > 0) {
            if (static_cast<int>(inFlight.size()) >= *plan.maxConcurrency) {
                send = std::max(send, inFlight.top());
                inFlight.pop();
            }
            inFlight.push(send + std::max<std::int64_t>(durationsNs[i], 0));
        }
        sends[i] = send;
        if (paced)
            arrivalNs += random.gamma(shape) / (plan.rate * shape) * 1e9;
    }
    return sends;
}

std::string rebuiltSendsNotice(const VllmSendPlan &plan)
{
    std::string how = std::isfinite(plan.rate) && plan.rate > 0
                          ? "at " + numberText(plan.rate) + " req/s with gaps drawn as vLLM draws them (gamma, burstiness "
                                + numberText(plan.burstiness) + "; a seeded draw, not the run's own)"
                          : "all at once (request_rate inf)";
    if (plan.maxConcurrency)
        how += ", each only when fewer than " + std::to_string(*plan.maxConcurrency) + " were in flight (max_concurrency)";
    return "no start_times (vLLM before 2025 saved none): each request's send is rebuilt from the run's settings, in "
           "the records' order, " + how + "; the load and what-if views use them";
}

} // namespace lx::bench
