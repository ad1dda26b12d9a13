// SPDX-License-Identifier: GPL-3.0-or-later
#include "store/early_writeback.h"

#include "store/write_behind_vfs.h"

#include <sqlite3.h>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/stat.h>

#include <cstring>
#endif

namespace lx {

#if defined(__linux__)

namespace {

/// The head of SQLite's unixFile (os_unix.c), unchanged since SQLite 3.7: SQLite gives no other way to its
/// descriptor. What is read through it is used only once fstat() says it is the database's own file, so a
/// SQLite laid out otherwise makes this do nothing, never the wrong thing.
struct UnixFileHead {
    const sqlite3_io_methods *methods;
    sqlite3_vfs *vfs;
    void *inode;
    int fd;
};

int databaseDescriptor(sqlite3 *db)
{
    sqlite3_vfs *top = nullptr;
    sqlite3_file *file = nullptr;
    const char *name = sqlite3_db_filename(db, "main");
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &top) != SQLITE_OK
        || sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK)
        return -1;
    // A writing connection's file is SQLite's own beneath the write-behind VFS (write_behind_vfs.h).
    const sqlite3_vfs *vfs = vfsUnderWriteBehind(top);
    file = fileUnderWriteBehind(file);
    if (!vfs || !vfs->zName || std::strncmp(vfs->zName, "unix", 4) != 0 || !name || !*name || !file || !file->pMethods)
        return -1;
    const int fd = reinterpret_cast<const UnixFileHead *>(file)->fd;
    struct stat own {}, named {};
    if (fd < 0 || ::fstat(fd, &own) != 0 || ::stat(name, &named) != 0 || own.st_dev != named.st_dev || own.st_ino != named.st_ino)
        return -1;
    return fd;
}

} // namespace

EarlyWriteback::EarlyWriteback(sqlite3 *db)
    : m_fd(databaseDescriptor(db))
{
}

void EarlyWriteback::start() const noexcept
{
    // The whole file (0, 0); pages already on their way are left alone. A failure only means the commit
    // writes them, as without this.
    if (m_fd >= 0)
        ::sync_file_range(m_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

#else // macOS and Windows: no call that starts the writing without waiting for it

EarlyWriteback::EarlyWriteback(sqlite3 *) {}
void EarlyWriteback::start() const noexcept {}

#endif

} // namespace lx
