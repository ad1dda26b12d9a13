// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/file_lock_probe.h"

#if defined(_WIN32)
#include "platform/utf8_path.h"

#include <windows.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace lx {

namespace {
// SQLite's RESERVED_BYTE: PENDING_BYTE (0x40000000) + 1, the same offset on every system.
constexpr unsigned long kReservedByte = 0x40000001;
} // namespace

#if defined(_WIN32)

// Windows has no "who holds this lock" question: the probe takes the lock as SQLite's winLock() does
// (exclusive, failing at once) and gives it back at once. Failing with a lock violation means it is held.
bool writeLockHeldElsewhere(const std::string &fileName)
{
    const HANDLE file = ::CreateFileW(utf8Path(fileName).c_str(), GENERIC_READ,
                                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                      FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        return true; // cannot tell: the run is left as it says
    OVERLAPPED at = {};
    at.Offset = kReservedByte;
    const bool taken = ::LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at) != 0;
    if (taken)
        ::UnlockFileEx(file, 0, 1, 0, &at);
    ::CloseHandle(file);
    return !taken;
}

#else // Linux, macOS and the other POSIX systems: SQLite's unix VFS locks with fcntl

bool writeLockHeldElsewhere(const std::string &fileName)
{
    const int fd = ::open(fileName.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true; // cannot tell: the run is left as it says
    struct flock lock = {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = static_cast<off_t>(kReservedByte);
    lock.l_len = 1;
    const bool held = ::fcntl(fd, F_GETLK, &lock) != 0 || lock.l_type != F_UNLCK;
    ::close(fd);
    return held;
}

#endif

} // namespace lx
