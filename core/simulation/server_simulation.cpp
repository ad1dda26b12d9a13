// SPDX-License-Identifier: GPL-3.0-or-later
#include "server_simulation.h"

#include "sim_model.h"
#include "sim_random.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <queue>
#include <stdexcept>
#include <string_view>

namespace lx::sim {

namespace {

using namespace detail;

enum class Fate { Ok, RejectedInPreprocess, AbortedInDecode };

/// A request on its way through the server; plain data so the reorder heaps can move it cheaply.
struct Job {
    std::int64_t seq = 0;
    int model = 0, route = 0, region = 0, agent = 0;
    Fate fate = Fate::Ok;
    std::int64_t inputTokens = 0, outputTokens = 0;
    std::int64_t netIn = 0, netOut = 0, post = 0, skew = 0;
    double prefillJitter = 1, tpotJitter = 1, stepPhase = 0;
    std::array<std::int64_t, kStampCount> stamps{}; // true times on the server clock
    std::int64_t &at(Stamp s) { return stamps[static_cast<int>(s)]; }
    std::int64_t ready() const { return stamps[static_cast<int>(Stamp::PreprocessDone)]; }
};

std::int64_t roundNs(double ns) { return static_cast<std::int64_t>(std::floor(ns + 0.5)); }

class Simulation {
public:
    Simulation(const SimConfig &config, const std::function<void(const SimRequest &)> &sink)
        : m_config(config), m_sink(sink), m_rng(config.seed), m_tokenRng(config.seed ^ 0x9E3779B97F4A7C15ull),
          m_slotFree(static_cast<std::size_t>(config.decodeSlots), std::numeric_limits<std::int64_t>::min()),
          m_load(config.shape, config.startRateRps, config.endRateRps, static_cast<double>(config.requests))
    {
    }

    void run()
    {
        for (std::int64_t seq = 0; seq < m_config.requests; ++seq) {
            Job job = arrive(seq);
            // Every later arrival enters the queue after this one's receive time, so whatever is ready
            // by then can take its place in the FIFO order now.
            while (!m_ready.empty() && m_ready.top().ready() <= job.at(Stamp::ServerRecv))
                scheduleNext();
            if (job.fate == Fate::RejectedInPreprocess) {
                job.at(Stamp::ServerSend) = job.ready() + job.post;
                m_done.push(job);
            } else {
                m_ready.push(job);
            }
            flush();
        }
        while (!m_ready.empty())
            scheduleNext();
        flush();
    }

private:
    struct LaterReady {
        bool operator()(const Job &a, const Job &b) const
        {
            return a.ready() != b.ready() ? a.ready() > b.ready() : a.seq > b.seq;
        }
    };
    struct LaterSeq {
        bool operator()(const Job &a, const Job &b) const { return a.seq > b.seq; }
    };

    /// Draws everything about the next arrival. The number of draws never depends on a branch, so
    /// changing errorRate or skewRate changes only the fates, not the other requests.
    Job arrive(std::int64_t seq)
    {
        Job j;
        j.seq = seq;
        // A unit-rate Poisson process mapped through the inverse of the offered load's cumulative intensity.
        m_unitArrivals += m_rng.exponential();
        const double t = m_load.timeOf(m_unitArrivals);
        j.at(Stamp::ServerRecv) = m_config.startTimeNs + roundNs(t * 1e9);

        j.model = m_rng.pick(kModelWeights);
        j.route = m_rng.pick(kRouteWeights);
        j.region = m_rng.pick(kRegionWeights);
        j.agent = m_rng.pick(kUserAgentWeights);
        const double in = std::clamp(std::floor(m_rng.logNormal(kInputMedian, kInputSigma)), kInputMin, kInputMax);
        const double out = std::clamp(std::floor(m_rng.logNormal(kOutputMedian, kOutputSigma)), kOutputMin, kOutputMax);
        j.inputTokens = static_cast<std::int64_t>(in);
        j.outputTokens = static_cast<std::int64_t>(out);

        const double oneWayMs = kRegions[static_cast<std::size_t>(j.region)].factor;
        j.netIn = roundNs((oneWayMs * m_rng.uniform(0.8, 1.2) + 0.5 * m_rng.exponential()) * kMs);
        j.netOut = roundNs((oneWayMs * m_rng.uniform(0.8, 1.2) + 0.5 * m_rng.exponential()) * kMs);
        // Tokenizing costs 1-2 ms plus up to 3 ms for the longest prompts.
        const double preMs = m_rng.uniform(1.0, 2.0) + 3.0 * in / kInputMax;
        j.at(Stamp::PreprocessDone) = j.at(Stamp::ServerRecv) + roundNs(preMs * kMs);
        // Detokenize and validate 1-3 ms, longer answers up to 4 ms more, tool output formatting up to 3 ms.
        const double toolMs = m_rng.uniform(0.0, 3.0);
        double postMs = m_rng.uniform(1.0, 3.0) + std::min(0.01 * out, 4.0);
        if (kRoutes[static_cast<std::size_t>(j.route)].name == "/v1/responses")
            postMs += toolMs;
        j.post = roundNs(postMs * kMs);
        j.prefillJitter = m_rng.uniform(0.9, 1.1);
        j.tpotJitter = m_rng.uniform(0.9, 1.1);
        j.stepPhase = m_rng.uniform();

        const bool failed = m_rng.chance(m_config.errorRate);
        const bool inPreprocess = m_rng.chance(0.5);
        const double abortedAt = m_rng.uniform(0.05, 0.9);
        const double errorReplyMs = m_rng.uniform(0.2, 1.0);
        if (failed && inPreprocess) {
            j.fate = Fate::RejectedInPreprocess; // e.g. a prompt over the context limit: never queued
            j.outputTokens = 0;
            j.post = roundNs(errorReplyMs * kMs);
        } else if (failed) {
            j.fate = Fate::AbortedInDecode; // the engine fails part-way: the tokens so far were produced
            j.outputTokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(out * abortedAt));
        }
        const bool skewed = m_rng.chance(m_config.skewRate);
        const double skewMs = m_rng.uniform(5.0, 50.0);
        // A client clock ahead of the server's by more than the inbound trip: network in comes out negative.
        j.skew = skewed ? j.netIn + roundNs(skewMs * kMs) : 0;
        return j;
    }

    /// Gives the earliest-ready queued request the slot that frees first (FIFO with decodeSlots servers).
    void scheduleNext()
    {
        Job j = m_ready.top();
        m_ready.pop();
        const auto best = std::min_element(m_slotFree.begin(), m_slotFree.end());
        const std::int64_t slotFree = std::max(j.ready(), *best);
        int active = 1;
        for (auto it = m_slotFree.begin(); it != m_slotFree.end(); ++it)
            active += (it != best && *it > slotFree) ? 1 : 0;

        // Decoding alongside more sequences makes each step slower, but only mildly: the knee comes from
        // running out of slots, not from the batch.
        const double batchShare =
            m_config.decodeSlots > 1 ? static_cast<double>(active - 1) / (m_config.decodeSlots - 1) : 0.0;
        const double stepMs = kTpotMs * (1.0 + kTpotFullBatchGrowth * batchShare);
        // The scheduler admits new sequences between engine steps: a request that finds a free slot still
        // waits for the current step to end (a few ms) unless the engine is idle.
        const std::int64_t sched = slotFree + (active > 1 ? roundNs(j.stepPhase * stepMs * kMs) : 0);

        const double factor = kModels[static_cast<std::size_t>(j.model)].factor;
        const double prefillMs = (kPrefillBaseMs + kPrefillPerTokenMs * static_cast<double>(j.inputTokens)) * factor;
        const double tpotMs = stepMs * factor * j.tpotJitter;

        j.at(Stamp::Sched) = sched;
        j.at(Stamp::FirstToken) = sched + roundNs(prefillMs * j.prefillJitter * kMs);
        j.at(Stamp::LastToken) = j.at(Stamp::FirstToken) + roundNs(static_cast<double>(j.outputTokens - 1) * tpotMs * kMs);
        j.at(Stamp::ServerSend) = j.at(Stamp::LastToken) + j.post;
        *best = j.at(Stamp::LastToken); // the work after the last token runs off the accelerator
        m_done.push(j);
    }

    /// Emits the finished requests that are next in arrival order.
    void flush()
    {
        while (!m_done.empty() && m_done.top().seq == m_nextEmit) {
            emit(m_done.top());
            m_done.pop();
            ++m_nextEmit;
        }
    }

    void emit(const Job &j)
    {
        SimRequest &r = m_request;
        r.index = j.seq;
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, j.seq + 1).ptr;
        const auto width = static_cast<std::size_t>(end - digits);
        r.id.assign("req-");
        r.id.append(width < 7 ? 7 - width : 0, '0'); // fixed width keeps ids sortable
        r.id.append(digits, width);
        r.model = kModels[static_cast<std::size_t>(j.model)].name;
        r.route = kRoutes[static_cast<std::size_t>(j.route)].name;
        r.region = kRegions[static_cast<std::size_t>(j.region)].name;
        r.userAgent = kUserAgents[static_cast<std::size_t>(j.agent)].name;
        r.status = j.fate == Fate::Ok ? Status::Ok : Status::Error;
        r.inputTokens = j.inputTokens;
        r.outputTokens = j.outputTokens;
        r.stamps = j.stamps;
        if (j.fate == Fate::RejectedInPreprocess) {
            for (Stamp s : {Stamp::Sched, Stamp::FirstToken, Stamp::LastToken})
                r.stamps[static_cast<int>(s)] = kNotMeasured;
        }
        r.stamps[static_cast<int>(Stamp::ClientSend)] = j.stamps[static_cast<int>(Stamp::ServerRecv)] - j.netIn + j.skew;
        r.stamps[static_cast<int>(Stamp::ClientRecv)] = j.stamps[static_cast<int>(Stamp::ServerSend)] + j.netOut + j.skew;
        r.tokenTimes.clear();
        const int every = m_config.tokenTimesEvery;
        if (every > 0 && (j.seq + 1) % every == 0 && j.fate != Fate::RejectedInPreprocess)
            fillTokenTimes(r);
        m_sink(r);
    }

    /// Token times with jittered gaps, scaled so the first and last land exactly on their stamps.
    /// They come from a second generator so that asking for them leaves every other field unchanged.
    void fillTokenTimes(SimRequest &r)
    {
        const std::int64_t first = r.stamp(Stamp::FirstToken);
        const double decode = static_cast<double>(r.stamp(Stamp::LastToken) - first);
        m_gaps.assign(1, 0.0);
        for (std::int64_t k = 1; k < r.outputTokens; ++k)
            m_gaps.push_back(m_gaps.back() + m_tokenRng.uniform(0.5, 1.5));
        const double total = m_gaps.back();
        for (double cumulative : m_gaps)
            r.tokenTimes.push_back(total > 0 ? first + roundNs(decode * (cumulative / total)) : first);
    }

    const SimConfig &m_config;
    const std::function<void(const SimRequest &)> &m_sink;
    Random m_rng;
    Random m_tokenRng;
    double m_unitArrivals = 0;   // arrivals of a unit-rate Poisson process so far
    std::vector<std::int64_t> m_slotFree; // when each decode slot frees up
    OfferedLoad m_load;
    std::priority_queue<Job, std::vector<Job>, LaterReady> m_ready; // preprocessed, waiting in the FIFO
    std::priority_queue<Job, std::vector<Job>, LaterSeq> m_done;    // finished, waiting for arrival order
    std::int64_t m_nextEmit = 0;
    SimRequest m_request;
    std::vector<double> m_gaps;
};

} // namespace

std::string validateConfig(const SimConfig &c)
{
    if (c.requests < 1 || c.requests > 1'000'000'000)
        return "the number of requests must be between 1 and 1000000000";
    if (!(c.startRateRps > 0) || !(c.endRateRps > 0) || !std::isfinite(c.startRateRps) || !std::isfinite(c.endRateRps))
        return "the start and end rates must be positive";
    if (c.decodeSlots < 1 || c.decodeSlots > 100000)
        return "the number of slots must be between 1 and 100000";
    if (!(c.errorRate >= 0 && c.errorRate <= 1) || !(c.skewRate >= 0 && c.skewRate <= 1))
        return "the error and skew rates must be between 0 and 1";
    if (c.shape != LoadShape::Ramp && c.shape != LoadShape::Step && c.shape != LoadShape::Diurnal)
        return "the load shape must be ramp, step or diurnal";
    if (c.tokenTimesEvery < 0)
        return "token times every K needs K >= 0";
    if (c.startTimeNs < 0 || c.startTimeNs > 4'000'000'000'000'000'000)
        return "the start time must be between 0 and 4e18 ns";
    return {};
}

double estimatedCapacityRps(const SimConfig &c)
{
    // Mean slot holding time at full batch: half a step waiting for admission, then prefill plus
    // (output - 1) steps at the full-batch step time, both scaled by the model's factor.
    // Log-normal mean = median * e^(sigma^2 / 2).
    const double meanInput = kInputMedian * std::exp(kInputSigma * kInputSigma / 2);
    const double meanOutput = kOutputMedian * std::exp(kOutputSigma * kOutputSigma / 2);
    const double fullStepMs = kTpotMs * (1 + kTpotFullBatchGrowth);
    const double holdMs = 0.5 * fullStepMs
                          + meanModelFactor() * (kPrefillBaseMs + kPrefillPerTokenMs * meanInput + (meanOutput - 1) * fullStepMs);
    return c.decodeSlots / (holdMs / 1000.0);
}

double kneeTimeFraction(const SimConfig &c)
{
    const OfferedLoad load(c.shape, c.startRateRps, c.endRateRps, static_cast<double>(c.requests));
    const std::optional<double> at = load.firstTimeAt(estimatedCapacityRps(c));
    return at ? std::clamp(*at / load.duration(), 0.0, 1.0) : 1.0;
}

double kneeArrivalFraction(const SimConfig &c)
{
    const OfferedLoad load(c.shape, c.startRateRps, c.endRateRps, static_cast<double>(c.requests));
    const std::optional<double> at = load.firstTimeAt(estimatedCapacityRps(c));
    return at ? std::clamp(load.arrivalsBefore(*at) / static_cast<double>(c.requests), 0.0, 1.0) : 1.0;
}

void simulate(const SimConfig &config, const std::function<void(const SimRequest &)> &sink)
{
    if (std::string why = validateConfig(config); !why.empty())
        throw std::invalid_argument(why);
    Simulation(config, sink).run();
}

} // namespace lx::sim
