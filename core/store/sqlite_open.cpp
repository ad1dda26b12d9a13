// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/sqlite_open.h"

#include "store/write_behind_vfs.h"

#include <sqlite3.h>

#include <mutex>

namespace lx {

int openSqlite(const std::string &fileName, sqlite3 **db, int flags, bool writeBehind)
{
    static std::once_flag configured;
    // SQLITE_MISUSE when the library was initialized before (a test that opened a database itself): the
    // counts then stay on, which changes nothing but the speed.
    std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    // After the setup above: looking a VFS up initializes the library.
    return sqlite3_open_v2(fileName.c_str(), db, flags, writeBehind ? writeBehindVfsName() : nullptr);
}

} // namespace lx
