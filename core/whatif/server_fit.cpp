// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/server_fit.h"

#include "store/store.h"
#include "whatif/client_fit.h"

#include "simulation/sim_random.h" // for its pragmas: no fused multiply-add, the same fit on every platform

#include <algorithm>
#include <cmath>
#include <locale>
#include <sstream>

namespace lx::whatif {

namespace {

/// A request with the stamps of a fit: when it was ready for the queue, scheduled, and its tokens' times.
struct Served {
    std::size_t row = 0;
    std::int64_t ready = 0, sched = 0, first = 0, last = 0;
};

bool measured(const StampRow &r, Stamp s) { return isMeasured(r.stamp(s)); }

/// Requests in service (scheduled, last token not yet out) at time t: the scheduled by t minus the done by t.
int inServiceAt(const std::vector<std::int64_t> &scheds, const std::vector<std::int64_t> &lasts, std::int64_t t)
{
    const auto started = std::upper_bound(scheds.begin(), scheds.end(), t) - scheds.begin();
    const auto done = std::upper_bound(lasts.begin(), lasts.end(), t) - lasts.begin();
    return static_cast<int>(started - done);
}

constexpr double kNsPerMs = 1e6;

void writeEstimate(std::ostream &out, const char *name, const Estimate &e, double scale)
{
    out << '"' << name << "\":{\"value\":" << e.value / scale << ",\"std_error\":" << e.stdError / scale << ",\"n\":" << e.n;
    if (!e.ok()) {
        std::string text;
        for (char c : e.refused)
            text += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        out << ",\"refused\":\"" << text << '"';
    }
    out << '}';
}

void writeDistribution(std::ostream &out, const char *name, const EmpiricalDistribution &d, double scale)
{
    out << '"' << name << "\":{\"n\":" << d.n;
    if (d.ok()) {
        for (auto [label, u] : {std::pair{"p50", 0.5}, std::pair{"p90", 0.9}, std::pair{"p99", 0.99}})
            out << ",\"" << label << "\":" << d.at(u) / scale;
    }
    out << '}';
}

/// A line that does not rise (or has one x only) replaced by the mean of y without growth; the slope
/// says why.
void flatWhenNotRising(Estimate &base, Estimate &slope, const std::vector<double> &y, const std::string &falling,
                       double unitNs, const char *unit)
{
    if (y.empty() || (slope.ok() && slope.value >= 0))
        return;
    if (slope.ok()) {
        std::ostringstream why;
        why.imbue(std::locale::classic());
        why.precision(3);
        why << falling << " (" << slope.value / unitNs << unit << "): no growth is fitted";
        slope.refused = why.str();
    }
    double mean = 0;
    for (double v : y)
        mean += v;
    base.value = mean / static_cast<double>(y.size());
    base.n = static_cast<std::int64_t>(y.size());
    double squares = 0;
    for (double v : y)
        squares += (v - base.value) * (v - base.value);
    base.stdError = y.size() > 1 ? std::sqrt(squares / static_cast<double>(y.size() - 1) / static_cast<double>(y.size())) : 0;
    base.refused.clear();
    slope.value = 0;
    slope.stdError = 0;
}

} // namespace

ServerFit fitServer(std::span<const StampRow> rows)
{
    ServerFit fit;
    fit.requests = static_cast<std::int64_t>(rows.size());
    fit.residuals.resize(rows.size());

    std::vector<Served> served;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StampRow &r = rows[i];
        if (!measured(r, Stamp::ServerRecv) || !measured(r, Stamp::Sched) || !measured(r, Stamp::FirstToken)
            || !measured(r, Stamp::LastToken))
            continue;
        Served s;
        s.row = i;
        s.ready = measured(r, Stamp::PreprocessDone) ? r.stamp(Stamp::PreprocessDone) : r.stamp(Stamp::ServerRecv);
        s.sched = r.stamp(Stamp::Sched);
        s.first = r.stamp(Stamp::FirstToken);
        s.last = r.stamp(Stamp::LastToken);
        if (s.ready < r.stamp(Stamp::ServerRecv) || s.sched < s.ready || s.first < s.sched || s.last < s.first)
            continue; // out of order: decompose() rejected its segments too
        served.push_back(s);
    }
    fit.served = static_cast<std::int64_t>(served.size());
    if (served.empty()) {
        fit.refused = rows.empty() ? "no requests: nothing to fit"
                                   : "no server stamps: no queue can be fitted (no request has t_server_recv, t_sched, "
                                     "t_first_token and t_last_token)";
        return fit;
    }
    if (fit.served < kMinFitRequests) {
        fit.refused = std::to_string(fit.served) + (fit.served == 1 ? " request has" : " requests have")
                      + " server stamps: a model needs at least " + std::to_string(kMinFitRequests);
        return fit;
    }

    std::vector<std::int64_t> scheds, lasts;
    for (const Served &s : served) {
        scheds.push_back(s.sched);
        lasts.push_back(s.last);
    }
    std::sort(scheds.begin(), scheds.end());
    std::sort(lasts.begin(), lasts.end());

    // The batch each request joined, and the largest: the slots. The limit is reached when requests became
    // ready while that many were in service, so that they waited for a slot.
    int limit = 1;
    for (const Served &s : served) {
        Residuals &res = fit.residuals[s.row];
        res.served = true;
        res.batch = std::max(1, inServiceAt(scheds, lasts, s.sched));
        limit = std::max(limit, res.batch);
    }
    // The admission wait is the queue time of a request that found a slot free and nobody ahead of it:
    // an engine admits new sequences between its steps. A slot is briefly free between one request's last
    // token and the next one's admission while others still wait, so "nobody ahead" is asked too, and "free"
    // is judged one below the most seen in service, so that no request counted here waited for a slot.
    const int most = limit;
    std::vector<std::int64_t> readies;
    for (const Served &s : served)
        readies.push_back(s.ready);
    std::sort(readies.begin(), readies.end());
    std::vector<int> busyAtReady(served.size());
    std::vector<double> admission;
    for (std::size_t i = 0; i < served.size(); ++i) {
        const Served &s = served[i];
        busyAtReady[i] = inServiceAt(scheds, lasts, s.ready);
        const auto readyBy = std::upper_bound(readies.begin(), readies.end(), s.ready) - readies.begin();
        const auto schedBy = std::upper_bound(scheds.begin(), scheds.end(), s.ready) - scheds.begin();
        const bool ahead = readyBy - schedBy > (s.sched > s.ready ? 1 : 0); // others ready, not yet scheduled
        if (busyAtReady[i] < most - 1 && !ahead && fit.residuals[s.row].batch > 1)
            admission.push_back(static_cast<double>(s.sched - s.ready));
    }
    fit.admissionWait = empiricalOf(std::move(admission), "no request found a free slot beside others");

    // A request waited on a full server when it became ready with the limit in service and waited longer
    // than admissions do (twice their p99): for a slot to free. The limit is the most seen in service, or one
    // less when the most was seen only in passing (stamps rebuilt from durations, whose network halves are
    // guesses, put a request's times a little off); it is reached when three requests so waited (one could be
    // an admission racing a slot's release).
    const double longWait = fit.admissionWait.ok() ? 2 * fit.admissionWait.at(0.99) : 0.0;
    for (int candidate = most; candidate >= std::max(1, most - 1) && !fit.limitReached; --candidate) {
        std::int64_t waited = 0;
        for (std::size_t i = 0; i < served.size(); ++i)
            waited += busyAtReady[i] >= candidate && static_cast<double>(served[i].sched - served[i].ready) > longWait ? 1 : 0;
        if (waited >= 3) {
            fit.limitReached = true;
            limit = candidate;
        }
    }
    fit.concurrencyLimit.value = limit;
    fit.concurrencyLimit.n = fit.served;
    if (!fit.limitReached)
        fit.concurrencyLimit.refused = "the queue never waited on a full server: the limit is at least "
                                       + std::to_string(limit) + " (the most requests in service at once)";

    // Prefill against the input tokens; TPOT against the batch.
    std::vector<double> px, py, tx, ty;
    for (const Served &s : served) {
        const StampRow &r = rows[s.row];
        if (r.inputTokens >= 0) {
            px.push_back(static_cast<double>(r.inputTokens));
            py.push_back(static_cast<double>(s.first - s.sched));
        }
        if (r.outputTokens >= 2) {
            tx.push_back(fit.residuals[s.row].batch);
            ty.push_back(static_cast<double>(s.last - s.first) / static_cast<double>(r.outputTokens - 1));
        }
    }
    LineFit prefill = px.empty() ? LineFit{} : fitLine(px, py, "prefill");
    if (px.empty())
        prefill.intercept.refused = prefill.slope.refused = "prefill: no request has its input tokens";
    LineFit tpot = tx.empty() ? LineFit{} : fitLine(tx, ty, "time per output token");
    if (tx.empty())
        tpot.intercept.refused = tpot.slope.refused = "time per output token: no request has 2 output tokens or more";
    fit.prefillBaseNs = prefill.intercept;
    fit.prefillPerTokenNs = prefill.slope;
    fit.tpotBaseNs = tpot.intercept;
    fit.tpotPerRequestNs = tpot.slope;
    // Neither grows less with more work: a line that falls (a burst whose batch shrank while its longest
    // answers were still decoding, noise over prompts of one length) would extrapolate to times no server
    // takes. One x only (a benchmark of one prompt length, a server never loaded or always full), or a
    // falling line: the mean, without growth, and the model says why.
    flatWhenNotRising(fit.prefillBaseNs, fit.prefillPerTokenNs, py, "prefill fell as the prompts grew", 1e3, " ms per 1000 tokens");
    flatWhenNotRising(fit.tpotBaseNs, fit.tpotPerRequestNs, ty, "time per output token fell as the batch grew", 1e6,
                      " ms per request");
    if (!fit.prefillBaseNs.ok()) {
        fit.refused = fit.prefillBaseNs.refused;
        return fit;
    }
    if (!fit.tpotBaseNs.ok()) {
        fit.refused = fit.tpotBaseNs.refused;
        return fit;
    }

    // What the lines leave: each request's own ratios and the times around them.
    std::vector<double> netIn, netOut, pre, post, pr, tr;
    for (const Served &s : served) {
        const StampRow &r = rows[s.row];
        Residuals &res = fit.residuals[s.row];
        const std::int64_t recv = r.stamp(Stamp::ServerRecv);
        res.preprocess = s.ready - recv;
        res.postprocess = measured(r, Stamp::ServerSend) ? std::max<std::int64_t>(0, r.stamp(Stamp::ServerSend) - s.last) : 0;
        if (measured(r, Stamp::ClientSend))
            res.networkIn = recv - r.stamp(Stamp::ClientSend);
        if (measured(r, Stamp::ClientRecv) && measured(r, Stamp::ServerSend))
            res.networkOut = r.stamp(Stamp::ClientRecv) - r.stamp(Stamp::ServerSend);
        res.prefillNs = s.first - s.sched;
        res.decodeNs = s.last - s.first;
        if (r.inputTokens >= 0) {
            const double line = fit.prefillBaseNs.value + fit.prefillPerTokenNs.value * static_cast<double>(r.inputTokens);
            if (line > 0) {
                res.prefillRatio = static_cast<double>(res.prefillNs) / line;
                pr.push_back(res.prefillRatio);
            }
        }
        if (r.outputTokens >= 2) {
            const double line = fit.tpotBaseNs.value + fit.tpotPerRequestNs.value * res.batch;
            if (line > 0) {
                res.tpotRatio = static_cast<double>(res.decodeNs) / static_cast<double>(r.outputTokens - 1) / line;
                tr.push_back(res.tpotRatio);
            }
        }
        pre.push_back(static_cast<double>(res.preprocess));
        post.push_back(static_cast<double>(res.postprocess));
        if (isMeasured(res.networkIn))
            netIn.push_back(static_cast<double>(res.networkIn));
        if (isMeasured(res.networkOut))
            netOut.push_back(static_cast<double>(res.networkOut));
    }
    fit.networkIn = empiricalOf(std::move(netIn), "no client send stamps: the network in is not measured");
    fit.networkOut = empiricalOf(std::move(netOut), "no client receive stamps: the network out is not measured");
    fit.preprocess = empiricalOf(std::move(pre), "no preprocess");
    fit.postprocess = empiricalOf(std::move(post), "no postprocess");
    fit.prefillRatio = empiricalOf(std::move(pr), "no prefill ratio");
    fit.tpotRatio = empiricalOf(std::move(tr), "no TPOT ratio");
    return fit;
}

std::optional<ServerFit> fitServer(const Store &store, const RequestFilter &filter, std::vector<StampRow> *rowsOut, std::string *error)
{
    auto rows = scanStampRows(store, filter, error);
    if (!rows)
        return std::nullopt;
    ServerFit fit = fitServerOrInfer(*rows);
    if (rowsOut)
        *rowsOut = std::move(*rows);
    return fit;
}

std::string ServerFit::toJson() const
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(9);
    out << "{\"requests\":" << requests << ",\"served\":" << served << ',';
    writeEstimate(out, "concurrency_limit", concurrencyLimit, 1);
    out << ",\"limit_reached\":" << (limitReached ? "true" : "false") << ",\"inferred_from_client\":"
        << (inferredFromClient ? "true" : "false") << ",\"stamps_from_segments\":" << (stampsFromSegments ? "true" : "false") << ',';
    writeEstimate(out, "prefill_base_ms", prefillBaseNs, kNsPerMs);
    out << ',';
    writeEstimate(out, "prefill_per_token_ms", prefillPerTokenNs, kNsPerMs);
    out << ',';
    writeEstimate(out, "tpot_base_ms", tpotBaseNs, kNsPerMs);
    out << ',';
    writeEstimate(out, "tpot_per_request_ms", tpotPerRequestNs, kNsPerMs);
    out << ",\"distributions_ms\":{";
    writeDistribution(out, "network_in", networkIn, kNsPerMs);
    out << ',';
    writeDistribution(out, "network_out", networkOut, kNsPerMs);
    out << ',';
    writeDistribution(out, "preprocess", preprocess, kNsPerMs);
    out << ',';
    writeDistribution(out, "postprocess", postprocess, kNsPerMs);
    out << ',';
    writeDistribution(out, "admission_wait", admissionWait, kNsPerMs);
    out << "},\"ratios\":{";
    writeDistribution(out, "prefill", prefillRatio, 1);
    out << ',';
    writeDistribution(out, "tpot", tpotRatio, 1);
    out << '}';
    if (!refused.empty()) {
        std::string text;
        for (char c : refused)
            text += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        out << ",\"refused\":\"" << text << '"';
    }
    out << '}';
    return out.str();
}

} // namespace lx::whatif
