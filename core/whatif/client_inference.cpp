// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/client_inference.h"

#include "simulation/sim_random.h" // for its pragmas: no fused multiply-add, the same limit on every platform

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace lx::whatif {

namespace {

/// A request as the client saw it: when it was sent, its first token came, and it ended.
struct ClientTimes {
    std::size_t row = 0;
    std::int64_t send = 0, first = 0, end = 0;
};

/// The FIFO with \a limit slots, each freed at the end the client saw: every request's start of service,
/// in the order of \a times (by send time); how many started after their own first token.
std::int64_t schedule(const std::vector<ClientTimes> &times, int limit, std::vector<std::int64_t> *starts)
{
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> slotFree;
    for (int i = 0; i < limit; ++i)
        slotFree.push(std::numeric_limits<std::int64_t>::min());
    std::int64_t late = 0;
    if (starts)
        starts->assign(times.size(), 0);
    for (std::size_t i = 0; i < times.size(); ++i) {
        const std::int64_t start = std::max(times[i].send, slotFree.top());
        slotFree.pop();
        slotFree.push(std::max(start, times[i].end));
        late += start > times[i].first ? 1 : 0;
        if (starts)
            (*starts)[i] = start;
    }
    return late;
}

} // namespace

InferredStamps inferServerStamps(std::span<const StampRow> rows, int limit)
{
    InferredStamps out;
    out.rows.assign(rows.begin(), rows.end());
    std::vector<ClientTimes> times;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StampRow &r = rows[i];
        const std::int64_t send = r.stamp(Stamp::ClientSend);
        if (!isMeasured(send) || !isMeasured(r.ttftNs) || r.ttftNs < 0)
            continue;
        const std::int64_t length = isMeasured(r.ttltNs) ? r.ttltNs : r.e2eNs;
        if (!isMeasured(length) || length < r.ttftNs)
            continue;
        times.push_back({i, send, send + r.ttftNs, send + length});
    }
    out.used = static_cast<std::int64_t>(times.size());
    if (times.empty()) {
        out.refused = "no server stamps: no queue can be fitted (no request has t_server_recv, t_sched, t_first_token and "
                      "t_last_token, nor a send time with its TTFT and end-to-end time to infer them from)";
        return out;
    }
    std::stable_sort(times.begin(), times.end(), [](const ClientTimes &a, const ClientTimes &b) { return a.send < b.send; });

    // The most in flight at once bounds the slots; fewer slots only delay the starts (monotone), so the
    // smallest consistent limit is found by bisection.
    int hi = 1;
    {
        std::vector<std::int64_t> sends, ends;
        for (const ClientTimes &t : times) {
            sends.push_back(t.send);
            ends.push_back(t.end);
        }
        std::sort(ends.begin(), ends.end());
        for (std::size_t i = 0; i < sends.size(); ++i) {
            const auto ended = std::upper_bound(ends.begin(), ends.end(), sends[i]) - ends.begin();
            hi = std::max(hi, static_cast<int>(static_cast<std::ptrdiff_t>(i + 1) - ended));
        }
    }
    const auto allowed = static_cast<std::int64_t>(kMaxInconsistentShare * static_cast<double>(times.size()));
    int lo = 1;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (schedule(times, mid, nullptr) <= allowed)
            hi = mid;
        else
            lo = mid + 1;
    }
    out.consistentLimit = lo;
    const int best = limit > 0 ? std::min(limit, lo) : lo;
    out.limit = best;
    std::vector<std::int64_t> starts;
    out.inconsistentShare = static_cast<double>(schedule(times, best, &starts)) / static_cast<double>(times.size());
    for (std::size_t i = 0; i < times.size(); ++i) {
        StampRow &r = out.rows[times[i].row];
        r.stamp(Stamp::ServerRecv) = times[i].send;
        r.stamp(Stamp::PreprocessDone) = times[i].send;
        r.stamp(Stamp::Sched) = std::min(starts[i], times[i].first);
        r.stamp(Stamp::FirstToken) = times[i].first;
        r.stamp(Stamp::LastToken) = times[i].end;
        r.stamp(Stamp::ServerSend) = times[i].end;
        r.stamp(Stamp::ClientSend) = kNotMeasured; // the network is inside the inferred times now
        r.stamp(Stamp::ClientRecv) = kNotMeasured;
    }
    return out;
}

} // namespace lx::whatif
