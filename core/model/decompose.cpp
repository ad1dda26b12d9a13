// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/decompose.h"

#include "model/segments.h"
#include "model/time_range.h"

#include <cmath>

namespace lx {

namespace {

std::int64_t span(std::int64_t from, std::int64_t to)
{
    return isMeasured(from) && isMeasured(to) ? to - from : kNotMeasured;
}

std::int64_t roundedDiv(std::int64_t num, std::int64_t den)
{
    return static_cast<std::int64_t>(std::llround(static_cast<double>(num) / static_cast<double>(den)));
}

std::string checkServerOrder(const RequestRecord &r)
{
    // Server stamps share one clock, so they must be non-decreasing in pipeline order.
    int previous = -1;
    for (int i = static_cast<int>(Stamp::ServerRecv); i <= static_cast<int>(Stamp::ServerSend); ++i) {
        if (!isMeasured(r.stamps[i]))
            continue;
        if (previous >= 0 && r.stamps[i] < r.stamps[previous]) {
            return std::string(stampName(static_cast<Stamp>(i))) + "_ns is before "
                   + std::string(stampName(static_cast<Stamp>(previous))) + "_ns (server timestamps out of order)";
        }
        previous = i;
    }
    return {};
}

/// Why the record's stamps and token times lie too far apart for the arithmetic of a decomposition, or
/// empty. Within kMaxRecordSpanNs every segment, e2e, their sum and the unattributed rest fit int64 ns
/// (decompose.h says why).
std::string checkRecordSpan(const RequestRecord &r)
{
    std::int64_t lo = kLatestTimeNs, hi = kEarliestTimeNs;
    int loStamp = -1, hiStamp = -1; // -1: a token time
    for (int i = 0; i < kStampCount; ++i) {
        const std::int64_t t = r.stamps[static_cast<std::size_t>(i)];
        if (!isMeasured(t))
            continue;
        if (t <= lo)
            lo = t, loStamp = i;
        if (t >= hi)
            hi = t, hiStamp = i;
    }
    if (!r.tokenTimes.empty()) {
        // In order by now: the first and the last are the extremes.
        if (r.tokenTimes.front() < lo)
            lo = r.tokenTimes.front(), loStamp = -1;
        if (r.tokenTimes.back() > hi)
            hi = r.tokenTimes.back(), hiStamp = -1;
    }
    if (lo > hi)
        return {};
    const auto name = [](int stamp) {
        return stamp < 0 ? std::string("token_times_ns") : std::string(stampName(static_cast<Stamp>(stamp))) + "_ns";
    };
    const std::optional<std::int64_t> span = checkedSub(hi, lo);
    if (!span || *span > kMaxRecordSpanNs)
        return name(loStamp) + " (" + std::to_string(lo) + ") and " + name(hiStamp) + " (" + std::to_string(hi)
               + ") lie more than 73 years apart: not one request's times";
    return {};
}

void fillTokenMetrics(RequestRecord &r)
{
    RequestMetrics &m = r.metrics;
    const std::int64_t recv = r.stamp(Stamp::ServerRecv);
    m.ttft = span(recv, r.stamp(Stamp::FirstToken));
    m.ttlt = span(recv, r.stamp(Stamp::LastToken));
    const std::int64_t decode = m.segment(Segment::Decode);
    if (isMeasured(decode) && r.outputTokens >= 2)
        m.tpot = roundedDiv(decode, r.outputTokens - 1);
}

} // namespace

int dominantSegment(const std::array<std::int64_t, kSegmentCount> &segments)
{
    int best = -1;
    for (int i = 0; i < kSegmentCount; ++i) {
        if (isMeasured(segments[i]) && (best < 0 || segments[i] > segments[best]))
            best = i;
    }
    return best;
}

std::string decompose(RequestRecord &r)
{
    if (r.inputTokens < -1 || r.outputTokens < -1)
        return "token counts must not be negative";
    for (std::size_t i = 1; i < r.tokenTimes.size(); ++i) {
        if (r.tokenTimes[i] < r.tokenTimes[i - 1])
            return "token_times_ns is not in order (token " + std::to_string(i) + " is before token "
                   + std::to_string(i - 1) + ")";
    }
    // Token times are the direct measurement of the first and last token: use them when the stamps are absent.
    if (!r.tokenTimes.empty()) {
        if (!isMeasured(r.stamp(Stamp::FirstToken)))
            r.stamp(Stamp::FirstToken) = r.tokenTimes.front();
        if (!isMeasured(r.stamp(Stamp::LastToken)))
            r.stamp(Stamp::LastToken) = r.tokenTimes.back();
        if (r.outputTokens < 0)
            r.outputTokens = static_cast<std::int64_t>(r.tokenTimes.size());
    }
    if (std::string why = checkServerOrder(r); !why.empty())
        return why;
    if (std::string why = checkRecordSpan(r); !why.empty())
        return why;

    const auto t = [&r](Stamp s) { return r.stamp(s); };
    if (isMeasured(t(Stamp::ClientSend)) && isMeasured(t(Stamp::ClientRecv)) && t(Stamp::ClientRecv) < t(Stamp::ClientSend))
        return "t_client_recv_ns is before t_client_send_ns";

    RequestMetrics &m = r.metrics;
    m.flags = 0;
    auto &seg = m.segments;
    for (const SegmentDefinition &s : kSegments) {
        const auto i = static_cast<std::size_t>(s.segment);
        seg[i] = segmentDuration(s.segment, r.stamps);
        if (!isMeasured(seg[i]))
            continue;
        // The server stamps are in order by now, so a negative stretch crosses the client's and the server's
        // clocks (network): they disagree. The time is kept, flagged, never clamped.
        for (const StampInterval &interval : s.bounds()) {
            if (intervalDuration(interval, r.stamps) < 0)
                m.flags |= kFlagClockSkew;
        }
    }

    if (isMeasured(t(Stamp::ClientSend)) && isMeasured(t(Stamp::ClientRecv))) {
        m.e2e = t(Stamp::ClientRecv) - t(Stamp::ClientSend);
        m.e2eScope = E2eScope::Client;
    } else if (isMeasured(t(Stamp::ServerRecv)) && isMeasured(t(Stamp::ServerSend))) {
        m.e2e = t(Stamp::ServerSend) - t(Stamp::ServerRecv);
        m.e2eScope = E2eScope::Server;
    } else if (isMeasured(t(Stamp::ServerRecv)) && isMeasured(t(Stamp::LastToken))) {
        m.e2e = t(Stamp::LastToken) - t(Stamp::ServerRecv);
        m.e2eScope = E2eScope::Engine;
    }
    if (isMeasured(m.e2e)) {
        // Whatever the measured segments do not cover is said to be unattributed, never guessed.
        std::int64_t covered = 0;
        for (int i = 0; i < kSegmentCount - 1; ++i) {
            if (isMeasured(seg[i]))
                covered += seg[i];
        }
        seg[static_cast<int>(Segment::Unattributed)] = m.e2e - covered;
        m.dominant = dominantSegment(seg);
    }
    for (std::int64_t stamp : r.stamps) {
        if (isMeasured(stamp) && (!isMeasured(m.start) || stamp < m.start))
            m.start = stamp;
    }
    fillTokenMetrics(r);
    return {};
}

std::string decomposeDurations(RequestRecord &r, const DurationsInput &in)
{
    if (r.inputTokens < -1 || r.outputTokens < -1)
        return "token counts must not be negative";
    RequestMetrics &m = r.metrics;
    m.flags = kFlagDurationsForm;
    m.segments.fill(kNotMeasured);
    std::int64_t covered = 0;
    bool any = false;
    for (int i = 0; i < kSegmentCount - 1; ++i) {
        const std::int64_t d = in.segments[i];
        if (!isMeasured(d))
            continue;
        if (d < 0)
            return std::string(segmentName(static_cast<Segment>(i))) + "_ms is negative";
        m.segments[i] = d;
        const std::optional<std::int64_t> sum = checkedAdd(covered, d);
        if (!sum || *sum > kMaxRecordSpanNs)
            return "the segments add up to more than 73 years: not one request's times";
        covered = *sum;
        any = true;
    }
    if (isMeasured(in.e2e)) {
        if (in.e2e < 0)
            return "e2e_ms is negative";
        if (in.e2e < covered)
            return "e2e_ms is less than the sum of the segments";
        if (in.e2e > kMaxRecordSpanNs)
            return "e2e_ms is more than 73 years: not one request's time";
        m.e2e = in.e2e;
    } else if (any) {
        m.e2e = covered;
    } else {
        return "no duration given: expected e2e_ms or at least one <segment>_ms";
    }
    if (isMeasured(in.startNs) && !checkedAdd(in.startNs, m.e2e))
        return timeOutOfRange("start_ns + e2e", std::to_string(in.startNs) + " + " + std::to_string(m.e2e) + " ns");
    m.segments[static_cast<int>(Segment::Unattributed)] = m.e2e - covered;
    const bool hasNetwork = isMeasured(in.segments[static_cast<int>(Segment::Network)]);
    m.e2eScope = hasNetwork ? E2eScope::Client : E2eScope::Server;
    m.dominant = dominantSegment(m.segments);
    m.start = in.startNs;
    r.stamp(hasNetwork ? Stamp::ClientSend : Stamp::ServerRecv) = in.startNs;

    // TTFT is preprocess + queue + prefill over the given ones; a record without prefill has none.
    const auto given = [&m](Segment s) { return m.segment(s); };
    if (isMeasured(given(Segment::Prefill))) {
        std::int64_t ttft = given(Segment::Prefill);
        for (Segment s : {Segment::Preprocess, Segment::Queue}) {
            if (isMeasured(given(s)))
                ttft += given(s);
        }
        m.ttft = ttft;
        if (isMeasured(given(Segment::Decode)))
            m.ttlt = ttft + given(Segment::Decode);
    }
    if (isMeasured(given(Segment::Decode)) && r.outputTokens >= 2)
        m.tpot = roundedDiv(given(Segment::Decode), r.outputTokens - 1);
    return {};
}

} // namespace lx
