// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/holds_requests.h"

#include "store/sqlite_util.h"
#include "store/store.h"

namespace lx {

bool holdsRequests(const Store &store)
{
    Statement any(store.db(), "SELECT EXISTS (SELECT 1 FROM requests)");
    return any.valid() && any.step() == SQLITE_ROW && sqlite3_column_int64(any.get(), 0) != 0;
}

} // namespace lx
