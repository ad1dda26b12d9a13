// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/packed_stamps.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>

namespace lx {

bool anyStampMeasured(const Stamps &stamps)
{
    return std::any_of(stamps.begin(), stamps.end(), [](std::int64_t s) { return s != kNotMeasured; });
}

Stamps columnStamps(sqlite3_stmt *stmt, int column)
{
    Stamps stamps;
    stamps.fill(kNotMeasured);
    const void *blob = sqlite3_column_blob(stmt, column);
    if (blob && sqlite3_column_bytes(stmt, column) == kPackedStampBytes)
        std::memcpy(stamps.data(), blob, kPackedStampBytes);
    return stamps;
}

namespace {

void packStampsFunction(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    Stamps stamps;
    for (int i = 0; i < kStampCount && i < argc; ++i)
        stamps[static_cast<std::size_t>(i)] = sqlite3_value_type(argv[i]) == SQLITE_NULL ? kNotMeasured : sqlite3_value_int64(argv[i]);
    if (anyStampMeasured(stamps))
        sqlite3_result_blob(context, stamps.data(), kPackedStampBytes, SQLITE_TRANSIENT);
    else
        sqlite3_result_null(context);
}

} // namespace

bool addStampFunctions(sqlite3 *db)
{
    return sqlite3_create_function(db, "lx_pack_stamps", kStampCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                   nullptr, packStampsFunction, nullptr, nullptr)
        == SQLITE_OK;
}

} // namespace lx
