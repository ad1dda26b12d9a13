// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/replay.h"

#include "model/decompose.h"
#include "simulation/sim_random.h" // the exact-IEEE draws the generator uses: the same numbers everywhere

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <iterator>
#include <queue>
#include <set>

namespace lx::whatif {

namespace {

using sim::detail::Random;

std::int64_t roundNs(double ns) { return static_cast<std::int64_t>(std::floor(ns + 0.5)); }

/// One request to replay: when it reaches the server, which row it comes from and whose residuals it has.
struct Arrival {
    std::int64_t recv = 0;
    std::size_t row = 0;       ///< into the observed rows, or the external ones
    std::ptrdiff_t donor = -1; ///< into fit.residuals; -1 for an observed request that was never served
    std::int64_t order = 0;    ///< ties keep this order
};

/// When a row reaches the server: its receive stamp, else its send (a workload file's arrival).
std::int64_t arrivalOf(const StampRow &r)
{
    if (isMeasured(r.stamp(Stamp::ServerRecv)))
        return r.stamp(Stamp::ServerRecv);
    return r.stamp(Stamp::ClientSend);
}

/// One replica: when its busy slots free (at most the limit of them; a slot not in the set is free), and
/// when each request routed to it ends (for least loaded). A set rather than a slot per limit, so that "no
/// limit" costs only the requests in service.
struct Replica {
    std::multiset<std::int64_t> busyUntil;
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> ends;

    std::size_t outstandingAt(std::int64_t t)
    {
        while (!ends.empty() && ends.top() <= t)
            ends.pop();
        return ends.size();
    }
};

std::string simId(std::int64_t n)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    const auto width = static_cast<std::size_t>(end - digits);
    std::string id = "sim-";
    id.append(width < 7 ? 7 - width : 0, '0');
    id.append(digits, width);
    return id;
}

/// The arrivals ×factor by thinning (below 1) and duplication (above): each copy lands at a uniform time
/// between its original's neighbours. Every arrival draws the same number of numbers whatever the factor's
/// effect on it, so a change of factor moves only the copies.
std::vector<Arrival> scaleArrivals(std::vector<Arrival> base, double factor, Random &rng)
{
    if (factor == 1)
        return base;
    std::vector<Arrival> out;
    const double whole = std::floor(factor);
    const double frac = factor - whole;
    for (std::size_t i = 0; i < base.size(); ++i) {
        const double u = rng.uniform();
        if (factor < 1) {
            if (u < factor)
                out.push_back(base[i]);
            continue;
        }
        out.push_back(base[i]);
        const int copies = static_cast<int>(whole) - 1 + (u < frac ? 1 : 0);
        const std::int64_t lo = i > 0 ? base[i - 1].recv : base[i].recv;
        const std::int64_t hi = i + 1 < base.size() ? base[i + 1].recv : base[i].recv;
        for (int c = 0; c < copies; ++c) {
            Arrival copy = base[i];
            copy.recv = lo + roundNs(static_cast<double>(hi - lo) * rng.uniform());
            out.push_back(copy);
        }
    }
    std::int64_t order = 0;
    for (Arrival &a : out)
        a.order = order++;
    std::stable_sort(out.begin(), out.end(), [](const Arrival &l, const Arrival &r) { return l.recv < r.recv; });
    return out;
}

} // namespace

const char *routerName(Router router) { return router == Router::LeastLoaded ? "least-loaded" : "rr"; }

std::string validateChanges(const ReplayChanges &c)
{
    if (c.replicas < 1 || c.replicas > kMaxReplicas)
        return "--replicas must be between 1 and " + std::to_string(kMaxReplicas) + ", got " + std::to_string(c.replicas);
    if (!(c.arrivalFactor > 0) || !(c.arrivalFactor <= kMaxArrivalFactor))
        return "the arrival factor must be above 0 and at most 100";
    if (c.concurrencyLimit < 0 || c.concurrencyLimit > 1'000'000)
        return "--max-concurrency must be between 1 and 1000000";
    if (c.inputTokenCap < 0)
        return "--cap-input-tokens must be at least 1";
    if (!(c.postprocessSpeedup >= kMinPostprocessSpeedup && c.postprocessSpeedup <= kMaxPostprocessSpeedup))
        return "--postprocess-speedup must be a positive factor from 0.001 to 1000000";
    return {};
}

ReplayResult replay(const ServerFit &fit, std::span<const StampRow> observed, std::span<const StampRow> external,
                    const ReplayChanges &changes, const std::atomic<bool> *cancel, const ReplayProgress &progress)
{
    ReplayResult result;
    if (!fit.ok()) {
        result.refused = fit.refused;
        return result;
    }
    if (std::string why = validateChanges(changes); !why.empty()) {
        result.refused = why;
        return result;
    }
    if (observed.size() != fit.residuals.size()) {
        result.refused = "the model was fitted from other requests than those given";
        return result;
    }
    Random rng(changes.seed);
    std::vector<std::ptrdiff_t> donors;
    for (std::size_t i = 0; i < fit.residuals.size(); ++i)
        if (fit.residuals[i].served)
            donors.push_back(static_cast<std::ptrdiff_t>(i));

    const bool fromExternal = !external.empty();
    const std::span<const StampRow> rows = fromExternal ? external : observed;
    std::vector<Arrival> arrivals;
    arrivals.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StampRow &r = rows[i];
        Arrival a;
        a.row = i;
        a.order = static_cast<std::int64_t>(i);
        a.recv = arrivalOf(r);
        if (fromExternal) {
            if (r.inputTokens < 0 || r.outputTokens < 0) {
                result.refused = "the arrivals, line "
                                 + std::to_string(r.sourceLine) + ": no " + (r.inputTokens < 0 ? "input" : "output")
                                 + " token count: prefill and decode are computed from the token counts";
                return result;
            }
            // A draw for every arrival, whatever else: the donors' order is fixed by the seed alone.
            a.donor = donors[static_cast<std::size_t>(rng.uniform() * static_cast<double>(donors.size()))];
        } else {
            a.donor = fit.residuals[i].served ? static_cast<std::ptrdiff_t>(i) : -1;
        }
        if (!isMeasured(a.recv))
            continue; // no time at all: it cannot arrive (the report counts it without a start too)
        arrivals.push_back(a);
    }
    if (arrivals.empty()) {
        result.refused = "no arrival has a time: nothing to replay";
        return result;
    }
    std::stable_sort(arrivals.begin(), arrivals.end(), [](const Arrival &l, const Arrival &r) { return l.recv < r.recv; });
    if (static_cast<double>(arrivals.size()) * std::ceil(changes.arrivalFactor) > static_cast<double>(kMaxReplayedRequests)) {
        result.refused = "the arrivals \u00d7" + std::to_string(changes.arrivalFactor).substr(0, 6) + " would make up to "
                         + std::to_string(static_cast<std::int64_t>(static_cast<double>(arrivals.size()) * std::ceil(changes.arrivalFactor)))
                         + " requests, more than a replay holds (20,000,000)";
        return result;
    }
    arrivals = scaleArrivals(std::move(arrivals), changes.arrivalFactor, rng);
    if (arrivals.empty()) {
        result.refused = "no arrival is left after thinning them: give a larger factor";
        return result;
    }

    // Served in the order they become ready for the queue (FIFO), as the generator does.
    std::vector<std::int64_t> ready(arrivals.size());
    for (std::size_t k = 0; k < arrivals.size(); ++k) {
        const Arrival &a = arrivals[k];
        ready[k] = a.recv + (a.donor >= 0 ? fit.residuals[static_cast<std::size_t>(a.donor)].preprocess : 0);
    }
    std::vector<std::size_t> byReady(arrivals.size());
    for (std::size_t k = 0; k < byReady.size(); ++k)
        byReady[k] = k;
    std::stable_sort(byReady.begin(), byReady.end(), [&](std::size_t l, std::size_t r) { return ready[l] < ready[r]; });

    // A limit the trace never reached is not known: the replay then puts none (the server had room, as far
    // as the trace shows), and the fitted TPOT line still slows a fuller batch.
    const int fitted = fit.limitReached ? static_cast<int>(fit.concurrencyLimit.value) : 0;
    result.concurrencyLimit = changes.concurrencyLimit > 0 ? changes.concurrencyLimit : fitted;
    const std::int64_t limit = result.concurrencyLimit > 0 ? result.concurrencyLimit : std::numeric_limits<std::int64_t>::max();
    std::vector<Replica> replicas(static_cast<std::size_t>(changes.replicas));

    result.requests.resize(arrivals.size());
    std::size_t nextReplica = 0;
    const auto total = static_cast<std::int64_t>(arrivals.size());
    for (std::size_t n = 0; n < byReady.size(); ++n) {
        if ((n & 4095) == 0) {
            if ((cancel && cancel->load(std::memory_order_relaxed)) || (progress && !progress(static_cast<std::int64_t>(n), total))) {
                result.requests.clear();
                result.cancelled = true;
                result.refused = "cancelled";
                return result;
            }
        }
        const std::size_t k = byReady[n];
        const Arrival &a = arrivals[k];
        const StampRow &row = rows[a.row];
        RequestRecord &rec = result.requests[k];
        rec.status = fromExternal ? Status::Ok : row.status;
        rec.model = row.model;
        // The cap is a change to the prompts: a request refused before the queue carries the cut prompt too.
        std::int64_t input = row.inputTokens;
        if (changes.inputTokenCap > 0 && input > changes.inputTokenCap)
            input = changes.inputTokenCap;
        rec.inputTokens = input;
        rec.outputTokens = row.outputTokens;
        rec.sourceLine = static_cast<std::int64_t>(k) + 1;
        rec.stamps.fill(kNotMeasured);
        // One draw for every request, used or not: a change that admits one more request moves no other draw.
        const double uAdmission = rng.uniform();

        if (a.donor < 0) {
            // Never served (refused in preprocess, or no server stamps): its own times, moved to its arrival.
            const std::int64_t shift = a.recv - arrivalOf(row);
            for (int s = 0; s < kStampCount; ++s)
                if (isMeasured(row.stamps[static_cast<std::size_t>(s)]))
                    rec.stamps[static_cast<std::size_t>(s)] = row.stamps[static_cast<std::size_t>(s)] + shift;
        } else {
            const Residuals &res = fit.residuals[static_cast<std::size_t>(a.donor)];
            std::size_t target = 0;
            if (changes.router == Router::RoundRobin) {
                target = nextReplica;
                nextReplica = (nextReplica + 1) % replicas.size();
            } else {
                std::size_t best = std::numeric_limits<std::size_t>::max();
                for (std::size_t r = 0; r < replicas.size(); ++r) {
                    const std::size_t load = replicas[r].outstandingAt(ready[k]);
                    if (load < best) {
                        best = load;
                        target = r;
                    }
                }
            }
            Replica &replica = replicas[target];
            // Requests are taken in order of readiness, so a slot free by now is free for every later one.
            auto &busy = replica.busyUntil;
            while (!busy.empty() && *busy.begin() <= ready[k])
                busy.erase(busy.begin());
            std::int64_t slotStart = ready[k];
            if (static_cast<std::int64_t>(busy.size()) >= limit) { // every slot busy: wait for the first to free
                slotStart = *busy.begin();
                busy.erase(busy.begin());
            }
            const int active = 1 + static_cast<int>(std::distance(busy.upper_bound(slotStart), busy.end()));
            const std::int64_t wait =
                active > 1 && fit.admissionWait.ok() ? std::max<std::int64_t>(0, roundNs(fit.admissionWait.at(uAdmission))) : 0;
            const std::int64_t sched = slotStart + wait;

            const double prefill = input >= 0 ? (fit.prefillBaseNs.value + fit.prefillPerTokenNs.value * static_cast<double>(input)) * res.prefillRatio
                                              : static_cast<double>(res.prefillNs);
            const double tpot = (fit.tpotBaseNs.value + fit.tpotPerRequestNs.value * active) * res.tpotRatio;
            const std::int64_t out = row.outputTokens;
            const double decode = out >= 2 ? static_cast<double>(out - 1) * tpot : out < 0 ? static_cast<double>(res.decodeNs) : 0.0;

            const std::int64_t first = sched + std::max<std::int64_t>(0, roundNs(prefill));
            const std::int64_t last = first + std::max<std::int64_t>(0, roundNs(decode));
            const std::int64_t send = last + roundNs(static_cast<double>(res.postprocess) / changes.postprocessSpeedup);
            busy.insert(last); // the work after the last token runs off the accelerator
            replica.ends.push(last);

            rec.stamp(Stamp::ServerRecv) = a.recv;
            rec.stamp(Stamp::PreprocessDone) = ready[k];
            rec.stamp(Stamp::Sched) = sched;
            rec.stamp(Stamp::FirstToken) = first;
            rec.stamp(Stamp::LastToken) = last;
            rec.stamp(Stamp::ServerSend) = send;
            if (isMeasured(res.networkIn))
                rec.stamp(Stamp::ClientSend) = a.recv - res.networkIn;
            if (isMeasured(res.networkOut))
                rec.stamp(Stamp::ClientRecv) = send + res.networkOut;
        }
    }
    for (std::size_t k = 0; k < result.requests.size(); ++k) {
        RequestRecord &rec = result.requests[k];
        rec.id = simId(static_cast<std::int64_t>(k) + 1);
        const std::uint32_t relative = rows[arrivals[k].row].flags & kFlagRelativeTime;
        if (std::string why = decompose(rec); !why.empty()) {
            result.refused = "replayed request " + rec.id + ": " + why; // a bug of the replay, never of the input
            result.requests.clear();
            return result;
        }
        rec.metrics.flags |= relative;
    }
    if (progress)
        progress(total, total);
    return result;
}

} // namespace lx::whatif
