// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "filter/request_filter.h"
#include "model/request.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

/// \file stamp_scan.h
/// Every request's raw stamps and token counts, in row order: what a server model is fitted from and what a
/// replay takes its arrivals from (core/whatif/). The statistics' scan (request_scan.h) reads segments only,
/// and a model of the server needs the stamps themselves (when a request was scheduled, when its last token
/// came), so this reads `requests` joined with `request_details`. Also the `meta` values that mark a
/// simulated investigation.

namespace lx {

class Store;

/// N times, each not measured.
template<std::size_t N>
constexpr std::array<std::int64_t, N> notMeasured()
{
    std::array<std::int64_t, N> out{};
    out.fill(kNotMeasured);
    return out;
}

/// One request as a fit or a replay reads it: times in ns or kNotMeasured, tokens -1 when absent.
struct StampRow {
    std::int64_t rowId = 0;
    std::int64_t sourceLine = 0; ///< line (or record) in the file it was imported from, for messages
    Status status = Status::Ok;
    std::uint32_t flags = 0;
    std::array<std::int64_t, kStampCount> stamps = notMeasured<kStampCount>();
    std::int64_t inputTokens = -1, outputTokens = -1;
    /// The decomposition's TTFT, TTLT and e2e (kNotMeasured when not measured): a client-side trace has
    /// these without the stamps they were measured between.
    std::int64_t ttftNs = kNotMeasured, ttltNs = kNotMeasured, e2eNs = kNotMeasured;
    /// The segments (kNotMeasured where not measured): the durations form and OTLP spans have these without
    /// the inner stamps.
    std::array<std::int64_t, kSegmentCount> segments = notMeasured<kSegmentCount>();
    std::string model; ///< empty when absent
    std::int64_t runId = 0; ///< import_runs.id: the file it was imported from (listImportRuns() names it)

    std::int64_t stamp(Stamp s) const { return stamps[static_cast<int>(s)]; }
    std::int64_t &stamp(Stamp s) { return stamps[static_cast<int>(s)]; }
};

/// The requests of the store that \a filter keeps (every one by default), in row-id order. nullopt with the
/// reason when SQLite fails.
std::optional<std::vector<StampRow>> scanStampRows(const Store &store, const RequestFilter &filter, std::string *error);
inline std::optional<std::vector<StampRow>> scanStampRows(const Store &store, std::string *error)
{
    return scanStampRows(store, {}, error);
}

/// A value of the meta table; nullopt when the key is absent (or the read failed).
std::optional<std::string> readMetaValue(const Store &store, const std::string &key);

/// The meta key that marks a simulated investigation (core/whatif/simulated_store.h writes it): imports and
/// merges refuse to mix its requests with observed ones (open_inputs.h, store_merge.h).
inline constexpr const char *kSimulatedMetaKey = "simulated";

/// True when the store is a simulated investigation (a what-if replay), not what a server did.
inline bool isSimulatedInvestigation(const Store &store) { return readMetaValue(store, kSimulatedMetaKey).has_value(); }

/// Sets a value of the meta table; false with the reason on failure (a read-only store).
bool writeMetaValue(Store &store, const std::string &key, const std::string &value, std::string *error);

} // namespace lx
