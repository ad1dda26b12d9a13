// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// \file request.h
/// The shared vocabulary of Latency Explorer: timestamps, segments and one request's record.
/// Definitions follow docs/DOMAIN.md; every time is int64 nanoseconds.

namespace lx {

/// Marks a time or duration that was not measured. "Not measured" is never zero.
inline constexpr std::int64_t kNotMeasured = std::numeric_limits<std::int64_t>::min();

inline bool isMeasured(std::int64_t v) { return v != kNotMeasured; }

/// The request's timestamps, in pipeline order. Server stamps (ServerRecv..ServerSend) must be
/// non-decreasing in this order.
enum class Stamp : int {
    ClientSend,
    ServerRecv,
    PreprocessDone,
    Sched,
    FirstToken,
    LastToken,
    ServerSend,
    ClientRecv,
};
inline constexpr int kStampCount = 8;

/// Name without the unit suffix, e.g. "t_server_recv".
std::string_view stampName(Stamp s);

/// The segments of end-to-end latency, in pipeline order (ties of the dominant segment go to the earlier).
enum class Segment : int {
    Network,
    Preprocess,
    Queue,
    Prefill,
    Decode,
    Postprocess,
    Unattributed,
};
inline constexpr int kSegmentCount = 7;

/// The segment's name in model/segments.h, the table of everything about the segments.
std::string_view segmentName(Segment s);
/// Inverse of segmentName; nullopt for an unknown name.
std::optional<Segment> segmentFromName(std::string_view name);

/// Which clocks the end-to-end time was measured between.
enum class E2eScope : int {
    None = 0,   ///< not measurable from this record
    Client = 1, ///< t_client_recv - t_client_send
    Server = 2, ///< t_server_send - t_server_recv
    Engine = 3, ///< t_last_token - t_server_recv (no server send stamp)
};
std::string_view scopeName(E2eScope s);

enum class Status : int { Ok = 0, Error = 1 };

/// Bits of RequestMetrics::flags.
enum RequestFlag : std::uint32_t {
    kFlagClockSkew = 1u << 0, ///< network time came out negative: client and server clocks disagree
    kFlagDurationsForm = 1u << 1, ///< imported from the durations form (no inner timestamps)
    /// Times are offsets from an unknown origin (the start of the trace or of the request), not wall-clock
    /// times since the epoch: time-based views say so instead of showing dates near 1970.
    kFlagRelativeTime = 1u << 2,
    /// A client record joined with the server record of the same request (core/store/request_join.h): its
    /// network is client e2e minus server e2e.
    kFlagJoined = 1u << 3,
    /// An OTLP span that no span mapping claimed (core/ingest/formats/otlp/otlp_requests.h): its time is
    /// unattributed because nothing was mapped, not because the service lacks stamps.
    kFlagUnmappedSpan = 1u << 4,
    /// Of a joined request whose token scope is the client's: the token metric is the server record's,
    /// the client having not measured it (an AIPerf client measures TTFT; a vLLM span TPOT and TTLT too),
    /// so it was read on the server's clock (tokenMetricScope()).
    kFlagServerTtft = 1u << 5,
    kFlagServerTpot = 1u << 6,
    kFlagServerTtlt = 1u << 7,
    /// The same of the token times (ITL): the server record's, the client having sent none.
    kFlagServerTokenTimes = 1u << 8,
};

/// The clock one token metric of a request was read on: its token scope, or the server's when a join
/// took that metric from the server record (`serverFlag`: kFlagServerTtft, ...; the row's `flags`).
constexpr E2eScope tokenMetricScope(E2eScope tokenScope, std::uint32_t flags, RequestFlag serverFlag)
{
    return (flags & serverFlag) ? E2eScope::Server : tokenScope;
}

/// Everything derived from one request's raw fields (see decompose.h). Times in ns or kNotMeasured.
struct RequestMetrics {
    std::array<std::int64_t, kSegmentCount> segments{};
    std::int64_t e2e = kNotMeasured;
    E2eScope e2eScope = E2eScope::None;
    std::int64_t ttft = kNotMeasured;
    std::int64_t tpot = kNotMeasured; ///< rounded to the nearest ns
    std::int64_t ttlt = kNotMeasured;
    E2eScope tokenScope = E2eScope::Server; ///< the clock TTFT, TPOT, TTLT and token times were read on
    std::int64_t start = kNotMeasured; ///< the earliest known time of the request, for time ranges
    int dominant = -1;                 ///< a Segment, or -1 when e2e is not measured
    std::uint32_t flags = 0;

    std::int64_t segment(Segment s) const { return segments[static_cast<int>(s)]; }
};

/// One request as an importer hands it to the store. Strings are reused between batches, so the
/// importers assign into them rather than constructing new records.
struct RequestRecord {
    std::string id;
    Status status = Status::Ok;
    std::string model;      ///< empty when absent
    std::string route;      ///< empty when absent
    std::int64_t inputTokens = -1;  ///< -1 when absent
    std::int64_t outputTokens = -1; ///< -1 when absent
    std::array<std::int64_t, kStampCount> stamps{};
    std::vector<std::int64_t> tokenTimes; ///< every output token's time, ns; empty when absent
    std::string attributesJson;           ///< a JSON object of the unrecognised keys; empty when none
    std::int64_t sourceLine = 0;          ///< 1-based line (or record number) in the source file
    RequestMetrics metrics;               ///< filled by decompose()

    std::int64_t stamp(Stamp s) const { return stamps[static_cast<int>(s)]; }
    std::int64_t &stamp(Stamp s) { return stamps[static_cast<int>(s)]; }

    /// Resets every field to "absent" while keeping the allocated capacity.
    void clear();
};

} // namespace lx
