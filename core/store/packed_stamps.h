// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/request.h"

#include <array>
#include <bit>
#include <cstdint>

/// \file packed_stamps.h
/// A request's eight raw timestamps as request_details.stamps holds them (schema.sql, version 3): one BLOB
/// of 8 little-endian int64 ns in pipeline order, kNotMeasured (-2^63) for a stamp not measured, NULL for a
/// request with none. One value instead of eight columns: SQLite's import cost goes by the values a row
/// binds and encodes, and an import of 10M requests took 0.90x the time with the stamps packed (paired
/// runs; docs/ARCHITECTURE.md). Only the detail view, the what-if stamps and the merge read them; SQL reads them
/// through the view request_timestamps.

struct sqlite3;
struct sqlite3_stmt;

namespace lx {

using Stamps = std::array<std::int64_t, kStampCount>;

inline constexpr int kPackedStampBytes = kStampCount * static_cast<int>(sizeof(std::int64_t));

static_assert(std::endian::native == std::endian::little,
              "request_details.stamps is little-endian: a big-endian machine would pack each stamp's bytes");

/// Whether any stamp is measured: a request with none stores NULL.
bool anyStampMeasured(const Stamps &stamps);

/// The stamps of a result column as the writer packs them (the record's own array); every stamp not
/// measured for NULL, or for a BLOB of another size (which no version writes).
Stamps columnStamps(sqlite3_stmt *stmt, int column);

/// The packed stamps of a row of an older version's request_details, in SQL (addStampFunctions()).
inline constexpr const char *kPackedStampsOfColumns =
    "lx_pack_stamps(t_client_send_ns, t_server_recv_ns, t_preprocess_done_ns, t_sched_ns, t_first_token_ns,"
    " t_last_token_ns, t_server_send_ns, t_client_recv_ns)";

/// Adds lx_pack_stamps(t_client_send_ns, ..., t_client_recv_ns) to the connection: the BLOB of eight
/// stamps (NULL ones not measured), NULL when all are NULL. For bringing a version 2 store's columns to
/// version 3, and for reading one as it is. Deterministic and innocuous, so that views may call it.
bool addStampFunctions(sqlite3 *db);

} // namespace lx
