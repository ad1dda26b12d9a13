// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

/// \file sim_model.h
/// The constants of the server model (internal header). sample_traces/README.md quotes them and
/// computes the knee from them: keep the two in step.

namespace lx::sim::detail {

/// One value of a categorical field, drawn with the weight between its cumulative weight and the previous one.
struct Choice {
    std::string_view name;
    double cumulativeWeight;
    double factor; ///< models: relative cost of prefill and decode; regions: one-way network ms; else unused
};

// One engine pool serves every model through one admission queue (a simplification: think of adapters
// on one base model); the bigger model costs more per token.
constexpr std::array<Choice, 3> kModels = {{
    {"llama-3.1-8b-instruct", 0.55, 1.0},
    {"qwen2.5-14b-instruct", 0.85, 1.6},
    {"mistral-7b-instruct-v0.3", 1.0, 0.9},
}};
constexpr std::array<Choice, 3> kRoutes = {{
    {"/v1/chat/completions", 0.75, 0.0},
    {"/v1/completions", 0.90, 0.0},
    {"/v1/responses", 1.0, 0.0}, // formats tool output after the last token: a longer last server segment
}};
constexpr std::array<Choice, 3> kRegions = {{
    {"eu-west", 0.50, 2.0},
    {"us-east", 0.85, 5.0},
    {"ap-south", 1.0, 9.0},
}};
constexpr std::array<Choice, 3> kUserAgents = {{
    {"openai-python/1.40.0", 0.55, 0.0},
    {"langchain/0.2.11 (python, httpx)", 0.80, 0.0}, // the comma makes CSV quote this field
    {"curl/8.5.0", 1.0, 0.0},
}};

template<std::size_t N>
constexpr std::array<double, N> cumulativeOf(const std::array<Choice, N> &choices)
{
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = choices[i].cumulativeWeight;
    return out;
}

constexpr auto kModelWeights = cumulativeOf(kModels);
constexpr auto kRouteWeights = cumulativeOf(kRoutes);
constexpr auto kRegionWeights = cumulativeOf(kRegions);
constexpr auto kUserAgentWeights = cumulativeOf(kUserAgents);

constexpr double kMs = 1e6; // ns per ms

// Token counts: log-normal, clamped (means 1050 and 220 before the clamps).
constexpr double kInputMedian = 700, kInputSigma = 0.9, kInputMin = 8, kInputMax = 16000;
constexpr double kOutputMedian = 160, kOutputSigma = 0.8, kOutputMin = 1, kOutputMax = 2048;
// Prefill reads the prompt at 25,000 tokens/s after a fixed 6 ms; both scale with the model's factor.
constexpr double kPrefillBaseMs = 6.0, kPrefillPerTokenMs = 0.04;
// One decode step: 9 ms alone, growing linearly to 13.5 ms with every slot busy; times the model's factor.
constexpr double kTpotMs = 9.0, kTpotFullBatchGrowth = 0.5;

/// The mean of the models' cost factors, weighted by how often each is asked for.
constexpr double meanModelFactor()
{
    double mean = 0, previous = 0;
    for (const Choice &m : kModels) {
        mean += (m.cumulativeWeight - previous) * m.factor;
        previous = m.cumulativeWeight;
    }
    return mean;
}

} // namespace lx::sim::detail
