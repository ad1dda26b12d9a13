// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"
#include "ingest/trace_reader.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// \file benchmark_common.h
/// Helpers the benchmark readers share: unit conversion, whole-document reading, leniency towards
/// Python's JSON (bare NaN/Infinity), head sniffing and the refusal of summary files.

namespace lx {

class LineReader;

namespace bench {

/// Seconds (or another unit, by factor to ns) as int64 ns, rounded to the nearest; kNotMeasured when not
/// finite or out of int64 ns, and then, when `outOfRange` is given and still empty, it says so for `field`
/// (the record is then rejected with that reason, never stored with a wrapped value).
std::int64_t toNs(double value, double nsPerUnit, std::string_view field = {}, std::string *outOfRange = nullptr);
inline std::int64_t secondsToNs(double s, std::string_view field = {}, std::string *outOfRange = nullptr)
{
    return toNs(s, 1e9, field, outOfRange);
}
/// The sum of the gaps; kNotMeasured when it does not fit int64 ns.
std::int64_t sumOfGaps(const std::vector<std::int64_t> &gaps);

/// ns per unit for a unit name such as "ms", "us", "ns", "s"; 0 for an unknown unit.
double nsPerUnit(std::string_view unit);

/// Python's json module writes bare NaN, Infinity and -Infinity, which are not JSON: rewrites them in place
/// (outside strings) as null, so that the value reads as absent. Returns how many were replaced.
int nullifyNonFinite(std::string &json);

/// The whole input as one string (lines joined by '\n', CRLF and a BOM dropped). False and the reason
/// when the input cannot be read or is larger than maxBytes (refused as it is read, never held whole).
bool readDocument(LineReader &lines, std::string &out, std::string *error, std::size_t maxBytes = kMaxDocumentBytes);

/// The head's first line without its line end.
std::string_view firstLine(std::string_view head);
/// The first line when it is a JSON object, as JSON lines have it (it may run past the head); else empty.
std::string_view firstObjectLine(std::string_view head);
/// True for a line of spaces and tabs only, which the line readers skip.
bool isBlankLine(std::string_view line);
/// True when the head's first non-blank character is c.
bool startsWith(std::string_view head, char c);
/// True when `"key"` occurs in text (a cheap test for a JSON key in a head).
bool hasKey(std::string_view text, std::string_view key);
/// Case-insensitive prefix test.
bool startsWithNoCase(std::string_view text, std::string_view prefix);

/// Marks a record as measured on the client: TTFT, TPOT, ITL and token times, and e2e when measured.
void setClientScope(RequestRecord &record);

/// What a client benchmark measured of one request, in ns (kNotMeasured when absent).
struct ClientMeasures {
    std::int64_t start = kNotMeasured;  ///< client send time; absent in most tools
    std::int64_t ttft = kNotMeasured;   ///< client send to first token (chunk) received
    std::int64_t decode = kNotMeasured; ///< first to last token received
    std::int64_t e2e = kNotMeasured;    ///< client send to the end of the response
    const std::vector<std::int64_t> *gaps = nullptr; ///< the gaps between received chunks, after the first
};

/// Fills and decomposes the record from client measures: the durations form (decode and e2e; e2e minus
/// decode is unattributed, as nothing says how it splits), then TTFT, TTLT, the token times and the client
/// scope. Token times are offsets from the start, or from an origin of 0 when there is no start: that keeps
/// every gap exact without inventing an absolute time; such a record is flagged kFlagRelativeTime. Returns
/// the reason for rejection or empty.
std::string buildClientRecord(RequestRecord &record, const ClientMeasures &measures);

/// A reader that reads nothing and returns `Message` as the fatal error: the file then shows as
/// unreadable with a message that says what it is and what to load instead.
std::unique_ptr<TraceReader> makeRefusal(std::string_view message);
template <const char *Message>
std::unique_ptr<TraceReader> createRefusal(const ReaderOptions &)
{
    return makeRefusal(Message);
}

} // namespace bench
} // namespace lx
