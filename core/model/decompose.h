// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <string>

/// \file decompose.h
/// Turns one request's raw fields into segments, e2e and token metrics (docs/DOMAIN.md, "Segments" and
/// "Token-level metrics"). Pure functions: no I/O, no allocation on the accepted path.

namespace lx {

/// The longest a record's stamps and token times may stretch (2^61 ns, about 73 years; README "Limits").
/// Within it a segment, e2e, the sum of the measured segments and the unattributed rest (e2e minus that
/// sum, at most twice the stretch) all fit int64 ns; a record beyond it is rejected, never wrapped.
inline constexpr std::int64_t kMaxRecordSpanNs = std::int64_t{1} << 61;

/// Decomposes a record in the timestamps form. Fills record.metrics and returns an empty string, or
/// returns why the record must be rejected (server stamps out of order, client receive before send,
/// token times out of order, negative token counts, stamps more than kMaxRecordSpanNs apart).
std::string decompose(RequestRecord &record);

/// The durations form: `start_ns` plus `<segment>_ms` values converted to ns (kNotMeasured when absent).
struct DurationsInput {
    std::int64_t startNs = kNotMeasured;
    std::array<std::int64_t, kSegmentCount - 1> segments; ///< every segment but unattributed, in pipeline order
    std::int64_t e2e = kNotMeasured;                       ///< optional; the sum of the segments otherwise

    DurationsInput() { segments.fill(kNotMeasured); }
    /// Nothing measured again, in place: assigning a DurationsInput{} instead built one on the stack and read
    /// it back 16 bytes at a time over stores of 8, which the processor cannot forward (82% of the record
    /// builder's reset in a profile of the 10M import, once per record).
    void clear()
    {
        startNs = kNotMeasured;
        segments.fill(kNotMeasured);
        e2e = kNotMeasured;
    }
};

/// Decomposes a record in the durations form; start_ns becomes t_client_send when network is given, else
/// t_server_recv. Returns an empty string or the reason for rejection (negative duration, e2e_ms below
/// the sum of the segments, nothing measured, durations past kMaxRecordSpanNs, an end past 2262).
std::string decomposeDurations(RequestRecord &record, const DurationsInput &input);

/// Index of the largest measured segment, ties to the earlier one; -1 when none is measured.
int dominantSegment(const std::array<std::int64_t, kSegmentCount> &segments);

} // namespace lx
