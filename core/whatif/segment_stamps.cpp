// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatif/segment_stamps.h"

namespace lx::whatif {

std::int64_t rebuildStampsFromSegments(std::vector<StampRow> &rows)
{
    std::int64_t rebuilt = 0;
    for (StampRow &r : rows) {
        if (isMeasured(r.stamp(Stamp::Sched)) || isMeasured(r.stamp(Stamp::FirstToken)))
            continue; // stamps of its own: nothing to rebuild
        const auto part = [&](Segment s) { return r.segments[static_cast<std::size_t>(s)]; };
        if (!isMeasured(part(Segment::Queue)) || !isMeasured(part(Segment::Prefill)) || !isMeasured(part(Segment::Decode)))
            continue;
        const std::int64_t network = part(Segment::Network);
        const std::int64_t halfNetwork = isMeasured(network) ? network / 2 : 0;
        // The durations form files its start as the client's send when it has a network, else as the
        // server's receive (decompose.h).
        std::int64_t recv = r.stamp(Stamp::ServerRecv);
        if (!isMeasured(recv) && isMeasured(r.stamp(Stamp::ClientSend)))
            recv = r.stamp(Stamp::ClientSend) + halfNetwork;
        if (!isMeasured(recv))
            continue;
        const std::int64_t preprocess = isMeasured(part(Segment::Preprocess)) ? part(Segment::Preprocess) : 0;
        const std::int64_t postprocess = isMeasured(part(Segment::Postprocess)) ? part(Segment::Postprocess) : 0;
        r.stamp(Stamp::ServerRecv) = recv;
        r.stamp(Stamp::PreprocessDone) = recv + preprocess;
        r.stamp(Stamp::Sched) = r.stamp(Stamp::PreprocessDone) + part(Segment::Queue);
        r.stamp(Stamp::FirstToken) = r.stamp(Stamp::Sched) + part(Segment::Prefill);
        r.stamp(Stamp::LastToken) = r.stamp(Stamp::FirstToken) + part(Segment::Decode);
        r.stamp(Stamp::ServerSend) = r.stamp(Stamp::LastToken) + postprocess;
        if (isMeasured(network)) {
            r.stamp(Stamp::ClientSend) = recv - halfNetwork;
            r.stamp(Stamp::ClientRecv) = r.stamp(Stamp::ServerSend) + (network - halfNetwork);
        }
        ++rebuilt;
    }
    return rebuilt;
}

} // namespace lx::whatif
