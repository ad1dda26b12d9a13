// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "load_shape.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// \file server_simulation.h
/// A seeded discrete-event simulation of an LLM server with continuous batching under a load that rises
/// past its capacity. It makes the sample traces and the benchmark input, so its output must be the same
/// on every platform: it draws only from std::mt19937_64 (whose sequence the standard fixes) through its
/// own distributions built from exact IEEE operations (sim_random.h), never from std::normal_distribution and friends or
/// from libm's log/exp, whose last bits differ between standard libraries.
///
/// The model, in pipeline order (the constants are documented in sample_traces/README.md):
/// - arrivals at the server form a Poisson process whose rate moves between SimConfig::startRateRps and
///   SimConfig::endRateRps in the SimConfig::shape (load_shape.h): a linear ramp by default, a step, a daily cycle;
/// - the client reaches the server over a network of a few ms each way, depending on its region;
/// - preprocessing (tokenize, validate) takes 1-5 ms, growing with the prompt;
/// - a FIFO queue feeds SimConfig::decodeSlots decode slots (the maximum batch);
/// - prefill grows with the input tokens; the time per output token grows mildly with the number of
///   sequences decoding alongside; a slot is freed at the last token;
/// - the work after the last token (formatting, tool calls) takes 1-10 ms; then the response travels back to the client.

namespace lx::sim {

/// The knobs of one simulated run. sample_traces/ uses the defaults apart from the seeds and counts.
struct SimConfig {
    std::uint64_t seed = 42;
    std::int64_t requests = 2000;  ///< how many requests to emit, >= 1
    double startRateRps = 1.0;     ///< offered load at the start, requests/s
    double endRateRps = 18.0;      ///< offered load at the end, requests/s (the peak of a diurnal load)
    LoadShape shape = LoadShape::Ramp; ///< how the offered load moves from the start rate to the end rate
    int decodeSlots = 32;          ///< concurrent decode slots (the maximum batch); not `slots`: a Qt macro
    std::int64_t startTimeNs = 1'735'732'800'000'000'000; ///< when arrivals start: 2025-01-01T12:00:00Z
    double errorRate = 0.01;  ///< fraction of requests that fail (half in preprocess, half mid-decode)
    double skewRate = 0.002;  ///< fraction whose client clock runs ahead, making network in negative
    int tokenTimesEvery = 0;  ///< emit token_times for every K-th request (1-based index); 0 = never
};

/// One simulated request: the raw fields an importer would read. Stamps are in pipeline order
/// (lx::Stamp), lx::kNotMeasured where the request never reached that point.
struct SimRequest {
    std::int64_t index = 0; ///< 0-based position in arrival order
    std::string id;
    std::string model;
    std::string route;
    lx::Status status = lx::Status::Ok;
    std::array<std::int64_t, lx::kStampCount> stamps{};
    std::int64_t inputTokens = 0;
    std::int64_t outputTokens = 0;
    std::vector<std::int64_t> tokenTimes; ///< every output token's time (server clock); usually empty
    std::string region;                   ///< an attribute the native forms do not know ("eu-west")
    std::string userAgent;                ///< another attribute; some values contain a comma

    std::int64_t stamp(lx::Stamp s) const { return stamps[static_cast<int>(s)]; }
};

/// Why \a config cannot be simulated, or an empty string when it can.
std::string validateConfig(const SimConfig &config);

/// The throughput the server sustains with every slot busy, in requests/s: slots divided by the mean
/// time a request holds a slot at full batch. Computed from the model's constants (the clamps of the token
/// distributions and the errors are neglected, so it is an estimate within a few percent).
double estimatedCapacityRps(const SimConfig &config);

/// The fraction of the trace's duration at which the offered load first reaches estimatedCapacityRps(),
/// 1 when it never does.
double kneeTimeFraction(const SimConfig &config);

/// The fraction of the arrivals that come before the offered load crosses capacity, clamped to [0, 1].
/// Later than kneeTimeFraction(): most arrivals come when the rate is high.
double kneeArrivalFraction(const SimConfig &config);

/// Runs the simulation and hands each request to \a sink in arrival order. The SimRequest is reused
/// between calls: copy what must outlive the call. Memory stays bounded by the few requests in flight
/// around the current arrival (queued requests need no storage), so a million requests are fine.
/// \throws std::invalid_argument when validateConfig() reports a problem.
void simulate(const SimConfig &config, const std::function<void(const SimRequest &)> &sink);

} // namespace lx::sim
